import CYAML
import Glibc

/// libyaml's event (streaming) parser over a file: one YAML event at a time, so a recording of
/// any length is read in constant memory. Scalars are read in place, not copied to `String`s.
final class YAMLEventReader {
    enum Kind {
        case streamStart, streamEnd, documentStart, documentEnd
        case sequenceStart, sequenceEnd, mappingStart, mappingEnd
        case scalar, alias, none
    }

    let path: String
    private let file: UnsafeMutablePointer<FILE>
    // libyaml keeps pointers into the parser, so parser and event live at fixed addresses.
    private let parser: UnsafeMutablePointer<yaml_parser_t>
    private let event: UnsafeMutablePointer<yaml_event_t>
    private var holdsEvent = false

    private(set) var kind = Kind.none
    /// 1-based line of the current event.
    private(set) var line = 0

    init(path: String) throws {
        self.path = path
        guard let file = fopen(path, "rb") else {
            throw RecordingError.system(.reading, path: path, line: 0, expected: "a readable file")
        }
        self.file = file
        parser = .allocate(capacity: 1)
        event = .allocate(capacity: 1)
        guard yaml_parser_initialize(parser) == 1 else {
            fclose(file)
            parser.deallocate()
            event.deallocate()
            throw RecordingError(path: path, line: 0, kind: .io, expected: "memory for the YAML parser", found: "none")
        }
        yaml_parser_set_input_file(parser, file)
    }

    deinit {
        if holdsEvent { yaml_event_delete(event) }
        yaml_parser_delete(parser)
        parser.deallocate()
        event.deallocate()
        fclose(file)
    }

    /// Moves to the next YAML event.
    func next() throws {
        if holdsEvent {
            yaml_event_delete(event)
            holdsEvent = false
        }
        guard yaml_parser_parse(parser, event) == 1 else {
            let problem = parser.pointee.problem.map { String(cString: $0) } ?? "a YAML error"
            // Reader errors (bad UTF-8, control characters) come with a byte offset, not a mark.
            let line = parser.pointee.error == YAML_READER_ERROR
                ? lineNumber(atByteOffset: parser.pointee.problem_offset)
                : parser.pointee.problem_mark.line + 1
            let isBinary = problem.contains("control characters") || problem.contains("UTF-8")
                || problem.contains("utf-8") || problem.contains("octet")
            throw RecordingError(path: path, line: line, kind: isBinary ? .binaryData : .malformedLine,
                                 expected: isBinary ? "UTF-8 text without control characters" : "well-formed YAML",
                                 found: problem)
        }
        holdsEvent = true
        line = event.pointee.start_mark.line + 1
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
    }

    /// 1-based line holding byte `offset` of the file (error path only: reads the file again).
    private func lineNumber(atByteOffset offset: Int) -> Int {
        guard let again = fopen(path, "rb") else { return 0 }
        defer { fclose(again) }
        var line = 1
        for _ in 0..<offset {
            let byte = fgetc(again)
            if byte == EOF { break }
            if byte == 0x0A { line += 1 }
        }
        return line
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
