import PinchlabTestSupport
import Testing
@testable import GestureCore

/// Finger-count changes, resting thumbs, resyncs, jumps, bad numbers and the end of the stream.
@Suite struct RecognizerFaultTests {
    /// A vertical pinch-out of fingers 1 and 2, 20 mm apart, each at 30 mm/s.
    func pinchFingers(upMS: Int = 600, secondUpMS: Int? = nil) -> [ScriptedFinger] {
        [ScriptedFinger(id: 1, upMS: upMS, path: linear(PointMM(x: 50, y: 20), PointMM(x: 0, y: -30))),
         ScriptedFinger(id: 2, upMS: secondUpMS ?? upMS, path: linear(PointMM(x: 50, y: 40), PointMM(x: 0, y: 30)))]
    }

    @Test func allFingersLiftedEndsNotCancels() throws {
        // Lifted 30 ms apart: within the debounce, so the gesture ends normally.
        let events = recognize(makeFrames(pinchFingers(upMS: 400, secondUpMS: 430)))
        #expect(states(events) == ["pinch.began", "pinch.changed", "pinch.ended"])
        let ended = try #require(events.last)
        #expect(milliseconds(ended.time) == 430)
        #expect(!events.contains { e in e.state == .changed && milliseconds(e.time) >= 400 },
                "nothing is emitted while the finger count is unsettled")
    }

    @Test func fingerAddedMidPinchCancelsAfterTheDebounce() throws {
        var fingers = pinchFingers()
        fingers.append(ScriptedFinger(id: 3, downMS: 300, upMS: 600, path: still(PointMM(x: 20, y: 30))))
        let events = recognize(makeFrames(fingers))
        let cancel = try #require(events.firstIndex { $0.state == .cancelled })
        #expect(events[cancel].kind == .pinch)
        #expect(milliseconds(events[cancel].time) == 400, "cancelled 100 ms after the third finger")
        #expect(events[..<cancel].allSatisfy { milliseconds($0.time) < 300 })
        #expect(!events.contains { $0.state == .ended && milliseconds($0.time) < 400 })
    }

    @Test func briefExtraFingerDoesNotCancel() {
        var fingers = pinchFingers()
        fingers.append(ScriptedFinger(id: 3, downMS: 300, upMS: 350, path: still(PointMM(x: 20, y: 30))))
        let events = recognize(makeFrames(fingers))
        #expect(states(events) == ["pinch.began", "pinch.changed", "pinch.ended"])
    }

    @Test func fingerLiftedMidPinchCancelsAndTheRestIsPointerMotion() throws {
        let events = recognize(makeFrames(pinchFingers(upMS: 600, secondUpMS: 250)))
        #expect(states(events) == ["pinch.began", "pinch.changed", "pinch.cancelled"])
        #expect(milliseconds(try #require(events.last).time) == 350)
    }

    @Test func fingerLiftedMidPinchWithoutFurtherFramesCancelsOnAdvance() throws {
        // A touchpad sends no frames while the remaining finger rests: advance(to:) lets time pass.
        let frames = makeFrames(pinchFingers(upMS: 1000, secondUpMS: 250), untilMS: 250)
        var r = TouchGestureRecognizer(configuration: GestureRecognizerConfiguration.default.withoutHolds)
        var events: [GestureEvent] = []
        for f in frames { events.append(contentsOf: r.process(f)) }
        #expect(r.gestureInFlight == .pinch)
        #expect(r.advance(to: eventTime(ms: 300)).isEmpty)
        let cancelled = r.advance(to: eventTime(ms: 360))
        #expect(cancelled.count == 1)
        #expect(cancelled.first?.state == .cancelled)
        #expect(cancelled.first.map { milliseconds($0.time) } == 350)
        #expect(r.gestureInFlight == nil)
    }

    /// One finger stays put while the other closes in on it: a pinch, on a touchpad too, as long as
    /// the still one is not resting in the thumb band along the bottom edge.
    @Test func oneSidedPinchIsAPinchUnlessTheStillFingerIsAThumb() throws {
        let closingIn = [
            ScriptedFinger(id: 1, upMS: 500, path: linear(PointMM(x: 20, y: 25), PointMM(x: 40, y: 4))),
            ScriptedFinger(id: 2, upMS: 500, path: still(PointMM(x: 70, y: 30))),
        ]
        var pad = GestureRecognizerConfiguration.default
        pad.device.heightMM = 60
        let events = recognize(makeFrames(closingIn), configuration: pad)
        #expect(states(events) == ["pinch.began", "pinch.changed", "pinch.ended"])
        #expect(try #require(events.last).scale < 0.7)
        #expect(states(recognize(makeFrames(closingIn), configuration: .touchscreen))
                == ["pinch.began", "pinch.changed", "pinch.ended"])

        // Moving across, not at the still finger: not a pinch. On the touchpad the still touch is
        // then a thumb (one finger left: pointer motion); on a touchscreen the pair pans.
        let across = [
            ScriptedFinger(id: 1, upMS: 500, path: linear(PointMM(x: 20, y: 25), PointMM(x: 0, y: 40))),
            ScriptedFinger(id: 2, upMS: 500, path: still(PointMM(x: 70, y: 30))),
        ]
        #expect(recognize(makeFrames(across), configuration: pad).isEmpty)
        let screen = recognize(makeFrames(across), configuration: .touchscreen)
        #expect(states(screen) == ["pan.began", "pan.changed", "pan.ended"])
        #expect(screen.first?.fingerCount == 2)

        // Closing in on a touch that rests in the thumb band: a thumb, however the finger moves.
        let towardsThumb = [
            ScriptedFinger(id: 1, upMS: 500, path: linear(PointMM(x: 30, y: 10), PointMM(x: 0, y: 40))),
            ScriptedFinger(id: 2, upMS: 500, path: still(PointMM(x: 30, y: 55))),
        ]
        #expect(recognize(makeFrames(towardsThumb), configuration: pad).isEmpty)
        var noAngle = pad
        noAngle.oneSidedPinchMaximumAngleDegrees = 0
        #expect(recognize(makeFrames(closingIn), configuration: noAngle).isEmpty, "the angle is what decides")
    }

    @Test func restingThumbIsSuppressed() {
        // The thumb rests low on the pad; the finger above it moves: no pinch, no two-finger scroll.
        let fingers = [
            ScriptedFinger(id: 1, upMS: 500, path: linear(PointMM(x: 50, y: 20), PointMM(x: 60, y: 0))),
            ScriptedFinger(id: 2, upMS: 500, path: still(PointMM(x: 45, y: 48))),
        ]
        #expect(recognize(makeFrames(fingers)).isEmpty, "touchpad: one moving finger is pointer motion")
        // The same on a 60 mm pad: the still touch is in the bottom thumb band (from 45 mm down).
        var sized = GestureRecognizerConfiguration.default
        sized.device.heightMM = 60
        #expect(recognize(makeFrames(fingers), configuration: sized).isEmpty)
        // A touchscreen has no thumbs: the finger moves across, not at the still one, so the pair pans.
        let screen = recognize(makeFrames(fingers), configuration: .touchscreen)
        #expect(states(screen) == ["pan.began", "pan.changed", "pan.ended"])
        #expect(screen.first?.fingerCount == 2)

        var keepThumb = GestureRecognizerConfiguration.default
        keepThumb.suppressRestingThumb = false
        #expect(states(recognize(makeFrames(fingers), configuration: keepThumb)) == ["pan.began", "pan.changed", "pan.ended"],
                "without suppression one moving finger beside a still one scrolls, as in libinput")
    }

    @Test func restingFingerWithMovingThumbScrolls() throws {
        // libinput's "one-finger scroll": the upper touch rests, the lower one moves.
        let fingers = [
            ScriptedFinger(id: 1, upMS: 500, path: still(PointMM(x: 50, y: 20))),
            ScriptedFinger(id: 2, upMS: 500, path: linear(PointMM(x: 45, y: 48), PointMM(x: 60, y: 0))),
        ]
        let events = recognize(makeFrames(fingers))
        #expect(states(events) == ["pan.began", "pan.changed", "pan.ended"])
        let began = try #require(events.first)
        #expect(began.fingerCount == 2)
        // The pan follows the centroid: half the moving touch's 60 mm/s.
        #expect(abs(try #require(events.last).velocityMMPerSecond.x - 30) < 1e-6)
    }

    @Test func resyncMidPinchCancelsInsteadOfJumping() throws {
        var frames = makeFrames(pinchFingers())
        let i = try #require(frames.firstIndex { milliseconds($0.time) == 300 })
        frames[i].isResync = true
        let events = recognize(frames)
        let cancel = try #require(events.firstIndex { $0.state == .cancelled })
        #expect(milliseconds(events[cancel].time) == 300)
        #expect(events[cancel].kind == .pinch)
        // The fingers keep moving apart: a fresh pinch is recognised from the resync positions.
        let after = Array(events[(cancel + 1)...])
        #expect(states(after) == ["pinch.began", "pinch.changed", "pinch.ended"])
        #expect(abs(after[0].scale - 1) < 1e-12)
    }

    @Test func hugeJumpCancels() throws {
        var fingers = pinchFingers()
        fingers[0].path = { t in
            PointMM(x: 50 + (t >= 0.3 ? 30 : 0), y: 20 - 30 * t)  // 30 mm sideways within one 10 ms frame
        }
        let events = recognize(makeFrames(fingers))
        let cancel = try #require(events.first { $0.state == .cancelled })
        #expect(milliseconds(cancel.time) == 300)
        #expect(events.filter { $0.state == .began }.count == events.filter { $0.state.isFinal }.count)
    }

    @Test func fastButPlausibleMotionIsNoJump() {
        // 1 m/s swipe: 10 mm per frame, under the 15 mm jump distance.
        let fingers = [
            ScriptedFinger(id: 1, upMS: 100, path: linear(PointMM(x: 10, y: 20), PointMM(x: 1000, y: 0))),
            ScriptedFinger(id: 2, upMS: 100, path: linear(PointMM(x: 30, y: 22), PointMM(x: 1000, y: 0))),
        ]
        let events = recognize(makeFrames(fingers))
        #expect(!events.contains { $0.state == .cancelled })
        #expect(events.last?.state == .ended)
    }

    /// The span of `pinchFingers()` at `ms`: 20 mm growing at 60 mm/s.
    func pinchSpan(_ ms: Double) -> Double { 20 + 60 * ms / 1000 }

    /// `frames` with the touch `id` of the frame at `ms` reported at `position`.
    func replacing(_ id: UInt64, at ms: Double, with position: PointMM, in frames: [TouchFrame]) throws -> [TouchFrame] {
        var frames = frames
        let i = try #require(frames.firstIndex { milliseconds($0.time) == ms })
        var broken = TouchFrame(time: frames[i].time, fingerCount: frames[i].fingerCount)
        for t in frames[i].touches {
            var t = t
            if t.id == id { t.position = position }
            broken.append(t)
        }
        frames[i] = broken
        return frames
    }

    /// After bad numbers the gesture is cancelled, and the fingers, still pinching, pinch again:
    /// recognized afresh from the next good positions, with the scale of the motion.
    @Test func invalidPositionsCancelThenThePinchIsRecognizedAgain() throws {
        var frames = try replacing(1, at: 200, with: PointMM(x: .nan, y: 3), in: makeFrames(pinchFingers()))
        frames = try replacing(2, at: 200, with: PointMM(x: 1e300, y: .infinity), in: frames)
        let events = recognize(frames)
        let cancel = try #require(events.firstIndex { $0.state == .cancelled })
        #expect(milliseconds(events[cancel].time) == 200)
        let after = Array(events[(cancel + 1)...])
        #expect(states(after) == ["pinch.began", "pinch.changed", "pinch.ended"])
        let began = try #require(after.first)
        // A fresh decision from the 200 ms frame: 1 mm per finger at 30 mm/s is the fourth frame on.
        #expect(milliseconds(began.time) <= 240)
        let ended = try #require(after.last)
        #expect(abs(ended.scale - pinchSpan(590) / pinchSpan(milliseconds(began.time))) < 1e-9)
    }

    /// One touch with a bad reading for one frame mid-pinch (INT32_MAX from a glitching sensor):
    /// cancelled, then recognized again, never stuck.
    @Test func oneBadReadingMidPinchIsRecognizedAgain() throws {
        let frames = try replacing(1, at: 150, with: PointMM(x: 2e8, y: 2e8), in: makeFrames(pinchFingers()))
        let events = recognize(frames)
        #expect(states(events) == ["pinch.began", "pinch.changed", "pinch.cancelled",
                                   "pinch.began", "pinch.changed", "pinch.ended"])
        let again = try #require(events.last { $0.state == .began })
        #expect(milliseconds(again.time) <= 190)
        let ended = try #require(events.last)
        #expect(abs(ended.scale - pinchSpan(590) / pinchSpan(milliseconds(again.time))) < 1e-9)
    }

    /// A bad position in the frame the fingers land in: that touch has no position yet, and the
    /// decision starts again once it has one, so the pinch begins as if it had landed cleanly.
    @Test func badLandingFrameStillPinches() throws {
        let frames = try replacing(1, at: 0, with: PointMM(x: .infinity, y: .nan), in: makeFrames(pinchFingers()))
        let events = recognize(frames)
        #expect(states(events) == ["pinch.began", "pinch.changed", "pinch.ended"])
        let began = try #require(events.first)
        #expect(began.fingerCount == 2)
        // Judged from the 10 ms frame, the first with both positions: 1 mm per finger by 50 ms.
        #expect(milliseconds(began.time) == 50)
        #expect(abs(began.centerMM.y - 30) < 1e-9)
        let ended = try #require(events.last)
        #expect(abs(ended.scale - pinchSpan(590) / pinchSpan(50)) < 1e-9)
    }

    /// The same for a scroll: one pan from the first good frame, no spurious pan begun and cancelled.
    @Test func badLandingFrameStillScrolls() throws {
        let scroll = [
            ScriptedFinger(id: 1, upMS: 400, path: linear(PointMM(x: 40, y: 25), PointMM(x: 0, y: 50))),
            ScriptedFinger(id: 2, upMS: 400, path: linear(PointMM(x: 65, y: 25), PointMM(x: 0, y: 50))),
        ]
        let frames = try replacing(1, at: 0, with: PointMM(x: .nan, y: .nan), in: makeFrames(scroll))
        let events = recognize(frames)
        #expect(states(events) == ["pan.began", "pan.changed", "pan.ended"])
        let began = try #require(events.first)
        #expect(began.fingerCount == 2)
        // 1.5 mm each at 50 mm/s after the 10 ms frame: the 40 ms frame.
        #expect(milliseconds(began.time) == 40)
        #expect(abs(try #require(events.last).translationMM.y - 50 * 0.35) < 1e-9)
    }

    /// A finger replaced by another within one frame while nothing is decided yet (a slot reused
    /// between two frames): the new pair is judged afresh, so its scroll is one pan, not a pan
    /// begun against a touch that is gone and cancelled.
    @Test func fingerReplacedWhileUndecidedStartsAFreshDecision() throws {
        let fingers = [
            ScriptedFinger(id: 1, upMS: 450, path: linear(PointMM(x: 40, y: 25), PointMM(x: 0, y: 50), fromS: 0.05)),
            ScriptedFinger(id: 2, upMS: 40, path: still(PointMM(x: 60, y: 25))),
            ScriptedFinger(id: 3, downMS: 40, upMS: 450, path: linear(PointMM(x: 70, y: 27), PointMM(x: 0, y: 50), fromS: 0.05)),
        ]
        let frames = makeFrames(fingers)
        #expect(frames.allSatisfy { $0.fingerCount == 2 || $0.fingerCount == 0 })
        let events = recognize(frames)
        #expect(states(events) == ["pan.began", "pan.changed", "pan.ended"])
        let began = try #require(events.first)
        #expect(began.fingerCount == 2)
        // Both past 1.5 mm at 50 mm/s from 50 ms: the 80 ms frame; centred between fingers 1 and 3.
        #expect(milliseconds(began.time) == 80)
        #expect(abs(began.centerMM.x - 55) < 1e-9)
    }

    @Test func identicalTimestampsStayFinite() {
        var frames = makeFrames(pinchFingers())
        for i in frames.indices { frames[i].time = eventTime(ms: Double(i / 5) * 50) }
        _ = recognize(frames)  // the harness checks every value is finite
    }

    @Test func timeGoingBackCancels() throws {
        var frames = makeFrames(pinchFingers())
        let i = try #require(frames.firstIndex { milliseconds($0.time) == 300 })
        frames[i].time = eventTime(ms: 100)
        var r = TouchGestureRecognizer(configuration: GestureRecognizerConfiguration.default.withoutHolds)
        var events: [GestureEvent] = []
        for f in frames[...i] { events.append(contentsOf: r.process(f)) }
        #expect(events.last?.state == .cancelled)
    }

    @Test func finishCancelsTheGestureInFlight() throws {
        let frames = makeFrames(pinchFingers(), untilMS: 300)
        var r = TouchGestureRecognizer(configuration: GestureRecognizerConfiguration.default.withoutHolds)
        for f in frames { _ = r.process(f) }
        #expect(r.gestureInFlight == .pinch)
        let out = r.finish(at: eventTime(ms: 310))
        #expect(out.count == 1)
        #expect(out.first?.state == .cancelled && out.first?.kind == .pinch)
        #expect(r.gestureInFlight == nil)
        #expect(r.finish(at: eventTime(ms: 320)).isEmpty, "nothing left to cancel")
    }

    @Test func earlyScrollIsCorrectedToPinch() throws {
        // Both fingers first move up together (a scroll), then from 60 ms apart: a pinch.
        let fingers = [
            ScriptedFinger(id: 1, upMS: 400) { t in PointMM(x: 50, y: 20 - 40 * t) },
            ScriptedFinger(id: 2, upMS: 400) { t in PointMM(x: 50, y: 40 - 40 * min(t, 0.06) + 80 * max(0, t - 0.06)) },
        ]
        let events = recognize(makeFrames(fingers))
        #expect(states(events) == ["pan.began", "pan.changed", "pan.cancelled", "pinch.began", "pinch.changed", "pinch.ended"])
        let cancel = try #require(events.firstIndex { $0.state == .cancelled })
        #expect(events[cancel].time == events[cancel + 1].time, "the pinch begins in the frame that cancels the scroll")
        #expect(milliseconds(events[cancel].time) < 300)
    }

    @Test func lateDivergenceStaysAScroll() {
        // The same, but the fingers diverge only after the 300 ms correction window.
        let fingers = [
            ScriptedFinger(id: 1, upMS: 700) { t in PointMM(x: 50, y: 20 - 40 * t) },
            ScriptedFinger(id: 2, upMS: 700) { t in PointMM(x: 50, y: 40 - 40 * min(t, 0.35) + 80 * max(0, t - 0.35)) },
        ]
        let events = recognize(makeFrames(fingers))
        #expect(states(events) == ["pan.began", "pan.changed", "pan.ended"])
    }

    @Test func replacedFingerWithinOneFrameCancels() throws {
        // Finger 2 lifts and finger 3 lands in the same frame: same count, different fingers.
        var fingers = pinchFingers(upMS: 600, secondUpMS: 300)
        fingers.append(ScriptedFinger(id: 3, downMS: 300, upMS: 600, path: linear(PointMM(x: 50, y: 60), PointMM(x: 0, y: 30))))
        // The 300 ms frame carries finger 2's lift and finger 3's landing: the count stays 2.
        let frames = makeFrames(fingers)
        #expect(frames.map(\.fingerCount).allSatisfy { $0 == 2 || $0 == 0 })
        let events = recognize(frames)
        let cancel = try #require(events.first { $0.state == .cancelled })
        #expect(cancel.kind == .pinch && milliseconds(cancel.time) == 300)
    }
}

@Suite struct RecognizerHysteresisTests {
    @Test func movementInsideTheFuzzIsIgnoredAndBeyondItTrails() {
        let c = PointMM(x: 10, y: 10)
        #expect(TrackedTouches.hysteresis(from: c, to: PointMM(x: 10.2, y: 10.1), marginMM: 0.3) == c)
        let moved = TrackedTouches.hysteresis(from: c, to: PointMM(x: 11, y: 10), marginMM: 0.3)
        #expect(abs(moved.x - 10.7) < 1e-12 && moved.y == 10)
        #expect(TrackedTouches.hysteresis(from: c, to: PointMM(x: 10.01, y: 10), marginMM: 0) == PointMM(x: 10.01, y: 10))
    }

    @Test func fuzzKeepsAJitteryRestingPairUndecided() {
        // Two fingers resting for a second with ±1 mm jitter: without hysteresis the jitter alone
        // can pass the 1 mm undecided threshold; with the device's fuzz as margin nothing begins.
        var config = GestureRecognizerConfiguration.default
        config.device.fuzzMM = 1.4
        config.scrollDecisionTimeoutMS = 10_000
        let fingers = [
            ScriptedFinger(id: 1, upMS: 1000, path: still(PointMM(x: 50, y: 20))),
            ScriptedFinger(id: 2, upMS: 1000, path: still(PointMM(x: 50, y: 45))),
        ]
        var withoutFuzz = config
        withoutFuzz.device.fuzzMM = 0
        var falseGestures = 0
        for seed in UInt64(1)...5 {
            #expect(recognize(makeFrames(fingers, jitterMM: 1.0, seed: seed), configuration: config).isEmpty)
            if !recognize(makeFrames(fingers, jitterMM: 1.0, seed: seed), configuration: withoutFuzz).isEmpty { falseGestures += 1 }
        }
        #expect(falseGestures > 0, "the jitter is strong enough to fool the recognizer without hysteresis")
    }
}
