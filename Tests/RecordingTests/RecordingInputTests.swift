import Glibc
import Synchronization
import SystemPackage
import Testing
import GestureKit

/// How a recording is opened and read to its end: once, front to back (pipes work), with the
/// whole of a YAML file checked, not only the part up to the chosen device's last event.
@Suite struct RecordingInputTests: WritesFilesInItsDirectory {
    let directory = makeTemporaryDirectory()

    /// The error reading `path` to its end stops with (with `selector`), or an issue when none.
    func readError(_ path: String, device selector: RecordingDeviceSelector = .firstTouchDevice,
                   sourceLocation: SourceLocation = #_sourceLocation) -> RecordingError? {
        do {
            _ = try drainAny(try openRecording(path: path, device: selector))
            Issue.record("\(path) was read without an error", sourceLocation: sourceLocation)
        } catch let error as RecordingError {
            return error
        } catch {
            Issue.record("\(error)", sourceLocation: sourceLocation)
        }
        return nil
    }

    static let twoDevices = LibinputRecordTests.twoDeviceRecording
    /// The line of `twoDevices` that holds the touchpad's last event.
    static var twoDevicesLastEventLine: Int {
        twoDevices.split(separator: "\n", omittingEmptySubsequences: false).lastIndex { $0.contains("[  1,      5,   0,   0,") }! + 1
    }

    // MARK: The end of a libinput record is read and checked

    @Test func junkAfterTheEventsIsAnErrorWithItsLine() throws {
        let lines = Self.twoDevices.split(separator: "\n", omittingEmptySubsequences: false).count
        let garbage = file("garbage.yml", Self.twoDevices + "  garbage: [1\n")
        let error = try #require(readError(garbage))
        #expect(error.kind == .malformedLine)
        // libyaml finds the list unclosed at the end of the file, after the last line break.
        #expect(error.description == "\(garbage):\(lines + 1): expected well-formed YAML (while parsing a flow sequence "
                + "that began on line \(lines)), found a syntax error (did not find expected ',' or ']')")

        let second = file("second.yml", Self.twoDevices + "---\nversion: 1\n")
        let secondError = try #require(readError(second))
        #expect(secondError.description == "\(second):\(lines): expected the end of the file (a libinput record is one YAML document), found a second document")

        // Even for the first device, whose events end long before the junk.
        #expect(readError(garbage, device: .index(0))?.line == lines + 1)
    }

    @Test func aFileCutInsideAnotherDevicesEventsIsNotReadAsComplete() throws {
        // Cut inside the touchpad's events: the keyboard (device 0) reads whole, then the cut is found.
        let text = Self.twoDevices
        let cutInsideList = String(text[..<text.range(of: "[  0,   7012,   4,   5,")!.upperBound])
        let error = try #require(readError(file("cut.yml", cutInsideList), device: .index(0)))
        #expect(error.kind == .malformedLine)
        #expect(error.path.hasSuffix("cut.yml"))

        // Cut after a whole event line: valid YAML, but the touchpad's last frame has no SYN_REPORT.
        let cutLine = String(text[..<text.range(of: "   4,   5,    7000] # EV_MSC / MSC_TIMESTAMP          7000\n")!.upperBound])
        let cutPath = file("cut-line.yml", cutLine)
        let reader = try LibinputRecordReader(path: cutPath, selecting: .index(0))
        #expect(try drainAny(reader).count == 3)
        #expect(reader.trailingPartialFrame == nil, "the keyboard's own events end on a frame")
        #expect(reader.deviceCount == 2)
        let other = try #require(reader.otherDevicesEndingInsideFrame.first)
        #expect(other.otherDeviceIndex == 1)
        #expect(other.eventCount == 2)
        #expect(other.description.hasPrefix("\(cutPath): device 1 ends inside a frame after line "))
    }

    @Test func theReaderEndsOnlyAtTheEndOfTheFile() throws {
        let reader = try LibinputRecordReader(path: file("two.yml", Self.twoDevices), selecting: .index(0))
        #expect(reader.deviceCount == nil)
        #expect(try drainAny(reader).count == 3)
        #expect(reader.deviceCount == 2, "the touchpad after the keyboard was read too")
        #expect(reader.otherDevicesEndingInsideFrame.isEmpty)
    }

    @Test func devicesMayComeBeforeVersion() throws {
        let swapped = Self.twoDevices.replacingOccurrences(of: "version: 1\nndevices: 2\n", with: "ndevices: 2\n")
            + "version: 1\n"
        let reader = try LibinputRecordReader(path: file("swapped.yml", swapped))
        #expect(try drainAny(reader) == LibinputRecordTests.touchpadEvents)

        let versionTwo = file("v2.yml", swapped.replacingOccurrences(of: "\nversion: 1\n", with: "\nversion: 2\n"))
        let error = try #require(readError(versionTwo))
        #expect(error.kind == .unsupportedVersion)
        #expect(error.line == swapped.split(separator: "\n", omittingEmptySubsequences: false).count - 1)

        let noVersion = file("none.yml", swapped.replacingOccurrences(of: "\nversion: 1\n", with: "\n"))
        #expect(readError(noVersion)?.description.contains("expected 'version: 1' in the libinput record mapping, found no 'version:'") == true)
    }

    @Test func aMissingDeviceErrorListsTheDevicesThere() throws {
        let path = file("two.yml", Self.twoDevices)
        let error = try #require(readError(path, device: .index(4)))
        #expect(error.kind == .noSuchDevice)
        #expect(error.description == "\(path): expected a device at index 4, found 2 devices: "
                + "0 /dev/input/event3 'AT Translated Set 2 keyboard', 1 /dev/input/event5 'SYNA8004:00 06CB:CD8B Touchpad'")
        let byNode = try #require(readError(path, device: .node("/dev/input/event9")))
        #expect(byNode.expected == "a device with node /dev/input/event9")
        let evemu = directory + "/one.evemu"
        try KeysLEDsSwitches.writeEvemu(evemu)
        #expect(readError(evemu, device: .index(1))?.description
                == "\(evemu): expected device 0 (an evemu file holds one device, 'pinchlab keys, LEDs and switches'), found a request for device 1")
    }

    @Test func aYAMLSyntaxErrorSaysWhatWasFound() throws {
        let path = file("tab.yml", "version: 1\ndevices:\n\t- node: x\n")
        let error = try #require(readError(path))
        #expect(error.description == "\(path):3: expected well-formed YAML (while scanning for the next token), found a character that cannot start any token")
    }

    // MARK: Values of any size are refused past 1 MiB, before they are held

    @Test func aHugeYAMLValueIsRefusedWithItsLine() throws {
        let name = String(repeating: "x", count: 2 << 20)
        let text = Self.twoDevices.replacingOccurrences(of: "name: \"SYNA8004:00 06CB:CD8B Touchpad\"", with: "name: \"\(name)\"")
        let path = file("huge.yml", text)
        let error = try #require(readError(path))
        #expect(error.kind == .lineTooLong)
        let nameLine = text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("xxxx") }! + 1
        #expect(error.description == "\(path):\(nameLine): expected a YAML value of at most 1048576 characters (1 MiB), found a longer one")
    }

    /// A name that never ends, from a pipe: the reader gives up after about 1 MiB of it, so it
    /// cannot be made to hold more (a 100 MB name used to take 317 MB).
    @Test func anEndlessYAMLValueIsRefusedAfterAboutOneMebibyte() throws {
        let header = Array("version: 1\ndevices:\n- node: x\n  evdev:\n    name: \"".utf8)
        let chunk = [UInt8](repeating: UInt8(ascii: "y"), count: 1 << 16)
        let sentHeader = Atomic<Bool>(false)
        let feeder = PipeFeeder { sentHeader.exchange(true, ordering: .relaxed) ? chunk : header }
        do {
            let error = try #require(readError(feeder.path))
            #expect(error.kind == .lineTooLong)
            #expect(error.line == 5)
            #expect(error.path == feeder.path)
        }
        feeder.finish()
        #expect(feeder.bytesWritten.load(ordering: .relaxed) < 4 << 20, "read no further than the limit and the pipe")
    }

    // MARK: One open, front to back: pipes

    @Test func anEvemuRecordingReadsFromAPipeAsFromTheFile() throws {
        let path = directory + "/keys.evemu"
        try KeysLEDsSwitches.writeEvemu(path)
        let feeder = PipeFeeder(bytes: fileBytes(path))
        do {
            let piped = try openRecording(path: feeder.path)
            #expect(piped.device == KeysLEDsSwitches.device)
            #expect(try drainAny(piped) == KeysLEDsSwitches.events)
        }
        feeder.finish()
    }

    @Test(arguments: [RecordingDeviceSelector.firstTouchDevice, .index(0), .index(1), .node("/dev/input/event5")])
    func aLibinputRecordReadsFromAPipeAsFromTheFile(selector: RecordingDeviceSelector) throws {
        let path = file("two.yml", Self.twoDevices)
        let expected = try drainAny(try openRecording(path: path, device: selector))
        let feeder = PipeFeeder(bytes: fileBytes(path))
        do {
            let piped = try openRecording(path: feeder.path, device: selector) as! LibinputRecordReader
            #expect(try drainAny(piped) == expected)
            #expect(piped.deviceCount == 2)
        }
        feeder.finish()
    }

    /// With no touch device the first device is read: the reader has passed it by then, so a
    /// pipe is read again from a temporary copy.
    @Test func withoutATouchDeviceThePipeIsReadAgainFromACopy() throws {
        let text = Self.twoDevices
        let keyboard = text[text.range(of: "- node: /dev/input/event3")!.lowerBound..<text.range(of: "- node: /dev/input/event5")!.lowerBound]
        let keyboardsOnly = text[..<keyboard.endIndex] + keyboard.replacingOccurrences(of: "event3", with: "event4")
            .replacingOccurrences(of: "name: \"AT Translated Set 2 keyboard\"", with: "name: \"Second keyboard\"")
        let path = file("keyboards.yml", String(keyboardsOnly))
        let fromFile = try LibinputRecordReader(path: path)
        #expect(fromFile.deviceIndex == 0)
        let expected = try drainAny(fromFile)
        #expect(expected.map(\.code) == [.mscScan, .keyA, .synReport])
        let feeder = PipeFeeder(bytes: fileBytes(path))
        do {
            let piped = try openRecording(path: feeder.path) as! LibinputRecordReader
            #expect(piped.deviceIndex == 0)
            #expect(piped.device.name == "AT Translated Set 2 keyboard")
            #expect(try drainAny(piped) == expected)
            #expect(piped.deviceCount == 2)
        }
        feeder.finish()
    }

    // MARK: What a file starts with

    @Test func aByteOrderMarkIsPassedOver() throws {
        let bom = "\u{FEFF}"
        let evemu = directory + "/keys.evemu"
        try KeysLEDsSwitches.writeEvemu(evemu)
        let withBOM = file("bom.evemu", bom + readFile(evemu))
        #expect(try drainAny(try openRecording(path: withBOM)) == KeysLEDsSwitches.events)
        #expect(try openRecording(path: withBOM).device == KeysLEDsSwitches.device)
        let yaml = file("bom.yml", bom + Self.twoDevices)
        #expect(try drainAny(try openRecording(path: yaml)) == LibinputRecordTests.touchpadEvents)
        // Anywhere else it is named, not shown as nothing.
        let inside = file("inside.evemu", "# EVEMU 1.3\n\(bom)N: Pad\n")
        #expect(readError(inside)?.found == "'\\u{feff} (a byte order mark)N: Pad'")
    }

    @Test func binaryJunkWithoutNulBytesIsBinaryData() throws {
        let junk: [UInt8] = [0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x03, 0x3a, 0x0a, 0x41]
        let path = directory + "/junk.bin"
        writeFile(path, junk)
        let error = try #require(readError(path))
        #expect(error.kind == .binaryData)
        #expect(error.description == "\(path):1: expected UTF-8 text (an evemu, libinput record or evtest file), found binary data '\\u{7f}ELF\\u{2}\\u{1}\\u{1}\\u{3}:'")
    }

    @Test func aDirectoryIsAFileLevelError() throws {
        let error = try #require(readError(directory))
        #expect(error.kind == .io)
        #expect(error.systemFailure == .init(operation: .reading, errno: Errno(rawValue: EISDIR)))
        #expect(error.description == "\(directory): expected a recording file, found a directory")
    }

    @Test func anEmptyFileIsAFileLevelError() throws {
        for text in ["", "\n\n  \n"] {
            let path = file("empty.evemu", text)
            let error = try #require(readError(path))
            #expect(error.kind == .emptyFile)
            #expect(error.description == "\(path): expected an evemu, libinput record or evtest file, found an empty file")
        }
    }

    @Test func aFileWithoutItsVersionLineIsToldSo() throws {
        let path = directory + "/keys.evemu"
        try KeysLEDsSwitches.writeEvemu(path)
        let withoutVersion = file("nover.evemu", readFile(path).replacingOccurrences(of: "# EVEMU 1.3\n", with: ""))
        let error = try #require(readError(withoutVersion))
        #expect(error.expected == "'A: <code> <min> <max> <fuzz> <flat>' (file format 1.0, as the file has no '# EVEMU <version>' first line)")
        let garbage = file("garbage.evemu", "EVEMU 1.3\nN: Pad\n")
        #expect(readError(garbage)?.description == "\(garbage):1: expected an evemu file ('# EVEMU 1.3' or 'N: <device name>'), libinput record YAML ('version: 1') or an evtest log ('Input driver version is ...'), found 'EVEMU 1.3'")
    }
}
