import Testing
import GestureCore
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

    /// A line that begins with blank space is no evemu line to libevemu: among the events it is
    /// passed over (evemu-play never plays it), and pinchlab reads the file the same way, saying
    /// which line and how many. Debian's libevemu is the reference here.
    @Test func anIndentedEventLineIsSkippedAsLibevemuSkipsIt() throws {
        let directory = makeTemporaryDirectory()
        let plain = directory + "/plain.evemu", indented = directory + "/indented.evemu"
        let writer = try EvemuWriter(path: plain, device: Fixtures.touchpad)
        let events = Fixtures.events(count: 40, startSeconds: 0)
        for event in events { try writer.write(event) }
        try writer.close()
        var lines = readFile(plain).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let eventLines = lines.indices.filter { lines[$0].hasPrefix("E: ") }
        let first = eventLines[0], fifth = eventLines[4], sixth = eventLines[5]
        lines[first] = "  " + lines[first]
        lines[fifth] = "\t" + lines[fifth]
        lines[sixth] = " " + lines[sixth]
        writeFile(indented, lines.joined(separator: "\n"))

        let libevemu = try #require(Libevemu.read(indented))
        #expect(libevemu.readStatus > 0)
        let kept = events.enumerated().filter { ![0, 4, 5].contains($0.offset) }.map(\.element)
        #expect(libevemu.events == kept, "libevemu passes over the three indented lines")
        var reader = try EvemuReader(path: indented)
        #expect(try drain(&reader) == libevemu.events, "pinchlab reads what libevemu reads")
        let skipped = try #require(reader.indentedEventLines)
        #expect(skipped.firstLine == first + 1 && skipped.count == 3)
        #expect(skipped.description.hasPrefix("\(indented):\(first + 1): '  E: "))
        #expect(skipped.description.hasSuffix(" begins with blank space, and libevemu (evemu-play) reads no such line (3 lines)"))
    }

    /// In the description an indented line ends libevemu's description: the device it reads lacks
    /// the lines after it. pinchlab refuses such a file with the line (it would read another device).
    @Test func aDescriptionLineAfterAnIndentedLineIsRefused() throws {
        let directory = makeTemporaryDirectory()
        let path = directory + "/desc.evemu"
        try EvemuWriter(path: path, device: Fixtures.touchpad).close()
        var lines = readFile(path).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let firstAbs = try #require(lines.firstIndex { $0.hasPrefix("A: ") })
        lines[firstAbs] = "  " + lines[firstAbs]
        writeFile(path, lines.joined(separator: "\n"))

        let libevemu = try #require(Libevemu.read(path))
        #expect(libevemu.device.absInfo != Fixtures.touchpad.absInfo, "libevemu's description ended at the indented line")
        let indentedAxis = try #require(throws: RecordingError.self) { try EvemuReader(path: path) }
        #expect(indentedAxis.line == firstAbs + 1, "the indented line")
        #expect(indentedAxis.description.contains("expected a description line at the start of its line (libevemu's description "
                                                  + "ends at a line that begins with blank space)"), "\(indentedAxis)")
        // An indented comment before the axes: libevemu's description ends there too.
        lines[firstAbs] = String(lines[firstAbs].dropFirst(2))
        lines.insert("   # a comment", at: firstAbs)
        writeFile(path, lines.joined(separator: "\n"))
        #expect(try #require(Libevemu.read(path)).device.absInfo != Fixtures.touchpad.absInfo)
        let afterComment = try #require(throws: RecordingError.self) { try EvemuReader(path: path) }
        #expect(afterComment.line == firstAbs + 2, "the first 'A:' line, which libevemu does not read")
        #expect(afterComment.description.contains("expected no description line after line \(firstAbs + 1), which begins with "
                                                  + "blank space: libevemu's description ends there"), "\(afterComment)")
    }
}
