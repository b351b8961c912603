import PinchlabTestSupport
import Testing
@testable import GestureCore

/// A clickpad pressed by a finger stops gestures until the release, as libinput's
/// `tp_gesture_post_events` does; a thumb in the thumb band pressing it does not.
@Suite struct RecognizerClickpadTests {
    /// A 100 x 60 mm clickpad.
    static var clickpad: GestureRecognizerConfiguration {
        var c = GestureRecognizerConfiguration.default
        c.device = GestureDeviceTraits(deviceClass: .touchpad, heightMM: 60, isClickpad: true)
        return c
    }

    /// `frames` with the left button held from `fromMS` to before `toMS`.
    func pressing(_ frames: [TouchFrame], fromMS: Double, toMS: Double) -> [TouchFrame] {
        frames.map { frame in
            var f = frame
            let ms = milliseconds(f.time)
            if ms >= fromMS && ms < toMS { f.buttons = .left }
            return f
        }
    }

    func pinch(upMS: Int = 600) -> [ScriptedFinger] {
        [ScriptedFinger(id: 1, upMS: upMS, path: linear(PointMM(x: 50, y: 20), PointMM(x: 0, y: -20))),
         ScriptedFinger(id: 2, upMS: upMS, path: linear(PointMM(x: 50, y: 35), PointMM(x: 0, y: 20)))]
    }

    @Test func aPressCancelsThePinchInFlightAndNothingBeginsUntilTheRelease() throws {
        let frames = pressing(makeFrames(pinch()), fromMS: 200, toMS: 400)
        let events = recognize(frames, configuration: Self.clickpad)
        #expect(states(events) == ["pinch.began", "pinch.changed", "pinch.cancelled", "pinch.began", "pinch.changed", "pinch.ended"])
        let cancelled = try #require(events.first { $0.state == .cancelled })
        #expect(milliseconds(cancelled.time) == 200)
        #expect(cancelled.decision?.rule == .clickpadPressed)
        #expect(cancelled.decision?.evidence.fingersBefore == 2)
        let fromBottom = try #require(cancelled.decision?.evidence.fromBottomMM)
        #expect(abs(fromBottom - (60 - (20 - 20 * 0.2))) < 1e-6, "the highest finger's distance from the bottom edge")
        // The fingers kept moving apart while the pad was down: the pinch after the release begins
        // from where they are, not before.
        let again = try #require(events.last { $0.state == .began })
        #expect(milliseconds(again.time) > 400)
    }

    @Test func theMachineWaitsInItsOwnStateAndLeavesIt() {
        var r = TouchGestureRecognizer(configuration: Self.clickpad.withoutHolds)
        var modes: [RecognizerMode] = []
        for f in pressing(makeFrames(pinch()), fromMS: 200, toMS: 400) {
            _ = r.process(f)
            modes.append(r.mode)
            if milliseconds(f.time) >= 200 && milliseconds(f.time) < 400 { #expect(r.gestureInFlight == nil) }
        }
        #expect(modes.contains(.clickpadPressed))
        #expect(r.bugCount == 0)
    }

    @Test func fingersClickingStillDoNotHold() {
        let still3 = (1...3).map { ScriptedFinger(id: UInt64($0), upMS: 300, path: still(PointMM(x: Double(20 * $0), y: 30))) }
        let unpressed = recognize(makeFrames(still3), configuration: Self.clickpad, holds: true)
        #expect(states(unpressed) == ["hold.began", "hold.ended"], "without the click the fingers hold")
        // Pressed at 120 ms (before the 180 ms hold), released at 220 ms, lifted at 300 ms.
        let clicked = recognize(pressing(makeFrames(still3), fromMS: 120, toMS: 220), configuration: Self.clickpad, holds: true)
        #expect(clicked.isEmpty, "a click, no hold: \(states(clicked))")
    }

    /// libinput lets gestures go on while the button is "held down by a thumb": every touch down in
    /// the thumb band (15 mm along the bottom).
    @Test func aThumbPressingInTheBandChangesNothing() {
        let thumb = [ScriptedFinger(id: 1, upMS: 400, path: still(PointMM(x: 10, y: 55)))]
        let events = recognize(pressing(makeFrames(thumb), fromMS: 100, toMS: 300), configuration: Self.clickpad, holds: true)
        #expect(states(events) == ["hold.began", "hold.ended"])
    }

    @Test func aTouchpadThatIsNoClickpadIgnoresItsButtons() {
        var plain = Self.clickpad
        plain.device.isClickpad = nil
        let events = recognize(pressing(makeFrames(pinch()), fromMS: 200, toMS: 400), configuration: plain)
        #expect(states(events) == ["pinch.began", "pinch.changed", "pinch.ended"])
    }

    @Test func theAssemblerCarriesTheButtonsADeviceListsIntoItsFrames() {
        let device = DeviceDescription(name: "clickpad", id: InputID(bustype: 3, vendor: 1, product: 2, version: 3),
                                       properties: [.pointer, .buttonpad],
                                       codes: [.key: [.btnLeft, .btnTouch, .btnToolFinger]],
                                       absInfo: [.absX: AbsInfo(minimum: 0, maximum: 1000, resolution: 10),
                                                 .absY: AbsInfo(minimum: 0, maximum: 600, resolution: 10)])
        var assembler = TouchFrameAssembler(device: device)
        let t = EventTime(seconds: 1, microseconds: 0)
        #expect(GestureDeviceTraits(device: device).isClickpad == true)
        _ = assembler.consume(InputEvent(time: t, type: .key, code: .btnLeft, value: 1))
        _ = assembler.consume(InputEvent(time: t, type: .key, code: .btnRight, value: 1))  // not listed: ignored
        #expect(assembler.consume(InputEvent(time: t, type: .syn, code: .synReport, value: 0))?.buttons == .left)
        _ = assembler.consume(InputEvent(time: t, type: .key, code: .btnLeft, value: 0))
        #expect(assembler.consume(InputEvent(time: t, type: .syn, code: .synReport, value: 0))?.buttons == [])
    }
}
