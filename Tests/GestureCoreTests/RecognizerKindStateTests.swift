import PinchlabTestSupport
import Testing
@testable import GestureCore

/// Pinch and pan as two UIKit-style recognizers watching the same touches: each goes
/// possible -> began -> changed* -> ended | cancelled, or possible -> failed.
@Suite struct RecognizerKindStateTests {
    /// Runs frames one by one and records both kinds' states after each.
    func trace(_ frames: [TouchFrame], configuration: GestureRecognizerConfiguration = .default)
        -> (recognizer: TouchGestureRecognizer, pinch: [RecognizerState], pan: [RecognizerState]) {
        var r = TouchGestureRecognizer(configuration: configuration.withoutHolds)
        var pinch: [RecognizerState] = [], pan: [RecognizerState] = []
        for frame in frames {
            _ = r.process(frame)
            pinch.append(r.state(of: .pinch))
            pan.append(r.state(of: .pan))
        }
        return (r, pinch, pan)
    }

    /// The distinct states in order, repeats folded.
    func path(_ states: [RecognizerState]) -> [RecognizerState] {
        states.reduce(into: []) { if $0.last != $1 { $0.append($1) } }
    }

    @Test func aTapFailsBoth() {
        let tap = [
            ScriptedFinger(id: 1, upMS: 80, path: still(PointMM(x: 40, y: 30))),
            ScriptedFinger(id: 2, upMS: 80, path: still(PointMM(x: 60, y: 30))),
        ]
        let t = trace(makeFrames(tap))
        #expect(path(t.pinch) == [.possible, .failed])
        #expect(path(t.pan) == [.possible, .failed])
    }

    @Test func aPinchFailsThePan() {
        let pinch = [
            ScriptedFinger(id: 1, upMS: 300, path: linear(PointMM(x: 50, y: 20), PointMM(x: 0, y: -30))),
            ScriptedFinger(id: 2, upMS: 300, path: linear(PointMM(x: 50, y: 40), PointMM(x: 0, y: 30))),
        ]
        let t = trace(makeFrames(pinch))
        #expect(path(t.pinch) == [.possible, .began, .changed, .ended])
        #expect(path(t.pan) == [.possible, .failed])
    }

    /// A two-finger scroll leaves the pinch possible while it could still be corrected into one,
    /// then fails it.
    @Test func aScrollFailsThePinchOnceTheCorrectionWindowIsOver() {
        let scroll = [
            ScriptedFinger(id: 1, upMS: 600, path: linear(PointMM(x: 40, y: 20), PointMM(x: 0, y: 40))),
            ScriptedFinger(id: 2, upMS: 600, path: linear(PointMM(x: 60, y: 20), PointMM(x: 0, y: 40))),
        ]
        let frames = makeFrames(scroll)
        let t = trace(frames)
        #expect(path(t.pan) == [.possible, .began, .changed, .ended])
        #expect(path(t.pinch) == [.possible, .failed])
        let began = t.pan.firstIndex(of: .began)!
        let failed = t.pinch.firstIndex(of: .failed)!
        #expect(failed > began)
        #expect(milliseconds(frames[failed].time) >= 300, "not before the 300 ms correction window")
    }

    @Test func aScrollCorrectedIntoAPinch() {
        // Side by side, both moving up; after 100 ms they turn apart.
        let fingers = [
            ScriptedFinger(id: 1, upMS: 400) { t in PointMM(x: 40 - max(0, t - 0.1) * 60, y: 40 - 30 * t) },
            ScriptedFinger(id: 2, upMS: 400) { t in PointMM(x: 60 + max(0, t - 0.1) * 60, y: 40 - 30 * t) },
        ]
        let t = trace(makeFrames(fingers))
        #expect(path(t.pan) == [.possible, .began, .changed, .cancelled])
        #expect(path(t.pinch) == [.possible, .began, .changed, .ended])
    }

    @Test func theNextTouchStartsBothAfresh() {
        let tapThenPinch = [
            ScriptedFinger(id: 1, upMS: 60, path: still(PointMM(x: 40, y: 30))),
            ScriptedFinger(id: 2, upMS: 60, path: still(PointMM(x: 60, y: 30))),
            ScriptedFinger(id: 3, downMS: 200, upMS: 500, path: linear(PointMM(x: 50, y: 20), PointMM(x: 0, y: -30), fromS: 0.2)),
            ScriptedFinger(id: 4, downMS: 200, upMS: 500, path: linear(PointMM(x: 50, y: 40), PointMM(x: 0, y: 30), fromS: 0.2)),
        ]
        let t = trace(makeFrames(tapThenPinch))
        #expect(path(t.pinch) == [.possible, .failed, .possible, .began, .changed, .ended])
        #expect(path(t.pan) == [.possible, .failed, .possible, .failed])
    }
}
