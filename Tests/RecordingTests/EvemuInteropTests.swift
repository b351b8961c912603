import Testing
import GestureKit

/// pinchlab's evemu files against Debian's libevemu, in both directions.
@Suite struct EvemuInteropTests {
    static let devices: [(String, DeviceDescription, Int64)] = [
        ("touchpad", Fixtures.touchpad, 0),
        ("touchscreen", Fixtures.touchscreen, 4_102_444_800), // a 2100 epoch time: large seconds
    ]

    @Test(arguments: [0, 1])
    func libevemuReadsWhatPinchlabWrites(deviceIndex: Int) throws {
        let (label, device, startSeconds) = Self.devices[deviceIndex]
        let events = Fixtures.events(count: 400, startSeconds: startSeconds)
        #expect(events.contains { $0.value == -1 } && events.contains { $0.value == Int32.min })
        let path = makeTemporaryDirectory() + "/\(label).evemu"
        let writer = try EvemuWriter(path: path, device: device)
        for event in events { try writer.write(event) }
        try writer.close()

        let reading = try #require(Libevemu.read(path))
        #expect(reading.readStatus > 0)
        #expect(reading.lastEventStatus == 0, "libevemu stopped on a line it could not parse")
        #expect(reading.device == device)
        #expect(reading.events == events)
    }

    /// The other way, and byte for byte: libevemu's own writer (`evemu_write` +
    /// `evemu_write_event`) produces the same file as pinchlab's, and pinchlab reads it back.
    /// The only test that calls `evemu_write_event`: its `+Nms` keeps a process-wide last time.
    @Test func pinchlabReadsWhatLibevemuWritesAndWritesTheSameText() throws {
        let directory = makeTemporaryDirectory()
        let device = Fixtures.touchscreen
        let events = Fixtures.events(count: 300, startSeconds: 0)
        let descriptionPath = directory + "/description.evemu"
        try EvemuWriter(path: descriptionPath, device: device).close()
        let libevemuPath = directory + "/libevemu.evemu"
        #expect(Libevemu.rewrite(descriptionPath: descriptionPath, events: events, to: libevemuPath))

        var reader = try EvemuReader(path: libevemuPath)
        #expect(reader.device == device)
        #expect(reader.version == .v1_3)
        #expect(try drain(&reader) == events)

        let pinchlabPath = directory + "/pinchlab.evemu"
        let writer = try EvemuWriter(path: pinchlabPath, device: device,
                                     options: RecordingWriterOptions(systemInfo: .current()))
        for event in events { try writer.write(event) }
        try writer.close()
        let ours = readFile(pinchlabPath).split(separator: "\n", omittingEmptySubsequences: false)
        let theirs = readFile(libevemuPath).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(ours.count == theirs.count)
        for (index, (mine, reference)) in zip(ours, theirs).enumerated() where mine != reference {
            Issue.record("line \(index + 1) differs:\n  pinchlab: \(mine)\n  libevemu: \(reference)")
            break
        }
    }

    @Test func evemuLineShapesMatchEvemuRecord() throws {
        let path = makeTemporaryDirectory() + "/shape.evemu"
        let writer = try EvemuWriter(path: path, device: Fixtures.touchpad)
        let time = EventTime(seconds: 0, microseconds: 1)
        try writer.write(InputEvent(time: time, type: .abs, code: .absMTTrackingID, value: -1))
        try writer.write(InputEvent(time: time, type: .abs, code: .absMTPositionX, value: 1234))
        try writer.write(InputEvent(time: time, type: .syn, code: .synReport, value: 0))
        try writer.write(InputEvent(time: EventTime(seconds: 3, microseconds: 640121), type: .syn, code: .synReport, value: 0))
        try writer.close()
        let text = readFile(path)
        // Shapes as evemu-record prints them (README, kernel and libinput bug reports).
        #expect(text.hasPrefix("# EVEMU 1.3\n# Input device name: \"SynPS/2 Synaptics TouchPad\"\n"))
        #expect(text.contains("# Input device ID: bus 0x11 vendor 0x02 product 0x07 version 0x1b1\n"))
        #expect(text.contains("\nN: SynPS/2 Synaptics TouchPad\nI: 0011 0002 0007 01b1\nP: 05 00 00 00 00 00 00 00\nB: 00 0b 00 00 00 00 00 00 00\n"))
        #expect(text.contains("\nA: 35 1266 5676 0 0 44\n"))
        #expect(text.contains("E: 0.000001 0003 0039 -001\t# EV_ABS / ABS_MT_TRACKING_ID   -1\n"))
        #expect(text.contains("E: 0.000001 0003 0035 1234\t# EV_ABS / ABS_MT_POSITION_X    1234\n"))
        #expect(text.contains("E: 0.000001 0000 0000 0000\t# ------------ SYN_REPORT (0) ---------- +0ms\n"))
        #expect(text.contains("E: 3.640121 0000 0000 0000\t# ------------ SYN_REPORT (0) ---------- +3640ms\n"))
        #expect(text.contains("################################\n#      Waiting for events      #\n################################\n"))
    }
}
