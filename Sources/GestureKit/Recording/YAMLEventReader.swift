import CYAML
import Glibc

/// libyaml's event (streaming) parser over a recording's input: one YAML event at a time, so a
/// recording of any length is read in constant memory. Scalars are read in place, not copied to
/// `String`s, and none may be longer than `valueMaxCharacters`, so a hostile file cannot make the
/// parser hold a huge one.
final class YAMLEventReader {
    enum Kind {
        case streamStart, streamEnd, documentStart, documentEnd
        case sequenceStart, sequenceEnd, mappingStart, mappingEnd
        case scalar, alias, none
    }

    /// The longest scalar (or comment, or run of blank space) between two YAML events, in
    /// characters: as long as the longest line the evemu reader takes (1 MiB).
    static let valueMaxCharacters = LineInput.defaultBufferBytes
    /// The deepest nesting of lists and mappings read. A `libinput record` nests 7 deep (an event's
    /// numbers inside `evdev:` inside an events entry inside `events:` inside a device inside
    /// `devices:` inside the document). libyaml's scanner checks every open level at every token,
    /// so time grows with the square of the depth (100,000 `[` took 23 s): the reader stops at
    /// the first node past this depth, whatever command reads the file.
    static let nestingMax = 64

    let input: LineInput
    var path: String { input.path }
    // libyaml keeps pointers into the parser, so parser and event live at fixed addresses.
    private let parser: UnsafeMutablePointer<yaml_parser_t>
    private let event: UnsafeMutablePointer<yaml_event_t>
    private var holdsEvent = false
    /// What the read handler could not do (a read error, an over-long value), thrown by `next()`.
    private var inputError: RecordingError?
    /// Where the previous event ended (character index), to measure how far the scanner has gone
    /// past it: the size of the value it is reading.
    private var previousEventEndIndex = 0
    /// Line breaks handed to libyaml so far: no line of the input is past `suppliedLineBreaks + 1`.
    private var suppliedLineBreaks = 0

    private(set) var kind = Kind.none
    /// 1-based line of the current event.
    private(set) var line = 0
    /// Lists and mappings open at the current event (counting the one it starts).
    private var nesting = 0

    /// Parses `input` from its current position (the start of the file).
    init(input: LineInput) throws {
        self.input = input
        parser = .allocate(capacity: 1)
        event = .allocate(capacity: 1)
        guard yaml_parser_initialize(parser) == 1 else {
            parser.deallocate()
            event.deallocate()
            throw RecordingError(path: input.path, line: 0, kind: .io, expected: "memory for the YAML parser", found: "none")
        }
        yaml_parser_set_input(parser, { context, buffer, size, sizeRead in
            let reader = Unmanaged<YAMLEventReader>.fromOpaque(context!).takeUnretainedValue()
            return reader.supplyInput(buffer!, size: size, sizeRead: sizeRead!) ? 1 : 0
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        if holdsEvent { yaml_event_delete(event) }
        yaml_parser_delete(parser)
        parser.deallocate()
        event.deallocate()
    }

    /// libyaml's read handler: the next bytes of the input, unless the value being scanned has
    /// grown past `valueMaxCharacters` (libyaml would keep all of it in memory).
    private func supplyInput(_ buffer: UnsafeMutablePointer<UInt8>, size: Int, sizeRead: UnsafeMutablePointer<Int>) -> Bool {
        let scanned = parser.pointee.mark.index - previousEventEndIndex
        if scanned > YAMLEventReader.valueMaxCharacters {
            // The scanner is inside the value now: its line, not the line the previous event ended on.
            inputError = RecordingError(
                path: path, line: lineNumber(parser.pointee.mark), kind: .lineTooLong,
                expected: "a YAML value of at most \(YAMLEventReader.valueMaxCharacters) characters (1 MiB)",
                found: "a longer one")
            return false
        }
        do {
            let count = try input.readBytes(into: buffer, maxCount: size)
            suppliedLineBreaks += UnsafeBufferPointer(start: buffer, count: count).count(where: { $0 == 0x0A })
            sizeRead.pointee = count
            return true
        } catch let error as RecordingError {
            inputError = error
            return false
        } catch {
            return false
        }
    }

    /// Moves to the next YAML event.
    func next() throws {
        if holdsEvent {
            yaml_event_delete(event)
            holdsEvent = false
        }
        guard yaml_parser_parse(parser, event) == 1 else {
            if let inputError { throw inputError }
            throw syntaxError()
        }
        holdsEvent = true
        line = lineNumber(event.pointee.start_mark)
        previousEventEndIndex = event.pointee.end_mark.index
        switch event.pointee.type {
        case YAML_STREAM_START_EVENT: kind = .streamStart
        case YAML_STREAM_END_EVENT: kind = .streamEnd
        case YAML_DOCUMENT_START_EVENT: kind = .documentStart
        case YAML_DOCUMENT_END_EVENT: kind = .documentEnd
        case YAML_SEQUENCE_START_EVENT: kind = .sequenceStart
        case YAML_SEQUENCE_END_EVENT: kind = .sequenceEnd
        case YAML_MAPPING_START_EVENT: kind = .mappingStart
        case YAML_MAPPING_END_EVENT: kind = .mappingEnd
        case YAML_SCALAR_EVENT: kind = .scalar
        case YAML_ALIAS_EVENT: kind = .alias
        default: kind = .none
        }
        switch kind {
        case .sequenceStart, .mappingStart:
            nesting += 1
            guard nesting <= YAMLEventReader.nestingMax else {
                throw RecordingError(path: path, line: line, kind: .malformedLine,
                                     expected: "at most \(YAMLEventReader.nestingMax) nested lists and mappings",
                                     found: "\(foundDescription) nested \(nesting) deep")
            }
        case .sequenceEnd, .mappingEnd: nesting -= 1
        default: break
        }
    }

    /// The 1-based line of `mark`. At the end of a file whose last line has no line break, libyaml
    /// moves its mark to a line after it (a forced new line before the stream's end): that is
    /// the last line, where the problem is.
    private func lineNumber(_ mark: yaml_mark_t) -> Int {
        min(mark.line + 1, suppliedLineBreaks + 1)
    }

    /// libyaml's complaint as `expected ..., found ...`: its problems read "found character that
    /// cannot start any token", "did not find expected key", with a context such as "while
    /// parsing a block mapping" that points at where the construct began.
    private func syntaxError() -> RecordingError {
        let problem = parser.pointee.problem.map { String(cString: $0) } ?? "a YAML error"
        if parser.pointee.error == YAML_READER_ERROR {
            // Bad UTF-8 or a control character: libyaml decodes ahead of its scanner, so the line
            // is the scanner's plus the line breaks it has decoded but not yet scanned.
            let buffer = parser.pointee.buffer
            var line = parser.pointee.mark.line + 1
            if let pointer = buffer.pointer, let last = buffer.last, pointer < last {
                line += UnsafeBufferPointer(start: pointer, count: last - pointer).count(where: { $0 == 0x0A })
            }
            line = min(line, suppliedLineBreaks + 1)
            let isBinary = problem.contains("control characters") || problem.lowercased().contains("utf-8")
                || problem.contains("octet")
            return RecordingError(path: path, line: line, kind: isBinary ? .binaryData : .malformedLine,
                                  expected: isBinary ? "UTF-8 text without control characters" : "well-formed YAML",
                                  found: problem)
        }
        let line = lineNumber(parser.pointee.problem_mark)
        var found: String
        if problem.hasPrefix("found ") {
            found = String(problem.dropFirst("found ".count))
            if found.hasPrefix("character ") { found = "a " + found }
        } else {
            found = "a syntax error (\(problem))"
        }
        var expected = "well-formed YAML"
        if let context = parser.pointee.context.map({ String(cString: $0) }) {
            let contextLine = lineNumber(parser.pointee.context_mark)
            expected += " (\(context)" + (contextLine != line ? " that began on line \(contextLine))" : ")")
        }
        return RecordingError(path: path, line: line, kind: .malformedLine, expected: expected, found: found)
    }

    /// The current scalar's bytes (empty unless `kind == .scalar`).
    var scalar: UnsafeBufferPointer<UInt8> {
        guard kind == .scalar else { return UnsafeBufferPointer(start: nil, count: 0) }
        let data = event.pointee.data.scalar
        return UnsafeBufferPointer(start: data.value, count: data.length)
    }

    /// True when the current scalar was written without quotes (so `null`, `~` and empty are null).
    var isPlainScalar: Bool { kind == .scalar && event.pointee.data.scalar.style == YAML_PLAIN_SCALAR_STYLE }

    var isNull: Bool {
        guard isPlainScalar else { return false }
        let bytes = scalar
        return bytes.isEmpty || scalarIs("~") || scalarIs("null") || scalarIs("Null") || scalarIs("NULL")
    }

    func scalarIs(_ text: StaticString) -> Bool {
        guard kind == .scalar else { return false }
        let bytes = scalar
        return text.withUTF8Buffer { expected in
            expected.count == bytes.count && memcmp(expected.baseAddress!, bytes.baseAddress!, bytes.count) == 0
        }
    }

    var scalarString: String? { kind == .scalar ? String(validating: scalar, as: UTF8.self) : nil }

    /// The current scalar as a decimal integer (libinput writes only decimal), or nil.
    var scalarInteger: Int64? {
        guard kind == .scalar else { return nil }
        let bytes = scalar
        var index = 0
        var negative = false
        if index < bytes.count && (bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+")) {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        guard index < bytes.count, bytes.count - index <= 18 else { return nil }
        var value: Int64 = 0
        while index < bytes.count {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            value = value * 10 + Int64(digit)
            index += 1
        }
        return negative ? -value : value
    }

    /// How the current event reads in a message.
    var foundDescription: String {
        switch kind {
        case .scalar: return RecordingError.quote(scalar)
        case .sequenceStart: return "a list"
        case .mappingStart: return "a mapping"
        case .sequenceEnd: return "the end of a list"
        case .mappingEnd: return "the end of a mapping"
        case .streamEnd, .documentEnd: return "the end of the file"
        case .alias: return "an alias"
        default: return "something else"
        }
    }

    /// Consumes the rest of the node the current event starts (nothing more for a scalar).
    func skipNode() throws {
        guard kind == .sequenceStart || kind == .mappingStart else { return }
        var depth = 1
        while depth > 0 {
            try next()
            switch kind {
            case .sequenceStart, .mappingStart: depth += 1
            case .sequenceEnd, .mappingEnd: depth -= 1
            case .streamEnd, .documentEnd:
                throw RecordingError(path: path, line: line, kind: .malformedLine,
                                     expected: "the end of the open list or mapping", found: "the end of the file")
            default: break
            }
        }
    }
}
