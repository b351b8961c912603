import PinchlabTestSupport
@testable import InteractiveTransition

func isClose(_ a: Double, _ b: Double, tolerance: Double = 1e-9) -> Bool {
    abs(a - b) <= tolerance
}

enum Fixtures {
    static let catalog = TransitionCatalog()
    static func spec(_ name: TransitionName) -> TransitionSpec {
        // The catalog's own defaults are valid; a throw here fails the test that called it.
        try! catalog.spec(name)
    }
    static func transition(_ name: TransitionName, speed: Double = 1,
                           timing: CompletionTiming? = nil) -> PercentDrivenTransition {
        try! PercentDrivenTransition(spec: spec(name), completionSpeed: speed, completionTiming: timing)
    }

    /// Ticks every `step` seconds from `start` until the transition reaches a terminal phase (or `limit`).
    static func runToEnd(_ transition: inout PercentDrivenTransition, from start: Double,
                         step: Double = 1.0 / 120, limit: Double = 120) {
        var time = start
        while !transition.phase.isTerminal && time < start + limit {
            time += step
            transition.tick(at: time)
        }
    }
}
