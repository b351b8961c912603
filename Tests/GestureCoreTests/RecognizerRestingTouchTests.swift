import PinchlabTestSupport
import Testing
@testable import GestureCore

#if canImport(Glibc)
import Glibc
#endif

/// A third touch that rests while two fingers gesture: mid-pad (a resting finger or a thumb above
/// the band) it must never turn a scroll into a pinch; in the thumb band it must not even delay the
/// gesture.
@Suite struct RecognizerRestingTouchTests {
    /// A 60 mm high touchpad: its thumb band (15 mm) starts at y = 45.
    static let pad: GestureRecognizerConfiguration = {
        var c = GestureRecognizerConfiguration.default
        c.device.heightMM = 60
        return c
    }()

    /// Two fingers side by side, 20 mm apart (the left one at y, the right one 1 mm lower: which is
    /// topmost does not depend on the jitter), moving together at `velocity` mm/s.
    func scrollingPair(y: Double, velocity: PointMM, upMS: Int = 400) -> [ScriptedFinger] {
        [ScriptedFinger(id: 1, upMS: upMS, path: linear(PointMM(x: 40, y: y), velocity)),
         ScriptedFinger(id: 2, upMS: upMS, path: linear(PointMM(x: 60, y: y + 1), velocity))]
    }

    func resting(at p: PointMM, upMS: Int = 400) -> ScriptedFinger {
        ScriptedFinger(id: 3, upMS: upMS, path: still(p))
    }

    // MARK: A still touch beside a scroll (not in the band)

    /// The audit's case: fingers at y = 20 scrolling down, the topmost heading straight at a still
    /// touch at y = 40 (above the band). It used to be a one-sided three-finger pinch (scale 0.34). libinput
    /// suppresses the still lowest touch as a thumb once a finger moved past max_move and the two
    /// fingers then scroll; a touchscreen pans with all three.
    @Test func stillLowerTouchBesideAScrollIsNoPinch() throws {
        let fingers = scrollingPair(y: 20, velocity: PointMM(x: 0, y: 50)) + [resting(at: PointMM(x: 45, y: 40))]
        for configuration in [Self.pad, .default] {
            let events = recognize(makeFrames(fingers, jitterMM: 0.1), configuration: configuration)
            #expect(states(events) == ["pan.began", "pan.changed", "pan.ended"])
            let began = try #require(events.first)
            #expect(began.fingerCount == 2, "the resting touch is suppressed")
            // libinput's order: suppressed when a finger passed max_move (4 + 2 mm for 3 fingers),
            // then the two fingers are judged afresh (1.5 mm): at 50 mm/s, 150 ms.
            #expect(milliseconds(began.time) <= 160)
            let ended = try #require(events.last)
            #expect(abs(ended.velocityMMPerSecond.y - 50) < 3)
        }
        let screen = recognize(makeFrames(fingers, jitterMM: 0.1), configuration: .touchscreen)
        #expect(states(screen) == ["pan.began", "pan.changed", "pan.ended"])
        #expect(screen.first?.fingerCount == 3)
    }

    /// The still touch above the scrolling fingers (the topmost of the tracked pair): no pinch
    /// either, though the topmost still while the lowest moves is libinput's thumb-pinch geometry;
    /// that needs every finger still, and here one moves along with the lowest.
    @Test(arguments: [-50.0, 50.0])
    func stillUpperTouchBesideAScrollIsNoPinch(speed: Double) throws {
        let fingers = scrollingPair(y: 38, velocity: PointMM(x: 0, y: speed), upMS: 300)
            + [resting(at: PointMM(x: 50, y: 15), upMS: 300)]
        let pad = recognize(makeFrames(fingers, jitterMM: 0.1), configuration: Self.pad)
        #expect(states(pad) == ["pan.began", "pan.changed", "pan.ended"])
        #expect(pad.first?.fingerCount == 2)
        let screen = recognize(makeFrames(fingers, jitterMM: 0.1), configuration: .touchscreen)
        #expect(states(screen) == ["pan.began", "pan.changed", "pan.ended"])
        #expect(screen.first?.fingerCount == 3)
    }

    /// libinput's three-finger pinch: the thumb moves while the fingers rest.
    @Test func thumbMovingAgainstStillFingersStillPinches() throws {
        let fingers = [
            ScriptedFinger(id: 1, upMS: 500, path: still(PointMM(x: 40, y: 20))),
            ScriptedFinger(id: 2, upMS: 500, path: still(PointMM(x: 60, y: 18))),
            ScriptedFinger(id: 3, upMS: 500, path: linear(PointMM(x: 50, y: 44), PointMM(x: 0, y: -40))),
        ]
        let events = recognize(makeFrames(fingers))
        #expect(states(events) == ["pinch.began", "pinch.changed", "pinch.ended"])
        #expect(events.first?.fingerCount == 3)
        #expect(try #require(events.last).scale < 0.8)
    }

    // MARK: A thumb resting in the band

    /// Thumb in the band and a pinch above it: left out before deciding, so the pinch begins within
    /// 2 mm of movement per finger, as without a thumb (it used to wait for 6 mm), with the fingers'
    /// scale.
    @Test(arguments: [-40.0, -15, 15, 40])
    func thumbInTheBandDelaysNoPinch(speed: Double) throws {
        for seed in UInt64(1)...4 {
            let fingers = [
                ScriptedFinger(id: 1, upMS: 300, path: linear(PointMM(x: 35, y: 22), PointMM(x: -speed, y: 0))),
                ScriptedFinger(id: 2, upMS: 300, path: linear(PointMM(x: 65, y: 22), PointMM(x: speed, y: 0))),
                resting(at: PointMM(x: 48, y: 53), upMS: 300),
            ]
            let events = recognize(makeFrames(fingers, jitterMM: 0.1, seed: seed), configuration: Self.pad)
            let context = "speed \(speed), seed \(seed)"
            #expect(states(events) == ["pinch.began", "pinch.changed", "pinch.ended"], "\(context)")
            let began = try #require(events.first)
            #expect(began.fingerCount == 2, "\(context)")
            let movedPerFinger = abs(speed) * milliseconds(began.time) / 1000
            #expect(movedPerFinger <= 2.0, "began after \(movedPerFinger) mm, \(context)")
            let span = { (ms: Double) in 30 + 2 * speed * ms / 1000 }
            let ended = try #require(events.last)
            // Jitter of up to 0.1 mm on each finger moves each span by up to 0.2 mm.
            let spanAtBegin = span(milliseconds(began.time)), expected = span(290) / spanAtBegin
            let tolerance = expected * (0.2 / span(290) + 0.2 / spanAtBegin)
            #expect(abs(ended.scale - expected) <= tolerance, "\(context)")
        }
    }

    /// Thumb in the band and a two-finger scroll above it, in four directions: a two-finger pan from
    /// 1.5 mm of movement, as without a thumb (it used to wait for 7.5 mm).
    @Test(arguments: [PointMM(x: 0, y: 50), PointMM(x: 0, y: -50), PointMM(x: 50, y: 0), PointMM(x: -50, y: 0)])
    func thumbInTheBandDelaysNoScroll(velocity: PointMM) throws {
        let fingers = scrollingPair(y: 25, velocity: velocity) + [resting(at: PointMM(x: 45, y: 52))]
        let events = recognize(makeFrames(fingers), configuration: Self.pad)
        #expect(states(events) == ["pan.began", "pan.changed", "pan.ended"])
        let began = try #require(events.first)
        #expect(began.fingerCount == 2)
        #expect(milliseconds(began.time) == 30, "1.5 mm at 50 mm/s")
        let center = PointMM(x: 50, y: 25.5) + velocity * 0.03
        #expect(began.centerMM.distance(to: center) < 1e-9, "the centre of the two fingers, not of three touches")
        let ended = try #require(events.last)
        #expect((ended.translationMM - velocity * 0.36).length < 1e-9)
    }

    /// A thumb that starts in the band but pinches up at the fingers (at half their speed) is a
    /// finger after all: a three-finger pinch, not a scroll of the two fingers closing in on it.
    @Test func thumbPinchingUpFromTheBandIsAFinger() throws {
        let fingers = scrollingPair(y: 20, velocity: PointMM(x: 0, y: 40))
            + [ScriptedFinger(id: 3, upMS: 400, path: linear(PointMM(x: 50, y: 54), PointMM(x: 0, y: -20)))]
        let events = recognize(makeFrames(fingers), configuration: Self.pad)
        #expect(states(events) == ["pinch.began", "pinch.changed", "pinch.ended"])
        #expect(events.first?.fingerCount == 3)
        #expect(try #require(events.last).scale < 0.8)
    }

    /// A thumb in the band with three fingers swiping above it: a three-finger swipe.
    @Test func thumbInTheBandBelowASwipe() throws {
        let fingers = [
            ScriptedFinger(id: 1, upMS: 400, path: linear(PointMM(x: 30, y: 22), PointMM(x: 70, y: 0))),
            ScriptedFinger(id: 2, upMS: 400, path: linear(PointMM(x: 45, y: 19), PointMM(x: 70, y: 0))),
            ScriptedFinger(id: 4, upMS: 400, path: linear(PointMM(x: 60, y: 22), PointMM(x: 70, y: 0))),
            resting(at: PointMM(x: 40, y: 52)),
        ]
        let events = recognize(makeFrames(fingers), configuration: Self.pad)
        #expect(states(events) == ["pan.began", "pan.changed", "pan.ended"])
        let began = try #require(events.first)
        #expect(began.fingerCount == 3)
        // min_move for three fingers is 2 mm: at 70 mm/s, the 30 ms frame.
        #expect(milliseconds(began.time) == 30)
    }

    /// Three fingers swiping low on the pad, the lowest in the band: they all move, so none is a
    /// thumb.
    @Test func swipeReachingIntoTheBandKeepsAllItsFingers() throws {
        let fingers = [
            ScriptedFinger(id: 1, upMS: 400, path: linear(PointMM(x: 30, y: 40), PointMM(x: 70, y: 0))),
            ScriptedFinger(id: 2, upMS: 400, path: linear(PointMM(x: 45, y: 37), PointMM(x: 70, y: 0))),
            ScriptedFinger(id: 4, upMS: 400, path: linear(PointMM(x: 60, y: 47), PointMM(x: 70, y: 0))),
        ]
        let events = recognize(makeFrames(fingers, jitterMM: 0.1), configuration: Self.pad)
        #expect(states(events) == ["pan.began", "pan.changed", "pan.ended"])
        #expect(events.first?.fingerCount == 3)
    }
}
