import Testing
import GestureCore
import GestureKit

/// `Fixtures/bad/<name>` in the package.
func badFixture(_ name: String) -> String {
    var root = "\(#filePath)"
    for _ in 0..<3 { root = String(root[..<root.lastIndex(of: "/")!]) }
    return root + "/Fixtures/bad/" + name
}

/// A recording cut at a line boundary inside a frame reads without error, returns every event,
/// and says where the unfinished frame is instead of passing it as complete.
@Suite struct PartialFrameTests {
    let directory = makeTemporaryDirectory()

    /// `Fixtures/bad/cut-mid-frame.evemu` is the first 126 lines of the corpus's touchscreen
    /// two-finger tap: its last SYN_REPORT is on line 120, six events follow. The YAML is the same
    /// events converted, its last SYN_REPORT on line 50.
    @Test(arguments: [("cut-mid-frame.evemu", 120, 126), ("cut-mid-frame.yml", 50, 57)])
    func aFileCutInsideAFrameSaysWhereAndHowManyEvents(name: String, synLine: Int, lastLine: Int) throws {
        let path = badFixture(name)
        var source = try openRecording(path: path)
        var events = [InputEvent]()
        while let event = try source.nextEvent() {
            #expect(source.trailingPartialFrame == nil, "known only at the end")
            events.append(event)
        }
        #expect(events.count == 23, "every event is still returned")
        #expect(!events.last!.isSynReport)
        let partial = try #require(source.trailingPartialFrame)
        #expect(partial == TrailingPartialFrame(path: path, lastSynReportLine: synLine, lastEventLine: lastLine, eventCount: 6))
        #expect(partial.description == "\(path) ends inside a frame after line \(synLine): 6 events after the last SYN_REPORT")
    }

    @Test(arguments: ["touchpad/pinch-out-01.evemu", "touchscreen/two-finger-tap-01.evemu"])
    func aCompleteRecordingHasNoPartialFrameInEitherFormat(corpusFile: String) throws {
        let evemu = badFixture("../corpus/" + corpusFile)
        var source = try openRecording(path: evemu)
        let events = try drain(&source)
        #expect(source.trailingPartialFrame == nil)
        let yml = directory + "/complete.yml"
        let writer = try LibinputRecordWriter(path: yml, device: source.device)
        for event in events { try writer.write(event) }
        try writer.close()
        var yaml = try openRecording(path: yml)
        #expect(try drain(&yaml) == events)
        #expect(yaml.trailingPartialFrame == nil)
    }

    @Test func eventsWithNoSynReportAtAllAreOneUnfinishedFrame() throws {
        let path = directory + "/nosyn.evemu"
        writeFile(path, "# EVEMU 1.3\nN: Pad\nI: 0018 06cb cd7d 0100\nA: 00 0 100 0 0 1\nA: 01 0 100 0 0 1\n"
            + "E: 0.000001 0003 0000 0005\nE: 0.000001 0003 0001 0007\n")
        var source = try openRecording(path: path)
        #expect(try drain(&source).count == 2)
        let partial = try #require(source.trailingPartialFrame)
        #expect(partial.lastSynReportLine == 0 && partial.lastEventLine == 7 && partial.eventCount == 2)
        #expect(partial.description == "\(path) ends inside its first frame: 2 events up to line 7 and no SYN_REPORT")
    }

    @Test func statsLeaveTheUnfinishedFrameOut() throws {
        var source = try openRecording(path: badFixture("cut-mid-frame.evemu"))
        let stats = try RecordingStats(consuming: &source)
        #expect(stats.eventCount == 17)
        #expect(stats.frameCount == 3)
        #expect(stats.trailingPartialFrameEventCount == 6)
        #expect(stats.lastEventTime == EventTime(seconds: 0, microseconds: 22716), "the last SYN_REPORT")
        #expect(stats.mostFingersDown == 2)
        #expect(stats.touchSequenceCount == 2)
    }
}

/// `stats` counts fingers and touches from `TouchFrameAssembler`'s frames, so it agrees with replay.
@Suite struct StatsFromFramesTests {
    let directory = makeTemporaryDirectory()

    /// Most fingers and touches begun, folded over the assembler's own frames.
    func assemblerCounts(_ path: String) throws -> (mostFingers: Int, began: Int) {
        var source = try openRecording(path: path)
        var assembler = TouchFrameAssembler(device: source.device)
        var mostFingers = 0, began = 0
        while let event = try source.nextEvent() {
            guard let frame = assembler.consume(event) else { continue }
            mostFingers = max(mostFingers, frame.fingerCount)
            began += frame.touches.filter { $0.phase == .began }.count
        }
        return (mostFingers, began)
    }

    func stats(_ path: String) throws -> RecordingStats {
        var source = try openRecording(path: path)
        return try RecordingStats(consuming: &source)
    }

    /// Two fingers pinching on a protocol-A panel (contacts separated by SYN_MT_REPORT, no tracking
    /// ids, one BTN_TOUCH for both): two fingers down, two touches, not one.
    @Test func protocolATwoFingerPinchIsTwoFingersAndTwoTouches() throws {
        let path = directory + "/protocol-a.evemu"
        var text = "# EVEMU 1.3\nN: protocol A panel\nI: 0003 0001 0002 0003\nP: 02 00 00 00 00 00 00 00\n"
            + "B: 01 00 00 00 00 00 00 00 00\nB: 01 00 00 00 00 00 00 00 00\nB: 01 00 00 00 00 00 00 00 00\n"
            + "B: 01 00 00 00 00 00 00 00 00\nB: 01 00 00 00 00 00 00 00 00\nB: 01 00 04 00 00 00 00 00 00\n"
            + "A: 00 0 1000 0 0 10\nA: 01 0 1000 0 0 10\nA: 35 0 1000 0 0 10\nA: 36 0 1000 0 0 10\n"
        for step in 0..<5 {
            let time = "0.0\(step)0000"
            text += "E: \(time) 0003 0035 \(100 + step * 40)\nE: \(time) 0003 0036 0500\nE: \(time) 0000 0002 0000\n"
            text += "E: \(time) 0003 0035 \(900 - step * 40)\nE: \(time) 0003 0036 0500\nE: \(time) 0000 0002 0000\n"
            if step == 0 { text += "E: \(time) 0001 014a 0001\n" }
            text += "E: \(time) 0000 0000 0000\n"
        }
        text += "E: 0.100000 0000 0002 0000\nE: 0.100000 0001 014a 0000\nE: 0.100000 0000 0000 0000\n"
        writeFile(path, text)
        let stats = try stats(path)
        #expect(stats.frameCount == 6)
        #expect(stats.mostFingersDown == 2)
        #expect(stats.touchSequenceCount == 2)
        let assembler = try assemblerCounts(path)
        #expect(stats.mostFingersDown == assembler.mostFingers && stats.touchSequenceCount == assembler.began)
    }

    /// Protocol B the awkward way: a tracking id in a slot beyond the device's four, the same id sent
    /// again, and an id replaced without a lift. Two touch sequences, as the assembler sees them
    /// (counting every non-negative id said four).
    @Test func awkwardProtocolBCountsWhatTheAssemblerSees() throws {
        let path = directory + "/awkward.evemu"
        let writer = try EvemuWriter(path: path, device: .presetTouchpad)
        let script: [(Int32, EventCode, Int32)] = [
            (1, .absMTSlot, 9), (1, .absMTTrackingID, 5), (1, .absMTSlot, 0), (1, .absMTTrackingID, 7),
            (1, .absMTPositionX, 100), (1, .synReport, 0),
            (10_000, .absMTTrackingID, 7), (10_000, .synReport, 0),
            (20_000, .absMTTrackingID, 8), (20_000, .synReport, 0),
        ]
        for (microseconds, code, value) in script {
            try writer.write(InputEvent(time: EventTime(seconds: 0, microseconds: microseconds),
                                        type: code == .synReport ? .syn : .abs, code: code, value: value))
        }
        try writer.close()
        let stats = try stats(path)
        #expect(stats.frameCount == 3)
        #expect(stats.touchSequenceCount == 2)
        #expect(stats.mostFingersDown == 1)
        let assembler = try assemblerCounts(path)
        #expect(stats.mostFingersDown == assembler.mostFingers && stats.touchSequenceCount == assembler.began)
    }

    @Test(arguments: ["touchpad/three-finger-swipe-01.evemu", "touchscreen/pinch-in-jitter-01.evemu",
                      "touchpad/resting-thumb-01.evemu"])
    func statsAgreeWithTheAssemblerOnTheCorpus(corpusFile: String) throws {
        let path = badFixture("../corpus/" + corpusFile)
        let stats = try stats(path)
        let assembler = try assemblerCounts(path)
        #expect(stats.mostFingersDown == assembler.mostFingers)
        #expect(stats.touchSequenceCount == assembler.began)
        #expect(stats.trailingPartialFrameEventCount == 0)
    }
}

/// Pen devices are not touch devices, even when direct; touchpads and touchscreens stay what they are.
@Suite struct DeviceClassTests {
    @Test func aPenOnlyDirectDeviceReadFromEvemuIsOther() throws {
        let path = makeTemporaryDirectory() + "/pen.evemu"
        // BTN_TOOL_PEN (0x140) and BTN_TOUCH (0x14a), ABS_X/ABS_Y, INPUT_PROP_DIRECT.
        writeFile(path, "# EVEMU 1.3\nN: Wacom pen display\nI: 0003 056a 0001 0100\nP: 02 00 00 00 00 00 00 00\n"
            + "B: 01 00 00 00 00 00 00 00 00\nB: 01 00 00 00 00 00 00 00 00\nB: 01 00 00 00 00 00 00 00 00\n"
            + "B: 01 00 00 00 00 00 00 00 00\nB: 01 00 00 00 00 00 00 00 00\nB: 01 01 04 00 00 00 00 00 00\n"
            + "B: 03 03 00 00 00 00 00 00 00\nA: 00 0 30000 0 0 100\nA: 01 0 20000 0 0 100\n")
        let source = try openRecording(path: path)
        #expect(source.device.has(.direct) && source.device.has(.key, .btnToolPen) && source.device.has(.key, .btnTouch))
        #expect(source.device.deviceClass == .other)
    }

    @Test func touchpadsAndTouchscreensKeepTheirClass() {
        #expect(Fixtures.touchpad.deviceClass == .touchpad)
        #expect(Fixtures.touchscreen.deviceClass == .touchscreen)
        #expect(DeviceDescription.presetTouchpad.deviceClass == .touchpad)
        #expect(DeviceDescription.presetTouchscreen.deviceClass == .touchscreen)
    }
}
