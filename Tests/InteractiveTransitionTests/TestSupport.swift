@testable import InteractiveTransition

func isClose(_ a: Double, _ b: Double, tolerance: Double = 1e-9) -> Bool {
    abs(a - b) <= tolerance
}

/// SplitMix64: a tiny seeded generator so "random" test sequences are the same on every run.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
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
