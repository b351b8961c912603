import Testing
@testable import GestureKit

#if canImport(Glibc)
import Glibc
#endif

@Suite struct RecognizerPinchTests {
    /// Two fingers on a vertical line through x = 50, moving apart (speed > 0) or together, each at
    /// `speed` mm/s, from a span of `span` mm.
    func verticalPinch(span: Double, speed: Double, upMS: Int = 500) -> [ScriptedFinger] {
        [ScriptedFinger(id: 1, upMS: upMS, path: linear(PointMM(x: 50, y: 30 - span / 2), PointMM(x: 0, y: -speed))),
         ScriptedFinger(id: 2, upMS: upMS, path: linear(PointMM(x: 50, y: 30 + span / 2), PointMM(x: 0, y: speed)))]
    }

    func span(at ms: Double, initial: Double, speed: Double) -> Double { initial + 2 * speed * ms / 1000 }

    @Test func pinchOutReportsAbsoluteScaleAndVelocity() throws {
        let events = recognize(makeFrames(verticalPinch(span: 20, speed: 30)))
        #expect(states(events) == ["pinch.began", "pinch.changed", "pinch.ended"])
        let began = try #require(events.first)
        #expect(began.fingerCount == 2)
        #expect(abs(began.centerMM.x - 50) < 1e-9 && abs(began.centerMM.y - 30) < 1e-9)
        // Each finger past libinput's 1.5 mm min_move, at 30 mm/s and 10 ms frames: the 50 ms frame.
        let beganMS = milliseconds(began.time)
        #expect(beganMS == 50)
        let spanAtBegin = span(at: beganMS, initial: 20, speed: 30)
        let ended = try #require(events.last)
        #expect(milliseconds(ended.time) == 500)
        // The lift frame repeats the 490 ms positions.
        #expect(abs(ended.scale - span(at: 490, initial: 20, speed: 30) / spanAtBegin) < 1e-9)
        #expect(ended.scale > 2)
        // d(scale)/dt = 2 * 30 / span at begin.
        let expectedRate = 60 / spanAtBegin
        for e in events where e.state == .changed && milliseconds(e.time) >= 100 {
            #expect(abs(e.scaleVelocity - expectedRate) < 1e-6)
            #expect(abs(e.rotationDegrees) < 1e-9)
            #expect(abs(e.translationMM.x) < 1e-9 && abs(e.translationMM.y) < 1e-9)
        }
        #expect(abs(ended.scaleVelocity - expectedRate) < 1e-6, "lift 10 ms after the last motion keeps the velocity")
        // Scale grows monotonically.
        let scales = events.map(\.scale)
        #expect(zip(scales, scales.dropFirst()).allSatisfy { $0 <= $1 })
    }

    @Test func pinchInScalesDown() throws {
        let events = recognize(makeFrames(verticalPinch(span: 60, speed: -40)))
        #expect(states(events) == ["pinch.began", "pinch.changed", "pinch.ended"])
        let began = try #require(events.first)
        let spanAtBegin = span(at: milliseconds(began.time), initial: 60, speed: -40)
        let ended = try #require(events.last)
        #expect(abs(ended.scale - span(at: 490, initial: 60, speed: -40) / spanAtBegin) < 1e-9)
        #expect(ended.scale < 0.5)
        #expect(ended.scaleVelocity < 0)
    }

    @Test func horizontalPinchOfSideBySideFingers() throws {
        let fingers = [
            ScriptedFinger(id: 1, upMS: 400, path: linear(PointMM(x: 40, y: 30), PointMM(x: -50, y: 0))),
            ScriptedFinger(id: 2, upMS: 400, path: linear(PointMM(x: 60, y: 30), PointMM(x: 50, y: 0))),
        ]
        let events = recognize(makeFrames(fingers))
        #expect(states(events) == ["pinch.began", "pinch.changed", "pinch.ended"])
        let ended = try #require(events.last)
        let began = try #require(events.first)
        let spanAtBegin = 20 + 100 * milliseconds(began.time) / 1000
        #expect(abs(ended.scale - (20 + 100 * 0.39) / spanAtBegin) < 1e-9)
    }

    /// Acceptance: opposite movement begins a pinch within 2 mm of movement per finger, in every
    /// orientation and with jitter.
    @Test(arguments: [0.0, 20, 45, 70, 90, 110, 135, 160])
    func pinchBeginsWithinTwoMillimetres(orientationDegrees: Double) throws {
        let angle = orientationDegrees * .pi / 180
        let axis = PointMM(x: cos(angle), y: sin(angle))
        let center = PointMM(x: 50, y: 35)
        for seed in UInt64(1)...8 {
            let speed = 25.0
            let fingers = [
                ScriptedFinger(id: 1, upMS: 300, path: linear(center - axis * 12, axis * -speed)),
                ScriptedFinger(id: 2, upMS: 300, path: linear(center + axis * 12, axis * speed)),
            ]
            let events = recognize(makeFrames(fingers, jitterMM: 0.1, seed: seed))
            let began = try #require(events.first, "seed \(seed)")
            #expect(began.kind == .pinch && began.state == .began, "seed \(seed)")
            let movedPerFinger = speed * milliseconds(began.time) / 1000
            #expect(movedPerFinger <= 2.0, "began after \(movedPerFinger) mm, seed \(seed)")
            #expect(!events.contains { $0.kind == .pan }, "seed \(seed)")
        }
    }

    @Test func rotationAccumulatesBeyondHalfATurn() throws {
        // Fingers 30 mm apart turning about their midpoint at 360°/s for 1.2 s: 432° in all, with
        // per-frame angle deltas crossing the ±180° seam several times.
        let center = PointMM(x: 50, y: 35)
        let rate = 360.0
        func finger(_ id: UInt64, phaseDegrees: Double) -> ScriptedFinger {
            ScriptedFinger(id: id, upMS: 1200) { t in
                let a = (phaseDegrees + rate * t) * .pi / 180
                return center + PointMM(x: cos(a), y: sin(a)) * 15
            }
        }
        let events = recognize(makeFrames([finger(1, phaseDegrees: -90), finger(2, phaseDegrees: 90)]))
        #expect(states(events) == ["pinch.began", "pinch.changed", "pinch.ended"])
        let began = try #require(events.first)
        let ended = try #require(events.last)
        let expected = rate * (1190 - milliseconds(began.time)) / 1000
        #expect(abs(ended.rotationDegrees - expected) < 1e-6)
        #expect(expected > 400)
        #expect(abs(ended.scale - 1) < 1e-9)
        // Rotation starts within a few degrees (intent slop 5°, libinput min_move 1.5 mm).
        #expect(milliseconds(began.time) <= 30)
    }

    @Test func fingersStartingAtOnePointStayFinite() throws {
        // Both touches reported at the same point, then moving apart: the scale's denominator is
        // never zero, so every value is finite (checked by the harness) and a pinch begins.
        let p = PointMM(x: 50, y: 30)
        let fingers = [
            ScriptedFinger(id: 1, upMS: 300, path: linear(p, PointMM(x: 0, y: -30))),
            ScriptedFinger(id: 2, upMS: 300, path: linear(p, PointMM(x: 0, y: 30))),
        ]
        let events = recognize(makeFrames(fingers))
        let began = try #require(events.first)
        #expect(began.kind == .pinch)
        #expect(events.map(\.scale).allSatisfy { $0 >= 1 && $0 < 20 })
    }

    @Test func threeFingerPinchFollowsTopmostAndBottommost() throws {
        // Thumb at the bottom moving down, two fingers at the top moving up.
        let fingers = [
            ScriptedFinger(id: 1, upMS: 400, path: linear(PointMM(x: 40, y: 20), PointMM(x: 0, y: -30))),
            ScriptedFinger(id: 2, upMS: 400, path: linear(PointMM(x: 60, y: 18), PointMM(x: 0, y: -30))),
            ScriptedFinger(id: 3, upMS: 400, path: linear(PointMM(x: 50, y: 45), PointMM(x: 0, y: 30))),
        ]
        let events = recognize(makeFrames(fingers))
        #expect(states(events) == ["pinch.began", "pinch.changed", "pinch.ended"])
        let began = try #require(events.first)
        #expect(began.fingerCount == 3)
        // Tracked: finger 2 (topmost, y 18) and the thumb (y 45): span 27 growing at 60 mm/s
        // (plus a horizontal offset of 10 mm).
        func span(_ ms: Double) -> Double {
            let dy = 27 + 60 * ms / 1000
            return (dy * dy + 100).squareRoot()
        }
        let ended = try #require(events.last)
        #expect(abs(ended.scale - span(390) / span(milliseconds(began.time))) < 1e-9)
    }

    @Test func pinchTurnedOffGivesPan() throws {
        var config = GestureRecognizerConfiguration.default
        config.pinchMaximumFingerCount = 0
        let events = recognize(makeFrames(verticalPinch(span: 20, speed: 30)), configuration: config)
        #expect(!events.contains { $0.kind == .pinch })
    }
}
