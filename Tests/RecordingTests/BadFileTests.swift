import Testing
import GestureCore
import GestureKit

/// Every bad file gets a typed error naming the file, the 1-based line and what was expected.
@Suite struct BadFileTests {
    let directory = makeTemporaryDirectory()
    static let header = "# EVEMU 1.3\nN: Pad\nI: 0018 06cb cd7d 0100\nB: 03 03 00 00 00 00 00 00 00\nA: 00 0 100 0 0 1\nA: 01 0 100 0 0 1\n"

    /// Reads `bytes` as a recording to the end and returns the error it must fail with.
    func failure(_ name: String, _ bytes: [UInt8]) throws -> RecordingError {
        let path = directory + "/" + name
        writeFile(path, bytes)
        do {
            let source = try openRecording(path: path)
            _ = try drainAny(source)
        } catch let error as RecordingError {
            #expect(error.path == path)
            #expect(error.description.hasPrefix(error.line > 0 ? "\(path):\(error.line): expected " : "\(path): expected "))
            return error
        }
        Issue.record("\(name) was read without an error")
        return RecordingError(path: "", line: 0, kind: .io, expected: "", found: "")
    }

    func failure(_ name: String, _ text: String) throws -> RecordingError { try failure(name, Array(text.utf8)) }

    @Test func truncatedEventLine() throws {
        let error = try failure("truncated.evemu", Self.header + "E: 0.000001 0003 0000 0005\nE: 0.1")
        #expect(error.kind == .malformedLine)
        #expect(error.line == 8)
        #expect(error.description.hasSuffix("expected 'E: <sec>.<usec> <type> <code> <value>', found 'E: 0.1'"))
    }

    @Test func badHexInEvent() throws {
        let error = try failure("hex.evemu", Self.header + "E: 0.1 zz 0000 0005\n")
        #expect(error.kind == .malformedLine)
        #expect(error.line == 7)
        #expect(error.found == "'E: 0.1 zz 0000 0005'")
    }

    @Test func badHexInIDLine() throws {
        let error = try failure("id.evemu", "N: Pad\nI: 0018 06xb cd7d 0100\n")
        #expect(error.kind == .malformedLine)
        #expect(error.line == 2)
        #expect(error.expected.contains("'I: <bustype> <vendor> <product> <version>'"))
    }

    @Test func unknownEventType() throws {
        let error = try failure("type.evemu", Self.header + "E: 0.000001 0025 0000 0001\n")
        #expect(error.kind == .unknownEventCode)
        #expect(error.line == 7)
        #expect(error.expected.contains("EV_MAX"))
        #expect(error.found.hasPrefix("type 0x25"))
    }

    @Test func unknownEventCode() throws {
        let error = try failure("code.evemu", Self.header + "E: 0.000001 0003 0045 0001\n")
        #expect(error.kind == .unknownEventCode)
        #expect(error.expected == "an EV_ABS code up to 0x3f")
        #expect(error.found.hasPrefix("code 0x45"))
    }

    @Test func unknownCodeInBitmask() throws {
        // EV_ABS has 64 codes: a second 8-byte chunk with a bit set is beyond ABS_MAX.
        let error = try failure("mask.evemu", "N: Pad\nI: 0001 0002 0003 0004\nB: 03 00 00 00 00 00 00 00 00\nB: 03 01 00 00 00 00 00 00 00\n")
        #expect(error.kind == .unknownEventCode)
        #expect(error.line == 4)
    }

    @Test func missingNameLine() throws {
        let error = try failure("noname.evemu", "# EVEMU 1.3\nI: 0018 06cb cd7d 0100\n")
        #expect(error.kind == .missingDescription)
        #expect(error.line == 2)
        #expect(error.expected == "'N: <device name>'")
    }

    @Test func missingIDLine() throws {
        let error = try failure("noid.evemu", "# EVEMU 1.3\nN: Pad\nB: 03 03 00 00 00 00 00 00 00\n")
        #expect(error.kind == .missingDescription)
        #expect(error.line == 3)
        #expect(error.expected.hasPrefix("'I: <bustype>"))
    }

    @Test func eventsBeforeTheDescription() throws {
        let error = try failure("events-first.evemu", "E: 0.000001 0003 0000 0001\nN: Pad\n")
        #expect(error.kind == .missingDescription)
        #expect(error.line == 1)
        #expect(error.expected == "'N: <device name>'")
        #expect(error.found == "'E: 0.000001 0003 0000 0001'")
    }

    @Test func timeGoingBackwards() throws {
        let error = try failure("backwards.evemu", Self.header + "E: 1.000500 0003 0000 0001\nE: 1.000499 0003 0000 0002\n")
        #expect(error.kind == .timeWentBackwards)
        #expect(error.line == 8)
        #expect(error.expected == "a time at or after 1.000500")
    }

    @Test func absLineWithTheWrongCountForItsVersion() throws {
        let error = try failure("abs.evemu", "# EVEMU 1.3\nN: Pad\nI: 0001 0002 0003 0004\nA: 00 0 100 0 0\n")
        #expect(error.kind == .malformedLine)
        #expect(error.line == 4)
        #expect(error.expected.contains("<resolution>"))
    }

    @Test func unsupportedEvemuVersion() throws {
        let error = try failure("v2.evemu", "# EVEMU 2.0\nN: Pad\nI: 0001 0002 0003 0004\n")
        #expect(error.kind == .unsupportedVersion)
        #expect(error.line == 1)
    }

    @Test func nulBytes() throws {
        let error = try failure("nul.evemu", Array((Self.header + "E: 0.000001 0003 0000 0001\n").utf8) + [0x45, 0x3a, 0x00, 0x00, 0x0a])
        #expect(error.kind == .binaryData)
        #expect(error.line == 8)
        #expect(error.found.contains("NUL"))
    }

    @Test func invalidUTF8Name() throws {
        let error = try failure("utf8.evemu", Array("N: Pad ".utf8) + [0xff, 0xfe] + Array("\nI: 0001 0002 0003 0004\n".utf8))
        #expect(error.kind == .binaryData)
        #expect(error.line == 1)
        #expect(error.expected == "a UTF-8 device name")
    }

    @Test func binaryJunk() throws {
        let junk: [UInt8] = [0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0xc3, 0x28, 0xa0, 0xa1, 0x0a, 0x00]
        let error = try failure("junk.bin", junk)
        #expect(error.kind == .binaryData)
        #expect(error.line == 1)
    }

    @Test func emptyFile() throws {
        let error = try failure("empty.evemu", "")
        #expect(error.kind == .emptyFile)
        #expect(error.line == 0, "a problem of the whole file, not of a line")
        #expect(error.found == "an empty file")
        // The readers themselves say the same when called directly.
        #expect(throws: RecordingError.self) { try EvemuReader(path: directory + "/empty.evemu") }
        #expect(throws: RecordingError.self) { try LibinputRecordReader(path: directory + "/empty.evemu") }
    }

    @Test func yamlOfAnotherShape() throws {
        let error = try failure("other.yml", "name: not a recording\nitems: [1, 2, 3]\n")
        #expect(error.kind == .notALibinputRecord)
        #expect(error.line == 3)
        #expect(error.expected.contains("'version: 1'"))
    }

    @Test func yamlOfAnotherVersion() throws {
        let error = try failure("v2.yml", "# libinput record\nversion: 2\nndevices: 1\ndevices: []\n")
        #expect(error.kind == .unsupportedVersion)
        #expect(error.line == 2)
        #expect(error.description.hasSuffix("expected libinput record 'version: 1', found 'version: 2'"))
    }

    static let yamlDevice = """
    version: 1
    devices:
    - node: /dev/input/event1
      evdev:
        name: "Touch"
        id: [3, 1, 2, 3]
        codes:
          3: [0, 1]
        absinfo:
          0: [0, 100, 0, 0, 0]
          1: [0, 100, 0, 0, 0]
        properties: [1]
      events:
      - evdev:

    """

    /// The last line has no line break: the problem is on it (line 16), not on a line after it
    /// (libyaml moves to a new line before the end of the stream).
    @Test func yamlTruncatedInsideAnEvent() throws {
        let error = try failure("truncated.yml", Self.yamlDevice + "    - [  0,      0,   3,   0,      5]\n    - [  0,     10,   3,")
        #expect(error.kind == .malformedLine)
        #expect(error.line == 16, "\(error)")
        #expect(error.expected.hasPrefix("well-formed YAML"), "\(error)")
        let junk = try failure("junk.yml", Self.yamlDevice + "    - [  0,      0,   3,   0,      5]\n    - [  0,      0,   0,   0,      0]\njunk: [1")
        #expect(junk.line == 17, "\(junk)")
        let terminated = try failure("newline.yml", Self.yamlDevice + "    - [  0,      0,   3,   0,      5]\n    - [  0,     10,   3,\n")
        #expect(terminated.line == 17, "with the line break, the end of the file is on the empty line 17: \(terminated)")
    }

    /// A value over 1 MiB is reported on its own line, wherever the YAML event before it ended.
    @Test func yamlHugeValueIsReportedOnItsLine() throws {
        let digits = String(repeating: "1", count: 2 << 20)
        let event = try failure("huge-event.yml", Self.yamlDevice + "    - [  0,      0,   3,   0,      5]\n    - [  0,      0,   3,   0, \(digits)]\n")
        #expect(event.kind == .lineTooLong)
        #expect(event.line == 16, "\(event)")
        let comment = try failure("huge-comment.yml", Self.yamlDevice + "    # \(digits)\n    - [  0,      0,   3,   0,      5]\n")
        #expect(comment.kind == .lineTooLong)
        #expect(comment.line == 15, "\(comment)")
    }

    @Test func yamlEventWithTheWrongShape() throws {
        let error = try failure("shape.yml", Self.yamlDevice + "    - [  0,      0,   3,   0]\n")
        #expect(error.kind == .malformedLine)
        #expect(error.line == 15)
        #expect(error.expected.contains("'[<sec>, <usec>, <type>, <code>, <value>]'"))
    }

    @Test func yamlUnknownCodeAndBackwardsTime() throws {
        let unknown = try failure("unknown.yml", Self.yamlDevice + "    - [  0,      0,   3,  99,      5]\n")
        #expect(unknown.kind == .unknownEventCode)
        #expect(unknown.line == 15)
        let backwards = try failure("backwards.yml", Self.yamlDevice
            + "    - [  2,      0,   3,   0,      5]\n    - [  1, 999999,   3,   0,      5]\n")
        #expect(backwards.kind == .timeWentBackwards)
        #expect(backwards.line == 16)
    }

    @Test func yamlWithoutTheDescription() throws {
        let error = try failure("nodesc.yml", "version: 1\ndevices:\n- node: /dev/input/event1\n  events: []\n")
        #expect(error.kind == .missingDescription)
        #expect(error.line == 4)
    }

    @Test func yamlNulBytes() throws {
        let error = try failure("nul.yml", Array((Self.yamlDevice + "    - [  0,      0,   3,   0,      5]\n").utf8) + [0x00, 0x0a])
        #expect(error.kind == .binaryData)
        #expect(error.line == 16)
    }
}
