import PinchlabTestSupport
import Testing
@testable import GestureCore

#if canImport(Glibc)
import Glibc
#endif

@Suite struct RecognizerPanTests {
    func parallel(_ count: Int, velocity: PointMM, upMS: Int = 400, spacing: Double = 20) -> [ScriptedFinger] {
        var fingers: [ScriptedFinger] = []
        for i in 0..<count {
            let x: Double = 30 + Double(i) * spacing
            let y: Double = 30 + Double(i % 2) * 3
            fingers.append(ScriptedFinger(id: UInt64(i + 1), upMS: upMS, path: linear(PointMM(x: x, y: y), velocity)))
        }
        return fingers
    }

    @Test func twoFingerScrollReportsTranslationAndVelocity() throws {
        let v = PointMM(x: 0, y: 60)
        let events = recognize(makeFrames(parallel(2, velocity: v)))
        #expect(states(events) == ["pan.began", "pan.changed", "pan.ended"])
        let began = try #require(events.first)
        #expect(began.fingerCount == 2)
        // Both fingers past min_move 1.5 mm at 60 mm/s: the 30 ms frame.
        #expect(milliseconds(began.time) == 30)
        let ended = try #require(events.last)
        // Translation since began: 60 mm/s from 30 ms to the last motion at 390 ms.
        #expect(abs(ended.translationMM.y - 60 * 0.36) < 1e-9)
        #expect(abs(ended.translationMM.x) < 1e-9)
        #expect(abs(ended.velocityMMPerSecond.y - 60) < 1e-6)
        #expect(abs(ended.scale - 1) < 1e-12)
        for e in events where e.state == .changed && milliseconds(e.time) > 60 {
            #expect(abs(e.velocityMMPerSecond.y - 60) < 1e-6 && abs(e.velocityMMPerSecond.x) < 1e-6)
        }
    }

    /// Acceptance: a parallel two-finger scroll never begins a pinch, in any direction, with jitter.
    @Test(arguments: Array(stride(from: 0.0, to: 360.0, by: 22.5)))
    func parallelScrollNeverPinches(directionDegrees: Double) {
        let a = directionDegrees * .pi / 180
        let v = PointMM(x: cos(a), y: sin(a)) * 50
        for seed in UInt64(1)...12 {
            for spacing in [15.0, 25.0, 45.0] {
                let events = recognize(makeFrames(parallel(2, velocity: v, spacing: spacing), jitterMM: 0.15, seed: seed))
                #expect(!events.contains { $0.kind == .pinch }, "pinch for \(directionDegrees)° seed \(seed) spacing \(spacing)")
                #expect(events.first?.kind == .pan && events.first?.state == .began,
                        "no pan for \(directionDegrees)° seed \(seed) spacing \(spacing)")
                if let ended = events.last, ended.state == .ended {
                    // Translation tracks the script within the jitter (averaged over two fingers).
                    let beganMS = milliseconds(events[0].time)
                    let expected = v * ((390 - beganMS) / 1000)
                    #expect((ended.translationMM - expected).length < 0.5)
                    #expect((ended.velocityMMPerSecond - v).length < 0.15 * 50)
                }
            }
        }
    }

    @Test func oneFingerOnATouchpadIsNoGesture() {
        let finger = [ScriptedFinger(id: 1, upMS: 400, path: linear(PointMM(x: 30, y: 30), PointMM(x: 80, y: 20)))]
        #expect(recognize(makeFrames(finger)).isEmpty)
    }

    @Test func oneFingerOnATouchscreenPansAfterTheSlop() throws {
        let finger = [ScriptedFinger(id: 1, upMS: 400, path: linear(PointMM(x: 30, y: 30), PointMM(x: 80, y: 0)))]
        let events = recognize(makeFrames(finger), configuration: .touchscreen)
        #expect(states(events) == ["pan.began", "pan.changed", "pan.ended"])
        let began = try #require(events.first)
        #expect(began.fingerCount == 1)
        // 3 mm slop at 80 mm/s: 37.5 ms, so the 40 ms frame.
        #expect(milliseconds(began.time) == 40)
        let ended = try #require(events.last)
        #expect(abs(ended.translationMM.x - 80 * 0.35) < 1e-9)
        #expect(abs(ended.velocityMMPerSecond.x - 80) < 1e-6)
    }

    @Test func threeFingerSwipe() throws {
        let v = PointMM(x: -70, y: 0)
        let events = recognize(makeFrames(parallel(3, velocity: v, spacing: 15)))
        #expect(states(events) == ["pan.began", "pan.changed", "pan.ended"])
        let began = try #require(events.first)
        #expect(began.fingerCount == 3)
        let ended = try #require(events.last)
        #expect(abs(ended.translationMM.x - -70 * (390 - milliseconds(began.time)) / 1000) < 1e-9)
        #expect(abs(ended.velocityMMPerSecond.x + 70) < 1e-6)
    }

    @Test func swipeOutsideTheConfiguredFingerCountsIsSilent() {
        var config = GestureRecognizerConfiguration.default
        config.panMaximumFingerCount = 2
        #expect(recognize(makeFrames(parallel(3, velocity: PointMM(x: 0, y: 70), spacing: 15)), configuration: config).isEmpty)
    }

    @Test(arguments: [1, 2, 3])
    func tapsProduceNothing(fingers: Int) {
        var taps: [ScriptedFinger] = []
        for i in 0..<fingers {
            let x: Double = 30 + Double(i) * 18
            taps.append(ScriptedFinger(id: UInt64(i + 1), upMS: 90, path: still(PointMM(x: x, y: 30))))
        }
        for seed in UInt64(1)...5 {
            #expect(recognize(makeFrames(taps, jitterMM: 0.2, seed: seed)).isEmpty)
            #expect(recognize(makeFrames(taps, jitterMM: 0.2, seed: seed), configuration: .touchscreen).isEmpty)
        }
    }

    @Test func fingersRestingSideBySideScrollAfterTheTimeout() throws {
        // Slow motion (8 mm/s): nothing is decided below 1 mm, and after 150 ms fingers that lie side by
        // side (< 40 mm apart horizontally, < 7 mm vertically) are taken for a scroll.
        let events = recognize(makeFrames(parallel(2, velocity: PointMM(x: 8, y: 0), upMS: 600)))
        let began = try #require(events.first)
        #expect(began.kind == .pan)
        // The first 10 ms frame past 150 ms: 160 ms, both fingers at 1.28 mm (undecided, < 1.5 mm).
        #expect(milliseconds(began.time) == 160)
        #expect(began.decision?.rule == .sideBySideTimeout)
        #expect(began.decision?.evidence.waitedMS == 160)
        #expect(began.decision?.evidence.timeoutMS == 150)
    }
}
