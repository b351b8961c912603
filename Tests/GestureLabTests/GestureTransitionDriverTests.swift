import Foundation
import GestureCore
import InteractiveTransition
import Testing
@testable import GestureLab

/// `GestureTransitionDriver` driven by hand-built gesture events at explicit times: no recognizer,
/// no recording, so every number below can be worked out by hand.
@Suite struct GestureTransitionDriverTests {
    /// A driver plus everything it emitted.
    struct Harness {
        var driver: GestureTransitionDriver
        var records: [TransitionRecord] = []

        init(_ name: TransitionName, settings: LabSettings = .default) throws {
            driver = try GestureTransitionDriver(transition: name, settings: settings)
        }

        /// Sends one gesture event at `time` seconds (the driver reads time only from the argument).
        mutating func send(_ kind: GestureKind, _ state: GestureState, at time: Double, scale: Double = 1,
                           scaleVelocity: Double = 0, translationYMM: Double = 0, velocityYMMPerSecond: Double = 0) {
            let event = GestureEvent(
                kind: kind, state: state, time: EventTime(totalMicroseconds: Int64((time * 1_000_000).rounded())),
                fingerCount: 2, scale: scale, scaleVelocity: scaleVelocity,
                translationMM: PointMM(x: 0, y: translationYMM), velocityMMPerSecond: PointMM(x: 0, y: velocityYMMPerSecond))
            driver.handle(event, at: time) { records.append($0) }
        }

        mutating func pinch(_ state: GestureState, at time: Double, scale: Double, scaleVelocity: Double = 0) {
            send(.pinch, state, at: time, scale: scale, scaleVelocity: scaleVelocity)
        }

        mutating func pan(_ state: GestureState, at time: Double, translationYMM: Double, velocityYMMPerSecond: Double = 0) {
            send(.pan, state, at: time, translationYMM: translationYMM, velocityYMMPerSecond: velocityYMMPerSecond)
        }

        mutating func advance(to time: Double) { driver.advance(to: time) { records.append($0) } }
        mutating func finish() { driver.finish { records.append($0) } }

        var progress: Double { driver.transition.progress }
        var phase: TransitionPhase { driver.transition.phase }
        var lastTrial: TrialSummary? { driver.trials.last }
    }

    /// The transition completed exactly once, with `didComplete`, and shows the matching end state exactly.
    static func expectCompletedOnce(_ h: Harness, didComplete: Bool, sourceLocation: SourceLocation = #_sourceLocation) {
        let transition = h.driver.transition
        #expect(transition.context.completeTransitionCallCount == 1, sourceLocation: sourceLocation)
        #expect(transition.context.didComplete == didComplete, sourceLocation: sourceLocation)
        let completes = transition.lifecycle.filter { if case .completeTransition = $0.event { true } else { false } }
        #expect(completes.count == 1, sourceLocation: sourceLocation)
        #expect(transition.phase == (didComplete ? .finished : .cancelled), sourceLocation: sourceLocation)
        #expect(transition.progress == (didComplete ? 1 : 0), sourceLocation: sourceLocation)
        #expect(transition.scene == (didComplete ? transition.spec.toState : transition.spec.fromState),
                sourceLocation: sourceLocation)
        #expect(h.lastTrial?.outcome == (didComplete ? .finished : .cancelled), sourceLocation: sourceLocation)
        #expect(h.records.last?.state == transition.phase, sourceLocation: sourceLocation)
    }

    /// Every number the driver emitted or summarised is finite, and record times never go backwards.
    static func expectAllFinite(_ h: Harness, sourceLocation: SourceLocation = #_sourceLocation) {
        for record in h.records {
            #expect(record.time.isFinite && record.progress.isFinite && (record.velocity ?? 0).isFinite,
                    "\(record)", sourceLocation: sourceLocation)
        }
        for (earlier, later) in zip(h.records, h.records.dropFirst()) {
            #expect(later.time >= earlier.time, "\(earlier.time) then \(later.time)", sourceLocation: sourceLocation)
        }
        for trial in h.driver.trials {
            let numbers = [trial.begin, trial.release ?? 0, trial.end ?? 0,
                           trial.decision?.progress ?? 0, trial.decision?.velocity ?? 0]
            #expect(numbers.allSatisfy { $0.isFinite }, "\(trial)", sourceLocation: sourceLocation)
        }
        let snapshot = h.driver.transition.snapshot
        #expect(snapshot.progress.isFinite && snapshot.velocity.isFinite && (snapshot.remainingSeconds ?? 0).isFinite,
                sourceLocation: sourceLocation)
    }

    // MARK: began / changed / ended

    @Test func pinchInPastTheThresholdFinishes() throws {
        var h = try Harness(.pinchDismiss)
        h.pinch(.began, at: 1.0, scale: 1)
        #expect(h.phase == .interactive && h.records.last?.progress == 0)
        h.pinch(.changed, at: 1.05, scale: 0.8)
        #expect(abs(h.progress - 0.2) < 1e-12)                 // 1 - 0.8 / 1
        h.pinch(.changed, at: 1.10, scale: 0.4)
        #expect(abs(h.progress - 0.6) < 1e-12)
        // Closing at 0.5 scale/s is 0.5 progress/s; the default policy projects 0.6 + 0.5 x 0.499 = 0.85 > 0.5.
        h.pinch(.ended, at: 1.15, scale: 0.4, scaleVelocity: -0.5)
        #expect(h.phase == .finishing)
        let decisionRecord = try #require(h.records.last)
        #expect(decisionRecord.reason?.decision?.shouldFinish == true && decisionRecord.reason?.decision?.reason.rule == "projected")
        #expect(decisionRecord.velocity == 0.5)
        #expect(h.lastTrial?.decision?.finish == true && h.lastTrial?.release == 1.15)
        // Ease-in-out from 0.6 over (1 - 0.6) x 1 s: never backwards, done at 1.55.
        h.advance(to: 1.5)
        #expect(h.phase == .finishing)
        let animated = h.records.filter { $0.state == .finishing }.map(\.progress)
        #expect(animated.count >= 20 && zip(animated, animated.dropFirst()).allSatisfy { $0 <= $1 })
        h.advance(to: 1.6)
        Self.expectCompletedOnce(h, didComplete: true)
        #expect(abs((h.lastTrial?.end ?? 0) - 1.55) < 1e-6)
        Self.expectAllFinite(h)
    }

    @Test func pinchInBelowTheThresholdCancels() throws {
        var h = try Harness(.pinchDismiss)
        h.pinch(.began, at: 0, scale: 1)
        h.pinch(.changed, at: 0.1, scale: 0.8)
        h.pinch(.ended, at: 0.2, scale: 0.8, scaleVelocity: 0)   // 0.2 at rest: cancel
        #expect(h.phase == .cancelling)
        #expect(h.records.last?.reason?.decision?.shouldFinish == false)
        h.finish()
        Self.expectCompletedOnce(h, didComplete: false)
        Self.expectAllFinite(h)
    }

    // MARK: grabbing a running completion back

    /// The audit's repro: a pinch-in released so it finishes, then, while it is finishing, a second
    /// pinch that opens (scale 1 -> 1.65). The opening must take progress down and cancel.
    @Test func regrabbedPinchCanReverseAFinishingTransition() throws {
        var h = try Harness(.pinchDismiss)
        h.pinch(.began, at: 0, scale: 1)
        h.pinch(.changed, at: 0.1, scale: 0.4)
        h.pinch(.ended, at: 0.2, scale: 0.4, scaleVelocity: -0.5)
        #expect(h.phase == .finishing)
        h.advance(to: 0.5)                           // three quarters of the time to 1 (ends at 0.6)
        h.pinch(.began, at: 0.5, scale: 1)
        #expect(h.phase == .interactive && h.driver.isFollowingGesture)
        let grabbed = h.progress
        #expect(grabbed > 0.9 && grabbed < 1)
        #expect(h.lastTrial?.grabbedCount == 1 && h.lastTrial?.release == nil)
        h.pinch(.changed, at: 0.55, scale: 1.3)
        #expect(abs(h.progress - (grabbed - 0.3)) < 1e-12)
        h.pinch(.changed, at: 0.6, scale: 1.65)
        #expect(abs(h.progress - (grabbed - 0.65)) < 1e-12)    // about 0.3, not stuck at the grabbed value
        // Opening at 0.5 scale/s: -0.5 progress/s projects about 0.3 - 0.25 < 0.5: cancel.
        h.pinch(.ended, at: 0.65, scale: 1.65, scaleVelocity: 0.5)
        #expect(h.phase == .cancelling)
        h.finish()
        Self.expectCompletedOnce(h, didComplete: false)
        #expect(h.driver.trialCount == 1 && h.lastTrial?.grabbedCount == 1)
        Self.expectAllFinite(h)
    }

    /// Fingers that land while a completion animates stop it where it is (GNOME's swipe tracker):
    /// progress stays put during the hold, and lifting lets the completion carry on to the end it was
    /// heading for.
    @Test func aHoldStopsTheCompletionAndLiftingLetsItCarryOn() throws {
        var h = try Harness(.pinchDismiss)
        h.pinch(.began, at: 0, scale: 1)
        h.pinch(.changed, at: 0.1, scale: 0.4)
        h.pinch(.ended, at: 0.2, scale: 0.4, scaleVelocity: -0.5)
        #expect(h.phase == .finishing)
        h.advance(to: 0.3)
        h.send(.hold, .began, at: 0.3)
        let stopped = h.progress
        #expect(h.phase == .interactive && !h.driver.isFollowingGesture)
        #expect(stopped > 0.6 && stopped < 1)
        h.advance(to: 1.0)
        #expect(h.progress == stopped, "nothing moves while the fingers rest")
        h.send(.hold, .ended, at: 1.0)
        #expect(h.phase == .finishing, "lifting lets the completion carry on where it was going")
        h.finish()
        Self.expectCompletedOnce(h, didComplete: true)
        #expect(h.driver.trialCount == 1 && h.lastTrial?.grabbedCount == 0)
        #expect((h.lastTrial?.end ?? 0) > 1.0)
        Self.expectAllFinite(h)
    }

    /// A pinch that follows the hold takes the stopped completion over, as a grab does.
    @Test func aPinchAfterAHoldTakesTheCompletionOver() throws {
        var h = try Harness(.pinchDismiss)
        h.pinch(.began, at: 0, scale: 1)
        h.pinch(.changed, at: 0.1, scale: 0.4)
        h.pinch(.ended, at: 0.2, scale: 0.4, scaleVelocity: -0.5)
        h.advance(to: 0.3)
        h.send(.hold, .began, at: 0.3)
        let stopped = h.progress
        // The hold's fingers move: the hold is cancelled and a pinch begins in the same frame.
        h.send(.hold, .cancelled, at: 0.5)
        h.pinch(.began, at: 0.5, scale: 1)
        #expect(h.driver.isFollowingGesture && h.lastTrial?.grabbedCount == 1)
        #expect(abs(h.progress - stopped) < 1e-9, "taken over from where the hold stopped it")
        h.pinch(.changed, at: 0.6, scale: 1.5)
        #expect(abs(h.progress - (stopped - 0.5)) < 1e-9)
        h.pinch(.ended, at: 0.7, scale: 1.5, scaleVelocity: 1)
        h.finish()
        Self.expectCompletedOnce(h, didComplete: false)
        Self.expectAllFinite(h)
    }

    /// A hold while nothing animates does nothing.
    @Test func aHoldWithNothingAnimatingDrivesNothing() throws {
        var h = try Harness(.pinchDismiss)
        h.send(.hold, .began, at: 0.1)
        h.send(.hold, .ended, at: 0.5)
        #expect(h.records.isEmpty && h.driver.trialCount == 0)
    }

    /// The display ticks every 1/60 s from the release; a completion can end between two ticks. A
    /// gesture beginning after that end (before the next tick) starts a new trial: the first one
    /// finished and keeps its outcome, ended at its own end time, and nothing was grabbed.
    @Test func aGestureAfterTheCompletionEndedBetweenTicksStartsANewTrial() throws {
        var h = try Harness(.pinchDismiss)
        h.pinch(.began, at: 0, scale: 1)
        h.pinch(.changed, at: 0.1, scale: 0.43)          // 0.43 s still to go: 25.8 display ticks
        h.pinch(.ended, at: 0.2, scale: 0.43, scaleVelocity: -0.5)
        let end = try #require(h.driver.transition.completion?.endTime)
        let step = 1 / LabSettings.default.animationFrameRateHz
        let lastTickBeforeEnd = 0.2 + (((end - 0.2) / step).rounded(.down)) * step
        #expect(lastTickBeforeEnd < end)
        let between = (end + min(lastTickBeforeEnd + step, end + step)) / 2   // after the end, before the next tick
        h.advance(to: lastTickBeforeEnd)
        #expect(h.phase == .finishing)
        h.pinch(.began, at: between, scale: 1)

        #expect(h.driver.trialCount == 2)
        let first = try #require(h.driver.trials.first)
        #expect(first.outcome == .finished && first.grabbedCount == 0)
        #expect(abs((first.end ?? 0) - end) < 1e-9)
        let ends = h.records.filter { $0.state.isTerminal }
        #expect(ends.map(\.state) == [.finished] && abs(ends[0].time - end) < 1e-9)
        #expect(h.phase == .interactive && h.progress == 0, "the new trial starts from the from-state")
        Self.expectAllFinite(h)
    }

    @Test func regrabbedPinchCanStillPushForwardAndClampsAtBothEnds() throws {
        var h = try Harness(.pinchDismiss)
        h.pinch(.began, at: 0, scale: 1)
        h.pinch(.changed, at: 0.1, scale: 0.7)
        h.pinch(.ended, at: 0.2, scale: 0.7)            // 0.3 at rest: cancelling back to 0 over 0.3 s
        #expect(h.phase == .cancelling)
        h.advance(to: 0.3)
        h.pinch(.began, at: 0.3, scale: 2)              // a new gesture's scale is relative to its own start
        let grabbed = h.progress
        #expect(grabbed > 0 && grabbed < 0.3)
        h.pinch(.changed, at: 0.35, scale: 1.5)         // 1 - 1.5/2 = 0.25 further in
        #expect(abs(h.progress - (grabbed + 0.25)) < 1e-12)
        h.pinch(.changed, at: 0.4, scale: 0)            // +1: clamped at 1
        #expect(h.progress == 1)
        h.pinch(.changed, at: 0.45, scale: 100)         // -49: clamped at 0
        #expect(h.progress == 0)
        h.pinch(.changed, at: 0.5, scale: 0.2)          // +0.9
        h.pinch(.ended, at: 0.55, scale: 0.2)
        h.finish()
        Self.expectCompletedOnce(h, didComplete: true)
        Self.expectAllFinite(h)
    }

    @Test func regrabbedPanCanDragASpringBack() throws {
        var h = try Harness(.panDismiss)                 // 40 mm of travel, seed 003's spring
        h.pan(.began, at: 0, translationYMM: 0)
        h.pan(.changed, at: 0.1, translationYMM: 30)
        #expect(h.progress == 0.75)
        h.pan(.ended, at: 0.2, translationYMM: 30, velocityYMMPerSecond: 100)   // 2.5/s: a flick, finish
        #expect(h.phase == .finishing)
        h.advance(to: 0.3)
        h.pan(.began, at: 0.3, translationYMM: 0)
        let grabbed = h.progress
        #expect(grabbed > 0.75 && grabbed <= 1)
        h.pan(.changed, at: 0.4, translationYMM: -30)    // up by 30 mm: -0.75
        #expect(abs(h.progress - max(grabbed - 0.75, 0)) < 1e-12)
        h.pan(.ended, at: 0.5, translationYMM: -30, velocityYMMPerSecond: -80)  // -2/s: a flick back
        #expect(h.phase == .cancelling)
        h.finish()
        Self.expectCompletedOnce(h, didComplete: false)
        Self.expectAllFinite(h)
    }

    @Test func regrabbedPinchOutCanCloseAPresentationAgain() throws {
        var h = try Harness(.zoomPresent)                // range 1: doubling the spread presents fully
        h.pinch(.began, at: 0, scale: 1)
        h.pinch(.changed, at: 0.1, scale: 1.8)
        #expect(abs(h.progress - 0.8) < 1e-12)
        h.pinch(.ended, at: 0.2, scale: 1.8)
        #expect(h.phase == .finishing)
        h.advance(to: 0.3)
        h.pinch(.began, at: 0.3, scale: 1)
        let grabbed = h.progress
        h.pinch(.changed, at: 0.35, scale: 0.5)          // (0.5 - 1) / 1 = -0.5
        #expect(abs(h.progress - (grabbed - 0.5)) < 1e-12)
        h.pinch(.changed, at: 0.4, scale: 0.2)           // -0.8
        h.pinch(.ended, at: 0.45, scale: 0.2)
        #expect(h.phase == .cancelling)
        h.finish()
        Self.expectCompletedOnce(h, didComplete: false)
    }

    // MARK: cancelling

    @Test func cancelledGestureCancelsEvenPastTheThreshold() throws {
        var h = try Harness(.pinchDismiss)
        h.pinch(.began, at: 0, scale: 1)
        h.pinch(.changed, at: 0.1, scale: 0.1)                     // 0.9: would finish if it ended
        h.pinch(.cancelled, at: 0.2, scale: 0.1, scaleVelocity: -5) // a fast close, but cancelled
        #expect(h.phase == .cancelling)
        #expect(h.records.last?.reason == TrialReason(.gestureCancelled))
        #expect(h.lastTrial?.decision == nil)
        h.finish()
        Self.expectCompletedOnce(h, didComplete: false)
        Self.expectAllFinite(h)
    }

    @Test func cancelWhileInteractiveAfterAGrabCancels() throws {
        var h = try Harness(.pinchDismiss)
        h.pinch(.began, at: 0, scale: 1)
        h.pinch(.changed, at: 0.1, scale: 0.3)
        h.pinch(.ended, at: 0.2, scale: 0.3)            // 0.7: finishing
        h.advance(to: 0.25)
        h.pinch(.began, at: 0.25, scale: 1)             // grabbed back, interactive again
        #expect(h.phase == .interactive && !h.driver.transition.transitionWasCancelled)
        h.pinch(.changed, at: 0.3, scale: 0.95)
        h.pinch(.cancelled, at: 0.35, scale: 0.95)
        #expect(h.phase == .cancelling && h.driver.transition.transitionWasCancelled)
        h.finish()
        Self.expectCompletedOnce(h, didComplete: false)
    }

    // MARK: releases exactly at the ends

    @Test func releaseAtExactlyZeroCancelsAtOnce() throws {
        var h = try Harness(.pinchDismiss)
        h.pinch(.began, at: 0, scale: 1)
        h.pinch(.changed, at: 0.1, scale: 1.2)          // spreading: clamped to 0
        #expect(h.progress == 0)
        h.pinch(.ended, at: 0.2, scale: 1.2)
        // Nothing to animate: cancelled at the release time, without ticks, in one record that
        // carries the decision.
        Self.expectCompletedOnce(h, didComplete: false)
        #expect(h.lastTrial?.end == 0.2 && h.lastTrial?.release == 0.2)
        let terminal = h.records.filter { $0.state.isTerminal }
        #expect(terminal.count == 1)
        #expect(terminal.first?.reason?.decision?.shouldFinish == false)
        let countAfterRelease = h.records.count
        h.finish()
        #expect(h.records.count == countAfterRelease)
        Self.expectAllFinite(h)
    }

    @Test func releaseAtExactlyOneFinishesAtOnce() throws {
        var pinch = try Harness(.pinchDismiss)
        pinch.pinch(.began, at: 0, scale: 1)
        pinch.pinch(.changed, at: 0.1, scale: 0)        // fingers together: 1 - 0 = 1
        #expect(pinch.progress == 1)
        pinch.pinch(.ended, at: 0.2, scale: 0)
        Self.expectCompletedOnce(pinch, didComplete: true)
        #expect(pinch.lastTrial?.end == 0.2)

        var pan = try Harness(.panDismiss)               // a spring at its target, at rest: settled already
        pan.pan(.began, at: 0, translationYMM: 0)
        pan.pan(.changed, at: 0.1, translationYMM: 55)  // past 40 mm: clamped to 1
        pan.pan(.ended, at: 0.2, translationYMM: 55, velocityYMMPerSecond: 0)
        Self.expectCompletedOnce(pan, didComplete: true)
        #expect(pan.lastTrial?.end == 0.2)
        Self.expectAllFinite(pan)
    }

    // MARK: completeTransition exactly once per trial

    @Test func everyTrialCompletesExactlyOnce() throws {
        var h = try Harness(.pinchDismiss)
        var time = 0.0
        // Finish, cancel, grabbed-and-reversed, cancelled gesture: four trials one after another.
        let plans: [(closeTo: Double, velocity: Double, grabAndOpenTo: Double?, cancelled: Bool, finishes: Bool)] = [
            (0.3, -1, nil, false, true), (0.9, 0, nil, false, false), (0.4, -1, 1.8, false, false), (0.2, 0, nil, true, false),
        ]
        for (index, plan) in plans.enumerated() {
            h.pinch(.began, at: time, scale: 1)
            h.pinch(.changed, at: time + 0.05, scale: plan.closeTo)
            h.pinch(plan.cancelled ? .cancelled : .ended, at: time + 0.1, scale: plan.closeTo, scaleVelocity: plan.velocity)
            time += 0.1
            if let openTo = plan.grabAndOpenTo {
                h.advance(to: time + 0.1)
                #expect(h.phase.isAnimatingCompletion)
                h.pinch(.began, at: time + 0.1, scale: 1)
                h.pinch(.changed, at: time + 0.15, scale: openTo)
                h.pinch(.ended, at: time + 0.2, scale: openTo, scaleVelocity: 1)
                time += 0.2
            }
            time += 5
            h.advance(to: time)
            Self.expectCompletedOnce(h, didComplete: plan.finishes)
            // Stray events after the end change nothing (no gesture is being followed).
            h.pinch(.changed, at: time + 0.01, scale: 0.1)
            h.pinch(.ended, at: time + 0.02, scale: 0.1, scaleVelocity: -9)
            h.finish()
            Self.expectCompletedOnce(h, didComplete: plan.finishes)
            #expect(h.driver.trialCount == index + 1)
            time += 1
        }
        #expect(h.driver.trials.map(\.outcome) == [.finished, .cancelled, .cancelled, .cancelled])
        Self.expectAllFinite(h)
    }

    @Test func aSecondBeganWithoutAnEndKeepsTheTrial() throws {
        var h = try Harness(.pinchDismiss)
        h.pinch(.began, at: 0, scale: 1)
        h.pinch(.changed, at: 0.1, scale: 0.6)          // 0.4
        h.pinch(.began, at: 0.2, scale: 1)              // the recognizer lost its gesture
        #expect(h.driver.trialCount == 1 && h.phase == .interactive)
        #expect(abs(h.progress - 0.4) < 1e-12)          // continues from what was shown
        h.pinch(.changed, at: 0.3, scale: 0.7)          // + 0.3
        #expect(abs(h.progress - 0.7) < 1e-12)
        h.pinch(.ended, at: 0.4, scale: 0.7)
        h.finish()
        Self.expectCompletedOnce(h, didComplete: true)
    }

    /// The driver hands its observer to every trial's transition: each trial begins and ends once.
    @Test func theLifecycleObserverSeesEveryTrial() throws {
        final class Hooks: TransitionLifecycleObserver, @unchecked Sendable {
            let lock = NSLock()
            var calls: [String] = []
            func dismissalTransitionWillBegin(_ t: TransitionSnapshot) { lock.lock(); calls.append("begin"); lock.unlock() }
            func dismissalTransitionDidEnd(completed: Bool, _ t: TransitionSnapshot) {
                lock.lock(); calls.append(completed ? "finished" : "cancelled"); lock.unlock()
            }
        }
        let hooks = Hooks()
        var h = try Harness(.pinchDismiss)
        h.driver.lifecycleObserver = hooks
        h.pinch(.began, at: 0, scale: 1)
        h.pinch(.changed, at: 0.1, scale: 0.3)
        h.pinch(.ended, at: 0.2, scale: 0.3)
        h.finish()
        h.pinch(.began, at: 5, scale: 1)
        h.pinch(.changed, at: 5.1, scale: 0.9)
        h.pinch(.ended, at: 5.2, scale: 0.9)
        h.finish()
        #expect(hooks.calls == ["begin", "finished", "begin", "cancelled"])
    }

    @Test func otherGestureKindsAreIgnored() throws {
        var h = try Harness(.pinchDismiss)
        h.pan(.began, at: 0, translationYMM: 0)
        h.pan(.changed, at: 0.1, translationYMM: 80)
        #expect(h.records.isEmpty && h.phase == .idle && h.driver.trialCount == 0)
    }

    /// A completion spring that never settles is cut by the transition at the settle-search limit; the
    /// driver says so in the reason and does not cut it shorter itself.
    @Test func aSpringThatNeverSettlesIsCalledOutAndNotCutShorter() throws {
        let undamped = SpringTiming(parameters: try SpringParameters(dampingRatio: 0.001, response: 0.5))
        var h = try Harness(.pinchDismiss, settings: LabSettings(completion: .spring(undamped)))
        h.pinch(.began, at: 0, scale: 1)
        h.pinch(.changed, at: 0.1, scale: 0.3)
        h.pinch(.ended, at: 0.2, scale: 0.3)
        let reason = try #require(h.lastTrial?.reason)
        #expect(reason.decision?.shouldFinish == true && reason.springCutAfterSeconds == SpringMotion.maximumSettleSearchSeconds)
        #expect("\(reason)".hasSuffix("; the completion spring never settles: cut after 60.0 s"))
        #expect(h.records.last?.reason == reason)
        h.finish()
        Self.expectCompletedOnce(h, didComplete: true)
        #expect(abs((h.lastTrial?.end ?? 0) - (0.2 + SpringMotion.maximumSettleSearchSeconds)) < 1e-6)
        // A spring that settles keeps the policy's reason as it was.
        var settles = try Harness(.panDismiss)
        settles.pan(.began, at: 0, translationYMM: 0)
        settles.pan(.ended, at: 0.1, translationYMM: 30)
        #expect(settles.lastTrial?.reason != nil && settles.lastTrial?.reason?.springCutAfterSeconds == nil)
    }

    // MARK: hostile numbers

    @Test func everyNumberStaysFiniteForExtremeInput() throws {
        let extremes: [Double] = [0, -1, 1e-300, 1e300, -1e300, .greatestFiniteMagnitude, .nan, .infinity, -.infinity]
        for name in TransitionName.allCases {
            var h = try Harness(name)
            var time = 0.0
            for (index, value) in extremes.enumerated() {
                h.send(index.isMultiple(of: 2) ? .pinch : .pan, .began, at: time, scale: value)
                h.send(.pinch, .changed, at: time + 0.01, scale: value, scaleVelocity: value,
                       translationYMM: value, velocityYMMPerSecond: value)
                h.send(.pan, .changed, at: time + 0.02, scale: value, scaleVelocity: value,
                       translationYMM: value, velocityYMMPerSecond: value)
                if h.driver.isFollowingGesture {               // (a spring animating meanwhile may overshoot)
                    #expect(h.progress >= 0 && h.progress <= 1, "\(name) \(value)")
                }
                h.send(.pinch, .ended, at: time + 0.03, scale: value, scaleVelocity: value,
                       translationYMM: value, velocityYMMPerSecond: value)
                h.send(.pan, .ended, at: time + 0.04, scale: value, scaleVelocity: value,
                       translationYMM: value, velocityYMMPerSecond: value)
                h.advance(to: time + 0.1)               // sometimes grabbed back by the next began
                time += 0.2
            }
            h.finish()
            #expect(h.phase.isTerminal, "\(name)")
            let limit = GestureTransitionDriver.maximumProgressVelocityPerSecond
            #expect(h.records.allSatisfy { abs($0.velocity ?? 0) <= limit }, "\(name)")
            #expect(h.records.contains { abs($0.velocity ?? 0) == limit }, "\(name): an absurd velocity was clamped")
            #expect(h.driver.transition.context.completeTransitionCallCount == 1, "\(name)")
            #expect(h.records.count > extremes.count)
            Self.expectAllFinite(h)
        }
    }

    // MARK: defaults

    @Test func theLibraryAndTheLabAgreeOnThePanDistance() {
        #expect(LabSettings.default.panDismissDistanceMM == PanDismissProgress.defaultDistanceMM)
    }
}
