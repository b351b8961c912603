import GestureTools
import Testing

/// fusuma 3.11's figures, each from both sides (lib/fusuma/plugin/detectors/*_detector.rb,
/// executors/executor.rb). Updates come every 1/128 s, so the window's seconds are exact:
/// 100 x 1/128 = 0.78125 of fusuma's 10 ms units between two updates.
@Suite struct FusumaEmulatorTests {
    static let step = 1.0 / 128

    /// A swipe of `fingers` whose updates move (x, y) accelerated units each, one every 1/128 s.
    static func swipe(_ moves: [(Double, Double)], fingers: Int = 3, start: Double = 0) -> ToolStream {
        var events: [ToolEvent] = [.gesture(GestureStep(kind: .swipe, phase: .begin, time: start, fingers: fingers))]
        for (i, move) in moves.enumerated() {
            events.append(.gesture(GestureStep(kind: .swipe, phase: .update, time: start + Double(i + 1) * step, fingers: fingers,
                                               dx: move.0 / 2, dy: move.1 / 2, acceleratedDX: move.0, acceleratedDY: move.1)))
        }
        events.append(.gesture(GestureStep(kind: .swipe, phase: .end, time: start + Double(moves.count + 1) * step, fingers: fingers)))
        return ToolStreams.touchpadStream(events)
    }

    /// A pinch through these (scale, angle delta) updates, one every 1/128 s.
    static func pinch(_ updates: [(scale: Double, angle: Double)], fingers: Int = 2) -> ToolStream {
        var events: [ToolEvent] = [.gesture(GestureStep(kind: .pinch, phase: .begin, time: 0, fingers: fingers))]
        for (i, u) in updates.enumerated() {
            events.append(.gesture(GestureStep(kind: .pinch, phase: .update, time: Double(i + 1) * step, fingers: fingers,
                                               scale: u.scale, angleDelta: u.angle)))
        }
        events.append(.gesture(GestureStep(kind: .pinch, phase: .end, time: Double(updates.count + 1) * step, fingers: fingers,
                                           scale: updates.last?.scale ?? 1)))
        return ToolStreams.touchpadStream(events)
    }

    static func hold(seconds: Double, fingers: Int = 4) -> ToolStream {
        ToolStreams.touchpadStream([.gesture(GestureStep(kind: .hold, phase: .begin, time: 1, fingers: fingers)),
                                    .gesture(GestureStep(kind: .hold, phase: .end, time: 1 + seconds, fingers: fingers))])
    }

    /// fusuma with a config.yml that sets nothing: every multiplier 1.
    let plain = FusumaEmulator(settings: FusumaSettings())

    @Test func aSwipeFiresOnlyAboveTwentyFiveUnitsPerTenMilliseconds() {
        // The second update is the first judged: 2 x 9.765625 / 0.78125 = 25 exactly, not above.
        #expect(plain.judge(Self.swipe([(-9.765625, 0), (-9.765625, 0)])).isEmpty)
        let fired = plain.judge(Self.swipe([(-9.77, 0), (-9.77, 0)]))
        #expect(fired.map { "\($0.gesture) \($0.fingers) \($0.direction ?? "")" } == ["swipe 3 left"])
        #expect(fired.first?.margin?.key == "threshold.swipe")
        // The margin is in threshold.swipe's own terms: its 1 against the largest multiplier that
        // would still have fired, the speed over 25.
        #expect(fired.first?.margin?.threshold == 1)
        #expect(fired.first?.margin?.value == 2 * 9.77 / 0.78125 / 25)
        #expect(fired.first?.figures.speed == 2 * 9.77 / 0.78125)
        // The bundled config.yml's `threshold: swipe: 0.3` (the defaults): 7.5.
        #expect(FusumaEmulator().judge(Self.swipe([(0, 2.9296875), (0, 2.9296875)])).isEmpty)
        #expect(FusumaEmulator().judge(Self.swipe([(0, 2.93), (0, 2.93)])).map(\.direction) == ["down"])
    }

    @Test func theFirstUpdateAndAStillUpdateAreNeverJudged() {
        #expect(plain.judge(Self.swipe([(500, 0)])).isEmpty)
        // The window is fast, but this update moved 0.3: skipped (`moved?`); 0.31 is judged.
        #expect(plain.judge(Self.swipe([(100, 0), (0.3, 0)])).isEmpty)
        #expect(plain.judge(Self.swipe([(100, 0), (0.31, 0)])).map(\.direction) == ["right"])
        // A tie goes vertical.
        #expect(plain.judge(Self.swipe([(-50, -50), (-50, -50)])).map(\.direction) == ["up"])
    }

    @Test func aFastSwipeFiresAgainEachIntervalAndTheIntervalIsShared() {
        let long = Self.swipe(Array(repeating: (0, -40), count: 128))  // 1 s
        let times = plain.judge(long).map(\.end)
        #expect(times.count == 4)
        for (a, b) in zip(times, times.dropFirst()) { #expect(b - a >= 0.3) }
        var slower = FusumaSettings()
        slower.interval[.swipe] = 2
        #expect(FusumaEmulator(settings: slower).judge(long).count == 2)
        // A per-direction threshold beats the global one.
        var strict = FusumaSettings()
        strict.threshold[.swipe] = 0.1
        strict.indexThreshold["swipe.3.up"] = 100
        #expect(FusumaEmulator(settings: strict).judge(long).isEmpty)
        #expect(FusumaEmulator(settings: strict).judge(Self.swipe([(0, 40), (0, 40)])).first?.margin?.key == "threshold.swipe")
    }

    @Test func aPinchFiresAtARatioOfOnePointThree() {
        // Mean of (1, 1.6) over the first: 1.3, at the threshold (>=).
        let at = plain.judge(Self.pinch([(1, 0), (1.6, 0)]))
        #expect(at.map { "\($0.gesture) \($0.direction ?? "")" } == ["pinch out"])
        #expect(at.first?.margin?.key == "threshold.pinch")
        #expect(plain.judge(Self.pinch([(1, 0), (1.59, 0)])).isEmpty)
        // In: the first over the mean.
        #expect(plain.judge(Self.pinch([(1, 0), (0.5, 0)])).map(\.direction) == ["in"])
        #expect(plain.judge(Self.pinch([(1, 0), (0.6, 0)])).isEmpty)  // 1 / 0.8 = 1.25
        // An update whose scale changed no faster than 0.01 a 10 ms (0.0078125 in 1/128 s) is not
        // judged: at 1.6 (k = 1.6 / 1.3) the second update's 1.5 is short, the third's 1.67 skipped.
        var k = FusumaSettings()
        k.threshold[.pinch] = 1.6 / 1.3
        #expect(FusumaEmulator(settings: k).judge(Self.pinch([(1, 0), (2, 0), (2.0078125, 0)])).isEmpty)
        #expect(FusumaEmulator(settings: k).judge(Self.pinch([(1, 0), (2, 0), (2.008, 0)])).map(\.direction) == ["out"])
        // `pinch: in: threshold:` (finger skipped) applies to in only.
        var s = FusumaSettings()
        s.indexThreshold["pinch.in"] = 0.5
        #expect(FusumaEmulator(settings: s).judge(Self.pinch([(1, 0), (0.6, 0)])).first?.margin?.key == "pinch.in.threshold")
    }

    @Test func aRotationFiresAboveHalfADegreePerTenMillisecondsAndBeatsAPinch() {
        // (0.140625 + 0.25) / 0.78125 = 0.5: not above.
        #expect(plain.judge(Self.pinch([(1, 0.140625), (1, 0.25)])).isEmpty)
        let fired = plain.judge(Self.pinch([(1, 0.140625), (1, 0.2501)]))
        #expect(fired.map { "\($0.gesture) \($0.direction ?? "")" } == ["rotate clockwise"])
        // An update turning 0.2 degrees or less is not judged.
        #expect(plain.judge(Self.pinch([(1, -5), (1, -0.2)])).isEmpty)
        #expect(plain.judge(Self.pinch([(1, -5), (1, -0.21)])).map(\.direction) == ["counterclockwise"])
        // Both fire on one update: one command a line, the rotation's.
        #expect(plain.judge(Self.pinch([(1, 3), (2, 3)])).map(\.gesture) == ["rotate"])
    }

    @Test func aHoldFiresWhenTheTimerWakesBeforeItsEnd() {
        let wake = FusumaSettings.holdBase + FusumaSettings.holdWakeEpsilon
        let fired = plain.judge(Self.hold(seconds: wake))
        #expect(fired.map { "\($0.gesture) \($0.fingers)" } == ["hold 4"])
        #expect(fired.first?.margin?.key == "threshold.hold")
        #expect(plain.judge(Self.hold(seconds: wake - 0.001)).isEmpty)
        // Held 1.42 s in all: a multiplier up to 2 would still have fired.
        #expect(abs((plain.judge(Self.hold(seconds: 1.42)).first?.margin?.value ?? 0) - 2) < 1e-9)
        var s = FusumaSettings()
        s.indexThreshold["hold.4"] = 0.2
        let quick = FusumaEmulator(settings: s)
        #expect(quick.judge(Self.hold(seconds: 0.7 * 0.2 + 0.02 + 0.0001)).first?.margin?.key == "hold.4.threshold")
        #expect(quick.judge(Self.hold(seconds: 0.15)).isEmpty)
        // hold.4 is not three fingers'.
        #expect(quick.judge(Self.hold(seconds: 0.5, fingers: 3)).isEmpty)
        #expect(quick.judge(Self.hold(seconds: 0.8, fingers: 3)).first?.margin?.key == "threshold.hold")
    }

    @Test func aCancelledSwipeStillCountsAndGesturesDoNotMix() {
        var events = Self.swipe([(-20, 0), (-20, 0)]).events
        if case .gesture(var last) = events.removeLast() { last.cancelled = true; events.append(.gesture(last)) }
        #expect(plain.judge(ToolStreams.touchpadStream(events)).count == 1)
        // A new gesture's window starts from its own begin.
        let two = Self.swipe([(0, 1), (0, 1)]).events + Self.swipe([(-20, 0)], start: 1).events
        #expect(plain.judge(ToolStreams.touchpadStream(two)).isEmpty)
    }
}
