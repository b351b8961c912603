import Testing
import PropertyBased
import InteractiveTransition

/// Random call sequences on a percent-driven transition, times included NaN and going backwards.
@Suite struct TransitionPropertyTests {
    static let sequenceCount = 300

    /// One call decoded from a random word; returns a short name for failure messages.
    static func apply(_ word: UInt32, to t: inout PercentDrivenTransition, clock: inout Double) -> String {
        switch word >> 28 {
        case 0: clock -= 0.1                       // backwards
        case 1: clock += 3                         // a long pause
        default: clock += Double(word >> 16 & 0xFF) / 8_000   // 0-32 ms
        }
        let at = word >> 24 & 0xF == 0 ? Double.nan : clock
        let progress: Double = switch word >> 8 & 0x7 {
        case 0: .nan
        case 1: -0.5
        case 2: 1.7
        case 3: .infinity
        default: Double(word & 0xFF) / 255
        }
        let velocity: Double? = switch word >> 11 & 0x7 {
        case 0: nil
        case 1: .nan
        case 2: -.infinity
        default: (Double(word & 0xFF) - 128) / 16
        }
        switch word >> 4 & 0x7 {
        case 0: t.begin(at: at); return "begin(\(at))"
        case 1, 2: t.update(progress, at: at); return "update(\(progress), \(at))"
        case 3: t.finish(at: at, velocity: velocity); return "finish(\(at), \(String(describing: velocity)))"
        case 4: t.cancel(at: at, velocity: velocity); return "cancel(\(at), \(String(describing: velocity)))"
        case 5: t.pause(at: at); return "pause(\(at))"
        case 6: t.end(at: at, velocity: velocity ?? 0, policy: .default); return "end(\(at))"
        default: t.tick(at: at); return "tick(\(at))"
        }
    }

    @Test func randomCallSequencesKeepTheInvariants() async throws {
        var completed = 0
        var cancelled = 0
        await propertyCheck(count: Self.sequenceCount, input: Gen.uint32().array(of: 1...200),
                            Gen.int(in: 0...(TransitionName.allCases.count - 1))) { words, nameIndex in
            let name = TransitionName.allCases[nameIndex]
            let spec = try TransitionCatalog().spec(name)
            var t = try PercentDrivenTransition(spec: spec)
            var clock = 0.0
            for word in words {
                let call = Self.apply(word, to: &t, clock: &clock)
                #expect(t.percentComplete >= 0 && t.percentComplete <= 1, "after \(call)")
                #expect(t.progress.isFinite && t.velocity.isFinite, "after \(call)")
                #expect(t.context.completeTransitionCallCount <= 1, "after \(call)")
                #expect(t.context.completeTransitionCallCount == (t.phase.isTerminal ? 1 : 0), "after \(call)")
                if t.phase == .cancelled {
                    #expect(t.scene == t.context.fromState, "cancel must restore the from-state exactly")
                    #expect(t.progress == 0)
                }
                if t.phase == .finished { #expect(t.scene == t.context.toState && t.progress == 1) }
            }
            // Let a running completion end: it completes exactly once, and cancel restores exactly.
            if t.phase.isAnimatingCompletion {
                t.tick(at: (t.time ?? 0) + 1_000)
                #expect(t.phase.isTerminal)
            }
            #expect(t.context.completeTransitionCallCount == (t.phase.isTerminal ? 1 : 0))
            if t.phase == .cancelled {
                #expect(t.scene == t.context.fromState)
                cancelled += 1
            }
            if t.phase == .finished { completed += 1 }
        }
        // The sequences reach both ends, so the completion rules are really exercised.
        #expect(completed > 0 && cancelled > 0)
    }
}
