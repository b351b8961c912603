import Testing
import GestureCore
import GestureKit

/// evtest logs as printed by Debian's evtest 1.35 and as pasted into bug reports: the header
/// makes the description, both event forms are read, a paste's marks are passed over, and what
/// cannot be read is an error at its line.
@Suite struct EvtestReaderTests: WritesFilesInItsDirectory {
    let directory = makeTemporaryDirectory()

    /// A two-slot clickpad's header as evtest 1.35 prints it (fuzz, flat and resolution only when
    /// not 0), then a one-finger frame, a lift, and a button press.
    static let header = """
        Input driver version is 1.0.1
        Input device ID: bus 0x18 vendor 0x6cb product 0x7e7e version 0x100
        Input device name: "SYNA1D31:00 06CB:CD48 "Touchpad""
        Supported events:
          Event type 0 (EV_SYN)
          Event type 1 (EV_KEY)
            Event code 272 (BTN_LEFT)
            Event code 325 (BTN_TOOL_FINGER)
            Event code 330 (BTN_TOUCH)
            Event code 333 (BTN_TOOL_DOUBLETAP)
          Event type 3 (EV_ABS)
            Event code 0 (ABS_X)
              Value    500
              Min        0
              Max     1200
              Resolution      12
            Event code 1 (ABS_Y)
              Value    300
              Min        0
              Max      720
              Resolution      12
            Event code 47 (ABS_MT_SLOT)
              Value      0
              Min        0
              Max        1
            Event code 53 (ABS_MT_POSITION_X)
              Value      0
              Min        0
              Max     1200
              Fuzz       4
              Resolution      12
            Event code 54 (ABS_MT_POSITION_Y)
              Value      0
              Min        0
              Max      720
              Resolution      12
            Event code 57 (ABS_MT_TRACKING_ID)
              Value      0
              Min        0
              Max    65535
          Event type 4 (EV_MSC)
            Event code 4 (MSC_SCAN)
        Properties:
          Property type 0 (INPUT_PROP_POINTER)
          Property type 2 (INPUT_PROP_BUTTONPAD)
        Testing ... (interrupt to exit)

        """
    static let events = """
        Event: time 1479439827.574600, type 3 (EV_ABS), code 57 (ABS_MT_TRACKING_ID), value 7
        Event: time 1479439827.574600, type 3 (EV_ABS), code 53 (ABS_MT_POSITION_X), value 600
        Event: time 1479439827.574600, type 3 (EV_ABS), code 54 (ABS_MT_POSITION_Y), value 360
        Event: time 1479439827.574600, type 1 (EV_KEY), code 330 (BTN_TOUCH), value 1
        Event: time 1479439827.574600, type 1 (EV_KEY), code 325 (BTN_TOOL_FINGER), value 1
        Event: time 1479439827.574600, -------------- SYN_REPORT ------------
        Event: time 1479439827.580001, type 4 (EV_MSC), code 4 (MSC_SCAN), value 90001
        Event: time 1479439827.580001, type 1 (EV_KEY), code 272 (BTN_LEFT), value 1
        Event: time 1479439827.580001, -------------- SYN_REPORT ------------
        Event: time 1479439827.590000, type 3 (EV_ABS), code 57 (ABS_MT_TRACKING_ID), value -1
        Event: time 1479439827.590000, type 1 (EV_KEY), code 330 (BTN_TOUCH), value 0
        Event: time 1479439827.590000, type 1 (EV_KEY), code 325 (BTN_TOOL_FINGER), value 0
        Event: time 1479439827.590000, -------------- SYN_REPORT ------------

        """

    func read(_ path: String) throws -> (EvtestReader, [InputEvent]) {
        let source = try openRecording(path: path)
        let reader = try #require(source as? EvtestReader)
        return (reader, try drainAny(reader))
    }

    @Test func theHeaderMakesTheDescription() throws {
        let (reader, events) = try read(file("log.txt", Self.header + Self.events))
        let device = reader.device
        #expect(device.name == "SYNA1D31:00 06CB:CD48 \"Touchpad\"", "from the first quote to the last")
        #expect(device.id == InputID(bustype: 0x18, vendor: 0x6cb, product: 0x7e7e, version: 0x100))
        #expect(device.properties == [.pointer, .buttonpad])
        #expect(device.absInfo[.absMTPositionX] == AbsInfo(value: 0, minimum: 0, maximum: 1200, fuzz: 4, resolution: 12))
        #expect(device.absInfo[.absX]?.value == 500)
        #expect(device.absInfo[.absMTTrackingID]?.resolution == 0, "no Resolution line: none")
        #expect(device.slotCount == 2)
        #expect(device.has(.key, .btnLeft) && device.has(.msc, EventCode(rawValue: 4)))
        #expect(device.deviceClass == .touchpad)
        #expect(reader.cutHeader == nil)
        #expect(reader.descriptionWarnings.isEmpty && reader.eventContradictions.isEmpty && reader.trailingPartialFrame == nil)
        #expect(events.count == 13)
        #expect(events[0] == InputEvent(time: EventTime(seconds: 1479439827, microseconds: 574600), type: .abs,
                                        code: .absMTTrackingID, value: 7))
        #expect(events[5].isSynReport)
        #expect(events[6].value == 0x90001, "MSC_SCAN's value is printed in hex")
        #expect(events[7].type == .key && events[7].code == .btnLeft && events[7].value == 1)
        #expect(events[9].value == -1)
    }

    /// What people paste: a prompt first, `> ` quotes (nested too), Windows line ends, a code
    /// fence, evtest's device list, its grab notice, and what it prints when the device goes away.
    @Test func aPasteReadsAsTheLogItHolds() throws {
        let (_, clean) = try read(file("clean.txt", Self.header + Self.events))
        let pasted = "user@laptop:~$ sudo evtest\nNo device specified, trying to scan all of /dev/input/event*\n"
            + "Available devices:\n/dev/input/event5:\tSYNA1D31:00 06CB:CD48 Touchpad\n"
            + "Select the device event number [0-5]: 5\n" + Self.header
            + "***********************************************\n  This device is grabbed by another process.\n"
            + "***********************************************\n" + Self.events
            + "expected 24 bytes, got -1\nevtest: error reading: No such device\n"
        let quoted = "```\n" + pasted.split(separator: "\n", omittingEmptySubsequences: false)
            .map { "> > " + $0 }.joined(separator: "\r\n") + "\r\n```\n"
        let (reader, events) = try read(file("pasted.txt", quoted))
        #expect(events == clean)
        #expect(reader.device.name == "SYNA1D31:00 06CB:CD48 \"Touchpad\"")
        #expect(try RecordingInputFormat.detect(path: directory + "/pasted.txt") == .evtest)
        #expect(try RecordingInputFormat.detect(path: file("prompt.txt", "# evtest /dev/input/event5\n" + Self.header)) == .evtest)
    }

    /// A paste that cut the grab notice's closing line: the events after it are still events.
    @Test func aNoticeWithoutItsClosingLineDoesNotSwallowTheEvents() throws {
        let log = Self.header + "***********************************************\n  This device is grabbed by another process.\n"
            + Self.events
        let (_, events) = try read(file("notice.txt", log))
        #expect(events.count == 13)
    }

    @Test func oldSynchronizationWordsAndProtocolAReports() throws {
        let log = Self.header + """
            Event: time 10.000001, type 3 (EV_ABS), code 53 (ABS_MT_POSITION_X), value 10
            Event: time 10.000001, type 3 (EV_ABS), code 54 (ABS_MT_POSITION_Y), value 10
            Event: time 10.000001, ++++++++++++++ SYN_MT_REPORT ++++++++++++
            Event: time 10.000001, -------------- Report Sync ------------
            Event: time 10.000002, -------------- SYN_DROPPED ------------

            """
        let (_, events) = try read(file("sync.txt", log))
        #expect(events.map(\.code.rawValue).suffix(3) == [2, 0, 3])
        #expect(events.allSatisfy { $0.type != .syn || $0.value == 0 })
    }

    /// A header cut after the position axes is read, with a warning naming its last line; one cut
    /// before them, or events with no header at all, is an error at the first event's line.
    @Test func aHeaderCutShort() throws {
        let lines = Self.header.split(separator: "\n", omittingEmptySubsequences: false)
        let cutAfterPositions = lines.prefix(37).joined(separator: "\n") + "\n"
        let (reader, events) = try read(file("cut.txt", cutAfterPositions + Self.events))
        #expect(events.count == 13)
        let cut = try #require(reader.cutHeader)
        #expect(cut.lastHeaderLine == 37 && !cut.sawProperties)
        #expect(cut.description.hasPrefix(directory + "/cut.txt:37: evtest's header ends here without 'Testing"))
        #expect(reader.device.absInfo[.absMTTrackingID] == nil, "cut inside its block: no range")
        #expect(reader.descriptionWarnings.map(\.line) == [37], "the axis listed with no range is named")

        let cutBeforePositions = lines.prefix(11).joined(separator: "\n") + "\n"
        let error = try #require(throws: RecordingError.self) { try read(file("cut2.txt", cutBeforePositions + Self.events)) }
        #expect(error.kind == .missingDescription && error.line == 12)
        #expect(error.description.contains("ABS_MT_POSITION_X"), "\(error)")

        let headless = try #require(throws: RecordingError.self) { try read(file("headless.txt", Self.events)) }
        #expect(headless.line == 1 && headless.kind == .missingDescription)
        #expect(headless.description.contains("no header before them"), "\(headless)")
    }

    @Test(arguments: [
        ("Event: time 12.5, type 3 (EV_ABS), code 53 (ABS_MT_POSITION_X), value 10", RecordingError.Kind.malformedLine),
        ("Event: time 12.000005, type 3 (EV_ABS), code 53 (ABS_MT_POSITION_X), value ten", .malformedLine),
        ("Event: time 12.000005, type 3 (EV_ABS), code 99 (?), value 1", .unknownEventCode),
        ("Event: time 12.000005, -------------- SYN_NOPE ------------", .malformedLine),
        ("Event: time 1.000000, -------------- SYN_REPORT ------------", .timeWentBackwards),
        ("some words the paste picked up", .malformedLine),
    ])
    func aBadLineAmongTheEventsIsAnErrorAtItsLine(line: String, kind: RecordingError.Kind) throws {
        let good = "Event: time 12.000000, -------------- SYN_REPORT ------------\n"
        let path = file("bad.txt", Self.header + good + line + "\n" + good)
        let headerLines = Self.header.split(separator: "\n", omittingEmptySubsequences: false).count
        let error = try #require(throws: RecordingError.self) { try read(path) }
        #expect(error.kind == kind)
        #expect(error.line == headerLines + 1, "\(error)")
        #expect(error.description.hasPrefix("\(path):\(headerLines + 1): expected "))
    }

    @Test func aBadHeaderLineIsAnErrorAtItsLine() throws {
        let broken = Self.header.replacingOccurrences(of: "Input device ID: bus 0x18 vendor", with: "Input device ID: bus 18 vendor")
        let error = try #require(throws: RecordingError.self) { try read(file("id.txt", broken + Self.events)) }
        #expect(error.line == 2 && error.kind == .malformedLine)
        let junk = try #require(throws: RecordingError.self) {
            try read(file("junk.txt", Self.header.replacingOccurrences(of: "Properties:", with: "Propertiez:") + Self.events))
        }
        #expect(junk.line == 43, "\(junk)")
    }
}
