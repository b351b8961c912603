import Foundation
import Testing
import GestureCore
@testable import GestureKit
import PinchlabTestSupport

/// Reading a `libinput record` file's canonical event lines directly (`CanonicalRecordLines`) gives
/// exactly what libyaml alone gives: the same events, the same error (file, line, text), the same
/// warnings, partial frames and device count, on every input. Each test reads a file both ways in
/// process (`readsCanonicalLines: false` has libyaml read every line), compares everything, and
/// checks which lines the direct reading took: from the events list's first line, to the end of
/// the file or to the line it handed back to libyaml at. The direct reading runs twice: with the
/// input's usual buffer (1 MiB, more than these files) and with the smallest buffer it works with
/// (`smallBufferBytes`), which is refilled every few KB, so lines are read, and handed back,
/// across refills.
@Suite struct CanonicalRecordLinesTests {
    let directory = makeTemporaryDirectory()

    /// Everything a reader tells about a file, read to its end or its error.
    struct Outcome: Equatable, CustomStringConvertible {
        var events: [InputEvent] = []
        var error: String?
        var device: DeviceDescription?
        var node: String?
        var deviceIndex: Int?
        var warnings: [String] = []
        var contradictions: [String] = []
        var trailingPartialFrame: TrailingPartialFrame?
        var otherDevicesEndingInsideFrame: [TrailingPartialFrame] = []
        var deviceCount: Int?

        var description: String {
            "\(events.count) events, error \(error ?? "none"), \(warnings.count) warnings, "
                + "\(contradictions.count) contradictions, partial \(trailingPartialFrame.map { "\($0)" } ?? "none"), "
                + "\(deviceCount.map { "\($0)" } ?? "?") devices"
        }
    }

    /// Which lines the direct reading took: from `first`, up to `handedBackAt` (nil: to the end).
    struct Taken: Equatable {
        var first: Int
        var handedBackAt: Int?
    }

    /// The smallest input buffer the direct reading works with: what the input keeps behind its
    /// position for libyaml, what the reading keeps buffered ahead of a line, and a line. Once
    /// the reading is `smallBufferRefilledPast` bytes into the file, each line it reads (and
    /// hands back at) comes after a refill.
    static let smallBufferBytes = YAMLEventReader.retainedBytes + CanonicalRecordLines.lookahead + CanonicalRecordLines.lineBytesMax
    static let smallBufferRefilledPast = smallBufferBytes - CanonicalRecordLines.lookahead

    static func read(_ path: String, _ selector: RecordingDeviceSelector = .firstTouchDevice,
                     canonicalLines: Bool, bufferBytes: Int = LineInput.defaultBufferBytes) -> (outcome: Outcome, taken: Taken?) {
        var outcome = Outcome()
        var reader: LibinputRecordReader?
        do {
            let opened = try LibinputRecordReader(input: LineInput(path: path, bufferBytes: bufferBytes), selecting: selector,
                                                  readsCanonicalLines: canonicalLines)
            reader = opened
            outcome.device = opened.device
            outcome.node = opened.node
            outcome.deviceIndex = opened.deviceIndex
            outcome.warnings = opened.descriptionWarnings.map { "\($0)" }
            while let event = try opened.nextEvent() { outcome.events.append(event) }
        } catch {
            outcome.error = "\(error)"
        }
        if let reader {
            outcome.contradictions = reader.eventContradictions.map { "\($0)" }
            outcome.trailingPartialFrame = reader.trailingPartialFrame
            outcome.otherDevicesEndingInsideFrame = reader.otherDevicesEndingInsideFrame
            outcome.deviceCount = reader.deviceCount
        }
        return (outcome, reader?.canonicalLinesRange.map { Taken(first: $0.first, handedBackAt: $0.handedBackAt) })
    }

    /// Reads `path` both ways (directly with the usual and with the small buffer), expects the
    /// same outcome and, from both buffers, the same lines taken; returns the outcome with what
    /// the direct reading took.
    @discardableResult
    func compare(_ path: String, _ selector: RecordingDeviceSelector = .firstTouchDevice,
                 sourceLocation: SourceLocation = #_sourceLocation) -> (outcome: Outcome, taken: Taken?) {
        let libyaml = Self.read(path, selector, canonicalLines: false)
        let direct = Self.read(path, selector, canonicalLines: true)
        let smallBuffer = Self.read(path, selector, canonicalLines: true, bufferBytes: Self.smallBufferBytes)
        #expect(libyaml.taken == nil, sourceLocation: sourceLocation)
        for (name, read) in [("direct", direct), ("direct with a small buffer", smallBuffer)] {
            #expect(read.outcome == libyaml.outcome, "\(path): \(name) \(read.outcome), libyaml \(libyaml.outcome)",
                    sourceLocation: sourceLocation)
            if read.outcome != libyaml.outcome, read.outcome.events != libyaml.outcome.events {
                let index = zip(read.outcome.events, libyaml.outcome.events).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                Issue.record("\(name): first different event: \(index.map { "\($0)" } ?? "one list is a prefix")",
                             sourceLocation: sourceLocation)
            }
        }
        #expect(smallBuffer.taken == direct.taken, "\(path)", sourceLocation: sourceLocation)
        return direct
    }

    /// Whether the direct reading with the small buffer came to line `line` of the file at `path`
    /// after the buffer was refilled: the file is longer than the buffer, and the line begins past
    /// what the first fill holds ahead of it.
    static func isPastARefill(line: Int, in path: String) -> Bool {
        let bytes = [UInt8](FileManager.default.contents(atPath: path) ?? Data())
        let lineOffset = bytes.split(separator: 0x0A, maxSplits: line - 1, omittingEmptySubsequences: false).dropLast()
            .reduce(0) { $0 + $1.count + 1 }
        return bytes.count > smallBufferBytes && lineOffset > smallBufferRefilledPast
    }

    // MARK: Files

    /// A canonical YAML file (as `convert` writes one) of `events` of `device`; its events list
    /// begins on line `eventsStart`.
    func writeYAML(_ name: String, _ device: DeviceDescription, _ events: [InputEvent]) throws -> (path: String, lines: [String]) {
        let path = directory + "/" + name
        let writer = try LibinputRecordWriter(path: path, device: device)
        for event in events { try writer.write(event) }
        try writer.close()
        return (path, readFile(path).split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
    }

    /// `lines` joined with line breaks (the last one ends with one unless `lastBreak` is false).
    func write(_ name: String, _ lines: [String], lastBreak: Bool = true) -> String {
        let path = directory + "/" + name
        var lines = lines
        if lines.last == "" { lines.removeLast() }
        writeFile(path, lines.joined(separator: "\n") + (lastBreak ? "\n" : ""))
        return path
    }

    /// The 1-based line of the events list's first entry.
    static func firstEntryLine(_ lines: [String]) -> Int { lines.firstIndex(of: "  - evdev:")! + 1 }

    /// Every YAML recording of Fixtures/ (../shared/recordings holds none).
    @Test func theYAMLFilesOfFixtures() throws {
        let paths = Fixtures.recordings(extensions: [".yml", ".yaml"])
        #expect(!paths.isEmpty)
        for path in paths {
            let (outcome, taken) = compare(path)
            #expect(taken != nil && outcome.events.count > 0, "\(path)")
        }
    }

    /// Every evemu recording of Fixtures/, converted to YAML as `convert` writes it: read directly
    /// to the end, the same events as the evemu file.
    @Test func everyRecordingConvertedToYAML() throws {
        let paths = Fixtures.recordings(extensions: [".evemu"])
        #expect(paths.count >= 52)
        let converted = try expectTheSameEventsConvertedToYAML(paths)
        #expect(converted >= 50, "\(converted) converted")  // 52
    }

    /// The same on every evemu recording of ../shared/recordings.
    @Test(.needs(.sharedRecordings)) func everySharedRecordingConvertedToYAML() throws {
        let paths = Fixtures.sharedRecordings(extensions: [".evemu"])
        #expect(paths.count >= 42)
        let converted = try expectTheSameEventsConvertedToYAML(paths)
        #expect(converted >= 40, "\(converted) converted")  // 42
    }

    /// Each of `paths` that reads to at least one event, converted; the number converted.
    func expectTheSameEventsConvertedToYAML(_ paths: [String]) throws -> Int {
        var converted = 0
        for (index, path) in paths.enumerated() {
            guard let source = try? openRecording(path: path), let events = try? drainAny(source), !events.isEmpty else { continue }
            let (yaml, lines) = try writeYAML("converted-\(index).yml", source.device, events)
            let (outcome, taken) = compare(yaml)
            #expect(outcome.events == events, "\(path)")
            #expect(taken == Taken(first: Self.firstEntryLine(lines), handedBackAt: nil), "\(path)")
            converted += 1
        }
        return converted
    }

    // MARK: Odd but valid, and the lines libyaml is handed back

    /// A canonical recording of `count` events (3,000: about 200 KB, more than libyaml reads ahead
    /// and than `PlainTextScan.margin`), its lines, and its events list's first line.
    func base(_ name: String = "base.yml", count: Int = 3000) throws -> (events: [InputEvent], lines: [String], first: Int) {
        let events = Fixtures.events(count: count, startSeconds: 10)
        let (_, lines) = try writeYAML(name, Fixtures.touchscreen, events)
        return (events, lines, Self.firstEntryLine(lines))
    }

    /// The 0-based indices of `lines`' event lines, from the events list on.
    static func eventLineIndices(_ lines: [String]) -> [Int] {
        lines.indices.filter { lines[$0].hasPrefix("    - [") }
    }

    /// An event line's five numbers.
    static func numbers(_ line: String) -> [String] {
        let inside = line.split(separator: "[", maxSplits: 1)[1].split(separator: "]", maxSplits: 1)[0]
        return inside.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    }

    @Test func spacesAndTabsInsideTheBracketsCommentsBlankLinesAndEmptyFrames() throws {
        let (events, lines, first) = try base()
        var edited = lines
        let eventLines = Self.eventLineIndices(lines)
        for (n, index) in eventLines.enumerated() where n % 7 == 0 {
            let numbers = Self.numbers(lines[index])
            let layouts = ["    - [\(numbers[0]),\(numbers[1]),\(numbers[2]),\(numbers[3]),\(numbers[4])]",
                           "    - [\t\(numbers[0]) ,\t\(numbers[1]),   \(numbers[2]) , \(numbers[3]),\(numbers[4])\t]\t# tabbed",
                           "    - [ 000\(numbers[0]), \(numbers[1]), \(numbers[2]), \(numbers[3]), \(numbers[4]) ]   ",
                           "    - [\(numbers[0]), \(numbers[1]), \(numbers[2]), \(numbers[3]), \(numbers[4])] #"]
            edited[index] = layouts[n / 7 % layouts.count]
        }
        // Inserted from the end, so the indices above stay right.
        for (n, index) in eventLines.enumerated().reversed() where n % 11 == 3 {
            let inserted = ["", "    ", "# a comment at column 0", "  # a comment in the list", "\t# a tab in a comment is fine",
                            String(repeating: " ", count: 31) + "# Touch device in neutral state", "  - evdev:"]
            edited.insert(inserted[n / 11 % inserted.count], at: index)
        }
        edited.removeAll { $0 == "\t# a tab in a comment is fine" }  // a tab before `#` starts a token
        let path = write("odd-valid.yml", edited)
        let (outcome, taken) = compare(path)
        #expect(outcome.events == events)
        #expect(taken == Taken(first: first, handedBackAt: nil))
    }

    @Test func anIndentedEventsListAndALastLineWithoutALineBreak() throws {
        let (events, lines, first) = try base()
        let indented = lines.enumerated().map { $0.offset >= first - 1 && !$0.element.isEmpty ? "  " + $0.element : $0.element }
        let path = write("indented.yml", indented, lastBreak: false)
        let (outcome, taken) = compare(path)
        #expect(outcome.events == events)
        #expect(taken == Taken(first: first, handedBackAt: nil))
        let unbroken = write("unbroken.yml", lines, lastBreak: false)
        #expect(compare(unbroken).taken == Taken(first: first, handedBackAt: nil))
    }

    /// A line the direct reading does not take, early (inside what libyaml has read ahead), in the
    /// middle and near the end: libyaml reads from that line on, with the same result. It reads
    /// from the event line before it when there is one: to hand that event out, libyaml reads on
    /// to the next line's first token (the `[` might begin a mapping key), and stops there when
    /// that line is wrong. `SEC` and `USEC` are the time of the event before.
    @Test(arguments: [
        (["    - [+SEC, USEC, 3, 57, 100]"], false),                    // a sign libyaml reads
        (["    - [  SEC,      USEC,", "         3,  57,     100]"], false), // an event over two lines
        (["  - libinput:", "    - {time: 0.000001, type: POINTER_MOTION}"], nil),  // libinput's own events
        (["  - hid:", "      time: [  0,   7100]"], nil),
        (["    - [SEC, USEC, 3, 57, 100]   # \u{e9}t\u{e9}"], false),   // UTF-8 in a comment
        (["  -  evdev:"], true),
        (["    - [  SEC,      USEC,   3,  57,     100]x"], true),
        (["\t- [  SEC,      USEC,   3,  57,     100]"], true),           // a tab starts no token
        (["    - [  SEC,      USEC,   3,  57,     100,  5]"], true),     // six numbers
        (["    - [  SEC, 1000000,   3,  57,     100]"], true),          // usec
        // Canonical lines whose event parseEvent refuses: libyaml reads from the line itself.
        (["    - [  SEC,      USEC,   3,  99,     100]"], true),         // an unknown code
        (["    - [   1,      1,   3,  57,     100]"], true),             // time goes back
        (["  junk"], true),
    ] as [([String], Bool?)])
    func aLineLeftToLibyaml(inserted: [String], isError: Bool?) throws {
        let (events, lines, first) = try base()
        let eventLines = Self.eventLineIndices(lines)
        var handedBackPastARefill = false
        for position in [eventLines[3], eventLines[40], eventLines[eventLines.count / 2], eventLines[eventLines.count - 5]] {
            let before = Self.numbers(lines[eventLines.last { $0 < position }!])
            var edited = lines
            // Before an event line: after a frame's SYN_REPORT or in the middle of a frame.
            edited.insert(contentsOf: inserted.map {
                $0.replacingOccurrences(of: "USEC", with: before[1]).replacingOccurrences(of: "SEC", with: before[0])
            }, at: position)
            let path = write("left-\(position).yml", edited)
            let (outcome, taken) = compare(path)
            if let isError { #expect(isError == (outcome.error != nil), "\(inserted) at line \(position + 1): \(outcome)") }
            if isError == false { #expect(outcome.events.count == events.count + 1) }
            let isCanonical = inserted[0].hasPrefix("    - [  SEC,      USEC,   3,  99") || inserted[0].hasPrefix("    - [   1,")
            let handBack = lines[position - 1].hasPrefix("    - [") && !isCanonical ? position : position + 1
            if inserted[0].contains("\u{e9}") {
                // Handed back before the odd byte, by at least PlainTextScan.margin (64 KiB).
                #expect(taken?.first == first && (taken?.handedBackAt ?? .max) <= max(first, handBack - 800), "\(String(describing: taken))")
            } else {
                #expect(taken == Taken(first: first, handedBackAt: handBack), "\(inserted) at line \(position + 1)")
            }
            if let line = taken?.handedBackAt, Self.isPastARefill(line: line, in: path) { handedBackPastARefill = true }
        }
        #expect(handedBackPastARefill || inserted[0].contains("\u{e9}"), "no hand-back after the small buffer's refill")
    }

    /// Canonical lines whose event the reader refuses (an unknown code, a time before the last)
    /// as a frame's last event, so that the next line taken is the next frame's `- evdev:`, and
    /// as the file's last line, with and without a line break: libyaml reads from that line, in the
    /// frame it belongs to (whose `- evdev:` line the direct reading had passed), and reports it.
    @Test(arguments: ["    - [99999,      0,   3,  99,     100]", "    - [   1,      1,   3,  57,     100]"])
    func aRefusedEventAtTheEndOfAFrameOrOfTheFile(refused: String) throws {
        let (events, lines, first) = try base()
        let entries = lines.indices.filter { $0 >= first && lines[$0] == "  - evdev:" }
        let end = lines.count - (lines.last == "" ? 1 : 0)
        var edits: [(name: String, lines: [String], lastBreak: Bool, line: Int)] = []
        for position in [entries[1], entries[entries.count / 2], entries[entries.count - 2]] {
            var edited = lines
            edited.insert(refused, at: position)
            edits.append(("before-entry-\(position)", edited, true, position + 1))
        }
        for lastBreak in [true, false] {
            edits.append(("at-end-\(lastBreak)", Array(lines[..<end]) + [refused], lastBreak, end + 1))
        }
        for edit in edits {
            let path = write("refused-\(edit.name).yml", edit.lines, lastBreak: edit.lastBreak)
            let (outcome, taken) = compare(path)
            #expect(outcome.error != nil && outcome.events == Array(events[..<outcome.events.count]), "\(edit.name): \(outcome)")
            #expect(taken == Taken(first: first, handedBackAt: edit.line), "\(edit.name)")
        }
    }

    /// What comes after the device's events: another device, another key, `version:` at the end or
    /// missing; and reading the second device.
    @Test func whatFollowsTheEvents() throws {
        let (events, lines, first) = try base()
        let deviceStart = lines.firstIndex { $0.hasPrefix("- node:") }!
        let device = Array(lines[deviceStart..<(first - 1)]) + ["  - evdev:", "    - [  20,      1,   1, 330,       1]",
                                                                "    - [  20,      1,   0,   0,       0]"]
        let end = lines.count - (lines.last == "" ? 1 : 0)
        let twoDevices = write("two-devices.yml", Array(lines[..<end]) + device)
        let (outcome, taken) = compare(twoDevices)
        #expect(outcome.deviceCount == 2 && outcome.events == events)
        // From the last event line: see `aLineLeftToLibyaml`.
        #expect(taken == Taken(first: first, handedBackAt: end))
        let second = compare(twoDevices, .index(1))
        #expect(second.outcome.events.count == 2 && second.outcome.error == nil)
        #expect(second.taken == Taken(first: end + device.count - 2, handedBackAt: nil))

        let extraKey = write("extra-key.yml", Array(lines[..<end]) + ["extra: [1, 2]"])
        #expect(compare(extraKey).taken == Taken(first: first, handedBackAt: end))

        let versionLast = Array(lines[..<end]).filter { $0 != "version: 1" } + ["version: 1"]
        let versionAtTheEnd = compare(write("version-last.yml", versionLast))
        #expect(versionAtTheEnd.outcome.error == nil && versionAtTheEnd.taken == Taken(first: first - 1, handedBackAt: end - 1))
        let noVersion = compare(write("no-version.yml", Array(lines[..<end]).filter { $0 != "version: 1" }))
        #expect(noVersion.outcome.error?.contains("'version: 1'") == true)
        #expect(noVersion.taken == Taken(first: first - 1, handedBackAt: end))
    }

    /// A key given twice in one mapping is an error at its line, read either way: in an events
    /// entry (a second `evdev:` in the middle of the list, which the direct reading does not take:
    /// each `- evdev:` line it takes opens a mapping of its own), a second `events:` after the
    /// list, a second `name:` in the description (before the list, libyaml's), an axis of
    /// `absinfo:` written as `53` and `053`. A key repeated in other mappings is no duplicate.
    @Test func aKeyGivenTwiceIsAnErrorAtItsLineEitherWay() throws {
        let (events, lines, first) = try base()
        let eventLines = Self.eventLineIndices(lines)
        let end = lines.count - (lines.last == "" ? 1 : 0)
        let nameLine = lines.firstIndex { $0.hasPrefix("    name:") }!
        let axisLine = lines.firstIndex { $0.hasPrefix("      53:") }!
        let edits: [(name: String, at: Int, inserted: [String], taken: Taken?)] = [
            ("evdev", eventLines[1500] + 1, ["    evdev:", "    - [  99,      0,   0,   0,       0]"],
             Taken(first: first, handedBackAt: eventLines[1500] + 1)),
            ("events", end, ["  events:", "  - evdev:", "    - [  99,      0,   0,   0,       0]"],
             Taken(first: first, handedBackAt: end)),
            ("name", nameLine + 1, ["    name: \"another\""], nil),
            ("absinfo", axisLine + 1, ["      053: [0, 100, 0, 0, 1]"], nil),
        ]
        for edit in edits {
            var edited = lines
            edited.insert(contentsOf: edit.inserted, at: edit.at)
            let (outcome, taken) = compare(write("twice-\(edit.name).yml", edited))
            #expect(outcome.error?.contains(":\(edit.at + 1): expected each key once in a mapping (YAML keys are unique)") == true,
                    "\(edit.name): \(outcome.error ?? "no error")")
            if let expected = edit.taken { #expect(taken == expected, "\(edit.name)") }
        }
        // The same keys in two devices, and `evdev:` in every entry: read both ways, no error.
        let deviceStart = lines.firstIndex { $0.hasPrefix("- node:") }!
        let twice = write("two-devices-same-keys.yml", Array(lines[..<end]) + Array(lines[deviceStart..<end]))
        let (outcome, _) = compare(twice)
        #expect(outcome.error == nil && outcome.events == events && outcome.deviceCount == 2, "\(outcome)")
    }

    /// Files the direct reading leaves to libyaml from the start: `\r\n` line breaks (libyaml
    /// counts a lone `\r` as a line too), and a pipe.
    @Test func filesLeftToLibyaml() throws {
        let (events, lines, _) = try base()
        let path = directory + "/crlf.yml"
        writeFile(path, lines.joined(separator: "\r\n"))
        let (outcome, taken) = compare(path)
        #expect(outcome.events == events && taken == nil)
        // A pipe's reads return what has arrived, so libyaml reads it all, as it comes.
        let (_, lines2) = try writeYAML("piped.yml", Fixtures.touchscreen, events)
        let feeder = PipeFeeder(bytes: Array(lines2.joined(separator: "\n").utf8))
        let reader = try LibinputRecordReader(path: feeder.path)
        #expect(try drainAny(reader) == events)
        #expect(reader.canonicalLinesRange == nil)
        feeder.finish()
    }

    /// Long runs of comment lines: up to `quietBytesMax` taken directly; longer, libyaml's, and
    /// over 1 MiB libyaml's error on the same line.
    @Test func longRunsOfComments() throws {
        let (events, lines, first) = try base()
        let position = Self.eventLineIndices(lines)[2000]
        let comment = "  # " + String(repeating: "c", count: 96)
        var short = lines
        short.insert(contentsOf: Array(repeating: comment, count: 250), at: position)
        let (shortOutcome, shortTaken) = compare(write("short-comments.yml", short))
        #expect(shortOutcome.events == events && shortTaken == Taken(first: first, handedBackAt: nil))
        var long = lines
        long.insert(contentsOf: Array(repeating: comment, count: 1000), at: position)
        let (longOutcome, longTaken) = compare(write("long-comments.yml", long))
        #expect(longOutcome.events == events && longTaken?.handedBackAt != nil)
        var huge = lines
        huge.insert(contentsOf: Array(repeating: comment, count: 12_000), at: position)
        let (hugeOutcome, _) = compare(write("huge-comments.yml", huge))
        #expect(hugeOutcome.error?.contains("a YAML value of at most") == true, "\(hugeOutcome)")
        // Runs around the limit after an event line, wherever the input's buffer is refilled: libyaml
        // reads from the held event's line, which is still buffered.
        let eventLines = Self.eventLineIndices(lines)
        for (n, position) in stride(from: 30, to: eventLines.count, by: 190).map({ eventLines[$0] }).enumerated() {
            var edited = lines
            edited.insert(contentsOf: Array(repeating: comment, count: [300, 330, 340, 700][n % 4]), at: position)
            let (outcome, _) = compare(write("around-\(n).yml", edited))
            #expect(outcome.events == events)
        }
    }

    // MARK: Errors

    /// The malformed endings of `BadFileTests`, after no, one, 500 and 3,000 canonical events (the
    /// longer prefixes put the bad line past what libyaml read ahead of the events list, and past
    /// `PlainTextScan.margin`): the same error on the same line both ways.
    @Test func theMalformedEndingsOfBadFileTests() throws {
        let digits = String(repeating: "1", count: 2 << 20)
        let endings: [(String, [UInt8])] = [
            ("truncated", Array("    - [  0,      0,   3,   0,      5]\n    - [  0,     10,   3,".utf8)),
            ("junk", Array("    - [  0,      0,   3,   0,      5]\n    - [  0,      0,   0,   0,      0]\njunk: [1".utf8)),
            ("newline", Array("    - [  0,      0,   3,   0,      5]\n    - [  0,     10,   3,\n".utf8)),
            ("huge-event", Array("    - [  0,      0,   3,   0,      5]\n    - [  0,      0,   3,   0, \(digits)]\n".utf8)),
            ("huge-comment", Array("    # \(digits)\n    - [  0,      0,   3,   0,      5]\n".utf8)),
            ("shape", Array("    - [  0,      0,   3,   0]\n".utf8)),
            ("unknown", Array("    - [  0,      0,   3,  99,      5]\n".utf8)),
            ("backwards", Array("    - [  2,      0,   3,   0,      5]\n    - [  1, 999999,   3,   0,      5]\n".utf8)),
            ("nul", Array("    - [  0,      0,   3,   0,      5]\n".utf8) + [0x00, 0x0a]),
        ]
        for prefixEvents in [0, 1, 500, 3000] {
            // Frames of ABS_X and SYN_REPORT at time 0, which every ending may follow.
            var prefix = BadFileTests.yamlDevice
            for n in 0..<prefixEvents {
                prefix += n % 2 == 0 ? "    - [  0,      0,   3,   0,  \(n % 100)]\n" : "    - [  0,      0,   0,   0,      0]\n  - evdev:\n"
            }
            for (name, ending) in endings {
                let path = directory + "/\(name)-\(prefixEvents).yml"
                writeFile(path, Array(prefix.utf8) + ending)
                let (outcome, taken) = compare(path)
                #expect(outcome.error != nil, "\(name) after \(prefixEvents) events")
                // A NUL in libyaml's first read is its error before the events list.
                #expect(taken != nil || (name == "nul" && prefixEvents < 500), "\(name) after \(prefixEvents) events: \(outcome)")
            }
        }
    }

    /// 400 random changes to a canonical file (a byte replaced, inserted or deleted, a line
    /// repeated, dropped, swapped or inserted, the file cut), mostly in its events: the same
    /// outcome both ways, whatever the change.
    @Test func randomChangesReadTheSameBothWays() throws {
        // As long as `base()`: longer than the small buffer.
        let (_, lines, first) = try base("mutated-base.yml")
        let original = Array(lines.joined(separator: "\n").utf8)
        let headerBytes = lines[..<(first - 1)].reduce(0) { $0 + $1.utf8.count + 1 }
        var state: UInt64 = 0x5851_F42D_4C95_7F2D
        func random(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(max(bound, 1)))
        }
        let bytes: [UInt8] = [0x00, 0x09, 0x0A, 0x0D, 0x20, 0x20, 0x23, 0x2D, 0x5B, 0x5D, 0x2C, 0x3A, 0x30, 0x35, 0x39, 0x78,
                              0xC3, 0xE9, 0x85, 0xFF, 0x27, 0x22, 0x7B, 0x26, 0x2A, 0x21, 0x25, 0x7F, 0x2B]
        let oddLines = ["  - libinput:", "    - [0, 0]", "  - evdev: []", "- node: x", "...", "---", "  #", "\t", "  evdev:",
                        "    - [  10,      1,   3,  57,     100]", "      - [1, 2, 3, 4, 5]", "  - {evdev: [[1, 2, 3, 4, 5]]}",
                        "    - &a [  10,      1,   3,  57,     100]", "    - *a", "    - !!seq [1, 2, 3, 4, 5]"]
        var handedBack = 0, handedBackPastARefill = 0, toTheEnd = 0, notTaken = 0
        var differentLines = Set<Int>()
        for n in 0..<400 {
            var mutated = original
            // Mostly in the events; a few in the description.
            let position = random(10) == 0 ? random(headerBytes) : headerBytes + random(original.count - headerBytes)
            switch n % 8 {
            case 0: mutated[position] = bytes[random(bytes.count)]
            case 1: mutated.insert(bytes[random(bytes.count)], at: position)
            case 2: mutated.remove(at: position)
            case 3: mutated.removeSubrange(position...)
            default:
                var mutatedLines = lines
                let line = first - 1 + random(lines.count - first)
                switch n % 8 {
                case 4: mutatedLines.insert(mutatedLines[line], at: line)
                case 5: mutatedLines.remove(at: line)
                case 6: mutatedLines.swapAt(line, line + 1)
                default: mutatedLines.insert(oddLines[random(oddLines.count)], at: line)
                }
                mutated = Array(mutatedLines.joined(separator: "\n").utf8)
            }
            let path = directory + "/mutated-\(n).yml"
            writeFile(path, mutated)
            let (_, taken) = compare(path)
            if let line = taken?.handedBackAt {
                handedBack += 1
                differentLines.insert(line)
                if Self.isPastARefill(line: line, in: path) { handedBackPastARefill += 1 }
            } else if taken != nil {
                toTheEnd += 1
            } else {
                notTaken += 1
            }
        }
        // The changes exercise the hand-back to libyaml at many places, not just the start.
        #expect(handedBack > 100 && differentLines.count > 80,
                "\(handedBack) handed back at \(differentLines.count) lines, \(toTheEnd) to the end, \(notTaken) not taken")
        // Many of them after the small buffer was refilled.
        #expect(handedBackPastARefill > 30, "\(handedBackPastARefill) handed back after a refill")
    }

    /// 300 files of 30 event lines each in random layouts around libinput's own (every field's
    /// width, spaces and tabs around the numbers and commas, signs, leading zeros, values past 32
    /// bits, what follows `]`, a stray character): the same outcome both ways, and most lines are
    /// taken directly.
    @Test func randomLayoutsOfEventLines() throws {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func random(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        func pad(_ text: String, _ width: Int) -> String {
            String(repeating: " ", count: max(0, width - text.count)) + text
        }
        func gap() -> String { ["", " ", " ", "  ", "\t", " \t"][random(6)] }
        var takenToTheEnd = 0
        for file in 0..<300 {
            var lines = BadFileTests.yamlDevice.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            lines.removeLast()
            var micro = 0
            for n in 0..<30 {
                micro += random(3)
                let seconds = ["0", "00", "7", "1700000000", "+0", "-0", "1234567890123456789"][random(60) == 0 ? random(7) : 0]
                let value = [0, 5, -1, 99, 2_147_483_647, -2_147_483_648, 12_345_678, 2_147_483_648][random(60) == 0 ? 7 : random(7)]
                let fields = [seconds, String(micro), n % 3 == 2 ? "0" : "3", n % 3 == 2 ? "0" : String(random(2)),
                              (random(60) == 0 ? "+" : "") + (random(20) == 0 ? "0" : "") + String(value)]
                let widths = [3, 6, 3, 3, 7]
                var line: String
                if random(3) == 0 {
                    line = "    - [" + gap() + fields.joined(separator: gap() + "," + gap()) + gap() + "]"
                } else {
                    line = "    - [" + zip(fields, widths).map { pad($0, $1) }.joined(separator: ", ") + "]"
                }
                line += ["", " # EV_ABS / ABS_X", "\t# tab", "  ", " #", "#no space", " x", ","][random(60) == 0 ? 5 + random(3) : random(5)]
                if random(120) == 0 {
                    var characters = Array(line)
                    characters[random(characters.count)] = ["x", " ", "-", "0", "#", ",", "]", "[", "\t", ":"][random(10)]
                    line = String(characters)
                }
                lines.append(line)
                if n % 3 == 2 { lines.append("  - evdev:") }
            }
            let path = write("layout-\(file).yml", lines)
            let (_, taken) = compare(path)
            if taken != nil && taken?.handedBackAt == nil { takenToTheEnd += 1 }
        }
        #expect(takenToTheEnd > 10, "\(takenToTheEnd) files read directly to the end")
    }
}
