import GestureTools
import Testing

/// touchegg, libinput-gestures and KWin at the edges of their figures, from both sides.
@Suite struct TouchpadToolsTests {
    /// touchegg on a 100 x 60 mm touchpad, libinput >= 1.18: start 1 % of 60 mm in 1000 dpi dots.
    @Test func toucheggStartsPastItsStartThresholdAndExecutesAtItsPercentage() {
        let t = ToucheggSettings.defaults.thresholds(for: ToolStreams.touchpad)
        #expect(abs(t.start - 60 / 25.4 * 1000 * 0.01) < 1e-9)
        #expect(abs(t.finishVertical - 60 / 25.4 * 1000 * 0.09) < 1e-9)
        let emulator = ToucheggEmulator()
        #expect(emulator.judge(ToolStreams.touchpadStream(ToolStreams.swipe(dx: 0, dy: -t.start))).isEmpty, "strict >")
        let just = emulator.judge(ToolStreams.touchpadStream(ToolStreams.swipe(dx: 0, dy: -(t.start + 0.001))))
        #expect(just.map { "\($0.gesture) \($0.direction ?? "")" } == ["SWIPE UP"])
        #expect(just.first?.executed == false)
        // 20 % is reached at start + 0.2 x (start + finish): at it executes (>=), a hair less does not.
        let twenty = t.start + 0.2 * (t.start + t.finishVertical)
        #expect(emulator.judge(ToolStreams.touchpadStream(ToolStreams.swipe(dx: 0, dy: -twenty))).first?.executed == true)
        #expect(emulator.judge(ToolStreams.touchpadStream(ToolStreams.swipe(dx: 0, dy: -(twenty - 0.01)))).first?.executed == false)
        // A tie between the axes goes vertical.
        #expect(emulator.judge(ToolStreams.touchpadStream(ToolStreams.swipe(dx: 100, dy: 100))).first?.direction == "DOWN")
    }

    @Test func toucheggPinchesByTheFirstScaleAndOldLibinputUsesFiveAndFortyPercent() {
        let emulator = ToucheggEmulator()
        let pinch = emulator.judge(ToolStreams.touchpadStream(ToolStreams.pinch(scale: 0.79)))
        #expect(pinch.first?.direction == "IN")
        #expect(abs((pinch.first?.figures.percentage ?? 0) - 21) < 1e-9)
        #expect(pinch.first?.executed == true)
        // touchegg's doubles: (1 - 0.8) x 100 is 19.999999999999996, under 20 (as touchegg computes it).
        #expect(emulator.judge(ToolStreams.touchpadStream(ToolStreams.pinch(scale: 0.8))).first?.executed == false)
        #expect(emulator.judge(ToolStreams.touchpadStream(ToolStreams.pinch(scale: 0.81))).first?.executed == false)
        let old = ToolDevice(kind: .touchpad, widthMM: 100, heightMM: 60, units: LibinputUnits(version: LibinputVersion(major: 1, minor: 17)))
        #expect(abs(ToucheggSettings.defaults.thresholds(for: old).start - 60 / 25.4 * 1000 * 0.05) < 1e-9)
        #expect(LibinputUnits(version: LibinputVersion(major: 1, minor: 17)).unitsPerMM > 39)
        #expect(abs(LibinputUnits(version: .debianBookworm).unitsPerMM - 10.517) < 0.001)
    }

    @Test func libinputGesturesJudgesAtTheEndAndIgnoresACancelledEnd() {
        var settings = LibinputGesturesSettings.defaults
        settings.swipeThreshold = 100
        let emulator = LibinputGesturesEmulator(settings: settings)
        #expect(emulator.judge(ToolStreams.touchpadStream(ToolStreams.swipe(dx: -60, dy: -80))).map(\.direction) == ["up"])
        #expect(emulator.judge(ToolStreams.touchpadStream(ToolStreams.swipe(dx: -60, dy: -79.9))).isEmpty)
        #expect(emulator.judge(ToolStreams.touchpadStream(ToolStreams.swipe(dx: 300, dy: 0, cancelled: true))).isEmpty)
        // The timeout: 1.5 s from begin to end.
        #expect(emulator.judge(ToolStreams.touchpadStream(ToolStreams.swipe(dx: 300, dy: 0, seconds: 1.5))).count == 1)
        #expect(emulator.judge(ToolStreams.touchpadStream(ToolStreams.swipe(dx: 300, dy: 0, seconds: 1.501))).isEmpty)
        // Diagonals only when configured; tan(22.5 degrees) decides.
        #expect(emulator.judge(ToolStreams.touchpadStream(ToolStreams.swipe(dx: 200, dy: -100))).first?.direction == "right")
        settings.obliqueSwipes = true
        let oblique = LibinputGesturesEmulator(settings: settings)
        #expect(oblique.judge(ToolStreams.touchpadStream(ToolStreams.swipe(dx: 200, dy: -100))).first?.direction == "right_up")
        #expect(oblique.judge(ToolStreams.touchpadStream(ToolStreams.swipe(dx: 200, dy: -82))).first?.direction == "right")
        // Pinch by the sign of the summed scale - 1; a rotation past 15 degrees when configured.
        #expect(emulator.judge(ToolStreams.touchpadStream(ToolStreams.pinch(scale: 0.9))).first?.direction == "in")
        #expect(emulator.judge(ToolStreams.touchpadStream(ToolStreams.pinch(scale: 1.1, angle: 30))).first?.direction == "out")
        #expect(oblique.judge(ToolStreams.touchpadStream(ToolStreams.pinch(scale: 1.1, angle: 30))).first?.direction == "out")
        settings.rotations = true
        let rotating = LibinputGesturesEmulator(settings: settings)
        #expect(rotating.judge(ToolStreams.touchpadStream(ToolStreams.pinch(scale: 1.1, angle: 15.1))).first?.direction == "clockwise")
        #expect(rotating.judge(ToolStreams.touchpadStream(ToolStreams.pinch(scale: 1.1, angle: -15))).first?.direction == "out")
    }

    @Test func kwinSwitchesDesktopsAtAQuarterAndOpensOverviewAboveAHalf() {
        let kwin = KWinGestureEmulator()
        #expect(kwin.judge(ToolStreams.touchpadStream(ToolStreams.swipe(dx: -50, dy: 0))).first?.executed == true)
        #expect(kwin.judge(ToolStreams.touchpadStream(ToolStreams.swipe(dx: -49.9, dy: 0))).first?.executed == false)
        #expect(kwin.judge(ToolStreams.touchpadStream(ToolStreams.swipe(dx: 0, dy: -100, fingers: 4))).first?.executed == false)
        #expect(kwin.judge(ToolStreams.touchpadStream(ToolStreams.swipe(dx: 0, dy: -100.1, fingers: 4))).first?.executed == true)
        // Two fingers never reach KWin's recognizer; under 5 units the axis never locks.
        #expect(kwin.judge(ToolStreams.touchpadStream(ToolStreams.swipe(dx: -300, dy: 0, fingers: 2))).isEmpty)
        #expect(kwin.judge(ToolStreams.touchpadStream(ToolStreams.swipe(dx: -4.9, dy: 0))).isEmpty)
    }
}
