import PinchlabTestSupport
import Testing
@testable import GestureCore

/// Holds after libinput: fingers down and still past the hold timeout (180 ms; 40 ms for one or two
/// fingers, libinput's quick hold) begin a hold; motion ends it cancelled and the decision goes on;
/// lifting ends it.
@Suite struct RecognizerHoldTests {

    func stillFingers(_ n: Int, upMS: Int) -> [ScriptedFinger] {
        (0..<n).map { i in ScriptedFinger(id: UInt64(i + 1), upMS: upMS, path: still(PointMM(x: 20 + 12 * Double(i), y: 30))) }
    }

    @Test(arguments: [(1, 40.0), (2, 40.0), (3, 180.0), (4, 180.0)])
    func stillFingersHoldAfterLibinputsTimeoutAndLiftingEndsIt(fingers: Int, timeoutMS: Double) throws {
        let events = recognize(makeFrames(stillFingers(fingers, upMS: 400)), holds: true)
        #expect(states(events) == ["hold.began", "hold.ended"])
        let began = try #require(events.first)
        #expect(milliseconds(began.time) == timeoutMS)
        #expect(began.fingerCount == fingers)
        #expect(began.decision?.rule == .holdTimeout)
        #expect(began.decision?.evidence.timeoutMS == timeoutMS)
        #expect(began.decision?.evidence.waitedMS == timeoutMS)
        let ended = try #require(events.last)
        #expect(milliseconds(ended.time) == 400)
        #expect(ended.decision?.rule == .allLifted)
        #expect(ended.decision?.evidence.fingersBefore == fingers)
    }

    @Test func fiveFingersDoNotHold() {
        #expect(recognize(makeFrames(stillFingers(5, upMS: 400)), holds: true).isEmpty)
    }

    @Test func aTapShorterThanTheTimeoutHoldsNothing() {
        #expect(recognize(makeFrames(stillFingers(2, upMS: 30)), holds: true).isEmpty)
        #expect(recognize(makeFrames(stillFingers(3, upMS: 150)), holds: true).isEmpty)
    }

    /// libinput's quick hold: a 150 ms two-finger tap holds from 40 ms until the fingers lift (a
    /// lifted hold ends, not cancelled), whether tapping is on or not; the corpus calls it the tap
    /// it was (`RecognizedGesture.sequence`).
    @Test func aTwoFingerTapLongerThanTheQuickTimeoutIsAHoldAsInLibinput() throws {
        let events = recognize(makeFrames(stillFingers(2, upMS: 150)), holds: true)
        #expect(states(events) == ["hold.began", "hold.ended"])
        #expect(milliseconds(try #require(events.first).time) == 40)
        #expect(events.last?.decision?.rule == .allLifted)
    }

    /// libinput turns holds on with its gestures: a touchpad that cannot track each finger (semi-MT,
    /// one slot) holds nothing.
    @Test func aTouchpadWithoutFingerPositionsHoldsNothing() {
        var semiMT = GestureRecognizerConfiguration.default
        semiMT.device.fingerPositionsTracked = false
        #expect(recognize(makeFrames(stillFingers(1, upMS: 400)), configuration: semiMT, holds: true).isEmpty)
        #expect(recognize(makeFrames(stillFingers(2, upMS: 400)), configuration: semiMT, holds: true).isEmpty)
        #expect(states(recognize(makeFrames(stillFingers(1, upMS: 400)), holds: true)) == ["hold.began", "hold.ended"])
    }

    @Test func motionCancelsTheHoldAndThePinchThatFollowsBegins() throws {
        // Two fingers rest 100 ms, then move apart at 30 mm/s each.
        let fingers = [
            ScriptedFinger(id: 1, upMS: 500, path: linear(PointMM(x: 50, y: 20), PointMM(x: 0, y: -30), fromS: 0.1)),
            ScriptedFinger(id: 2, upMS: 500, path: linear(PointMM(x: 50, y: 40), PointMM(x: 0, y: 30), fromS: 0.1)),
        ]
        let events = recognize(makeFrames(fingers), holds: true)
        #expect(states(events) == ["hold.began", "hold.cancelled", "pinch.began", "pinch.changed", "pinch.ended"])
        let cancelled = try #require(events.first { $0.kind == .hold && $0.state == .cancelled })
        #expect(cancelled.decision?.rule == .motionEndsHold)
        let pinch = try #require(events.first { $0.kind == .pinch })
        // The hold is cancelled in the frame the pinch begins: the decision went on underneath it.
        #expect(cancelled.time == pinch.time)
        #expect(pinch.decision?.rule == .opposingFingers)
    }

    @Test func aHoldBeginsAtItsTimeoutEvenWhenNoFrameComesThen() throws {
        // A touchpad sends no frames while fingers rest: the next frame (or advance) stamps the hold
        // with the time the timeout ran out, not its own.
        var frames = makeFrames(stillFingers(3, upMS: 400))
        frames.removeAll { (10...390).contains(milliseconds($0.time)) }
        let events = recognize(frames, holds: true)
        #expect(states(events) == ["hold.began", "hold.ended"])
        #expect(milliseconds(try #require(events.first).time) == 180)
    }

    @Test func fingersLiftingOneByOneEndTheHold() throws {
        let fingers = [
            ScriptedFinger(id: 1, upMS: 300, path: still(PointMM(x: 30, y: 30))),
            ScriptedFinger(id: 2, upMS: 320, path: still(PointMM(x: 45, y: 30))),
        ]
        let events = recognize(makeFrames(fingers), holds: true)
        #expect(states(events) == ["hold.began", "hold.ended"])
        #expect(milliseconds(events[1].time) == 320)
        #expect(events[1].fingerCount == 2)
    }

    @Test func aFingerLandingEndsTheHoldAndANewOneFollows() throws {
        let fingers = [
            ScriptedFinger(id: 1, upMS: 600, path: still(PointMM(x: 30, y: 30))),
            ScriptedFinger(id: 2, downMS: 200, upMS: 600, path: still(PointMM(x: 45, y: 30))),
        ]
        let events = recognize(makeFrames(fingers), holds: true)
        #expect(states(events) == ["hold.began", "hold.cancelled", "hold.began", "hold.ended"])
        // The count change waits out the 100 ms debounce (as for a pan or pinch), then cancels.
        #expect(milliseconds(events[1].time) == 300)
        #expect(events[1].decision?.rule == .fingerCountChange)
        #expect(events[1].decision?.evidence.fingersBefore == 1 && events[1].decision?.evidence.fingersAfter == 2)
        // The two fingers are judged afresh from the 300 ms frame: a quick hold 40 ms later.
        #expect(milliseconds(events[2].time) == 340)
        #expect(events[2].fingerCount == 2)
    }

    @Test func aTouchscreenHoldIsALongPress() throws {
        let events = recognize(makeFrames(stillFingers(1, upMS: 700)), configuration: .touchscreen, holds: true)
        #expect(states(events) == ["hold.began", "hold.ended"])
        #expect(milliseconds(try #require(events.first).time) == 500)
    }

    @Test func theHoldLifecycleFailsWhenAPanBegins() {
        var r = TouchGestureRecognizer()
        let fingers = [
            ScriptedFinger(id: 1, upMS: 300, path: linear(PointMM(x: 30, y: 30), PointMM(x: 0, y: 80))),
            ScriptedFinger(id: 2, upMS: 300, path: linear(PointMM(x: 45, y: 30), PointMM(x: 0, y: 80))),
        ]
        for f in makeFrames(fingers, untilMS: 150) { _ = r.process(f) }
        #expect(r.gestureInFlight == .pan)
        #expect(r.state(of: .hold) == .failed)
    }
}
