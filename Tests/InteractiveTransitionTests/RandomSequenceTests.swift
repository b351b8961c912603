import GestureCore
import PinchlabTestSupport
import Testing
@testable import InteractiveTransition

@Suite struct RandomSequenceTests {
    /// Inputs a confused driver might send.
    static func randomProgress(_ g: inout SeededRandom) -> Double {
        switch Int.random(in: 0..<10, using: &g) {
        case 0: return .nan
        case 1: return [.infinity, -.infinity, 1e308, -1e308][Int.random(in: 0..<4, using: &g)]
        case 2: return Double.random(in: -2...3, using: &g)
        default: return Double.random(in: 0...1, using: &g)
        }
    }

    static func randomVelocity(_ g: inout SeededRandom) -> Double? {
        switch Int.random(in: 0..<8, using: &g) {
        case 0: return nil
        case 1: return .nan
        case 2: return .infinity
        case 3: return Double.random(in: -1e6...1e6, using: &g)
        default: return Double.random(in: -8...8, using: &g)
        }
    }

    @Test(arguments: [1, 2, 3, 42, 2024] as [UInt64]) func invariantsHoldUnderRandomCalls(seed: UInt64) {
        var g = SeededRandom(seed: seed)
        let timings: [CompletionTiming] = [.curve(.easeInOut), .curve(.linear), .spring(SpringPresets.appStoreCardDismiss),
                                           .spring(SpringPresets.androidDefault), .spring(SpringPresets.appStoreCellBounce)]
        var time = 0.0
        var completedTransitions = 0
        for _ in 0..<30 {
            let name = TransitionName.allCases.randomElement(using: &g)!
            let speed = [0.25, 1, 3][Int.random(in: 0..<3, using: &g)]
            var t = Fixtures.transition(name, speed: speed, timing: timings.randomElement(using: &g)!)
            var buffer = t.scene
            for _ in 0..<300 {
                // Time mostly advances, sometimes stalls, jumps back, or is garbage.
                switch Int.random(in: 0..<20, using: &g) {
                case 0: time -= 0.05
                case 1: time += 2
                default: time += Double.random(in: 0...0.02, using: &g)
                }
                let at = Int.random(in: 0..<50, using: &g) == 0 ? Double.nan : time
                switch Int.random(in: 0..<10, using: &g) {
                case 0...3: t.update(Self.randomProgress(&g), at: at)
                case 4: t.finish(at: at, velocity: Self.randomVelocity(&g))
                case 5: t.cancel(at: at, velocity: Self.randomVelocity(&g))
                case 6: t.pause(at: at)
                case 7: t.end(at: at, velocity: Self.randomVelocity(&g) ?? 0, policy: [.seed, .default, .fluid][Int.random(in: 0..<3, using: &g)])
                default: t.tick(at: at)
                }
                #expect(t.percentComplete >= 0 && t.percentComplete <= 1)
                #expect(t.progress.isFinite && t.velocity.isFinite)
                #expect(t.context.completeTransitionCallCount == (t.phase.isTerminal ? 1 : 0))
                if t.phase == .finished { #expect(t.progress == 1) }
                if t.phase == .cancelled { #expect(t.scene == t.spec.fromState) }
                if let remaining = t.remainingSeconds { #expect(remaining.isFinite && remaining >= 0) }
                t.scene(into: &buffer)
                #expect(buffer.validationError() == nil)
            }
            if t.phase.isTerminal { completedTransitions += 1 }
        }
        // The sequences really exercise completion, not only idle updates.
        #expect(completedTransitions > 0)
    }
}
