import PinchlabTestSupport
import Testing
@testable import GestureCore

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
        // Moving apart: each finger past pinchOpposingMinMoveMM (1 mm), at 30 mm/s and 10 ms frames:
        // the 40 ms frame (1.2 mm).
        let beganMS = milliseconds(began.time)
        #expect(beganMS == 40)
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
        // The span closes at 80 mm/s, so d(scale)/dt = -80 / span at begin, constant: the least-squares
        // line fits it exactly (1e-6 leaves room for rounding only), from 100 ms on and at the lift
        // 10 ms after the last motion.
        let expectedRate = -80 / spanAtBegin
        #expect(expectedRate < -1.3)
        for e in events where e.state == .changed && milliseconds(e.time) >= 100 {
            #expect(abs(e.scaleVelocity - expectedRate) < 1e-6, "at \(milliseconds(e.time)) ms")
        }
        #expect(abs(ended.scaleVelocity - expectedRate) < 1e-6)
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
    /// orientation, in and out, with jitter, at speeds up to 80 mm/s per finger (0.8 mm between two
    /// 10 ms frames), and with the hysteresis of a device that sets a fuzz.
    @Test(arguments: [0.0, 20, 45, 70, 90, 110, 135, 160])
    func pinchBeginsWithinTwoMillimetres(orientationDegrees: Double) throws {
        let angle = orientationDegrees * .pi / 180
        let axis = PointMM(x: cos(angle), y: sin(angle))
        let center = PointMM(x: 50, y: 35)
        var fuzzed = GestureRecognizerConfiguration.default
        fuzzed.device.fuzzMM = 0.25
        for (configuration, fuzz) in [(GestureRecognizerConfiguration.default, 0.0), (fuzzed, 0.25)] {
            for speed in [-80.0, -25, 10, 25, 80] {
                for seed in UInt64(1)...4 {
                    let fingers = [
                        ScriptedFinger(id: 1, upMS: 300, path: linear(center - axis * 12, axis * -speed)),
                        ScriptedFinger(id: 2, upMS: 300, path: linear(center + axis * 12, axis * speed)),
                    ]
                    let context = "speed \(speed) mm/s, fuzz \(fuzz), seed \(seed)"
                    let events = recognize(makeFrames(fingers, jitterMM: 0.1, seed: seed), configuration: configuration)
                    let began = try #require(events.first, "\(context)")
                    #expect(began.kind == .pinch && began.state == .began, "\(context)")
                    let movedPerFinger = abs(speed) * milliseconds(began.time) / 1000
                    #expect(movedPerFinger <= 2.0, "began after \(movedPerFinger) mm, \(context)")
                    #expect(!events.contains { $0.kind == .pan }, "\(context)")
                }
            }
        }
    }

    /// Turning counts by the arc the fingers travel, not the angle: a wide pinch (80 mm) and a
    /// narrow one (20 mm) both begin within 2 mm of travel per finger.
    @Test(arguments: [20.0, 40, 80])
    func rotationBeginsWithinTwoMillimetresOfArcAtAnySpan(spanMM: Double) throws {
        let center = PointMM(x: 60, y: 35)
        let arcSpeed = 30.0  // mm/s along the circle, per finger
        let rate = arcSpeed / (spanMM / 2)  // rad/s
        func finger(_ id: UInt64, phase: Double) -> ScriptedFinger {
            ScriptedFinger(id: id, upMS: 400) { t in
                let a = phase + rate * t
                return center + PointMM(x: cos(a), y: sin(a)) * (spanMM / 2)
            }
        }
        let events = recognize(makeFrames([finger(1, phase: 0), finger(2, phase: .pi)]), configuration: .touchscreen)
        let began = try #require(events.first)
        #expect(began.kind == .pinch)
        let arc = arcSpeed * milliseconds(began.time) / 1000
        #expect(arc <= 2.0, "began after \(arc) mm of arc at span \(spanMM) mm")
    }

    /// Fingers side by side (libinput's scroll geometry) that close in slowly are no scroll: the
    /// scroll timeout must not take them for one before they have moved far enough to tell.
    @Test func slowSideBySidePinchNeverStartsAsAScroll() throws {
        let fingers = [
            ScriptedFinger(id: 1, upMS: 900, path: linear(PointMM(x: 30, y: 30), PointMM(x: 6, y: 0), fromS: 0.1)),
            ScriptedFinger(id: 2, upMS: 900, path: linear(PointMM(x: 68, y: 34), PointMM(x: -6, y: 0), fromS: 0.1)),
        ]
        let events = recognize(makeFrames(fingers))
        #expect(states(events) == ["pinch.began", "pinch.changed", "pinch.ended"])
        #expect(!events.contains { $0.kind == .pan })
    }

    @Test func rotationIsReportedWrappedToHalfATurn() throws {
        // Fingers 30 mm apart turning about their midpoint at 360°/s for 1.2 s: more than a turn,
        // with per-frame angle deltas crossing the ±180° seam several times. Reported wrapped to
        // ±180° and never jumping between frames by more than the turn between them.
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
        let turned = rate * (1190 - milliseconds(began.time)) / 1000
        #expect(turned > 400)
        var wrapped = turned.truncatingRemainder(dividingBy: 360)
        if wrapped > 180 { wrapped -= 360 }
        #expect(abs(ended.rotationDegrees - wrapped) < 1e-6)
        #expect(events.allSatisfy { abs($0.rotationDegrees) <= 180 })
        for (a, b) in zip(events, events.dropFirst()) where b.state == .changed {
            let step = TouchGestureRecognizer.wrapDegrees(b.rotationDegrees - a.rotationDegrees)
            #expect(abs(step) < 10, "a 10 ms frame turns 3.6°")
        }
        #expect(abs(ended.scale - 1) < 1e-9)
        // Rotation starts within a few degrees (1 mm of arc at a 30 mm span is 7.6°).
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
