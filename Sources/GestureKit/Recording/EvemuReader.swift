import GestureCore

/// The evemu file-format version from the `# EVEMU <major>.<minor>` first line (1.0 when absent).
package struct EvemuVersion: Hashable, Sendable, Comparable, CustomStringConvertible {
    package var major: Int
    package var minor: Int
    package init(major: Int, minor: Int) { self.major = major; self.minor = minor }

    /// Comments only at the top; `A:` lines with 5 numbers.
    package static let v1_0 = EvemuVersion(major: 1, minor: 0)
    /// Comments anywhere, also after a line's fields.
    static let v1_1 = EvemuVersion(major: 1, minor: 1)
    /// `A:` lines carry the resolution as a 6th number.
    static let v1_2 = EvemuVersion(major: 1, minor: 2)
    /// `L:` and `S:` lines (LED and switch states). What evemu-record writes.
    package static let v1_3 = EvemuVersion(major: 1, minor: 3)

    package static func < (a: EvemuVersion, b: EvemuVersion) -> Bool { (a.major, a.minor) < (b.major, b.minor) }
    package var description: String { "\(major).\(minor)" }
}

/// Reads an evemu recording (`evemu-record`, `evemu-describe` output) as a stream of events.
///
/// Accepts versions 1.0 to 1.3, the old split form (a `.desc` file then a `.events` file, joined in
/// one file or given as two paths), absolute or relative times. Each event keeps its time exactly
/// as written. Anything else is a `RecordingError` naming the file and line. Events after the last
/// `SYN_REPORT` are returned too, and reported in `trailingPartialFrame`.
public final class EvemuReader: RecordingSource {
    /// The device the file describes.
    public let device: DeviceDescription
    package let version: EvemuVersion
    /// An incomplete frame after the last `SYN_REPORT`; known once `nextEvent()` has returned nil.
    public private(set) var trailingPartialFrame: TrailingPartialFrame?
    /// Problems of the description that did not stop reading.
    public let descriptionWarnings: [DescriptionWarning]
    /// Events that contradict the description; complete once `nextEvent()` has returned nil.
    public var eventContradictions: [EventContradiction] { conformance.contradictions }
    /// Event lines that begin with blank space, passed over as libevemu does.
    public var indentedEventLines: IndentedEventLines? { indentedLines.found }
    /// A description and no event line, with no `.events` file given: `evemu-describe` output, or
    /// the `.desc` half of a split recording read without its other half.
    public let holdsOnlyADescription: Bool

    private let input: LineInput
    /// Whether the file is being read ahead on another thread (`LineInput.readAheadOnAnotherThread()`).
    var readsAhead: Bool { input.readsAhead }
    /// Whether a thread would pay for itself: a large regular file (`LineInput.isWorthReadingAhead`),
    /// or for a split recording, its `.events` half yet to be read (asked before the first event,
    /// the `.desc` half is read to its end already).
    var isWorthReadingAhead: Bool {
        if let pendingEventsPath { return input.isWorthReadingAhead(path: pendingEventsPath) }
        return input.isWorthReadingAhead
    }
    /// Event lines whose fields the read-ahead thread read (`ReadAhead.ParsedLine`).
    var linesParsedAhead: Int { input.linesParsedAhead }
    /// Canonical event lines read in one scan to their newline (`LineInput.takeCanonicalEventLine`).
    private let readsLinesInOneScan: Bool
    // Noted on every event, from this reader's own methods only and never while another access is
    // open: without `unchecked` each note is a dynamic exclusivity check (swift_beginAccess), about
    // 90 instructions an event, more than the rest of the event's bookkeeping.
    @exclusivity(unchecked) private var conformance: DescriptionConformance
    private var pendingEventsPath: String?
    private var pendingEvent: InputEvent?
    private var previousSeconds: Int64 = .min
    private var previousMicroseconds: Int32 = 0
    private var isFinished = false
    @exclusivity(unchecked) private var frameBoundaries = FrameBoundaryTracker()
    private var indentedLines = IndentedLineCounter()

    static let eventGrammar = "'E: <sec>.<usec> <type> <code> <value>'"
    /// `%06u`: evemu writes and reads at most six digits of microseconds.
    static let microsecondDigitsMax = 6
    /// `%04x`: at most four hex digits for type, code and ids.
    static let shortHexDigitsMax = 4
    /// `%02x`: at most two hex digits for bytes and description indices.
    static let byteHexDigitsMax = 2
    /// `%lu` on 64-bit Linux, kept within what `Int64` holds.
    static let secondDigitsMax = 18

    /// - Parameters:
    ///   - path: the evemu file, or the `.desc` half of a split recording.
    ///   - eventsPath: the `.events` half of a split recording, if any.
    public convenience init(path: String, eventsPath: String? = nil) throws {
        try self.init(input: try LineInput(path: path), eventsPath: eventsPath)
    }

    /// As `init(path:eventsPath:)`, the ways of reading chosen, for tests and fuzzing to compare:
    /// `readsLinesInOneScan: false` has every line found by `LineInput.advance()` and then parsed
    /// (the reference the one-scan reading is compared with); `bufferBytes` sizes the buffer (and
    /// so the longest line); `readAheadMinimumFileBytes` is the smallest file read ahead on another
    /// thread (0: any regular file; `Int.max`: none), and `readAhead` who reads it there.
    package convenience init(path: String, eventsPath: String? = nil, readsLinesInOneScan: Bool,
                             bufferBytes: Int? = nil, readAheadMinimumFileBytes: Int? = nil,
                             readAhead: RecordingReadAhead = .lines) throws {
        let input = try LineInput(path: path, bufferBytes: bufferBytes ?? LineInput.defaultBufferBytes)
        if let readAheadMinimumFileBytes { input.readAheadMinimumFileBytes = readAheadMinimumFileBytes }
        input.readsAheadWhenWorthIt = readAhead == .lines
        try self.init(input: input, eventsPath: eventsPath, readsLinesInOneScan: readsLinesInOneScan)
    }

    /// Reads from `input`, at the start of the file.
    init(input: LineInput, eventsPath: String?, readsLinesInOneScan: Bool = true) throws {
        self.input = input
        self.readsLinesInOneScan = readsLinesInOneScan
        let path = input.path
        var description = DescriptionParser(path: path)
        let firstEvent = try description.parse(input)
        device = description.device
        version = description.version
        descriptionWarnings = DescriptionLimits.warnings(checked: description.warnings, codes: device.codes[.abs] ?? [],
                                                         absInfo: device.absInfo, path: path,
                                                         listedAt: description.axisListedAt)
        conformance = DescriptionConformance(device: device, path: path)
        indentedLines = description.indentedLines
        holdsOnlyADescription = eventsPath == nil && firstEvent == nil
        if let eventsPath {
            if firstEvent != nil {
                throw RecordingError(path: path, line: input.lineNumber, kind: .malformedLine,
                                     expected: "only a description, the events being in \(LineInput.displayName(eventsPath))",
                                     found: RecordingError.quote(input.line))
            }
            pendingEventsPath = eventsPath
        } else if firstEvent != nil {
            pendingEvent = try parseEvent()
            input.readAheadOnAnotherThread()
        } else {
            isFinished = true
        }
    }

    /// The next event in file order, nil at the end; throws `RecordingError` for a malformed line.
    public func nextEvent() throws -> InputEvent? {
        // Not `pendingEvent.take()`: the standard library's generic `take` is not specialised
        // here and cost 9 instructions an event (the instruction gate's parse, 681.9 -> 690.9).
        if let event = pendingEvent {
            pendingEvent = nil
            return event
        }
        if let eventsPath = pendingEventsPath {
            pendingEventsPath = nil
            try input.switchTo(path: eventsPath)
            input.readAheadOnAnotherThread()
        }
        guard !isFinished else { return nil }
        if readsLinesInOneScan, let canonical = input.takeCanonicalEventLine() { return try accept(canonical) }
        while try input.advance() {
            let line = input.line
            var first = 0
            while first < line.count && LineScanner.isSpace(line[first]) { first += 1 }
            if first == line.count || line[first] == UInt8(ascii: "#") { continue }
            if first > 0 {
                indentedLines.note(path: input.path, line: input.lineNumber, text: line)
                continue
            }
            return try parseEvent()
        }
        isFinished = true
        trailingPartialFrame = frameBoundaries.trailingPartialFrame(path: input.path)
        return nil
    }

    /// Parses `input.line` as `E: <sec>.<usec> <type hex> <code hex> <value>`: at fixed offsets when
    /// it is laid out as evemu writes it, else by the general scanner.
    private func parseEvent() throws -> InputEvent {
        let line = input.line
        if let canonical = CanonicalEventLine(line) { return try accept(canonical) }
        guard let (seconds, microseconds, type, code, value) = Self.scanEventFields(line) else {
            throw malformed(expected: EvemuReader.eventGrammar)
        }
        return try accept(seconds: seconds, microseconds: microseconds, type: type, code: code, value: value)
    }

    @inline(__always)
    private func accept(_ canonical: CanonicalEventLine) throws -> InputEvent {
        try accept(seconds: canonical.seconds, microseconds: UInt64(canonical.microseconds),
                   type: canonical.type, code: canonical.code, value: canonical.value)
    }

    /// The checks and notes every event line gets, however it was read (`input.line` is the line).
    @inline(__always)
    private func accept(seconds: UInt64, microseconds: UInt64, type: UInt32, code: UInt32, value: Int32) throws -> InputEvent {
        guard EvdevTables.isKnown(type: type, code: code) else { throw unknownCode(type: type, code: code) }
        let sec = Int64(seconds)
        let usec = Int32(microseconds)
        if sec < previousSeconds || (sec == previousSeconds && usec < previousMicroseconds) {
            throw RecordingError(
                path: input.path, line: input.lineNumber, kind: .timeWentBackwards,
                expected: "a time at or after \(EventTime(seconds: previousSeconds, microseconds: previousMicroseconds))",
                found: "\(EventTime(seconds: sec, microseconds: usec)) in \(RecordingError.quote(input.line))")
        }
        previousSeconds = sec
        previousMicroseconds = usec
        let event = InputEvent(time: EventTime(seconds: sec, microseconds: usec),
                               type: EventType(rawValue: UInt16(type)), code: EventCode(rawValue: UInt16(code)),
                               value: value)
        frameBoundaries.note(event, line: input.lineNumber)
        conformance.note(event, line: input.lineNumber)
        return event
    }

    /// The fields of any event line the grammar allows (leading spaces, fewer digits, unpadded or
    /// signed values), nil when it does not follow `E: <sec>.<usec> <type> <code> <value>`.
    static func scanEventFields(_ line: UnsafeBufferPointer<UInt8>)
        -> (seconds: UInt64, microseconds: UInt64, type: UInt32, code: UInt32, value: Int32)? {
        var scanner = LineScanner(line)
        scanner.skipSpaces()
        guard scanner.take(UInt8(ascii: "E")), scanner.take(UInt8(ascii: ":")) else { return nil }
        scanner.skipSpaces()
        guard let seconds = scanner.unsignedDecimal(maxDigits: secondDigitsMax),
              scanner.take(UInt8(ascii: ".")),
              let microseconds = scanner.unsignedDecimal(maxDigits: microsecondDigitsMax),
              scanner.skipSpaces(),
              let type = scanner.hex(maxDigits: shortHexDigitsMax),
              scanner.skipSpaces(),
              let code = scanner.hex(maxDigits: shortHexDigitsMax),
              scanner.skipSpaces(),
              let value = scanner.int32(),
              scanner.isAtEndOrComment()
        else { return nil }
        return (seconds, microseconds, type, code, value)
    }

    private func malformed(expected: String) -> RecordingError {
        RecordingError(path: input.path, line: input.lineNumber, kind: .malformedLine,
                       expected: expected, found: RecordingError.quote(input.line))
    }

    private func unknownCode(type: UInt32, code: UInt32) -> RecordingError {
        unknownEventCodeError(path: input.path, line: input.lineNumber, type: type, code: code,
                              context: RecordingError.quote(input.line))
    }
}

/// The error for a type or code the kernel does not define, worded for either format.
func unknownEventCodeError(path: String, line: Int, type: UInt32, code: UInt32, context: String) -> RecordingError {
    guard EvdevTables.isKnown(type: type) else {
        return RecordingError(path: path, line: line, kind: .unknownEventCode,
                              expected: "an event type the kernel defines (up to EV_MAX, 0x1f)",
                              found: "type 0x\(String(type, radix: 16)) in \(context)")
    }
    let eventType = EventType(rawValue: UInt16(type))
    let maxCode = EvdevTables.maxCode(type: type)
    // Every type's name begins with "EV_", read "ee-vee": "an EV_ABS code".
    return RecordingError(path: path, line: line, kind: .unknownEventCode,
                          expected: "an \(eventType) code up to 0x\(String(maxCode, radix: 16))",
                          found: "code 0x\(String(code, radix: 16)) in \(context)")
}

/// Reads the description part of an evemu file: version line, `N:`, `I:`, then `P:`, `B:`, `A:`,
/// `L:`, `S:` lines, up to the first `E:` line.
private struct DescriptionParser {
    let path: String
    var version = EvemuVersion.v1_0
    /// Whether the file says its version (`# EVEMU 1.3`); without, it is read as 1.0.
    var versionIsGiven = false
    var name: String?
    var id: InputID?
    var properties = Set<InputProperty>()
    var codes: [EventType: Set<EventCode>] = [:]
    var absInfo: [EventCode: AbsInfo] = [:]
    var ledStates: [EventCode: Int32] = [:]
    var switchStates: [EventCode: Int32] = [:]
    /// The axes' problems that do not stop reading, the last line's for each axis.
    var warnings: [EventCode: DescriptionWarning] = [:]
    /// The `B: 03` line each axis was listed on.
    var axisListedAt: [EventCode: Int] = [:]
    /// The first line after `I:` that begins with blank space: libevemu's description ends there.
    var libevemuDescriptionEnd: Int?
    /// Indented `E:` lines before the first event, passed over as libevemu does.
    var indentedLines = IndentedLineCounter()
    /// How many 8-byte chunks of each type's mask were read (`mbytes` in evemu).
    var maskChunks = [Int](repeating: 0, count: EventType.count)
    var propertyChunks = 0
    var lineNumber = 0

    static let nameGrammar = "'N: <device name>'"
    static let idGrammar = "'I: <bustype> <vendor> <product> <version>' (hex)"
    static let bodyGrammar = "a description line ('P:', 'B:', 'A:', 'L:', 'S:') or an event line 'E:'"
    static let bytesPerChunk = 8

    init(path: String) { self.path = path }

    var device: DeviceDescription {
        DeviceDescription(name: name ?? "", id: id ?? InputID(bustype: 0, vendor: 0, product: 0, version: 0),
                          properties: properties, codes: codes, absInfo: absInfo,
                          ledStates: ledStates, switchStates: switchStates)
    }

    /// Returns with `input.line` on the first `E:` line (true), or at the end of the file (false).
    mutating func parse(_ input: LineInput) throws -> Bool? {
        var sawAnyLine = false
        while try input.advance() {
            lineNumber = input.lineNumber
            let line = input.line
            var scanner = LineScanner(line)
            scanner.skipSpaces()
            let isIndented = scanner.index > 0
            if isIndented {
                // libevemu reads no line that begins with blank space: before `N:` and `I:` it
                // refuses the file, after them its description ends at the line.
                guard id != nil else {
                    throw error(expected: expectedNow + " at the start of its line (libevemu reads no line that begins "
                                + "with blank space there)", line: line)
                }
                if libevemuDescriptionEnd == nil { libevemuDescriptionEnd = lineNumber }
            }
            if scanner.isAtEnd { continue }
            if line[scanner.index] == UInt8(ascii: "#") {
                if !sawAnyLine { try parseVersion(line) }
                sawAnyLine = true
                continue
            }
            sawAnyLine = true
            guard scanner.index + 1 < line.count, line[scanner.index + 1] == UInt8(ascii: ":") else {
                throw error(expected: expectedNow, line: line)
            }
            let tag = line[scanner.index]
            if isIndented && tag == UInt8(ascii: "E") {
                indentedLines.note(path: path, line: lineNumber, text: line)
                continue
            }
            if isIndented && tag != UInt8(ascii: "E") {
                throw error(expected: "a description line at the start of its line (libevemu's description ends at a line "
                            + "that begins with blank space)", line: line)
            }
            if let end = libevemuDescriptionEnd, tag != UInt8(ascii: "E") {
                throw error(expected: "no description line after line \(end), which begins with blank space: libevemu's "
                            + "description ends there (remove the blank space)", line: line)
            }
            scanner.index += 2
            switch tag {
            case UInt8(ascii: "N") where name == nil: try parseName(&scanner)
            case UInt8(ascii: "I") where name != nil && id == nil: try parseID(&scanner)
            case UInt8(ascii: "P") where id != nil: try parseProperties(&scanner)
            case UInt8(ascii: "B") where id != nil: try parseMask(&scanner)
            case UInt8(ascii: "A") where id != nil: try parseAbs(&scanner)
            case UInt8(ascii: "L") where id != nil:
                if let (code, state) = try parseState(&scanner, type: .led) { ledStates[code] = state }
            case UInt8(ascii: "S") where id != nil:
                if let (code, state) = try parseState(&scanner, type: .sw) { switchStates[code] = state }
            case UInt8(ascii: "E") where id != nil: return true
            default:
                let kind: RecordingError.Kind = id == nil ? .missingDescription : .malformedLine
                throw RecordingError(path: path, line: lineNumber, kind: kind, expected: expectedNow,
                                     found: RecordingError.quote(line))
            }
        }
        guard id != nil else {
            if !sawAnyLine {
                throw RecordingError(path: path, line: 0, kind: .emptyFile,
                                     expected: "an evemu description ('N: <device name>')", found: "an empty file")
            }
            throw RecordingError(path: path, line: lineNumber + 1, kind: .missingDescription,
                                 expected: expectedNow, found: "the end of the file")
        }
        return nil
    }

    private var expectedNow: String {
        if name == nil { return DescriptionParser.nameGrammar }
        if id == nil { return DescriptionParser.idGrammar }
        return DescriptionParser.bodyGrammar
    }

    private func error(expected: String, line: UnsafeBufferPointer<UInt8>,
                       kind: RecordingError.Kind = .malformedLine) -> RecordingError {
        RecordingError(path: path, line: lineNumber, kind: kind, expected: expected, found: RecordingError.quote(line))
    }

    private mutating func parseVersion(_ line: UnsafeBufferPointer<UInt8>) throws {
        let prefix = Array("# EVEMU ".utf8)
        guard line.count >= prefix.count, zip(line, prefix).allSatisfy({ $0 == $1 }) else { return }
        var scanner = LineScanner(line, from: prefix.count)
        guard let major = scanner.unsignedDecimal(maxDigits: 4), scanner.take(UInt8(ascii: ".")),
              let minor = scanner.unsignedDecimal(maxDigits: 4), scanner.isAtEndOrComment()
        else { throw error(expected: "'# EVEMU <major>.<minor>'", line: line) }
        let found = EvemuVersion(major: Int(major), minor: Int(minor))
        guard found >= .v1_0 && found <= .v1_3 else {
            throw error(expected: "evemu file format 1.0 to 1.3", line: line, kind: .unsupportedVersion)
        }
        version = found
        versionIsGiven = true
    }

    /// The whole rest of the line is the name: `#` may be part of a device name.
    private mutating func parseName(_ scanner: inout LineScanner) throws {
        scanner.skipSpaces()
        let rest = UnsafeBufferPointer(rebasing: scanner.bytes[scanner.index...])
        guard !rest.isEmpty else { throw error(expected: DescriptionParser.nameGrammar, line: scanner.bytes) }
        guard let text = String(validating: rest, as: UTF8.self) else {
            throw error(expected: "a UTF-8 device name", line: scanner.bytes, kind: .binaryData)
        }
        name = text
    }

    private mutating func parseID(_ scanner: inout LineScanner) throws {
        var fields = [UInt16]()
        for _ in 0..<4 {
            scanner.skipSpaces()
            guard let value = scanner.hex(maxDigits: EvemuReader.shortHexDigitsMax) else {
                throw error(expected: DescriptionParser.idGrammar, line: scanner.bytes)
            }
            fields.append(UInt16(value))
        }
        guard scanner.isAtEndOrComment() else { throw error(expected: DescriptionParser.idGrammar, line: scanner.bytes) }
        id = InputID(bustype: fields[0], vendor: fields[1], product: fields[2], version: fields[3])
    }

    private func parseBytes(_ scanner: inout LineScanner, grammar: String) throws -> [UInt8] {
        var bytes = [UInt8]()
        for _ in 0..<DescriptionParser.bytesPerChunk {
            guard scanner.skipSpaces(), let byte = scanner.hex(maxDigits: EvemuReader.byteHexDigitsMax) else {
                throw error(expected: grammar, line: scanner.bytes)
            }
            bytes.append(UInt8(byte))
        }
        guard scanner.isAtEndOrComment() else { throw error(expected: grammar, line: scanner.bytes) }
        return bytes
    }

    private mutating func parseProperties(_ scanner: inout LineScanner) throws {
        let grammar = "'P: ' and 8 hex bytes"
        let bytes = try parseBytes(&scanner, grammar: grammar)
        for (byteIndex, byte) in bytes.enumerated() {
            for bit in 0..<8 where byte & (1 << bit) != 0 {
                let property = (propertyChunks * DescriptionParser.bytesPerChunk + byteIndex) * 8 + bit
                guard property < InputProperty.count else {
                    throw error(expected: "properties up to INPUT_PROP_MAX (0x1f)", line: scanner.bytes,
                                kind: .unknownEventCode)
                }
                properties.insert(InputProperty(rawValue: UInt16(property)))
            }
        }
        propertyChunks += 1
    }

    private mutating func parseMask(_ scanner: inout LineScanner) throws {
        let grammar = "'B: <type> ' and 8 hex bytes"
        guard scanner.skipSpaces(), let type = scanner.hex(maxDigits: EvemuReader.byteHexDigitsMax) else {
            throw error(expected: grammar, line: scanner.bytes)
        }
        let bytes = try parseBytes(&scanner, grammar: grammar)
        guard type < UInt32(EventType.count) else {
            throw unknownEventCodeError(path: path, line: lineNumber, type: type, code: 0,
                                        context: RecordingError.quote(scanner.bytes))
        }
        let chunk = maskChunks[Int(type)]
        maskChunks[Int(type)] += 1
        for (byteIndex, byte) in bytes.enumerated() {
            for bit in 0..<8 where byte & (1 << bit) != 0 {
                let code = UInt32((chunk * DescriptionParser.bytesPerChunk + byteIndex) * 8 + bit)
                guard EvdevTables.isKnown(type: type, code: code) else {
                    throw unknownEventCodeError(path: path, line: lineNumber, type: type, code: code,
                                                context: RecordingError.quote(scanner.bytes))
                }
                // EV_SYN is implied for every device; evemu writes a fixed line for it.
                if type != UInt32(EventType.syn.rawValue) {
                    codes[EventType(rawValue: UInt16(type)), default: []].insert(EventCode(rawValue: UInt16(code)))
                }
                if type == UInt32(EventType.abs.rawValue) { axisListedAt[EventCode(rawValue: UInt16(code))] = lineNumber }
            }
        }
    }

    /// `A: <code> <min> <max> <fuzz> <flat>` up to 1.1, `... <resolution>` from 1.2, like evemu.
    private mutating func parseAbs(_ scanner: inout LineScanner) throws {
        let withResolution = version >= .v1_2
        let format = versionIsGiven ? "file format \(version)"
                                    : "file format 1.0, as the file has no '# EVEMU <version>' first line"
        let grammar = withResolution ? "'A: <code> <min> <max> <fuzz> <flat> <resolution>' (\(format))"
                                     : "'A: <code> <min> <max> <fuzz> <flat>' (\(format))"
        guard scanner.skipSpaces(), let code = scanner.hex(maxDigits: EvemuReader.byteHexDigitsMax) else {
            throw error(expected: grammar, line: scanner.bytes)
        }
        var numbers = [Int32]()
        for _ in 0..<(withResolution ? 6 : 5) - 1 {
            guard scanner.skipSpaces(), let number = scanner.int32() else {
                throw error(expected: grammar, line: scanner.bytes)
            }
            numbers.append(number)
        }
        guard scanner.isAtEndOrComment() else { throw error(expected: grammar, line: scanner.bytes) }
        guard EvdevTables.isKnown(type: UInt32(EventType.abs.rawValue), code: code) else {
            throw unknownEventCodeError(path: path, line: lineNumber, type: UInt32(EventType.abs.rawValue),
                                        code: code, context: RecordingError.quote(scanner.bytes))
        }
        let axis = EventCode(rawValue: UInt16(code))
        let info = AbsInfo(minimum: numbers[0], maximum: numbers[1], fuzz: numbers[2], flat: numbers[3],
                           resolution: withResolution ? numbers[4] : 0)
        warnings[axis] = try DescriptionLimits.check(axis: axis, info, path: path, line: lineNumber)
        absInfo[axis] = info
        codes[.abs, default: []].insert(axis)
    }

    /// `L:`/`S: <code> <state>`. A state of 0 is what a missing line means, so it is not stored.
    private func parseState(_ scanner: inout LineScanner, type: EventType) throws -> (EventCode, Int32)? {
        let grammar = "'\(type == .led ? "L" : "S"): <code> <state>'"
        guard scanner.skipSpaces(), let code = scanner.hex(maxDigits: EvemuReader.byteHexDigitsMax),
              scanner.skipSpaces(), let state = scanner.int32(), scanner.isAtEndOrComment()
        else { throw error(expected: grammar, line: scanner.bytes) }
        guard EvdevTables.isKnown(type: UInt32(type.rawValue), code: code) else {
            throw unknownEventCodeError(path: path, line: lineNumber, type: UInt32(type.rawValue), code: code,
                                        context: RecordingError.quote(scanner.bytes))
        }
        return state != 0 ? (EventCode(rawValue: UInt16(code)), state) : nil
    }
}
