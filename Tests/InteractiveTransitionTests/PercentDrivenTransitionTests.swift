import Foundation
import Testing
@testable import InteractiveTransition

@Suite struct PercentDrivenTransitionTests {
    struct DurationCase: Sendable, CustomStringConvertible {
        let progress: Double
        let speed: Double
        let direction: CompletionDirection
        let expectedSeconds: Double
        var description: String { "\(direction) p=\(progress) speed=\(speed)" }
    }

    // zoom-present lasts 1 s. Finish: (1 - p)·1/speed; cancel: p·1/speed. Worked by hand:
    static let durationCases: [DurationCase] = [
        .init(progress: 0.25, speed: 0.5, direction: .finish, expectedSeconds: 1.5),
        .init(progress: 0.25, speed: 1, direction: .finish, expectedSeconds: 0.75),
        .init(progress: 0.25, speed: 2, direction: .finish, expectedSeconds: 0.375),
        .init(progress: 0.5, speed: 0.5, direction: .finish, expectedSeconds: 1.0),
        .init(progress: 0.5, speed: 1, direction: .finish, expectedSeconds: 0.5),
        .init(progress: 0.5, speed: 2, direction: .finish, expectedSeconds: 0.25),
        .init(progress: 0.9, speed: 0.5, direction: .finish, expectedSeconds: 0.2),
        .init(progress: 0.9, speed: 1, direction: .finish, expectedSeconds: 0.1),
        .init(progress: 0.9, speed: 2, direction: .finish, expectedSeconds: 0.05),
        .init(progress: 0.25, speed: 0.5, direction: .cancel, expectedSeconds: 0.5),
        .init(progress: 0.25, speed: 1, direction: .cancel, expectedSeconds: 0.25),
        .init(progress: 0.25, speed: 2, direction: .cancel, expectedSeconds: 0.125),
        .init(progress: 0.5, speed: 0.5, direction: .cancel, expectedSeconds: 1.0),
        .init(progress: 0.5, speed: 1, direction: .cancel, expectedSeconds: 0.5),
        .init(progress: 0.5, speed: 2, direction: .cancel, expectedSeconds: 0.25),
        .init(progress: 0.9, speed: 0.5, direction: .cancel, expectedSeconds: 1.8),
        .init(progress: 0.9, speed: 1, direction: .cancel, expectedSeconds: 0.9),
        .init(progress: 0.9, speed: 2, direction: .cancel, expectedSeconds: 0.45),
    ]

    @Test(arguments: durationCases) func remainingDurationIsRescaled(_ c: DurationCase) {
        var transition = Fixtures.transition(.zoomPresent, speed: c.speed)
        transition.begin(at: 10)
        transition.update(c.progress, at: 10.1)
        if c.direction == .finish { transition.finish(at: 10.2) } else { transition.cancel(at: 10.2) }
        let completion = try! #require(transition.completion)
        #expect(isClose(completion.duration, c.expectedSeconds, tolerance: 1e-12))
        #expect(isClose(transition.remainingSeconds!, c.expectedSeconds, tolerance: 1e-12))
        #expect(isClose(PercentDrivenTransition.remainingCurveDuration(
            direction: c.direction, progress: c.progress, duration: 1, completionSpeed: c.speed), c.expectedSeconds,
            tolerance: 1e-12))
        // Still animating just before the end, done exactly at it.
        #expect(transition.tick(at: 10.2 + c.expectedSeconds - 1e-6).isAnimatingCompletion)
        #expect(transition.tick(at: completion.endTime) == (c.direction == .finish ? .finished : .cancelled))
        #expect(transition.progress == c.direction.targetProgress)
    }

    @Test func completionFollowsTheCurve() {
        var transition = Fixtures.transition(.zoomPresent)
        transition.update(0.5, at: 0)
        transition.finish(at: 1)   // 0.5 s to go on ease-in-out
        // Halfway in time ease-in-out is halfway in value: 0.5 + 0.5·0.5.
        transition.tick(at: 1.25)
        #expect(isClose(transition.progress, 0.75, tolerance: 1e-9))
        transition.tick(at: 1.125)   // time never goes back: stays at 1.25 and reports it
        #expect(transition.diagnostics.last?.issue == .timeWentBackwards(lastTime: 1.25))
        #expect(isClose(transition.progress, 0.75, tolerance: 1e-9))
    }

    @Test func completionSpeedMustBePositive() {
        let spec = Fixtures.spec(.zoomPresent)
        for bad in [0.0, -1, .nan, .infinity] {
            #expect(throws: TransitionError.self) {
                try PercentDrivenTransition(spec: spec, completionSpeed: bad)
            }
            var transition = Fixtures.transition(.zoomPresent)
            #expect(throws: TransitionError.self) { try transition.setCompletionSpeed(bad) }
            #expect(transition.completionSpeed == 1)
        }
    }

    @Test func defaultsMatchUIKit() {
        let transition = Fixtures.transition(.zoomPresent)
        #expect(transition.completionSpeed == 1)
        #expect(transition.completionTiming == .curve(.easeInOut))
        #expect(transition.duration == 1)
        #expect(transition.phase == .idle && transition.percentComplete == 0)
    }

    @Test func updateClamps() {
        var transition = Fixtures.transition(.pinchDismiss)
        transition.begin(at: 0)
        transition.update(-0.3, at: 0.01)
        #expect(transition.percentComplete == 0)
        transition.update(1.7, at: 0.02)
        #expect(transition.percentComplete == 1)
        transition.update(0.4, at: 0.03)
        for bad in [-Double.infinity, .infinity, .nan] {
            #expect(transition.update(bad, at: 0.04) == .nonFiniteProgressIgnored, "\(bad)")
            #expect(transition.percentComplete == 0.4, "\(bad) is ignored, not clamped")
        }
    }

    // MARK: completeTransition exactly once, on every path

    static func expectCompletedOnce(_ t: PercentDrivenTransition, didComplete: Bool) {
        #expect(t.context.completeTransitionCallCount == 1)
        #expect(t.context.didComplete == didComplete)
        #expect(t.phase == (didComplete ? .finished : .cancelled))
        #expect(t.transitionWasCancelled == !didComplete)
        let completes = t.lifecycle.filter { if case .completeTransition = $0.event { true } else { false } }
        #expect(completes.map(\.event) == [.completeTransition(didComplete: didComplete)])
        let ends = t.lifecycle.filter {
            switch $0.event {
            case .presentationDidEnd, .dismissalDidEnd: true
            default: false
            }
        }
        let expectedEnd: LifecycleEvent = t.spec.role == .presentation
            ? .presentationDidEnd(completed: didComplete) : .dismissalDidEnd(completed: didComplete)
        #expect(ends.map(\.event) == [expectedEnd])
    }

    @Test func finishPath() {
        var t = Fixtures.transition(.pinchDismiss)
        t.begin(at: 0)
        t.update(0.6, at: 0.1)
        t.finish(at: 0.2)
        Fixtures.runToEnd(&t, from: 0.2)
        for extra in 1...10 { t.tick(at: 5 + Double(extra)) }
        Self.expectCompletedOnce(t, didComplete: true)
        #expect(t.lifecycle.first?.event == .dismissalWillBegin)
        #expect(t.scene == t.spec.toState)
    }

    @Test func cancelPath() {
        var t = Fixtures.transition(.zoomPresent)
        t.begin(at: 0)
        t.update(0.3, at: 0.1)
        t.cancel(at: 0.2)
        #expect(t.transitionWasCancelled && t.phase == .cancelling)
        Fixtures.runToEnd(&t, from: 0.2)
        t.tick(at: 100)
        Self.expectCompletedOnce(t, didComplete: false)
        #expect(t.lifecycle.first?.event == .presentationWillBegin)
    }

    @Test func pauseThenFinishPath() {
        var t = Fixtures.transition(.pinchDismiss)
        t.begin(at: 0)
        t.update(0.3, at: 0.1)
        t.cancel(at: 0.2)                 // 0.3 s back to 0
        t.tick(at: 0.3)
        let midway = t.progress
        #expect(midway > 0 && midway < 0.3)
        #expect(t.pause(at: 0.3) == nil)
        #expect(t.phase == .interactive && !t.transitionWasCancelled)
        #expect(t.percentComplete == midway)           // continues from where the animation was
        #expect(t.update(0.8, at: 0.4) == nil)
        t.finish(at: 0.5)
        Fixtures.runToEnd(&t, from: 0.5)
        Self.expectCompletedOnce(t, didComplete: true)
        #expect(t.lifecycle.contains { $0.event == .paused(progress: midway) })
    }

    /// A completion whose end passed with no tick since (a driver ticking on a 60 Hz grid) has ended
    /// by the time of the pause: it completes; it is not taken back into interaction at its target.
    @Test(arguments: [CompletionDirection.finish, .cancel])
    func pauseAfterTheCompletionEndedCompletesInstead(direction: CompletionDirection) {
        var t = Fixtures.transition(.pinchDismiss)
        t.update(0.5, at: 0)
        if direction == .finish { t.finish(at: 0.2) } else { t.cancel(at: 0.2) }
        let end = try! #require(t.completion).endTime
        #expect(t.pause(at: end + 0.001) == .pauseIgnored(phase: direction == .finish ? .finished : .cancelled))
        Self.expectCompletedOnce(t, didComplete: direction == .finish)
        #expect(t.progress == direction.targetProgress)
        // Just before its end the same completion is still grabbed.
        var early = Fixtures.transition(.pinchDismiss)
        early.update(0.5, at: 0)
        if direction == .finish { early.finish(at: 0.2) } else { early.cancel(at: 0.2) }
        #expect(early.pause(at: end - 0.001) == nil)
        #expect(early.phase == .interactive && early.context.completeTransitionCallCount == 0)
    }

    @Test func cancelThenUpdatePath() {
        var t = Fixtures.transition(.pinchDismiss)
        t.update(0.4, at: 0)
        t.cancel(at: 0.1)
        t.tick(at: 0.2)
        let progress = t.progress
        #expect(t.update(0.9, at: 0.25) == .updateIgnored(phase: .cancelling))
        #expect(t.progress == progress && t.phase == .cancelling)
        Fixtures.runToEnd(&t, from: 0.25)
        #expect(t.update(0.9, at: 50) == .updateIgnored(phase: .cancelled))
        #expect(t.progress == 0)
        Self.expectCompletedOnce(t, didComplete: false)
        #expect(t.diagnostics.map(\.issue).contains(.updateIgnored(phase: .cancelling)))
    }

    @Test func finishTwicePath() {
        var t = Fixtures.transition(.zoomPresent)
        t.update(0.7, at: 0)
        #expect(t.finish(at: 0.1) == nil)
        #expect(t.finish(at: 0.15) == .finishIgnored(phase: .finishing))
        #expect(t.cancel(at: 0.16) == .cancelIgnored(phase: .finishing))
        #expect(!t.transitionWasCancelled)
        Fixtures.runToEnd(&t, from: 0.16)
        #expect(t.finish(at: 9) == .finishIgnored(phase: .finished))
        #expect(t.cancel(at: 9) == .cancelIgnored(phase: .finished))
        #expect(t.pause(at: 9) == .pauseIgnored(phase: .finished))
        Self.expectCompletedOnce(t, didComplete: true)
    }

    @Test func cancelTwicePath() {
        var t = Fixtures.transition(.panDismiss)
        t.update(0.2, at: 0)
        t.cancel(at: 0.1)
        #expect(t.cancel(at: 0.12) == .cancelIgnored(phase: .cancelling))
        Fixtures.runToEnd(&t, from: 0.12)
        Self.expectCompletedOnce(t, didComplete: false)
    }

    @Test func gestureEndingBeforeTheTransitionBeganStillCompletesOnce() {
        var t = Fixtures.transition(.pinchDismiss)
        #expect(t.finish(at: 3) == nil)
        #expect(t.diagnostics.first?.issue == .implicitBegin)
        #expect(t.lifecycle.first?.event == .dismissalWillBegin)
        Fixtures.runToEnd(&t, from: 3)
        Self.expectCompletedOnce(t, didComplete: true)
    }

    @Test func zeroRemainingDurationCompletesImmediately() {
        var t = Fixtures.transition(.zoomPresent)
        t.update(1, at: 0)
        t.finish(at: 0.5)
        Self.expectCompletedOnce(t, didComplete: true)
        var c = Fixtures.transition(.zoomPresent)
        c.begin(at: 0)
        c.cancel(at: 0)
        Self.expectCompletedOnce(c, didComplete: false)
    }

    @Test func endLetsThePolicyDecide() {
        var t = Fixtures.transition(.pinchDismiss)
        t.update(0.3, at: 0)
        let decision = t.end(at: 0.1, velocity: 2, policy: .default)   // flick forwards
        #expect(decision.shouldFinish && t.phase == .finishing)
        var s = Fixtures.transition(.pinchDismiss)
        s.update(0.5, at: 0)
        #expect(!s.end(at: 0.1, velocity: 0, policy: .seed).shouldFinish)   // 0.5 is not > 0.5
        #expect(s.phase == .cancelling)
    }

    @Test func contextRejectsASecondCompleteTransition() {
        var context = TransitionContext(spec: Fixtures.spec(.zoomPresent))
        #expect(!context.isCompleted)
        try! context.completeTransition(true)
        #expect(throws: TransitionError.completeTransitionCalledTwice(firstDidComplete: true, secondDidComplete: false)) {
            try context.completeTransition(false)
        }
        #expect(context.didComplete == true)
        #expect(context.completeTransitionCallCount == 2)
    }

    // MARK: input hygiene

    @Test func badTimesAreReportedNotUsed() {
        var t = Fixtures.transition(.zoomPresent)
        t.update(0.4, at: 1)
        #expect(t.update(0.6, at: .nan) == .nonFiniteTimeIgnored)
        #expect(t.percentComplete == 0.4)
        #expect(t.update(0.6, at: 0.5) == nil)   // backwards: applied at the last time, reported
        #expect(t.time == 1)
        #expect(t.diagnostics.last?.issue == .timeWentBackwards(lastTime: 1))
        #expect(t.finish(at: 2, velocity: .infinity) == nil)
        #expect(t.diagnostics.last?.issue == .nonFiniteVelocityTreatedAsZero)
    }

    @Test func diagnosticsAreBounded() {
        var t = Fixtures.transition(.zoomPresent)
        t.update(0.5, at: 0)
        t.finish(at: 0)
        for index in 0..<500 { t.update(0.5, at: Double(index) * 0.001) }
        #expect(t.diagnostics.count == PercentDrivenTransition.maximumRecordedDiagnostics)
        // 1 implicit begin + 500 ignored updates were reported in all.
        #expect(t.diagnostics.count + t.droppedDiagnosticCount == 501)
    }

    // MARK: springs

    struct ReleaseCase: Sendable, CustomStringConvertible {
        let regime: SpringRegime
        let spring: SpringTiming
        let speed: Double
        let direction: CompletionDirection
        let velocity: Double
        var description: String { "\(regime) speed \(speed) \(direction) at \(velocity)/s" }
    }

    /// Seed 003's dismissal (ζ 0.7), its touch-down bounce (ζ 1) and an overdamped ζ 2 spring, each
    /// at three completion speeds, finishing with a forward throw and cancelling with a backward one.
    static let releaseCases: [ReleaseCase] = {
        let springs: [(SpringRegime, SpringTiming)] = [
            (.underdamped, SpringPresets.appStoreCardDismiss), (.criticallyDamped, SpringPresets.appStoreCellBounce),
            (.overdamped, SpringTiming(parameters: try! SpringParameters(mass: 1, stiffness: 100, damping: 40))),
        ]
        return springs.flatMap { regime, spring in
            [0.5, 1, 2].flatMap { speed in
                [ReleaseCase(regime: regime, spring: spring, speed: speed, direction: .finish, velocity: 2),
                 ReleaseCase(regime: regime, spring: spring, speed: speed, direction: .cancel, velocity: -1.5)]
            }
        }
    }()

    /// Position and velocity are continuous at release in every regime: the completion starts exactly
    /// where the gesture left progress, at the gesture's velocity, and a microsecond later it has moved
    /// as the spring equation says (x + v h + a h²/2, v + a h), in real time through `completionSpeed`.
    @Test(arguments: releaseCases) func springCompletionIsContinuousAtRelease(_ c: ReleaseCase) throws {
        var t = Fixtures.transition(.zoomPresent, speed: c.speed, timing: .spring(c.spring))
        #expect(c.spring.parameters.regime == c.regime)
        let releaseProgress = 0.4, releaseTime = 0.2
        t.update(releaseProgress, at: 0.1)
        if c.direction == .finish { t.finish(at: releaseTime, velocity: c.velocity) } else { t.cancel(at: releaseTime, velocity: c.velocity) }
        #expect(t.progress == releaseProgress)
        #expect(isClose(t.velocity, c.velocity, tolerance: 1e-12))
        // Acceleration at release in real time: spring time runs `speed` times faster, so
        // a = speed² x (-(c (v / speed) + k x0) / m) with x0 = progress - target.
        let p = c.spring.parameters
        let x0 = releaseProgress - c.direction.targetProgress
        let acceleration = c.speed * c.speed * -(p.damping * (c.velocity / c.speed) + p.stiffness * x0) / p.mass
        let h = 1e-6
        t.tick(at: releaseTime + h)
        // Neglected terms: jerk x h³/6 < 1e-13 for position, jerk x h²/2 < 1e-7 for velocity (|jerk| < 2e5/s³ here).
        #expect(isClose(t.progress, releaseProgress + c.velocity * h + acceleration * h * h / 2, tolerance: 1e-12))
        #expect(isClose(t.velocity, c.velocity + acceleration * h, tolerance: 1e-6))
        Fixtures.runToEnd(&t, from: releaseTime + h, step: 0.001)
        Self.expectCompletedOnce(t, didComplete: c.direction == .finish)
        #expect(t.progress == c.direction.targetProgress)
    }

    @Test func springSettleTimeIsTheCompletionTime() {
        var t = Fixtures.transition(.panDismiss)
        t.update(0.4, at: 0)
        t.finish(at: 0, velocity: 0)
        let completion = try! #require(t.completion)
        let motion = try! #require(completion.springMotion)
        #expect(completion.duration == motion.settleTime())
        #expect(motion.initialDisplacement == -0.6)
    }

    @Test func springWithoutGestureVelocityUsesThePresetVelocity() {
        let timing = CompletionTiming.spring(SpringPresets.appStoreCardPresent)
        var t = Fixtures.transition(.zoomPresent, timing: timing)
        t.begin(at: 0)
        t.finish(at: 0)   // like a tap: no gesture velocity
        // UIKit's normalised 0.7 over the whole remaining distance 1 is 0.7 progress/s.
        #expect(isClose(t.velocity, 0.7, tolerance: 1e-12))
    }

    @Test func springOvershootKeepsAlphaInRange() {
        var t = Fixtures.transition(.panDismiss)
        t.update(0.5, at: 0)
        t.finish(at: 0, velocity: 6)
        var overshot = false
        var time = 0.0
        while !t.phase.isTerminal {
            time += 0.002
            t.tick(at: time)
            if t.progress > 1 { overshot = true }
            let scene = t.scene
            #expect(scene.validationError() == nil, "scene invalid at progress \(t.progress)")
            #expect(scene.value(named: SceneProperty.dimmingAlphaName)! >= 0)
        }
        #expect(overshot)   // ζ = 0.7 thrown at 6/s really does overshoot
    }

    // MARK: JSON

    @Test func snapshotIsReadableJSON() throws {
        var t = Fixtures.transition(.pinchDismiss)
        t.update(0.25, at: 1)
        t.finish(at: 1.5)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(t.snapshot), as: UTF8.self)
        #expect(json.contains(#""phase":"finishing""#))
        #expect(json.contains(#""name":"pinch-dismiss""#))
        #expect(json.contains(#""percentComplete":0.25"#))
        let decoded = try JSONDecoder().decode(TransitionSnapshot.self, from: encoder.encode(t.snapshot))
        #expect(decoded == t.snapshot)
        let lifecycle = try JSONDecoder().decode([LifecycleRecord].self, from: encoder.encode(t.lifecycle))
        #expect(lifecycle == t.lifecycle)
    }
}
