import Testing
import GestureCore
import GestureKit

/// Files shaped like what `libinput record` 1.22 writes (tools/libinput-record.c): comments in
/// odd places, hid/udev/quirks, `- libinput:` entries, several devices.
@Suite struct LibinputRecordTests {
    let directory = makeTemporaryDirectory()

    static let twoDeviceRecording = """
    # libinput record
    version: 1
    ndevices: 2
    libinput:
      version: "1.22.1"
      git: "unknown"
    system:
      os: "debian:12"
      kernel: "6.1.0-18-amd64"
      dmi: "dmi:bvnLENOVO:bvrN2HET:svnLENOVO:pn20QD:"
    devices:
    - node: /dev/input/event3
      evdev:
        # Name: AT Translated Set 2 keyboard
        # ID: bus 0x0011 vendor 0x0001 product 0x0001 version 0xab83
        # Supported Events:
        # Event type 0 (EV_SYN)
        # Event type 1 (EV_KEY)
        #   Event code 1 (KEY_ESC)
        # Properties:
        name: "AT Translated Set 2 keyboard"
        id: [17, 1, 1, 43907]
        codes:
          0: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] # EV_SYN
          1: [1, 2, 3, 30] # EV_KEY
          4: [4] # EV_MSC
        properties: []
      udev:
        properties:
        - ID_INPUT=1
        - ID_INPUT_KEYBOARD=1
        virtual: false
      quirks:
      events:
      # Current time is 10:00:00
      - evdev:
        - [  0,      0,   4,   4,      30] # EV_MSC / MSC_SCAN                 30 (obfuscated)
        - [  0,      0,   1,  30,       1] # EV_KEY / KEY_A                     1 (obfuscated)
        - [  0,      0,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +0ms
    - node: /dev/input/event5
      evdev:
        # Name: SYNA8004:00 06CB:CD8B Touchpad
        # Size in mm: 102x68
        name: "SYNA8004:00 06CB:CD8B Touchpad"
        id: [24, 1739, 52619, 256]
        codes:
          0: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] # EV_SYN
          1: [272, 325, 328, 330, 333, 334, 335] # EV_KEY
          3: [0, 1, 47, 53, 54, 55, 57] # EV_ABS
          4: [5] # EV_MSC
        absinfo:
          0: [0, 1224, 0, 0, 12]
          1: [0, 804, 0, 0, 12]
          47: [0, 4, 0, 0, 0]
          53: [0, 1224, 0, 0, 12]
          54: [0, 804, 0, 0, 12]
          55: [0, 2, 0, 0, 0]
          57: [0, 65535, 0, 0, 0]
        properties: [0, 2]
      hid: [
        0x05, 0x01, 0x09, 0x02, 0xa1, 0x01, 0x85, 0x02, 0x09, 0x01, 0xa1, 0x00, 0x05, 0x09, 0x19, 0x01,
        0xc0, 0xc0
      ]
      udev:
        properties:
        - ID_INPUT=1
        - ID_INPUT_TOUCHPAD=1
        - LIBINPUT_DEVICE_GROUP=18/6cb/cd8b:i2c-SYNA8004:00
        virtual: false
      quirks:
      - ModelLenovoT480s=1
      libinput:
        size: [102, 67]
        capabilities: [pointer, gesture]
      events:
      # Current time is 10:00:01
      - evdev:
        - [  0,      0,   3,  57,      42] # EV_ABS / ABS_MT_TRACKING_ID        42
        - [  0,      0,   3,  53,     600] # EV_ABS / ABS_MT_POSITION_X        600 (+600)
        - [  0,      0,   3,  54,     -3] # EV_ABS / ABS_MT_POSITION_Y         -3 (-3)
        - [  0,      0,   1, 330,       1] # EV_KEY / BTN_TOUCH                 1
        - [  0,      0,   1, 325,       1] # EV_KEY / BTN_TOOL_FINGER           1
        - [  0,      0,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +0ms
      - libinput:
        - {time: 0.000000, type: POINTER_MOTION, delta: [  0.00,   0.00], unaccel: [  0.00,   0.00]}
      - evdev:
        - [  0,\t  7012,\t3,  53,     610] # EV_ABS / ABS_MT_POSITION_X        610 (+10)
        - [  0,   7012,   4,   5,    7000] # EV_MSC / MSC_TIMESTAMP          7000
        - [  0,   7012,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +7ms
        libinput:
        - {time: 0.007012, type: POINTER_MOTION, delta: [  1.00,   0.00], unaccel: [  1.00,   0.00]}
      - hid:
          time: [  0,   7100]
          hidraw0: [
            0x02, 0x00
          ]
      - evdev:
        - [  1,      5,   3,  57,      -1] # EV_ABS / ABS_MT_TRACKING_ID        -1
        - [  1,      5,   1, 330,       0] # EV_KEY / BTN_TOUCH                 0
        - [  1,      5,   1, 325,       0] # EV_KEY / BTN_TOOL_FINGER           0
        - [  1,      5,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +993ms
                                         # Touch device in neutral state

    """

    static let touchpadEvents: [InputEvent] = {
        func e(_ s: Int64, _ us: Int32, _ t: UInt16, _ c: UInt16, _ v: Int32) -> InputEvent {
            InputEvent(time: EventTime(seconds: s, microseconds: us), type: EventType(rawValue: t),
                       code: EventCode(rawValue: c), value: v)
        }
        return [e(0, 0, 3, 57, 42), e(0, 0, 3, 53, 600), e(0, 0, 3, 54, -3), e(0, 0, 1, 330, 1), e(0, 0, 1, 325, 1),
                e(0, 0, 0, 0, 0), e(0, 7012, 3, 53, 610), e(0, 7012, 4, 5, 7000), e(0, 7012, 0, 0, 0),
                e(1, 5, 3, 57, -1), e(1, 5, 1, 330, 0), e(1, 5, 1, 325, 0), e(1, 5, 0, 0, 0)]
    }()

    func recordingPath() -> String {
        let path = directory + "/two.yml"
        writeFile(path, Self.twoDeviceRecording)
        return path
    }

    @Test func defaultPicksTheFirstTouchDeviceAndSkipsOtherEntries() throws {
        var reader = try LibinputRecordReader(path: recordingPath())
        #expect(reader.deviceIndex == 1)
        #expect(reader.node == "/dev/input/event5")
        let device = reader.device
        #expect(device.name == "SYNA8004:00 06CB:CD8B Touchpad")
        #expect(device.id == InputID(bustype: 24, vendor: 1739, product: 52619, version: 256))
        #expect(device.deviceClass == .touchpad)
        #expect(device.properties == [.pointer, .buttonpad])
        #expect(device.codes[.key] == [code(272), code(325), code(328), code(330), code(333), code(334), code(335)])
        #expect(device.codes[.syn] == nil)
        #expect(device.absInfo[.absMTPositionX] == AbsInfo(minimum: 0, maximum: 1224, resolution: 12))
        #expect(device.slotCount == 5)
        #expect(try drain(&reader) == Self.touchpadEvents)
    }

    @Test func selectsByIndexAndByNode() throws {
        var keyboard = try LibinputRecordReader(path: recordingPath(), selecting: .index(0))
        #expect(keyboard.device.name == "AT Translated Set 2 keyboard")
        #expect(keyboard.device.deviceClass == .other)
        #expect(try drain(&keyboard).map(\.code) == [.mscScan, .keyA, .synReport])
        let byNode = try openRecording(path: recordingPath(), device: .node("/dev/input/event5"))
        #expect(byNode.device.name == "SYNA8004:00 06CB:CD8B Touchpad")
        #expect(try drainAny(byNode) == Self.touchpadEvents)
        #expect(throws: RecordingError.self) { try LibinputRecordReader(path: recordingPath(), selecting: .index(2)) }
    }

    @Test func writerOutputReadsBackExactly() throws {
        let events = Fixtures.events(count: 500, startSeconds: 1_700_000_000)
        let path = directory + "/written.yml"
        let writer = try LibinputRecordWriter(path: path, device: Fixtures.touchscreen, node: "/dev/input/event9",
                                              options: RecordingWriterOptions(systemInfo: .current()))
        for event in events {
            try writer.write(event)
            if event.isSynReport { try writer.flush() }
        }
        try writer.close()
        let text = readFile(path)
        #expect(text.hasPrefix("# libinput record\nversion: 1\nndevices: 1\n"))
        #expect(text.contains("\n  - evdev:\n    - [1700000000,      1,   3,  47,       0] # EV_ABS / ABS_MT_SLOT               0\n"))
        var reader = try LibinputRecordReader(path: path)
        #expect(reader.device == Fixtures.touchscreen)
        #expect(reader.node == "/dev/input/event9")
        #expect(try drain(&reader) == events)
    }

    @Test func convertsEvemuToYAMLAndBackLosslessly() throws {
        let events = Fixtures.events(count: 300, startSeconds: 0)
        let firstEvemu = directory + "/first.evemu"
        let yaml = directory + "/middle.yml"
        let secondEvemu = directory + "/second.evemu"
        func convert(_ from: String, to: String, _ format: RecordingFormat) throws {
            var source = try openRecording(path: from)
            let writer = try makeRecordingWriter(path: to, format: format, device: source.device)
            while let event = try source.nextEvent() { try writer.write(event) }
            try writer.close()
        }
        let writer = try EvemuWriter(path: firstEvemu, device: Fixtures.touchpad)
        for event in events { try writer.write(event) }
        try writer.close()
        try convert(firstEvemu, to: yaml, .libinputRecord)
        try convert(yaml, to: secondEvemu, .evemu)
        #expect(readFile(firstEvemu) == readFile(secondEvemu))
        #expect(try RecordingInputFormat.detect(path: yaml) == .libinputRecord)
        #expect(try RecordingInputFormat.detect(path: secondEvemu) == .evemu)
    }

    @Test func eventsListMayBeEmptyOrNull() throws {
        let path = directory + "/noevents.yml"
        writeFile(path, """
        version: 1
        devices:
        - node: /dev/input/event1
          evdev:
            name: "Touch"
            id: [3, 1, 2, 3]
            codes:
              1: [330]
              3: [0, 1]
            absinfo:
              0: [0, 100, 0, 0, 0]
              1: [0, 100, 0, 0, 0]
            properties: [1]
          events: []
        """)
        let reader = try LibinputRecordReader(path: path)
        #expect(reader.device.deviceClass == .touchscreen)
        #expect(try reader.nextEvent() == nil)
    }
}

@Suite struct FormatTests {
    @Test func extensionsMapToFormats() {
        #expect(RecordingFormat(pathExtensionOf: "pinch.evemu") == .evemu)
        #expect(RecordingFormat(pathExtensionOf: "/tmp/x.d/pinch.YML") == .libinputRecord)
        #expect(RecordingFormat(pathExtensionOf: "pinch.yaml") == .libinputRecord)
        #expect(RecordingFormat(pathExtensionOf: "/tmp/x.yml/pinch") == nil)
        #expect(RecordingFormat.libinputRecord.preferredFileExtension == "yml")
    }
}
