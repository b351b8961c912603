import GestureCore
import Glibc

/// Reads the output of `evtest` (libevdev's evtest 1.x), the log people paste into bug reports, as
/// a stream of events.
///
/// The header gives the description: `Input device ID: bus 0x.. vendor 0x.. product 0x.. version
/// 0x..`, `Input device name: "..."`, `Supported events:` with each `Event type` and `Event code`,
/// each axis's `Value`, `Min`, `Max` and, when not 0, `Fuzz`, `Flat`, `Resolution` (so an axis
/// without a `Resolution` line has none, and its size is estimated as for an evemu 1.0 file), and
/// `Properties:` when evtest printed them. Events follow in both forms evtest prints:
/// `Event: time S.U, type T (EV_X), code C (X), value V` (the value in hex for `MSC_SCAN` and
/// `MSC_RAW`, as evtest prints it) and `Event: time S.U, -------------- SYN_REPORT ------------`
/// (`++++ SYN_MT_REPORT ++++`; older versions' `Report Sync`). Numbers are read, names are not.
///
/// What a paste adds is passed over: blank space and `> ` quote prefixes before a line, Windows
/// line ends, a first line with the shell prompt (`$ sudo evtest /dev/input/event5`), evtest's
/// device list and question, its "grabbed by another process" notice, Markdown code fences, and
/// what evtest prints when the device goes away. Anything else is a `RecordingError` at its line.
/// Read line by line through `LineInput`'s one buffer, like the other readers.
public final class EvtestReader: RecordingSource {
    /// The device the log's header describes.
    public let device: DeviceDescription
    /// An incomplete frame after the last `SYN_REPORT`; known once `nextEvent()` has returned nil.
    public private(set) var trailingPartialFrame: TrailingPartialFrame?
    /// Problems of the description that did not stop reading.
    public let descriptionWarnings: [DescriptionWarning]
    /// Events that contradict the description; complete once `nextEvent()` has returned nil.
    public var eventContradictions: [EventContradiction] { conformance.contradictions }
    /// Set when the header does not end as evtest ends it (`Testing ... (interrupt to exit)`): a
    /// paste that left part of it out, read as far as it goes.
    package let cutHeader: EvtestCutHeader?

    private let input: LineInput
    private var conformance: DescriptionConformance
    private var pendingEvent: InputEvent?
    private var previousTime = EventTime(seconds: .min, microseconds: 0)
    private var isFinished = false
    private var frameBoundaries = FrameBoundaryTracker()
    private var noticeSkipper = EvtestNoticeSkipper()

    static let eventGrammar = "an evtest event line ('Event: time <sec>.<usec>, type <n> (EV_...), code <n> (...), value <n>' "
        + "or 'Event: time <sec>.<usec>, -------------- SYN_REPORT ------------')"
    static let secondDigitsMax = 18
    static let microsecondDigits = 6

    /// Opens an evtest log and reads its header; throws `RecordingError`.
    public convenience init(path: String) throws {
        try self.init(input: try LineInput(path: path))
    }

    /// Reads from `input`, at the start of the file.
    init(input: LineInput) throws {
        self.input = input
        var header = EvtestHeaderParser(path: input.path)
        let sawEvent = try header.parse(input)
        device = header.device
        cutHeader = header.sawTestingLine ? nil : EvtestCutHeader(path: input.path, lastHeaderLine: header.lastHeaderLine,
                                                                  sawProperties: header.sawProperties)
        descriptionWarnings = DescriptionLimits.warnings(checked: header.warnings, codes: device.codes[.abs] ?? [],
                                                         absInfo: device.absInfo, path: input.path,
                                                         listedAt: header.axisListedAt)
        conformance = DescriptionConformance(device: device, path: input.path)
        noticeSkipper = header.noticeSkipper
        if sawEvent {
            pendingEvent = try parseEvent()
        } else {
            isFinished = true
        }
    }

    /// The next event in log order, nil at the end; throws `RecordingError` for a malformed line.
    public func nextEvent() throws -> InputEvent? {
        // Not `pendingEvent.take()`: the standard library's generic `take` is not specialised
        // here and cost 9 instructions an event (the instruction gate's parse, 681.9 -> 690.9).
        if let event = pendingEvent {
            pendingEvent = nil
            return event
        }
        guard !isFinished else { return nil }
        while try input.advance() {
            let text = EvtestLine.content(input.line)
            if text.isEmpty || noticeSkipper.passesOver(text) { continue }
            if EvtestLine.starts(text, with: "Event: time ") { return try parseEvent() }
            if EvtestTrailer.isTrailer(text) { continue }
            throw RecordingError(path: input.path, line: input.lineNumber, kind: .malformedLine,
                                 expected: Self.eventGrammar, found: RecordingError.quote(input.line))
        }
        isFinished = true
        trailingPartialFrame = frameBoundaries.trailingPartialFrame(path: input.path)
        return nil
    }

    /// Parses the current line, known to begin (after its paste marks) with `Event: time `.
    private func parseEvent() throws -> InputEvent {
        let text = EvtestLine.content(input.line)
        guard let fields = Self.scanEvent(text) else {
            throw RecordingError(path: input.path, line: input.lineNumber, kind: .malformedLine,
                                 expected: Self.eventGrammar, found: RecordingError.quote(input.line))
        }
        guard EvdevTables.isKnown(type: fields.type, code: fields.code) else {
            throw unknownEventCodeError(path: input.path, line: input.lineNumber, type: fields.type, code: fields.code,
                                        context: RecordingError.quote(input.line))
        }
        let time = EventTime(seconds: Int64(fields.seconds), microseconds: Int32(fields.microseconds))
        if time < previousTime {
            throw RecordingError(path: input.path, line: input.lineNumber, kind: .timeWentBackwards,
                                 expected: "a time at or after \(previousTime)",
                                 found: "\(time) in \(RecordingError.quote(input.line))")
        }
        previousTime = time
        let event = InputEvent(time: time, type: EventType(rawValue: UInt16(fields.type)),
                               code: EventCode(rawValue: UInt16(fields.code)), value: fields.value)
        frameBoundaries.note(event, line: input.lineNumber)
        conformance.note(event, line: input.lineNumber)
        return event
    }

    /// The fields of `Event: time S.U, type T (NAME), code C (NAME), value V` or of a
    /// synchronization line `Event: time S.U, ----- NAME -----`; nil when the line is neither.
    static func scanEvent(_ text: UnsafeBufferPointer<UInt8>)
        -> (seconds: UInt64, microseconds: UInt64, type: UInt32, code: UInt32, value: Int32)? {
        var scanner = LineScanner(text, from: "Event: time ".utf8.count)
        guard let seconds = scanner.unsignedDecimal(maxDigits: secondDigitsMax), scanner.take(UInt8(ascii: "."))
        else { return nil }
        // Always six digits (`%06ld`): `12.5` is not evtest's, and read as 5 us it would be wrong.
        let microsecondsStart = scanner.index
        guard let microseconds = scanner.unsignedDecimal(maxDigits: microsecondDigits),
              scanner.index - microsecondsStart == microsecondDigits,
              scanner.take(UInt8(ascii: ",")), scanner.skipSpaces(), !scanner.isAtEnd
        else { return nil }
        let mark = text[scanner.index]
        if mark == UInt8(ascii: "-") || mark == UInt8(ascii: "+") {
            guard let code = scanSynchronization(&scanner, mark: mark) else { return nil }
            return (seconds, microseconds, UInt32(EventType.syn.rawValue), code, 0)
        }
        guard scanner.take("type "), let type = scanner.unsignedDecimal(maxDigits: 5), scanner.skipSpaces(),
              scanner.skipParenthesized(), scanner.take(","), scanner.skipSpaces(),
              scanner.take("code "), let code = scanner.unsignedDecimal(maxDigits: 5), scanner.skipSpaces(),
              scanner.skipParenthesized(), scanner.take(","), scanner.skipSpaces(),
              scanner.take("value ")
        else { return nil }
        let value: Int32
        if type == UInt32(EventType.msc.rawValue) && (code == mscScan || code == mscRaw) {
            // evtest prints these with %02x: an int's bits in hex, up to eight digits.
            guard let bits = scanner.hex(maxDigits: 8) else { return nil }
            value = Int32(bitPattern: bits)
        } else {
            guard let decimal = scanner.int32() else { return nil }
            value = decimal
        }
        scanner.skipSpaces()
        guard scanner.isAtEnd else { return nil }
        return (seconds, microseconds, UInt32(type), UInt32(code), value)
    }

    /// `MSC_RAW` and `MSC_SCAN`, whose values evtest prints in hex.
    static let mscRaw: UInt32 = 0x03
    static let mscScan: UInt32 = 0x04

    /// The code of `-------------- SYN_REPORT ------------` (`+` around `SYN_MT_REPORT`), by name.
    private static func scanSynchronization(_ scanner: inout LineScanner, mark: UInt8) -> UInt32? {
        while scanner.take(mark) {}
        scanner.skipSpaces()
        let nameStart = scanner.index
        var nameEnd = scanner.bytes.count
        while nameEnd > nameStart && (scanner.bytes[nameEnd - 1] == mark || LineScanner.isSpace(scanner.bytes[nameEnd - 1])) {
            nameEnd -= 1
        }
        guard nameEnd < scanner.bytes.count, scanner.bytes[nameEnd] == UInt8(ascii: " ") else { return nil }
        let name = UnsafeBufferPointer(rebasing: scanner.bytes[nameStart..<nameEnd])
        for (spelling, code) in synchronizationNames where name.elementsEqual(spelling.utf8) { return code }
        return nil
    }

    /// The names evtest prints for synchronization events: the kernel's, and evtest 1.25's words.
    private static let synchronizationNames: [(String, UInt32)] = [
        ("SYN_REPORT", 0), ("SYN_CONFIG", 1), ("SYN_MT_REPORT", 2), ("SYN_DROPPED", 3),
        ("Report Sync", 0), ("Config Sync", 1),
    ]
}

/// An evtest header that does not end with `Testing ... (interrupt to exit)`: cut short by the paste.
package struct EvtestCutHeader: Hashable, Sendable, CustomStringConvertible {
    package var path: String
    /// The last line of the header that was read (0: none, the log begins with events).
    package var lastHeaderLine: Int
    /// Whether the `Properties:` part was there; without it the device is taken to have none.
    package var sawProperties: Bool

    package var description: String {
        let place = lastHeaderLine > 0 ? "\(path):\(lastHeaderLine)" : path
        let properties = sawProperties ? "" : "; no 'Properties:' (a clickpad or a touchscreen is then told by its codes alone)"
        return "\(place): evtest's header ends here without 'Testing ... (interrupt to exit)', read as far as it goes\(properties)"
    }
}

/// Lines evtest prints among the events that are not events: its notice that another process
/// has grabbed the device (a block between lines of `*`).
struct EvtestNoticeSkipper {
    private var insideNotice = false

    /// True for a line of the notice, which is passed over. An event line ends a notice whose
    /// closing line the paste left out: events are never taken for its text.
    mutating func passesOver(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        if EvtestLine.starts(text, with: "*****") {
            insideNotice.toggle()
            return true
        }
        if insideNotice && EvtestLine.starts(text, with: "Event: time ") { insideNotice = false }
        return insideNotice
    }
}

/// What evtest, the shell or the terminal print after the last event: the message of a device
/// that went away, an interrupt's `^C`, the next prompt, a code fence closing the paste.
enum EvtestTrailer {
    static func isTrailer(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        isShortRead(text) || EvtestLine.starts(text, with: "evtest: ") || EvtestLine.starts(text, with: "^C")
            || EvtestLine.isCodeFence(text) || EvtestLine.isEvtestPrompt(text)
    }

    /// `expected 24 bytes, got -1`: evtest's read failed (the device went away).
    private static func isShortRead(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        var scanner = LineScanner(text)
        return scanner.take("expected ") && scanner.unsignedDecimal(maxDigits: 4) != nil && scanner.take(" bytes, got ")
            && scanner.int32() != nil && scanner.isAtEnd
    }
}

/// Reads the part of an evtest log before its first event: what a paste puts first, then the
/// device header.
private struct EvtestHeaderParser {
    let path: String
    var name: String?
    var id: InputID?
    var properties = Set<InputProperty>()
    var codes: [EventType: Set<EventCode>] = [:]
    var absInfo: [EventCode: AbsInfo] = [:]
    var warnings: [EventCode: DescriptionWarning] = [:]
    var axisListedAt: [EventCode: Int] = [:]
    var sawTestingLine = false
    var noticeSkipper = EvtestNoticeSkipper()
    /// The header line read last, for an error about a header cut short.
    private(set) var lastHeaderLine = 0
    /// Whether evtest printed `Properties:` (versions before 1.30 did not).
    private(set) var sawProperties = false
    /// The `Event type` being listed (nil before `Supported events:`, or in the repeat part).
    private var currentType: EventType?
    /// The axis whose values are being listed, with what was read of it so far.
    private var currentAxis: (code: EventCode, line: Int, value: Int32?, minimum: Int32?, maximum: Int32?,
                              fuzz: Int32, flat: Int32, resolution: Int32)?
    private var section = Section.preamble

    private enum Section { case preamble, device, events, properties, repeats }

    static let deviceGrammar = "evtest's header ('Input device name: \"...\"', 'Supported events:', 'Event type <n> (EV_...)', "
        + "'Event code <n> (...)', 'Min <n>', 'Max <n>', 'Properties:', 'Testing ... (interrupt to exit)')"

    init(path: String) { self.path = path }

    var device: DeviceDescription {
        DeviceDescription(name: name ?? "", id: id ?? InputID(bustype: 0, vendor: 0, product: 0, version: 0),
                          properties: properties, codes: codes, absInfo: absInfo)
    }

    /// Returns with `input.line` on the first event line (true), or at the end of the file (false).
    mutating func parse(_ input: LineInput) throws -> Bool {
        var sawAnyText = false
        while try input.advance() {
            let text = EvtestLine.content(input.line)
            if text.isEmpty { continue }
            sawAnyText = true
            if noticeSkipper.passesOver(text) { continue }
            if EvtestLine.starts(text, with: "Event: time ") {
                try endAxis(input)
                try requireDevice(at: input)
                return true
            }
            if section == .preamble && passPreamble(text) { continue }
            try parseHeaderLine(text, input)
            lastHeaderLine = input.lineNumber
        }
        guard sawAnyText else {
            throw RecordingError(path: path, line: 0, kind: .emptyFile, expected: "an evtest log", found: "an empty file")
        }
        try endAxis(input)
        try requireDevice(at: input)
        return false
    }

    /// What comes before evtest's header in a paste: the prompt, evtest's list of devices and its
    /// question, a code fence. True when `text` is one of them.
    private func passPreamble(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        EvtestLine.isEvtestPrompt(text) || EvtestLine.isCodeFence(text)
            || EvtestLine.starts(text, with: "No device specified") || EvtestLine.starts(text, with: "Available devices:")
            || EvtestLine.starts(text, with: "/dev/input/") || EvtestLine.starts(text, with: "Select the device event number")
    }

    private mutating func parseHeaderLine(_ text: UnsafeBufferPointer<UInt8>, _ input: LineInput) throws {
        var scanner = LineScanner(text)
        if scanner.take("Input driver version is") {
            section = .device
        } else if scanner.take("Input device ID:") {
            section = .device
            id = try parseID(&scanner, input)
        } else if scanner.take("Input device name:") {
            section = .device
            name = try parseName(&scanner, input)
        } else if scanner.take("Supported events:") {
            section = .events
        } else if scanner.take("Event type ") {
            try endAxis(input)
            // Also where a paste begins inside the header, without 'Supported events:' above.
            guard section == .events || section == .device || section == .preamble,
                  let type = scanner.unsignedDecimal(maxDigits: 5), scanner.skipSpaces(),
                  scanner.skipParenthesized(), scanner.isAtEndOrTrailingWords() else {
                throw malformed(input, expected: "'Event type <n> (EV_...)' under 'Supported events:'")
            }
            section = .events
            guard EvdevTables.isKnown(type: UInt32(type)) else {
                throw unknownEventCodeError(path: path, line: input.lineNumber, type: UInt32(type), code: 0,
                                            context: RecordingError.quote(input.line))
            }
            currentType = EventType(rawValue: UInt16(type))
        } else if scanner.take("Event code ") {
            try endAxis(input)
            guard section == .events, let type = currentType, let code = scanner.unsignedDecimal(maxDigits: 5),
                  scanner.skipSpaces(), scanner.skipParenthesized(), scanner.isAtEndOrTrailingWords() else {
                throw malformed(input, expected: "'Event code <n> (...)' under an 'Event type' line")
            }
            guard EvdevTables.isKnown(type: UInt32(type.rawValue), code: UInt32(code)) else {
                throw unknownEventCodeError(path: path, line: input.lineNumber, type: UInt32(type.rawValue),
                                            code: UInt32(code), context: RecordingError.quote(input.line))
            }
            let eventCode = EventCode(rawValue: UInt16(code))
            // EV_SYN is implied for every device, as in the other formats.
            if type != .syn { codes[type, default: []].insert(eventCode) }
            if type == .abs {
                axisListedAt[eventCode] = input.lineNumber
                currentAxis = (eventCode, input.lineNumber, nil, nil, nil, 0, 0, 0)
            }
        } else if section == .events, currentAxis != nil, let (word, number) = Self.axisValue(&scanner) {
            switch word {
            case "Value": currentAxis!.value = number
            case "Min": currentAxis!.minimum = number
            case "Max": currentAxis!.maximum = number
            case "Fuzz": currentAxis!.fuzz = number
            case "Flat": currentAxis!.flat = number
            default: currentAxis!.resolution = number
            }
        } else if scanner.take("Properties:") {
            try endAxis(input)
            section = .properties
            sawProperties = true
        } else if scanner.take("Property type ") {
            guard section == .properties, let property = scanner.unsignedDecimal(maxDigits: 5), scanner.skipSpaces(),
                  scanner.skipParenthesized(), scanner.isAtEndOrTrailingWords() else {
                throw malformed(input, expected: "'Property type <n> (INPUT_PROP_...)' under 'Properties:'")
            }
            guard property < UInt64(InputProperty.count) else {
                throw RecordingError(path: path, line: input.lineNumber, kind: .unknownEventCode,
                                     expected: "a property up to INPUT_PROP_MAX (0x1f)", found: RecordingError.quote(input.line))
            }
            properties.insert(InputProperty(rawValue: UInt16(property)))
        } else if scanner.take("Key repeat handling:") {
            try endAxis(input)
            section = .repeats
        } else if section == .repeats, scanner.take("Repeat ") || Self.axisValue(&scanner) != nil {
            // The key repeat settings of a keyboard: nothing a touch device needs.
        } else if section == .events, scanner.take("State ") {
            // A key's or switch's state at the start: not read, as evtest's events carry changes.
        } else if scanner.take("Testing ... (interrupt to exit)") {
            try endAxis(input)
            sawTestingLine = true
        } else {
            let where_ = section == .preamble ? "the start of an evtest log ('Input driver version is ...', 'Input device name: \"...\"')"
                                              : Self.deviceGrammar
            throw malformed(input, expected: where_)
        }
    }

    /// `Value 12`, `Min 0`, `Max 1200`, `Fuzz 8`, `Flat 0`, `Resolution 12`: the word and the number.
    private static func axisValue(_ scanner: inout LineScanner) -> (String, Int32)? {
        for word in ["Value", "Min", "Max", "Fuzz", "Flat", "Resolution"] {
            var trial = scanner
            guard trial.take(word: word), trial.skipSpaces(), let number = trial.int32(), trial.isAtEndOrTrailingWords() else {
                continue
            }
            scanner = trial
            return (word, number)
        }
        return nil
    }

    /// Ends the axis being listed: checked as the other readers check an axis (`DescriptionLimits`).
    /// An axis with no `Min` or `Max` (a header cut inside it) is left without a range, which the
    /// description's warnings then name.
    private mutating func endAxis(_ input: LineInput) throws {
        guard let axis = currentAxis else { return }
        currentAxis = nil
        guard let minimum = axis.minimum, let maximum = axis.maximum else { return }
        let info = AbsInfo(value: axis.value ?? 0, minimum: minimum, maximum: maximum, fuzz: axis.fuzz, flat: axis.flat,
                           resolution: axis.resolution)
        warnings[axis.code] = try DescriptionLimits.check(axis: axis.code, info, path: path, line: axis.line)
        absInfo[axis.code] = info
    }

    /// A log must have a header, and a header cut short must still say where touches are: without
    /// position ranges no event can be placed. (A whole header without them is another kind of
    /// device, read as the other formats read one.)
    private func requireDevice(at input: LineInput) throws {
        let positions: [(EventCode, EventCode)] = [(.absMTPositionX, .absMTPositionY), (.absX, .absY)]
        let hasPositions = positions.contains { absInfo[$0.0] != nil && absInfo[$0.1] != nil }
        guard section == .preamble || (!sawTestingLine && !hasPositions) else { return }
        let isAtEvent = EvtestLine.starts(EvtestLine.content(input.line), with: "Event: time ")
        let found: String
        if section == .preamble {
            found = isAtEvent ? "events with no header before them (paste evtest's output from its first line, "
                + "'Input driver version is ...')" : "the end of the file"
        } else {
            found = (isAtEvent ? "the first event" : "the end of the file")
                + " after a header with no position axis ranges (cut short after line \(lastHeaderLine)?)"
        }
        throw RecordingError(path: path, line: isAtEvent ? input.lineNumber : lastHeaderLine + 1, kind: .missingDescription,
                             expected: "the Min and Max of ABS_MT_POSITION_X and ABS_MT_POSITION_Y (or ABS_X and ABS_Y) in "
                                 + "evtest's header", found: found)
    }

    /// `bus 0x18 vendor 0x2 product 0x7 version 0x1b1`.
    private func parseID(_ scanner: inout LineScanner, _ input: LineInput) throws -> InputID {
        var fields = [UInt16]()
        for word in ["bus", "vendor", "product", "version"] {
            guard scanner.skipSpaces(), scanner.take(word: word), scanner.skipSpaces(), scanner.take("0x"),
                  let value = scanner.hex(maxDigits: 4) else {
                throw malformed(input, expected: "'Input device ID: bus 0x<hex> vendor 0x<hex> product 0x<hex> version 0x<hex>'")
            }
            fields.append(UInt16(value))
        }
        return InputID(bustype: fields[0], vendor: fields[1], product: fields[2], version: fields[3])
    }

    /// `"SynPS/2 Synaptics TouchPad"`: from the first quote to the last, as a name may hold quotes.
    private func parseName(_ scanner: inout LineScanner, _ input: LineInput) throws -> String {
        scanner.skipSpaces()
        let rest = UnsafeBufferPointer(rebasing: scanner.bytes[scanner.index...])
        guard rest.first == UInt8(ascii: "\""), let close = rest.lastIndex(of: UInt8(ascii: "\"")), close > rest.startIndex else {
            throw malformed(input, expected: "'Input device name: \"<name>\"'")
        }
        guard let name = String(validating: UnsafeBufferPointer(rebasing: rest[(rest.startIndex + 1)..<close]), as: UTF8.self) else {
            throw RecordingError(path: path, line: input.lineNumber, kind: .binaryData, expected: "a UTF-8 device name",
                                 found: RecordingError.quote(input.line))
        }
        return name
    }

    private func malformed(_ input: LineInput, expected: String) -> RecordingError {
        RecordingError(path: path, line: input.lineNumber, kind: .malformedLine, expected: expected,
                       found: RecordingError.quote(input.line))
    }
}

extension LineScanner {
    /// True when the next bytes are `text`; consumes them.
    @inline(__always)
    mutating func take(_ text: StaticString) -> Bool {
        let matched = text.withUTF8Buffer { expected in
            bytes.count - index >= expected.count
                && memcmp(bytes.baseAddress! + index, expected.baseAddress!, expected.count) == 0
        }
        if matched { index += text.utf8CodeUnitCount }
        return matched
    }

    /// True when the next bytes are `text`; consumes them. For words chosen at run time (the
    /// header's), not for event lines: it is slower than `take(_: StaticString)`.
    mutating func take(word text: String) -> Bool {
        let utf8 = Array(text.utf8)
        guard bytes.count - index >= utf8.count, zip(bytes[index...], utf8).allSatisfy({ $0 == $1 }) else { return false }
        index += utf8.count
        return true
    }

    /// Passes over `(...)`, a name evtest prints after a number (`(ABS_MT_SLOT)`, `(?)`).
    @inline(__always)
    mutating func skipParenthesized() -> Bool {
        guard take(UInt8(ascii: "(")) else { return false }
        while index < bytes.count && bytes[index] != UInt8(ascii: ")") { index += 1 }
        return take(UInt8(ascii: ")"))
    }

    /// True at the end of the line, or before words evtest adds after a header entry
    /// (`Event code 0 (SW_LID) state 0`).
    mutating func isAtEndOrTrailingWords() -> Bool {
        let hadSpace = skipSpaces()
        return isAtEnd || hadSpace
    }
}
