import Testing
import GestureCore
import GestureKit

@Suite struct EvemuReaderTests: WritesFilesInItsDirectory {
    let directory = makeTemporaryDirectory()

    @Test func readsVersion13WithCommentsEverywhere() throws {
        let path = file("v13.evemu", """
        # EVEMU 1.3
        # Kernel: 6.1.0
        N: Pad # with a hash   
        I: 0018 06cb cd7d 0100   # ids
        P: 05 00 00 00 00 00 00 00
        B: 00 0b 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 01 00 00 00 00 00 # trailing comment
        B: 03 03 00 00 00 00 80 60 02
        A: 00 0 1000 0 0 12 # ABS_X
        A: 01 -5 500 1 2 13
        A: 2f 0 1 0 0 0
        A: 35 0 1000 0 0 12
        A: 36 -5 500 1 2 13
        A: 39 0 65535 0 0 0
        L: 01 1
        S: 00 1
        ################################
        E: 0.000001 0003 0039 0042\t# EV_ABS / ABS_MT_TRACKING_ID 42
        # a comment between events

        E: 0.000001 0003 0035 -012
        E: 0.000001 0000 0000 0000\t# ------------ SYN_REPORT (0) ---------- +0ms
        E: 12.999999 0003 0039 -1
        """)
        var reader = try EvemuReader(path: path)
        #expect(reader.version == .v1_3)
        let device = reader.device
        #expect(device.name == "Pad # with a hash   ")
        #expect(device.id == InputID(bustype: 0x18, vendor: 0x06cb, product: 0xcd7d, version: 0x100))
        #expect(device.properties == [.pointer, .buttonpad])
        // Third EV_KEY chunk (codes 128...191), byte 2 bit 0: code 128 + 16 = 0x90.
        #expect(device.codes[.key] == [code(0x90)])
        #expect(device.codes[.abs] == [.absX, .absY, .absMTSlot, .absMTPositionX, .absMTPositionY, .absMTTrackingID])
        #expect(device.absInfo[.absY] == AbsInfo(minimum: -5, maximum: 500, fuzz: 1, flat: 2, resolution: 13))
        #expect(device.ledStates == [code(1): 1])
        #expect(device.switchStates == [code(0): 1])
        let events = try drain(&reader)
        #expect(events == [
            InputEvent(time: EventTime(seconds: 0, microseconds: 1), type: .abs, code: .absMTTrackingID, value: 42),
            InputEvent(time: EventTime(seconds: 0, microseconds: 1), type: .abs, code: .absMTPositionX, value: -12),
            InputEvent(time: EventTime(seconds: 0, microseconds: 1), type: .syn, code: .synReport, value: 0),
            InputEvent(time: EventTime(seconds: 12, microseconds: 999999), type: .abs, code: .absMTTrackingID, value: -1),
        ])
        #expect(try reader.nextEvent() == nil)
    }

    @Test func readsVersion10WithFiveNumberAbsLines() throws {
        let path = file("v10.evemu", """
        N: Old Touchpad
        I: 0011 0002 0007 01b1
        B: 03 03 00 00 00 00 00 00 00
        A: 00 1472 5472 8 0
        A: 01 1408 4448 8 0
        E: 1281097637.482146 0003 0000 3071
        E: 1281097637.482146 0000 0000 0
        """)
        var reader = try EvemuReader(path: path)
        #expect(reader.version == .v1_0)
        #expect(reader.device.absInfo[.absX] == AbsInfo(minimum: 1472, maximum: 5472, fuzz: 8, flat: 0, resolution: 0))
        let events = try drain(&reader)
        #expect(events.first?.time == EventTime(seconds: 1_281_097_637, microseconds: 482_146))
        #expect(events.map(\.value) == [3071, 0])
    }

    @Test func readsTheOldSplitFormAsTwoPathsOrJoined() throws {
        let description = """
        N: Split Device
        I: 0003 0eef 0001 0100
        B: 03 03 00 00 00 00 00 00 00
        A: 00 0 4095 0 0
        A: 01 0 4095 0 0

        """
        let eventLines = """
        E: 1300000000.000100 0003 0000 17
        E: 1300000000.000100 0000 0000 0
        E: 1300000001.000000 0003 0001 4095

        """
        var split = try EvemuReader(path: file("split.desc", description), eventsPath: file("split.events", eventLines))
        var joined = try EvemuReader(path: file("joined.evemu", description + eventLines))
        #expect(split.device == joined.device)
        #expect(split.device.name == "Split Device")
        let splitEvents = try drain(&split)
        #expect(splitEvents.count == 3)
        #expect(splitEvents == (try drain(&joined)))
        #expect(splitEvents.last?.time == EventTime(seconds: 1_300_000_001, microseconds: 0))
        // Through openRecording too.
        let opened = try openRecording(path: directory + "/split.desc", secondPath: directory + "/split.events")
        #expect(try drainAny(opened) == splitEvents)
    }

    @Test func descriptionWithoutEventsIsAValidEmptyStream() throws {
        let reader = try EvemuReader(path: file("describe.evemu", "N: Dev\nI: 0001 0002 0003 0004\n"))
        #expect(reader.device.name == "Dev")
        #expect(try reader.nextEvent() == nil)
    }

    @Test func ledAndSwitchStatesRoundTripThroughTheWriter() throws {
        var device = Fixtures.touchscreen
        device.codes[.led] = [code(0), code(1)]
        device.codes[.sw] = [code(0)]
        device.ledStates = [code(1): 1]
        device.switchStates = [code(0): 1]
        let path = directory + "/states.evemu"
        try EvemuWriter(path: path, device: device).close()
        let text = readFile(path)
        #expect(text.contains("\nL: 01 1\nS: 00 1\n"))
        #expect(try EvemuReader(path: path).device == device)
    }
}
