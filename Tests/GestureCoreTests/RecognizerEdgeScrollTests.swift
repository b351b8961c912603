@testable import GestureCore
import PinchlabTestSupport
import Testing

/// Edge scrolling (scroll method edge) at the boundaries of libinput's figures: the 7 mm edge, the
/// 3 mm along it, the 300 ms lock, the 40 mm a bottom edge needs; and what it does to the rest.
@Suite struct RecognizerEdgeScrollTests {
    /// A 100 x 60 mm touchpad that edge scrolls; the right edge starts at x 93, the bottom at y 53.
    static func edgeScrolling(heightMM: Double = 60, method: ScrollMethod = .edge) -> GestureRecognizerConfiguration {
        var c = GestureRecognizerConfiguration.default
        c.device = GestureDeviceTraits(deviceClass: .touchpad, heightMM: heightMM, widthMM: 100, maximumFingerCount: 2)
        c.scrollMethod = method
        return c
    }

    /// One finger landing at `start` and moving at `velocity` mm/s from `fromS`, lifted at `upMS`.
    func finger(_ start: PointMM, _ velocity: PointMM, fromS: Double = 0, upMS: Int = 400) -> [TouchFrame] {
        makeFrames([ScriptedFinger(id: 1, upMS: upMS, path: linear(start, velocity, fromS: fromS))])
    }

    @Test func justInsideTheRightEdgeAFingerMovingAlongItScrolls() throws {
        let events = recognize(finger(PointMM(x: 93.1, y: 30), PointMM(x: 0, y: -21)), configuration: Self.edgeScrolling())
        #expect(states(events) == ["pan.began", "pan.changed", "pan.ended"])
        let began = try #require(events.first)
        #expect(began.fingerCount == 1)
        #expect(began.decision?.rule == .edgeScroll)
        let e = try #require(began.decision?.evidence)
        #expect(abs((e.fromRightMM ?? 0) - 6.9) < 1e-9)
        #expect(e.edgeWidthMM == 7)
        #expect(e.moveLimitMM == 3)
        #expect((e.movedMM ?? 0) >= 3 && (e.movedMM ?? 0) < 3.21, "begins the frame it passes 3 mm (0.21 mm a frame)")
        #expect(milliseconds(began.time) == 150)
        // A right-edge scroll is vertical: it follows the finger up and nothing sideways.
        let last = try #require(events.last)
        #expect(last.decision?.rule == .allLifted)
        #expect(last.translationMM.x == 0 && last.translationMM.y < -4)
    }

    @Test func justOutsideTheRightEdgeTheFingerMovesThePointer() {
        let events = recognize(finger(PointMM(x: 92.9, y: 30), PointMM(x: 0, y: -20)), configuration: Self.edgeScrolling())
        #expect(events.isEmpty, "\(states(events))")
    }

    @Test func belowTheMotionThresholdNothingScrollsAboveItItDoes() throws {
        // 2.9 mm and 3.1 mm along the edge within 200 ms (before the 300 ms lock), then lifted at 250 ms.
        let belowFrames = makeFrames([ScriptedFinger(id: 1, upMS: 250, path: { t in PointMM(x: 98, y: 30 - min(t, 0.2) * 14.5) })])
        let below = recognize(belowFrames, configuration: Self.edgeScrolling())
        #expect(below.isEmpty, "\(states(below))")
        let frames = makeFrames([ScriptedFinger(id: 1, upMS: 250, path: { t in PointMM(x: 98, y: 30 - min(t, 0.2) * 15.5) })])
        let above = recognize(frames, configuration: Self.edgeScrolling())
        let began = try #require(above.first)
        #expect(began.decision?.rule == .edgeScroll)
        #expect(milliseconds(began.time) == 200, "3.1 mm at 200 ms, 2.79 at 180 and 2.945 at 190")
    }

    @Test func aFingerRestingInTheEdgeIsLockedInAfter300msAndScrollsWithAnyMovement() throws {
        let frames = makeFrames([ScriptedFinger(id: 1, upMS: 600, path: { t in PointMM(x: 98, y: 30 - max(0, t - 0.35) * 4) })])
        let events = recognize(frames, configuration: Self.edgeScrolling())
        let began = try #require(events.first)
        #expect(began.decision?.rule == .edgeScroll)
        #expect(milliseconds(began.time) == 360, "the first frame that moved after the lock")
        #expect((began.decision?.evidence.waitedMS ?? 0) >= 300)
        #expect(began.decision?.evidence.timeoutMS == 300)
        #expect(began.decision?.evidence.moveLimitMM == nil)
        // The same rest on a clickpad: libinput's software buttons turn the lock off.
        var clickpad = Self.edgeScrolling()
        clickpad.device.isClickpad = true
        #expect(recognize(frames, configuration: clickpad).isEmpty, "1 mm in all: under the 3 mm, and no lock")
    }

    @Test func theBottomEdgeScrollsSidewaysWhenThePadIsTallEnough() throws {
        let frames = finger(PointMM(x: 50, y: 53.5), PointMM(x: 30, y: 0))
        let events = recognize(frames, configuration: Self.edgeScrolling())
        let began = try #require(events.first)
        #expect(began.decision?.rule == .edgeScroll)
        #expect(abs((began.decision?.evidence.fromBottomMM ?? 0) - 6.5) < 1e-9)
        #expect(began.decision?.evidence.fromRightMM == nil)
        let last = try #require(events.last)
        #expect(last.translationMM.y == 0 && last.translationMM.x > 4)
        // Under 40 mm tall there is no bottom edge: the same finger (6.5 mm from a 39 mm pad's bottom) moves the pointer.
        let short = recognize(finger(PointMM(x: 50, y: 32.5), PointMM(x: 30, y: 0)), configuration: Self.edgeScrolling(heightMM: 39))
        #expect(short.isEmpty)
    }

    @Test func aFingerLeavingTheEdgeBeforeScrollingIsAFingerAgain() {
        // Landing in the right edge and heading left out of it: pointer motion, no gesture.
        let events = recognize(finger(PointMM(x: 94, y: 30), PointMM(x: -40, y: -10)), configuration: Self.edgeScrolling())
        #expect(events.isEmpty, "\(states(events))")
    }

    @Test func twoFingersDoNotScrollUnlessTheMethodIsTwoFinger() {
        let two = makeFrames([ScriptedFinger(id: 1, upMS: 400, path: linear(PointMM(x: 40, y: 30), PointMM(x: 0, y: -30))),
                              ScriptedFinger(id: 2, upMS: 400, path: linear(PointMM(x: 55, y: 30), PointMM(x: 0, y: -30)))])
        #expect(recognize(two, configuration: Self.edgeScrolling()).isEmpty)
        #expect(recognize(two, configuration: Self.edgeScrolling(method: .none)).isEmpty)
        #expect(states(recognize(two, configuration: Self.edgeScrolling(method: .twoFinger))) == ["pan.began", "pan.changed", "pan.ended"])
        // With two-finger scrolling a finger along the edge is the pointer.
        #expect(recognize(finger(PointMM(x: 98, y: 30), PointMM(x: 0, y: -20)), configuration: Self.edgeScrolling(method: .twoFinger)).isEmpty)
    }

    @Test func theDefaultMethodIsLibinputsChoiceForTheDevice() {
        var traits = GestureDeviceTraits(deviceClass: .touchpad, maximumFingerCount: 1)
        #expect(ScrollMethod.deviceDefault.resolved(for: traits) == .edge, "a touchpad that counts one finger")
        traits.maximumFingerCount = 2
        #expect(ScrollMethod.deviceDefault.resolved(for: traits) == .twoFinger, "two slots or BTN_TOOL_DOUBLETAP")
        traits.maximumFingerCount = nil
        #expect(ScrollMethod.deviceDefault.resolved(for: traits) == .twoFinger)
        #expect(ScrollMethod.none.resolved(for: traits) == .none)
        traits.deviceClass = .touchscreen
        #expect(ScrollMethod.edge.resolved(for: traits) == .twoFinger, "a touchscreen has no scroll method")
    }

    @Test func anotherFingerWaitsWhileTheEdgeScrollLastsThenIsJudgedAfresh() throws {
        // The edge finger scrolls from 150 ms to its lift at 500; a second finger lands at 250 ms in
        // the middle and stays still: no hold during the scroll, one after it.
        let frames = makeFrames([ScriptedFinger(id: 1, upMS: 500, path: linear(PointMM(x: 98, y: 40), PointMM(x: 0, y: -20))),
                                 ScriptedFinger(id: 2, downMS: 250, upMS: 800, path: still(PointMM(x: 50, y: 30)))])
        var r = TouchGestureRecognizer(configuration: Self.edgeScrolling())
        var events: [GestureEvent] = []
        for f in frames {
            events.append(contentsOf: r.process(f))
            if milliseconds(f.time) >= 150 && milliseconds(f.time) < 500 { #expect(r.gestureInFlight == .pan) }
        }
        checkInvariants(events)
        #expect(states(events) == ["pan.began", "pan.changed", "pan.ended", "hold.began", "hold.ended"])
        let hold = try #require(events.first { $0.kind == .hold })
        #expect(milliseconds(hold.time) == 540, "40 ms (a quick hold) after the scroll ended at 500 ms")
        #expect(r.bugCount == 0)
    }

    @Test func aJumpOfTheScrollingFingerIsSkippedNotACancel() throws {
        // 30 mm down in one frame at 300 ms (a jump), otherwise 20 mm/s up.
        let frames = makeFrames([ScriptedFinger(id: 1, upMS: 500, path: { t in
            PointMM(x: 98, y: 20 - t * 20 + (t >= 0.3 ? 30 : 0))
        })])
        let events = recognize(frames, configuration: Self.edgeScrolling())
        #expect(states(events) == ["pan.began", "pan.changed", "pan.ended"])
        let last = try #require(events.last)
        #expect(abs(last.translationMM.y - (-(0.49 - 0.15) * 20 + 0.2)) < 1e-6, "the jump's frame moved it by nothing")
    }

    @Test func aResyncCancelsTheEdgeScroll() throws {
        var frames = finger(PointMM(x: 98, y: 30), PointMM(x: 0, y: -20))
        frames[25].isResync = true
        let events = recognize(frames, configuration: Self.edgeScrolling())
        let cancelled = try #require(events.first { $0.state == .cancelled })
        #expect(cancelled.decision?.rule == .resync)
        #expect(milliseconds(cancelled.time) == 250)
    }

    /// `--trace` reads the recognizer's state changes: the edge scroll's begin and stop are among
    /// them, marked as the edge scroll's, while the machine beside it stays idle.
    @Test func theEdgeScrollsBeginAndStopAreStateChangesBesideAnIdleMachine() throws {
        var frames = finger(PointMM(x: 98, y: 30), PointMM(x: 0, y: -20))
        frames[25].isResync = true
        var r = TouchGestureRecognizer(configuration: Self.edgeScrolling())
        var changes: [(ms: Double, change: RecognizerStateChange)] = []
        for f in frames {
            _ = r.process(f)
            changes += r.stateChanges.map { (milliseconds(f.time), $0) }
        }
        let edge = changes.filter { $0.change.edgeScroll != nil }
        #expect(edge.map(\.change.edgeScroll) == [.began, .stopped], "\(edge)")
        #expect(edge.allSatisfy { $0.change.from == .idle && $0.change.to == .idle })
        let began = try #require(edge.first), stopped = try #require(edge.last)
        #expect(began.ms == 150 && began.change.input == .motion && began.change.fingers == 1)
        #expect(began.change.decision?.rule == .edgeScroll && began.change.decision?.evidence.edgeWidthMM == 7)
        #expect(stopped.ms == 250 && stopped.change.input == .fault && stopped.change.fingers == 0)
        #expect(stopped.change.decision?.rule == .resync)
        // The finger was left out: the machine itself never left idle while it scrolled.
        #expect(!changes.contains { $0.ms < 250 && $0.change.edgeScroll == nil && $0.change.to != .idle })
        #expect(r.bugCount == 0)
    }

    @Test func theEndOfTheStreamStopsTheEdgeScrollInTheTrace() throws {
        let frames = finger(PointMM(x: 98, y: 30), PointMM(x: 0, y: -20), upMS: 2_000)
        var r = TouchGestureRecognizer(configuration: Self.edgeScrolling())
        for f in frames.prefix(30) { _ = r.process(f) }
        #expect(r.gestureInFlight == .pan)
        _ = r.finish(at: frames[30].time)
        let stopped = try #require(r.stateChanges.first { $0.edgeScroll == .stopped })
        #expect(stopped.input == .endOfStream && stopped.decision?.rule == .endOfStream)
    }
}
