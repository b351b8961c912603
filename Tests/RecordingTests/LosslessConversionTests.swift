import Glibc
import SystemPackage
import Testing
import GestureCore
import GestureKit

/// A touchpad that also has keyboard keys, LEDs and switches, with LED and switch states set, and
/// a stream that uses all of them: what a conversion must carry through unchanged.
enum KeysLEDsSwitches {
    static let keyQ = code(16), ledNumLock = code(0), ledCapsLock = code(1), switchLid = code(0), switchTabletMode = code(1)

    static let device = DeviceDescription(
        name: "pinchlab keys, LEDs and switches",
        id: InputID(bustype: BusType.i8042, vendor: 0x0002, product: 0x0007, version: 0x01b1),
        properties: [.pointer, .buttonpad],
        codes: [
            .key: [keyQ, .btnLeft, .btnToolFinger, .btnTouch, .btnToolDoubleTap],
            .msc: [.mscScan],
            .led: [ledNumLock, ledCapsLock],
            .sw: [switchLid, switchTabletMode],
        ],
        absInfo: [
            .absX: AbsInfo(minimum: 0, maximum: 1200, resolution: 12),
            .absY: AbsInfo(minimum: 0, maximum: 720, resolution: 12),
            .absMTSlot: AbsInfo(minimum: 0, maximum: 1),
            .absMTPositionX: AbsInfo(minimum: 0, maximum: 1200, resolution: 12),
            .absMTPositionY: AbsInfo(minimum: 0, maximum: 720, resolution: 12),
            .absMTTrackingID: AbsInfo(minimum: 0, maximum: 65535),
        ],
        ledStates: [ledNumLock: 1],
        switchStates: [switchTabletMode: 1])

    static let events: [InputEvent] = {
        var events = [InputEvent]()
        func add(_ microseconds: Int32, _ type: EventType, _ code: EventCode, _ value: Int32) {
            events.append(InputEvent(time: EventTime(seconds: 0, microseconds: microseconds), type: type, code: code, value: value))
        }
        add(1, .abs, .absMTTrackingID, 3); add(1, .abs, .absMTPositionX, 600); add(1, .abs, .absMTPositionY, 360)
        add(1, .key, .btnTouch, 1); add(1, .key, .btnToolFinger, 1); add(1, .syn, .synReport, 0)
        add(9000, .msc, .mscScan, 0x10); add(9000, .key, keyQ, 1); add(9000, .syn, .synReport, 0)
        add(18000, .led, ledCapsLock, 1); add(18000, .sw, switchLid, 1); add(18000, .syn, .synReport, 0)
        add(27000, .abs, .absMTTrackingID, -1); add(27000, .key, .btnTouch, 0); add(27000, .key, .btnToolFinger, 0)
        add(27000, .syn, .synReport, 0)
        return events
    }()

    /// Writes the device and events as evemu, keys kept.
    static func writeEvemu(_ path: String, systemInfo: RecordingSystemInfo? = nil) throws {
        let writer = try EvemuWriter(path: path, device: device,
                                     options: RecordingWriterOptions(maskKeyboardKeys: false, systemInfo: systemInfo))
        for event in events { try writer.write(event) }
        try writer.close()
    }
}

@Suite struct LosslessConversionTests {
    let directory = makeTemporaryDirectory()

    /// Reads `input` and writes every event to `output` in `format`, keys kept (what `convert` does).
    func convert(_ input: String, to output: String, _ format: RecordingFormat) throws {
        var source = try openRecording(path: input)
        let writer = try makeRecordingWriter(path: output, format: format, device: source.device,
                                             options: RecordingWriterOptions(maskKeyboardKeys: false))
        while let event = try source.nextEvent() { try writer.write(event) }
        try writer.close()
    }

    @Test func evemuToYAMLToEvemuIsByteIdenticalWithKeysLEDsAndSwitches() throws {
        let original = directory + "/original.evemu", yml = directory + "/converted.yml", back = directory + "/back.evemu"
        try KeysLEDsSwitches.writeEvemu(original)
        let originalText = readFile(original)
        #expect(originalText.contains("\nL: 00 1\n") && originalText.contains("\nS: 01 1\n"))

        try convert(original, to: yml, .libinputRecord)
        let yaml = readFile(yml)
        #expect(yaml.contains("    pinchlab-states: # "))
        #expect(yaml.contains("\n      leds: {0: 1}\n      switches: {1: 1}\n"))
        var fromYAML = try openRecording(path: yml)
        #expect(fromYAML.device == KeysLEDsSwitches.device)
        #expect(try drain(&fromYAML) == KeysLEDsSwitches.events, "KEY_Q and MSC_SCAN are kept, not masked")

        try convert(yml, to: back, .evemu)
        #expect(readFile(back) == originalText)
    }

    /// libevemu reads the round-tripped file as it reads the original: the description, every event,
    /// and past the `L:`/`S:` lines (a malformed one is fatal to `evemu_read`). libevemu 2.7 checks
    /// those lines but keeps no states ("we can't set the LEDs directly", evemu.c), so its own
    /// `evemu_write` of what it read is pinchlab's file without them, from the original as from the
    /// round trip.
    @Test func libevemuReadsTheRoundTrippedFileAsTheOriginal() throws {
        let original = directory + "/original.evemu", yml = directory + "/converted.yml", back = directory + "/back.evemu"
        try KeysLEDsSwitches.writeEvemu(original)
        try convert(original, to: yml, .libinputRecord)
        try convert(yml, to: back, .evemu)

        let reading = try #require(Libevemu.read(back))
        #expect(reading.readStatus > 0)
        #expect(reading.lastEventStatus == 0)
        #expect(reading.events == KeysLEDsSwitches.events)
        var withoutStates = KeysLEDsSwitches.device
        withoutStates.ledStates = [:]
        withoutStates.switchStates = [:]
        #expect(reading.device == withoutStates)

        let fromOriginal = directory + "/libevemu-original.evemu", fromBack = directory + "/libevemu-back.evemu"
        #expect(Libevemu.rewrite(descriptionPath: original, events: [], to: fromOriginal))
        #expect(Libevemu.rewrite(descriptionPath: back, events: [], to: fromBack))
        let expected = directory + "/expected.evemu"
        try EvemuWriter(path: expected, device: withoutStates, options: RecordingWriterOptions(systemInfo: .current())).close()
        #expect(readFile(fromBack) == readFile(fromOriginal))
        #expect(readFile(fromBack) == readFile(expected))
    }

    @Test func statesWithUnknownCodesInYAMLAreAnErrorNamingTheLine() throws {
        let original = directory + "/original.evemu", yml = directory + "/converted.yml"
        try KeysLEDsSwitches.writeEvemu(original)
        try convert(original, to: yml, .libinputRecord)
        let lines = readFile(yml).split(separator: "\n", omittingEmptySubsequences: false)
        let ledLine = try #require(lines.firstIndex { $0.hasPrefix("      leds: ") })
        let broken = directory + "/broken.yml"
        writeFile(broken, readFile(yml).replacing("leds: {0: 1}", with: "leds: {99: 1}"))
        let error = try #require(throws: RecordingError.self) { _ = try openRecording(path: broken) }
        #expect(error.kind == .unknownEventCode)
        #expect(error.line == ledLine + 1)
        #expect(error.expected == "an EV_LED code up to 0xf")
    }
}

/// Output is staged beside its destination and renamed in only when complete; files are compared
/// by identity on disk.
@Suite struct StagedOutputTests {
    let directory = makeTemporaryDirectory()

    @Test func commitReplacesTheDestinationAndDiscardLeavesItAsItWas() throws {
        let destination = directory + "/out.evemu"
        writeFile(destination, "old\n")
        let discarded = try StagedOutputFile(destination: destination)
        #expect(discarded.stagingPath.hasPrefix(directory + "/.out.evemu.pinchlab-"))
        writeFile(discarded.stagingPath, "half\n")
        discarded.discard()
        #expect(access(discarded.stagingPath, F_OK) != 0)
        #expect(readFile(destination) == "old\n")

        let committed = try StagedOutputFile(destination: destination)
        writeFile(committed.stagingPath, "new\n")
        try committed.commit()
        #expect(readFile(destination) == "new\n")
        #expect(access(committed.stagingPath, F_OK) != 0)
    }

    @Test func anExistingFileKeepsItsModeAndOnlyFilesAreStaged() throws {
        let destination = directory + "/private.yml"
        writeFile(destination, "old\n")
        #expect(chmod(destination, 0o600) == 0)
        let staged = try StagedOutputFile(destination: destination)
        try staged.commit()
        var info = stat()
        #expect(stat(destination, &info) == 0 && info.st_mode & 0o7777 == 0o600)

        #expect(StagedOutputFile.canStage(destination))
        #expect(StagedOutputFile.canStage(directory + "/new.yml"))
        #expect(symlink(destination, directory + "/link.yml") == 0)
        #expect(StagedOutputFile.canStage(directory + "/link.yml"), "staged beside the link's target")
        let throughLink = try StagedOutputFile(destination: directory + "/link.yml")
        #expect(throughLink.target == destination)
        writeFile(throughLink.stagingPath, "through the link\n")
        try throughLink.commit()
        #expect(readFile(destination) == "through the link\n")
        var linkInfo = stat()
        #expect(lstat(directory + "/link.yml", &linkInfo) == 0 && linkInfo.st_mode & S_IFMT == S_IFLNK, "the link stays a link")
        #expect(!StagedOutputFile.canStage("/dev/null"))
        #expect(!StagedOutputFile.canStage("/dev/stdout"), "whatever stdout is, a pipe or a terminal, is no file to rename over")
        #expect(!StagedOutputFile.canStage(directory))
    }

    @Test func anAbandonedStagingFileIsRemoved() throws {
        let destination = directory + "/never.yml"
        var stagingPath = ""
        do {
            let staged = try StagedOutputFile(destination: destination)
            stagingPath = staged.stagingPath
            #expect(access(stagingPath, F_OK) == 0)
        }
        #expect(access(stagingPath, F_OK) != 0)
        #expect(access(destination, F_OK) != 0)
    }

    @Test func aMissingDirectoryIsAWritingError() throws {
        let error = try #require(throws: RecordingError.self) {
            _ = try StagedOutputFile(destination: directory + "/no/such/dir/out.evemu")
        }
        #expect(error.kind == .io)
        #expect(error.systemFailure == RecordingError.SystemFailure(operation: .writing, errno: Errno(rawValue: ENOENT)))
    }

    @Test func identityFollowsRelativePathsAndLinks() throws {
        let file = directory + "/a.evemu"
        writeFile(file, "x\n")
        #expect(symlink(file, directory + "/link.evemu") == 0)
        #expect(link(file, directory + "/hard.evemu") == 0)
        writeFile(directory + "/other.evemu", "x\n")
        let identity = try #require(FileIdentity(path: file))
        #expect(FileIdentity(path: directory + "/./a.evemu") == identity)
        #expect(FileIdentity(path: directory + "/link.evemu") == identity)
        #expect(FileIdentity(path: directory + "/hard.evemu") == identity)
        #expect(FileIdentity(path: directory + "/other.evemu") != identity)
        #expect(FileIdentity(path: directory + "/missing.evemu") == nil)
    }

    @Test func aFailedOpenKeepsItsErrnoForTheExitStatus() throws {
        // The CLI maps by this number (EACCES -> 77, others -> 66), not by the message's wording.
        let missing = try #require(throws: RecordingError.self) { _ = try openRecording(path: directory + "/missing.evemu") }
        #expect(missing.kind == .io)
        #expect(missing.systemFailure == RecordingError.SystemFailure(operation: .reading, errno: Errno(rawValue: ENOENT)))
    }
}
