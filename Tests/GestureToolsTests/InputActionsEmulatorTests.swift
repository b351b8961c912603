#if canImport(Glibc)
import Glibc
#endif
import GestureTools
import Testing

/// InputActions 0.9's figures, each from both sides (src/libinputactions/handlers/
/// MotionTriggerHandler.cpp, MultiTouchMotionTriggerHandler.cpp, TriggerHandler.cpp,
/// triggers/Trigger.cpp, triggers/core/SwipeTriggerCore.cpp).
@Suite struct InputActionsEmulatorTests {
    let every = InputActionsEmulator()

    private func words(_ fired: [FiredGesture]) -> [String] {
        fired.map { "\($0.gesture) \($0.direction ?? "-") \($0.executed == true ? "ended" : "cancelled")" }
    }

    private func with(_ triggers: [InputActionsTrigger], _ configure: (inout InputActionsSettings) -> Void = { _ in }) -> InputActionsEmulator {
        var s = InputActionsSettings.defaults
        s.triggers = triggers
        configure(&s)
        return InputActionsEmulator(settings: s)
    }

    /// A straight swipe of `length` units towards `degrees` (0 right, 90 up), in four updates.
    private func swipe(_ length: Double, degrees: Double, updates: Int = 4, fingers: Int = 3) -> ToolStream {
        let r = degrees * Double.pi / 180
        return ToolStreams.touchpadStream(ToolStreams.swipe(dx: length * cos(r), dy: -length * sin(r), fingers: fingers, updates: updates))
    }

    @Test func aSwipeBeginsOnceItsWindowReachesTheMotionThreshold() {
        // Four updates of 2.5: the window reaches 10 (motion_threshold_3) at the last.
        let at = every.judge(ToolStreams.touchpadStream(ToolStreams.swipe(dx: -10, dy: 0)))
        #expect(words(at) == ["swipe left ended"])
        #expect(at.first?.margin?.key == "motion_threshold_3")
        #expect(at.first?.figures.distance == 2.5, "only the update that reached the window counts")
        #expect(every.judge(ToolStreams.touchpadStream(ToolStreams.swipe(dx: -9.99, dy: 0))).isEmpty)
        // A higher motion_threshold_3 needs more; two fingers read motion_threshold_2.
        let raised = with(InputActionsTrigger.everyGesture) { $0.motionThreshold3 = 10.01 }
        #expect(raised.judge(ToolStreams.touchpadStream(ToolStreams.swipe(dx: -10, dy: 0))).isEmpty)
        let two = raised.judge(ToolStreams.touchpadStream(ToolStreams.swipe(dx: -10, dy: 0, fingers: 2)))
        #expect(two.first?.margin?.key == "motion_threshold_2")
    }

    @Test func directionsAreAngleTolerancesEitherSideOfTheAxes() {
        #expect(words(every.judge(swipe(100, degrees: 19.9))) == ["swipe right ended"])
        // Inclusive at the edge, told apart exactly: a tolerance of 0 and a swipe straight right (0
        // degrees) is in `right`'s range [0, 0], and in right_up's [0, 90] too, which `right` beats.
        #expect(words(with(InputActionsTrigger.everyGesture) { $0.angleTolerance = 0 }.judge(swipe(100, degrees: 0)))
                == ["swipe right ended", "swipe right_up cancelled"])
        #expect(words(every.judge(swipe(100, degrees: 20.1))) == ["swipe right_up ended"])
        #expect(words(every.judge(swipe(100, degrees: 250.1))) == ["swipe down ended"])
        #expect(words(every.judge(swipe(100, degrees: 249.9))) == ["swipe left_down ended"])
        // angle_tolerance 30: 25 degrees is still right; at 45 the diagonals are gone.
        let wide = with(InputActionsTrigger.everyGesture) { $0.angleTolerance = 30 }
        #expect(words(wide.judge(swipe(100, degrees: 25))) == ["swipe right ended"])
        #expect(words(wide.judge(swipe(100, degrees: 30.1))) == ["swipe right_up ended"])
        // A bidirectional trigger takes both ways; `up` alone is cancelled by a swipe down, silently.
        let both = with([InputActionsTrigger(kind: .swipe, direction: "up_down")])
        #expect(words(both.judge(swipe(100, degrees: 90))) == ["swipe up_down ended"])
        #expect(with([InputActionsTrigger(kind: .swipe, direction: "up")]).judge(swipe(100, degrees: 270)).isEmpty)
    }

    @Test func aTurnCancelsTheStartedTriggerAndActivatesThemAgain() {
        // Right for 40 units, then up for 40: the right trigger started and is cancelled, up ends.
        var events = ToolStreams.swipe(dx: 40, dy: 0)
        events.removeLast()
        for i in 1...4 {
            events.append(.gesture(GestureStep(kind: .swipe, phase: .update, time: 0.3 + 0.05 * Double(i), fingers: 3, dy: -10)))
        }
        events.append(.gesture(GestureStep(kind: .swipe, phase: .end, time: 0.6, fingers: 3)))
        #expect(words(every.judge(ToolStreams.touchpadStream(events))) == ["swipe right cancelled", "swipe up ended"])
    }

    @Test func aPinchIsDecidedAtAFifthOfScaleAndARotationAtTenDegreesFirst() {
        let pinch = every.judge(ToolStreams.touchpadStream(ToolStreams.pinch(scale: 0.79)))
        #expect(words(pinch) == ["pinch in ended"])
        #expect(pinch.first?.margin?.threshold == 0.2)
        // (1 - 0.8) is 0.19999999999999996 in doubles: not yet 0.2.
        #expect(every.judge(ToolStreams.touchpadStream(ToolStreams.pinch(scale: 0.8))).isEmpty)
        #expect(words(every.judge(ToolStreams.touchpadStream(ToolStreams.pinch(scale: 1.21)))) == ["pinch out ended"])
        // 2.5 degrees an update: 10 at the fourth, a rotation; 9.99 in all is nothing.
        #expect(words(every.judge(ToolStreams.touchpadStream(ToolStreams.pinch(scale: 1, angle: 10)))) == ["rotate clockwise ended"])
        #expect(every.judge(ToolStreams.touchpadStream(ToolStreams.pinch(scale: 1, angle: 9.99))).isEmpty)
        #expect(words(every.judge(ToolStreams.touchpadStream(ToolStreams.pinch(scale: 1, angle: -10)))) == ["rotate counterclockwise ended"])
        // Both reached on one update: the rotation is tested first.
        #expect(words(every.judge(ToolStreams.touchpadStream(ToolStreams.pinch(scale: 0.79, angle: 10)))) == ["rotate clockwise ended"])
    }

    @Test func aTriggerThresholdDelaysTheStartAndItsMaximumCancelsTheEnd() {
        // 15 units an update, all four past the motion threshold: 60 in all.
        let stream = ToolStreams.touchpadStream(ToolStreams.swipe(dx: -60, dy: 0))
        func trigger(_ min: Double, _ max: Double? = nil) -> InputActionsEmulator {
            with([InputActionsTrigger(kind: .swipe, direction: "left", thresholdMin: min, thresholdMax: max)])
        }
        #expect(words(trigger(60).judge(stream)) == ["swipe left ended"])
        #expect(trigger(60).judge(stream).first?.margin?.key == "threshold")
        #expect(trigger(60.01).judge(stream).isEmpty, "never started: dropped silently")
        #expect(words(trigger(10, 60).judge(stream)) == ["swipe left ended"])
        #expect(words(trigger(10, 59.99).judge(stream)) == ["swipe left cancelled"])
    }

    @Test func aHoldTicksEveryFiveMilliseconds() {
        func hold(_ seconds: Double) -> ToolStream {
            ToolStreams.touchpadStream([.gesture(GestureStep(kind: .hold, phase: .begin, time: 2, fingers: 3)),
                                        .gesture(GestureStep(kind: .hold, phase: .end, time: 2 + seconds, fingers: 3))])
        }
        #expect(words(every.judge(hold(0.005))) == ["hold - ended"])
        #expect(every.judge(hold(0.0049)).isEmpty)
        let long = with([InputActionsTrigger(kind: .hold, thresholdMin: 300)])
        #expect(long.judge(hold(0.3)).first?.figures.distance == 300)
        #expect(long.judge(hold(0.2999)).isEmpty)
        // A click or tap trigger delays the hold's activation by 200 ms.
        let deferred = with([InputActionsTrigger(kind: .hold)]) { $0.hasClickOrTapTrigger = true }
        #expect(deferred.judge(hold(0.2049)).isEmpty)
        #expect(deferred.judge(hold(0.205)).count == 1)
        // A cancelled end cancels.
        var cancelled = hold(1).events
        if case .gesture(var last) = cancelled.removeLast() { last.cancelled = true; cancelled.append(.gesture(last)) }
        #expect(words(every.judge(ToolStreams.touchpadStream(cancelled))) == ["hold - cancelled"])
    }

    @Test func aSpeedIsMeasuredOnTheFirstEventsAgainstItsThreshold() {
        // Three updates measure (mean 20 units an update: fast, at the threshold), the fourth updates.
        let fast = with([InputActionsTrigger(kind: .swipe, direction: "left", speed: .fast)])
        let slow = with([InputActionsTrigger(kind: .swipe, direction: "left", speed: .slow)])
        let at = ToolStreams.touchpadStream(ToolStreams.swipe(dx: -80, dy: 0))
        let under = ToolStreams.touchpadStream(ToolStreams.swipe(dx: -79.9, dy: 0))
        #expect(words(fast.judge(at)) == ["swipe left ended"])
        #expect(fast.judge(under).isEmpty)
        #expect(slow.judge(at).isEmpty)
        #expect(words(slow.judge(under)) == ["swipe left ended"])
        #expect(fast.judge(at).first?.figures.speed == 20)
    }
}
