import PinchlabTestSupport
import Testing
@testable import GestureCore

/// Decisions at their exact edges: the frame at which a timeout is due, the last moment of a window.
/// Each test here was written against a small change to the recognizer that every other suite let
/// through (a `<` for a `<=`, a condition left out), and fails with that change.
@Suite struct RecognizerBoundaryTests {
    /// Runs `frames` one at a time and returns, for each frame, the events its `process` returned.
    func eventsPerFrame(_ frames: [TouchFrame], configuration: GestureRecognizerConfiguration)
        -> [(frameMS: Double, events: [GestureEvent])] {
        var recognizer = TouchGestureRecognizer(configuration: configuration)
        return frames.map { frame in (milliseconds(frame.time), Array(recognizer.process(frame))) }
    }

    /// A hold due exactly at a frame's time begins in that frame, not in the next one (where it
    /// would still carry the due time, so only the frame that returns it tells).
    @Test(arguments: [(2, 40.0), (3, 180.0)])
    func aHoldDueAtAFramesTimeBeginsInThatFrame(fingers: Int, timeoutMS: Double) throws {
        let still = (0..<fingers).map { i in
            ScriptedFinger(id: UInt64(i + 1), upMS: 400, path: PinchlabTestSupport.still(PointMM(x: 20 + 12 * Double(i), y: 30)))
        }
        let perFrame = eventsPerFrame(makeFrames(still, stepMS: 10), configuration: .default)
        let holdFrame = try #require(perFrame.first { $0.events.contains { $0.kind == .hold && $0.state == .began } })
        #expect(holdFrame.frameMS == timeoutMS, "the frame at \(timeoutMS) ms is when the hold is due")
        #expect(milliseconds(try #require(holdFrame.events.first { $0.kind == .hold }).time) == timeoutMS)

        // Frames 15 ms apart: a hold due between two frames (40 ms) begins in the first frame after
        // it (45 ms), stamped with the time it was due; one due on a frame (180 ms) in that frame.
        let sparse = eventsPerFrame(makeFrames(still, stepMS: 15), configuration: .default)
        let late = try #require(sparse.first { $0.events.contains { $0.kind == .hold && $0.state == .began } })
        #expect(late.frameMS == (timeoutMS / 15).rounded(.up) * 15)
        #expect(milliseconds(try #require(late.events.first { $0.kind == .hold }).time) == timeoutMS)
    }

    /// Two side-by-side fingers, one still and the other closing in on it slowly: the span changes,
    /// so the side-by-side timeout (150 ms) must not make it a scroll; it becomes a one-sided pinch
    /// once the moving finger has gone `maxMoveMM` (4 mm at 8 mm/s: 500 ms).
    @Test func aSlowOneSidedPinchOfSideBySideFingersIsNoScrollAtTheTimeout() throws {
        let fingers = [
            ScriptedFinger(id: 1, upMS: 800, path: PinchlabTestSupport.still(PointMM(x: 30, y: 30))),
            ScriptedFinger(id: 2, upMS: 800, path: linear(PointMM(x: 55, y: 30), PointMM(x: -8, y: 0))),
        ]
        var pad = GestureRecognizerConfiguration.default
        pad.device.heightMM = 60
        let events = recognize(makeFrames(fingers), configuration: pad)
        #expect(!events.contains { $0.kind == .pan }, "no scroll: \(states(events))")
        let began = try #require(events.first)
        #expect(began.kind == .pinch && began.state == .began)
        #expect(milliseconds(began.time) >= 500, "decided by the moving finger's travel, not at the 150 ms timeout")
        #expect(began.decision?.rule != .sideBySideTimeout)
    }

    /// A two-finger scroll can still turn into a pinch for `pinchCorrectionWindowMS` (300 ms) from
    /// the start of the decision; at exactly 300 ms the window has closed and the pinch has failed.
    @Test func thePinchFailsWhenTheScrollToPinchWindowEnds() throws {
        let parallel = [
            ScriptedFinger(id: 1, upMS: 600, path: linear(PointMM(x: 30, y: 30), PointMM(x: 20, y: 0))),
            ScriptedFinger(id: 2, upMS: 600, path: linear(PointMM(x: 50, y: 30), PointMM(x: 20, y: 0))),
        ]
        var recognizer = TouchGestureRecognizer(configuration: GestureRecognizerConfiguration.default.withoutHolds)
        var panBegan: Double?
        var pinchByFrame: [Double: RecognizerState] = [:]
        for frame in makeFrames(parallel, stepMS: 10) {
            for event in recognizer.process(frame) where event.kind == .pan && event.state == .began {
                panBegan = milliseconds(event.time)
            }
            pinchByFrame[milliseconds(frame.time)] = recognizer.state(of: .pinch)
        }
        let began = try #require(panBegan)
        #expect(began < 290, "the scroll began inside the window")
        #expect(pinchByFrame[290] == .possible, "10 ms before the window closes a pinch may still come")
        #expect(pinchByFrame[300] == .failed, "the window is 300 ms: at 300 ms it is closed")
    }
}
