import Testing
import GestureCore
import GestureKit

@Suite struct StatsAndPrivacyTests {
    let directory = makeTemporaryDirectory()

    @Test func statsCountFramesFingersAndSequences() throws {
        // Two slots; a third finger only shows as BTN_TOOL_TRIPLETAP (as on real two-slot pads).
        let path = directory + "/three.evemu"
        writeFile(path, """
        N: Pad
        I: 0011 0002 0007 01b1
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 20 64 00 00 00 00 00 00
        B: 03 00 00 00 00 00 80 60 02
        A: 2f 0 1 0 0
        A: 35 0 1000 0 0
        A: 36 0 1000 0 0
        A: 39 0 65535 0 0
        E: 10.000000 0003 002f 0000
        E: 10.000000 0003 0039 0005
        E: 10.000000 0001 014a 0001
        E: 10.000000 0001 0145 0001
        E: 10.000000 0000 0000 0000
        E: 10.010000 0003 002f 0001
        E: 10.010000 0003 0039 0006
        E: 10.010000 0001 0145 0000
        E: 10.010000 0001 014d 0001
        E: 10.010000 0000 0000 0000
        E: 10.020000 0001 014d 0000
        E: 10.020000 0001 014e 0001
        E: 10.020000 0000 0000 0000
        E: 10.500000 0003 002f 0000
        E: 10.500000 0003 0039 -001
        E: 10.500000 0003 002f 0001
        E: 10.500000 0003 0039 -001
        E: 10.500000 0001 014e 0000
        E: 10.500000 0001 014a 0000
        E: 10.500000 0000 0000 0000
        E: 11.000000 0003 0039 0007
        E: 11.250000 0000 0000 0000
        """)
        var source = try openRecording(path: path)
        #expect(source.device.slotCount == 2)
        let stats = try RecordingStats(consuming: &source)
        #expect(stats.eventCount == 22)
        #expect(stats.frameCount == 5)
        #expect(stats.durationMicroseconds == 1_250_000)
        #expect(stats.durationSeconds == 1.25)
        #expect(stats.mostFingersDown == 3)
        #expect(stats.touchSequenceCount == 3)
        #expect(try source.nextEvent() == nil)
    }

    @Test(arguments: RecordingFormat.allCases)
    func writersMaskKeyboardKeysByDefault(format: RecordingFormat) throws {
        let time = EventTime(seconds: 0, microseconds: 1)
        let typed = [
            InputEvent(time: time, type: .msc, code: .mscScan, value: 0x10),
            InputEvent(time: time, type: .key, code: code(16), value: 1), // KEY_Q
            InputEvent(time: time, type: .key, code: .btnTouch, value: 1),
            InputEvent(time: time, type: .key, code: .btnToolDoubleTap, value: 1),
            InputEvent(time: time, type: .key, code: .btnLeft, value: 1),
            InputEvent(time: time, type: .syn, code: .synReport, value: 0),
        ]
        var device = Fixtures.touchpad
        device.codes[.key, default: []].insert(code(16))
        device.codes[.msc, default: []].insert(.mscScan)

        func roundTrip(_ options: RecordingWriterOptions, _ name: String) throws -> [InputEvent] {
            let path = directory + "/\(name).\(format.preferredFileExtension)"
            let writer = try makeRecordingWriter(path: path, format: format, device: device, options: options)
            for event in typed { try writer.write(event) }
            try writer.close()
            return try drainAny(try openRecording(path: path))
        }
        let masked = try roundTrip(RecordingWriterOptions(), "masked")
        #expect(masked.map(\.code) == [.mscScan, .keyA, .btnTouch, .btnToolDoubleTap, .btnLeft, .synReport])
        #expect(masked[0].value == 30)
        let shown = try roundTrip(RecordingWriterOptions(maskKeyboardKeys: false), "shown")
        #expect(shown == typed)
    }

    @Test func writerRejectsNegativeTimes() throws {
        let writer = try EvemuWriter(path: directory + "/negative.evemu", device: Fixtures.touchpad)
        let event = InputEvent(time: EventTime(seconds: -1, microseconds: 0), type: .syn, code: .synReport, value: 0)
        let error = try #require(throws: RecordingError.self) { try writer.write(event) }
        #expect(error.kind == .unwritableEvent)
    }
}
