import PinchlabTestSupport
import Testing
@testable import GestureCore

/// The frame scripts the recognizer tests are built from (PinchlabTestSupport) do what they say.
@Suite struct ScriptedFramesTests {
    @Test func framesCarryPhasesAndCounts() {
        let frames = makeFrames([
            ScriptedFinger(id: 1, upMS: 30, path: linear(PointMM(x: 10, y: 10), PointMM(x: 100, y: 0))),
            ScriptedFinger(id: 2, downMS: 10, upMS: 20, path: still(PointMM(x: 30, y: 10))),
        ])
        #expect(frames.map { milliseconds($0.time) } == [0, 10, 20, 30])
        #expect(frames.map(\.fingerCount) == [1, 2, 1, 0])
        #expect(frames[0].touches[0].phase == .began)
        #expect(frames[1].touches[0].phase == .moved)
        #expect(frames[1].touches[1].phase == .began)
        #expect(frames[2].touches[1].phase == .ended)
        #expect(frames[3].touches[0].phase == .ended)
        // 100 mm/s for 20 ms: 2 mm; the lift repeats the last position.
        #expect(abs(frames[3].touches[0].position.x - 12) < 1e-9)
    }

    @Test func jitterIsSeededAndBounded() {
        var a = SeededRandom(seed: 7), b = SeededRandom(seed: 7)
        for _ in 0..<100 {
            let x = a.offset(0.2)
            #expect(x == b.offset(0.2))
            #expect(abs(x) <= 0.2)
        }
    }
}
