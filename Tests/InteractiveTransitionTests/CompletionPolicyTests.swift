import Foundation
import Testing
@testable import InteractiveTransition

@Suite struct CompletionPolicyTests {
    struct Case: Sendable, CustomStringConvertible {
        let policy: CompletionPolicy
        let progress: Double
        let velocity: Double
        let finish: Bool
        let reason: CompletionReason
        var description: String { "\(policy) p=\(progress) v=\(velocity)" }
    }

    // .default: threshold 0.5, r = 0.998/ms, flick 1.5/s. Projection factor r/(1-r)/1000 = 0.998/0.002/1000 = 0.499.
    // .fluid:   threshold 0.5, r = 0.99/ms,  flick 0.75/s. Factor 0.99/0.01/1000 = 0.099.
    static let flickOnly = try! CompletionPolicy(progressThreshold: 0.6, flickVelocity: 1)
    static let cases: [Case] = [
        // seed: progress > 0.5, velocity ignored.
        Case(policy: .seed, progress: 0.5, velocity: 0, finish: false, reason: .progress(progress: 0.5, threshold: 0.5)),
        Case(policy: .seed, progress: 0.51, velocity: -10, finish: true, reason: .progress(progress: 0.51, threshold: 0.5)),
        Case(policy: .seed, progress: 0.2, velocity: 100, finish: false, reason: .progress(progress: 0.2, threshold: 0.5)),
        // default: 0.3 + 0.5·0.499 = 0.5495 > 0.5 finishes; 0.3 + 0.3·0.499 = 0.4497 cancels.
        Case(policy: .default, progress: 0.3, velocity: 0.5, finish: true,
             reason: .projected(projectedProgress: 0.5495, threshold: 0.5)),
        Case(policy: .default, progress: 0.3, velocity: 0.3, finish: false,
             reason: .projected(projectedProgress: 0.4497, threshold: 0.5)),
        // 0.9 - 1.0·0.499 = 0.401: a backwards throw cancels even from 90 %.
        Case(policy: .default, progress: 0.9, velocity: -1, finish: false,
             reason: .projected(projectedProgress: 0.401, threshold: 0.5)),
        Case(policy: .default, progress: 0.6, velocity: 0, finish: true,
             reason: .projected(projectedProgress: 0.6, threshold: 0.5)),
        // |2.0| >= 1.5: flick forwards finishes from 10 %; |-1.5| >= 1.5 flick backwards cancels from 95 %.
        Case(policy: .default, progress: 0.1, velocity: 2, finish: true, reason: .flick(velocity: 2, flickVelocity: 1.5)),
        Case(policy: .default, progress: 0.95, velocity: -1.5, finish: false,
             reason: .flick(velocity: -1.5, flickVelocity: 1.5)),
        // fluid: 0.45 + 0.6·0.099 = 0.5094 finishes; 0.45 + 0.4·0.099 = 0.4896 cancels; 0.8 >= 0.75 flicks.
        Case(policy: .fluid, progress: 0.45, velocity: 0.6, finish: true,
             reason: .projected(projectedProgress: 0.5094, threshold: 0.5)),
        Case(policy: .fluid, progress: 0.45, velocity: 0.4, finish: false,
             reason: .projected(projectedProgress: 0.4896, threshold: 0.5)),
        Case(policy: .fluid, progress: 0.2, velocity: 0.8, finish: true, reason: .flick(velocity: 0.8, flickVelocity: 0.75)),
        // Flick without projection: below the flick speed progress decides against 0.6.
        Case(policy: flickOnly, progress: 0.8, velocity: -2, finish: false, reason: .flick(velocity: -2, flickVelocity: 1)),
        Case(policy: flickOnly, progress: 0.65, velocity: 0.5, finish: true, reason: .progress(progress: 0.65, threshold: 0.6)),
        Case(policy: flickOnly, progress: 0.55, velocity: 0.5, finish: false, reason: .progress(progress: 0.55, threshold: 0.6)),
    ]

    static func reasonsMatch(_ a: CompletionReason, _ b: CompletionReason) -> Bool {
        switch (a, b) {
        case let (.flick(v1, f1), .flick(v2, f2)): return v1 == v2 && f1 == f2
        case let (.projected(p1, t1), .projected(p2, t2)): return isClose(p1, p2, tolerance: 1e-12) && t1 == t2
        case let (.progress(p1, t1), .progress(p2, t2)): return p1 == p2 && t1 == t2
        default: return false
        }
    }

    @Test(arguments: cases) func decisionTable(_ c: Case) {
        let decision = c.policy.decide(progress: c.progress, velocity: c.velocity)
        #expect(decision.shouldFinish == c.finish)
        #expect(Self.reasonsMatch(decision.reason, c.reason), "got \(decision.reason)")
        #expect(!decision.velocityWasNonFinite && !decision.progressWasNonFinite)
        #expect(decision.description.hasPrefix(c.finish ? "finish" : "cancel"))
    }

    @Test func nonFiniteVelocityCountsAsZeroAndIsReported() {
        // NaN velocity -> 0: projected 0.5 is not > 0.5, cancel.
        let nanDecision = CompletionPolicy.default.decide(progress: 0.5, velocity: .nan)
        #expect(!nanDecision.shouldFinish)
        #expect(nanDecision.velocityWasNonFinite)
        #expect(Self.reasonsMatch(nanDecision.reason, .projected(projectedProgress: 0.5, threshold: 0.5)))
        // +inf velocity would be a flick; as 0 the position (0.7) decides and finishes.
        let infDecision = CompletionPolicy.default.decide(progress: 0.7, velocity: .infinity)
        #expect(infDecision.shouldFinish && infDecision.velocityWasNonFinite)
        #expect(infDecision.description.contains("non-finite velocity"))
        let nanProgress = CompletionPolicy.seed.decide(progress: .nan, velocity: 0)
        #expect(!nanProgress.shouldFinish && nanProgress.progressWasNonFinite)
    }

    @Test func hugeVelocitiesStayFinite() {
        let policy = try! CompletionPolicy(progressThreshold: 0.5, decelerationRatePerMS: 0.999999999)
        let decision = policy.decide(progress: 0.2, velocity: 1e308)
        guard case .projected(let projected, _) = decision.reason else { Issue.record("no projection"); return }
        #expect(projected.isFinite && decision.shouldFinish)
    }

    @Test func invalidPoliciesAreRejected() {
        #expect(throws: TransitionError.self) { try CompletionPolicy(progressThreshold: 1.5) }
        #expect(throws: TransitionError.self) { try CompletionPolicy(progressThreshold: .nan) }
        #expect(throws: TransitionError.self) { try CompletionPolicy(progressThreshold: 0.5, decelerationRatePerMS: 1) }
        #expect(throws: TransitionError.self) { try CompletionPolicy(progressThreshold: 0.5, decelerationRatePerMS: 0) }
        #expect(throws: TransitionError.self) { try CompletionPolicy(progressThreshold: 0.5, flickVelocity: -1) }
        #expect(throws: TransitionError.self) { try CompletionPolicy(progressThreshold: 0.5, flickVelocity: .nan) }
    }

    @Test func policyIsCodableAndDecodingValidates() throws {
        let data = try JSONEncoder().encode(CompletionPolicy.default)
        #expect(try JSONDecoder().decode(CompletionPolicy.self, from: data) == .default)
        let seedData = try JSONEncoder().encode(CompletionPolicy.seed)
        #expect(try JSONDecoder().decode(CompletionPolicy.self, from: seedData) == .seed)
        let bad = Data(#"{"progressThreshold": 0.5, "decelerationRatePerMS": 2}"#.utf8)
        #expect(throws: (any Error).self) { try JSONDecoder().decode(CompletionPolicy.self, from: bad) }
    }
}
