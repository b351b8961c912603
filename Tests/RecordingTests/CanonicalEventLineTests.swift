import Foundation
import Testing
@testable import GestureCore
@testable import GestureKit

/// The fixed-offset reading of evemu's own layout must agree with the general scanner on every
/// line it accepts, and must accept the lines evemu and pinchlab write.
@Suite struct CanonicalEventLineTests {
    func withLine<T>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBufferPointer { body(UnsafeBufferPointer($0)) }
    }

    func canonical(_ text: String) -> CanonicalEventLine? { withLine(text) { CanonicalEventLine($0) } }

    @Test func readsTheLinesEvemuWrites() throws {
        let line = try #require(canonical("E: 0.011268 0003 0035 0329\t# EV_ABS / ABS_MT_POSITION_X    329"))
        #expect(line.seconds == 0 && line.microseconds == 11268 && line.type == 3 && line.code == 0x35 && line.value == 329)
        let negative = try #require(canonical("E: 1712345678.000001 0003 0039 -001\t# EV_ABS / ABS_MT_TRACKING_ID   -1"))
        #expect(negative.seconds == 1_712_345_678 && negative.microseconds == 1 && negative.value == -1)
        #expect(canonical("E: 0.842802 0000 0000 0000") != nil, "no comment")
        #expect(canonical("E: 0.842802 0001 014A 0001  ") != nil, "trailing spaces, upper-case hex")
    }

    @Test func leavesEverythingElseToTheScanner() {
        for text in ["E: 0.5 3 35 329", " E: 0.011268 0003 0035 0329", "E:  0.011268 0003 0035 0329",
                     "E: 0.011268 0003 0035 +329", "E: 0.011268 00003 0035 0329", "E: 0.011268 0003 0035 0329x",
                     "E: 0.011268 0003 0035 12345678901", "E: 0.0112680 0003 0035 0329", "E: .011268 0003 0035 0329",
                     "E: 0.011268 000g 0035 0329", "E: 0.011268 0003 0035", "N: name"] {
            #expect(canonical(text) == nil, "\(text)")
        }
    }

    /// Random lines around the canonical layout (every field's width, case, sign, spacing and a
    /// stray character varied): whatever the fast path accepts, the scanner reads the same.
    @Test func agreesWithTheScannerOnRandomLines() {
        var state: UInt64 = 0x243F_6A88_85A3_08D3
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        func hex(_ v: Int, width: Int) -> String {
            let s = String(v, radix: 16, uppercase: next(2) == 0)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        var accepted = 0
        for _ in 0..<20_000 {
            let seconds = [0, 7, 1_700_000_000, 999_999_999_999, 12_345_678_901_234][next(5)]
            let micro = next(1_000_000)
            let microText = String(repeating: "0", count: max(0, (next(10) == 0 ? [5, 7][next(2)] : 6) - String(micro).count)) + String(micro)
            let value = [0, 1, -1, 329, -2_147_483_648, 2_147_483_647, 2_147_483_648, 42][next(8)]
            let valueText = (value < 0 ? "-" : "") + String(repeating: "0", count: next(4)) + String(abs(value))
            func gap() -> String { next(12) == 0 ? ["  ", "\t"][next(2)] : " " }
            func width() -> Int { next(12) == 0 ? [3, 5][next(2)] : 4 }
            var text = "E: \(seconds).\(microText)" + gap() + hex(next(0x20), width: width())
                + gap() + hex(next(0x300), width: width()) + gap() + valueText
                + ["", "\t# comment", " ", "  # x", "#", "x"][next(6)]
            if next(10) == 0 {
                var chars = Array(text)
                chars[next(chars.count)] = ["x", " ", "-", "0", "#", "f"][next(6)]
                text = String(chars)
            }
            guard let fast = canonical(text) else { continue }
            accepted += 1
            let slow = withLine(text) { EvemuReader.scanEventFields($0) }
            #expect(slow != nil, "accepted by the fast path only: \(text)")
            if let slow {
                #expect(slow.seconds == fast.seconds && slow.microseconds == UInt64(fast.microseconds)
                        && slow.type == fast.type && slow.code == fast.code && slow.value == fast.value, "\(text)")
            }
        }
        #expect(accepted > 3_000, "the random lines exercise the fast path (\(accepted))")
    }

    /// Every byte value at every position of the fixed-width fields (the microseconds, type and
    /// code): the fast path accepts exactly what the scanner accepts, with the same numbers.
    @Test func agreesWithTheScannerOnEveryByteOfTheFixedFields() {
        let base = Array("E: 12.345678 0003 002f -0042\t# comment".utf8)
        let fixedPositions = Array(6...11) + Array(13...16) + Array(18...21)
        for position in fixedPositions {
            for byte in 0...255 {
                var bytes = base
                bytes[position] = UInt8(byte)
                bytes.withUnsafeBufferPointer { line in
                    let fast = CanonicalEventLine(line)
                    let slow = EvemuReader.scanEventFields(line)
                    if let fast {
                        #expect(slow != nil, "position \(position), byte \(byte): fast path only")
                        if let slow {
                            #expect(slow.seconds == fast.seconds && slow.microseconds == UInt64(fast.microseconds)
                                    && slow.type == fast.type && slow.code == fast.code && slow.value == fast.value,
                                    "position \(position), byte \(byte)")
                        }
                    } else if let slow, byte != 0x20, byte != 0x09 {
                        // The scanner takes other spacing; any other byte it accepts must be accepted here too.
                        Issue.record("position \(position), byte \(byte): only the scanner accepts \(slow)")
                    }
                }
            }
        }
    }

    /// Read straight from the buffer (`line(at:available:)`): the same fields as the line alone, and
    /// the line's length as `LineInput` cuts it (up to the `\n`, less a `\r` before it), only when
    /// the `\n` lies within the bytes given; what the line alone would refuse stays refused.
    @Test func aLineReadFromTheBufferEndsAtItsNewline() throws {
        func fromBuffer(_ text: String, available: Int? = nil) -> (fields: CanonicalEventLine, length: Int, newline: Int)? {
            let bytes = Array(text.utf8)
            return bytes.withUnsafeBufferPointer { CanonicalEventLine.line(at: $0.baseAddress!, available: available ?? $0.count) }
        }
        let line = "E: 0.011268 0003 0035 0329"
        let alone = try #require(canonical(line))
        for (tail, kept) in [("", ""), (" ", " "), ("\t# EV_ABS / ABS_MT_POSITION_X    329", "\t# EV_ABS / ABS_MT_POSITION_X    329"),
                             ("  # x\r", "  # x"), ("\t#", "\t#")] {
            let read = try #require(fromBuffer(line + tail + "\nE: 0.011270 0000 0000 0000\n"), "\(tail.debugDescription)")
            #expect(read.length == (line + kept).utf8.count, "\(tail.debugDescription)")
            #expect(read.newline == (line + tail).utf8.count, "the next line begins after the newline: \(tail.debugDescription)")
            #expect(read.fields.seconds == alone.seconds && read.fields.microseconds == alone.microseconds
                    && read.fields.type == alone.type && read.fields.code == alone.code && read.fields.value == alone.value)
            #expect(fromBuffer(line + tail) == nil, "no newline yet: the rest of the line may be in the next read")
            #expect(fromBuffer(line + tail + "\n", available: (line + tail).utf8.count) == nil, "the newline past the bytes given")
        }
        for tail in ["\r\n", "#\n", "x\n", " x\n"] {
            #expect(fromBuffer(line + tail) == nil, "\(tail.debugDescription)")
        }
        // More digits are more of the value, to its newline.
        #expect(fromBuffer(line + "1\n")?.fields.value == 3291)
    }

    /// The newline search, eight bytes at a time: the first `\n` wherever it lies in the words and
    /// the tail, bytes just above and below it (0x09, 0x0B, 0x8A) not taken for it.
    @Test func theNewlineSearchFindsTheFirstNewline() {
        for count in 0..<40 {
            for position in 0...count {
                var bytes = (0..<count).map { UInt8([0x09, 0x0B, 0x8A, 0x20, 0x23, 0x00, 0xFF][$0 % 7]) }
                if position < count { bytes[position] = 0x0A }
                if position + 3 < count { bytes[position + 3] = 0x0A }
                let found = bytes.withUnsafeBufferPointer { buffer in
                    buffer.baseAddress.flatMap { CanonicalEventLine.newline($0, from: 0, available: count) }
                }
                #expect(found == (position < count ? position : nil), "\(count) bytes, newline at \(position)")
            }
        }
    }

    /// A file read through a buffer so small that lines straddle its refills, with lines the fast
    /// path leaves alone (comments after values, CRLF, spacing, a comment line, no newline at the
    /// end): the same events as each line read by the scanner, and an error on a fast-path line
    /// names that line.
    @Test func theFusedReadingGivesTheScannersEventsAcrossRefills() throws {
        let (description, lines) = try Fixtures.mixedEvemuLines()
        let text = description + "\n" + lines.joined(separator: "\n")  // no newline after the last
        let directory = makeTemporaryDirectory()
        let path = directory + "/fused.evemu"
        writeFile(path, text)
        var expected: [InputEvent] = []
        for line in lines where line.hasPrefix("E:") {
            var bytes = Array(line.utf8)
            if bytes.last == 0x0D { bytes.removeLast() }
            let f = try #require(bytes.withUnsafeBufferPointer { EvemuReader.scanEventFields($0) }, "\(line)")
            expected.append(InputEvent(time: EventTime(seconds: Int64(f.seconds), microseconds: Int32(f.microseconds)),
                                       type: EventType(rawValue: UInt16(f.type)), code: EventCode(rawValue: UInt16(f.code)), value: f.value))
        }
        for bufferBytes in [512, 4_096, LineInput.defaultBufferBytes] {
            let reader = try EvemuReader(input: LineInput(path: path, bufferBytes: bufferBytes), eventsPath: nil)
            var events: [InputEvent] = []
            while let event = try reader.nextEvent() { events.append(event) }
            #expect(events == expected, "buffer \(bufferBytes)")
        }
        // Time going back on a canonical line deep in the file: the error names that line.
        let backwards = text.replacingOccurrences(of: "E: 11.500000 0003 0035 ", with: "E: 09.500000 0003 0035 ")
        let badPath = directory + "/fused-backwards.evemu"
        writeFile(badPath, backwards)
        // By bytes: "\r\n" is one Character, so splitting the String would not count those lines.
        let badLine = try #require(backwards.utf8.split(separator: 0x0A, omittingEmptySubsequences: false)
            .firstIndex { $0.starts(with: "E: 09.500000".utf8) }) + 1
        let reader = try EvemuReader(input: LineInput(path: badPath, bufferBytes: 512), eventsPath: nil)
        do {
            while try reader.nextEvent() != nil {}
            Issue.record("no error")
        } catch let error as RecordingError {
            #expect(error.line == badLine && error.kind == .timeWentBackwards, "\(error)")
            #expect(error.found.contains("E: 09.500000 0003 0035"), "\(error)")
        }
    }

    /// Every event line of the corpus takes the fast path.
    @Test func theCorpusIsCanonical() throws {
        let lines = try String(contentsOf: Fixtures.pinchRecording, encoding: .utf8).split(separator: "\n").filter { $0.hasPrefix("E:") }
        #expect(!lines.isEmpty)
        #expect(lines.allSatisfy { canonical(String($0)) != nil })
    }
}
