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
    /// Bytes `LineInput` keeps before its position for a regular file: more than one of libyaml's
    /// reads (16 KiB) and a line.
    static let retainedBytes = 64 << 10

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
    private(set) var suppliedLineBreaks = 0
    /// Whether each read libyaml asks for is filled in full (up to the end of the file): for a
    /// regular file. Where libyaml's raw chunks begin and end then depends only on the bytes, so
    /// the libinput record reader can read a stretch of lines itself and give libyaml the rest as
    /// libyaml would have read it (`YAMLStandIn`). A pipe's reads return what has arrived, as
    /// before, so a recording that is still being written is read as it comes.
    let fillsEachRead: Bool
    /// Whether a byte handed to libyaml so far may be part of a line break other than `\n` (`\r`,
    /// NEL, LS, PS): libyaml counts those as lines too, so line numbers would no longer be counts
    /// of `\n`. A byte that may only be part of one at a read's edge counts. Known only for a
    /// regular file (`fillsEachRead`), and only up to `stopNotingLineBreaks()`.
    var sawOtherLineBreak: Bool {
        assert(notesLineBreaks, "line breaks are noted for a regular file, until stopNotingLineBreaks()")
        return sawOtherLineBreakNoted
    }
    private var sawOtherLineBreakNoted = false
    /// Whether reads are searched for other line breaks: only the libinput record reader's choice
    /// of reading the events list itself needs them, once, for a regular file.
    private var notesLineBreaks: Bool
    /// The largest read libyaml has asked for: its raw buffer's size, so its reads from a regular
    /// file end at multiples of it while every byte is ASCII.
    private(set) var readSize = 0
    /// What libyaml reads next instead of the file, after the libinput record reader's own scanner
    /// gave the rest back (`resume(with:)`).
    private var standIn: YAMLStandIn?
    /// Where the first read from the file again must end (see `YAMLStandIn.firstReadEnd`).
    private var firstReadEnd: Int64?
    /// The lines the scanner read that libyaml did not see (see `YAMLStandIn.Region`).
    private var skippedRegion: YAMLStandIn.Region?

    private(set) var kind = Kind.none
    /// 1-based line of the current event.
    private(set) var line = 0
    /// Lists and mappings open at the current event (counting the one it starts).
    private var nesting = 0

    /// Parses `input` from its current position (the start of the file).
    init(input: LineInput) throws {
        self.input = input
        fillsEachRead = input.isRegularFile
        notesLineBreaks = fillsEachRead
        // Enough for the libinput record reader to step back from where libyaml stopped reading
        // to the start of the line libyaml's events list began on (at most one read and a line).
        if fillsEachRead { input.retainedBytesBehind = YAMLEventReader.retainedBytes }
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
        let mark = parser.pointee.mark.index
        var valueStart = previousEventEndIndex
        var checksLength = true
        if let region = skippedRegion {
            // Inside the lines left out the real stream had an event on every line or so; after
            // them, measure from where its last event there ended.
            if mark < region.endIndex {
                checksLength = false
            } else if previousEventEndIndex < region.endIndex {
                valueStart = region.lastEventEndIndex
            }
        }
        if checksLength, mark - valueStart > YAMLEventReader.valueMaxCharacters {
            // The scanner is inside the value now: its line, not the line the previous event ended on.
            inputError = RecordingError(
                path: path, line: lineNumber(parser.pointee.mark), kind: .lineTooLong,
                expected: "a YAML value of at most \(YAMLEventReader.valueMaxCharacters) characters (1 MiB)",
                found: "a longer one")
            return false
        }
        readSize = max(readSize, size)
        do {
            var count = 0
            if standIn != nil {
                count = standIn!.write(into: buffer, maxCount: size)
                if standIn!.isExhausted { standIn = nil }
            }
            while standIn == nil && count < size {
                if let end = firstReadEnd, input.offset >= end { firstReadEnd = nil }
                let limit = firstReadEnd.map { min(size - count, Int($0 - input.offset)) } ?? size - count
                let read = try input.readBytes(into: buffer + count, maxCount: limit)
                noteLineBreaks(UnsafeBufferPointer(start: buffer + count, count: read))
                count += read
                if read == 0 || !fillsEachRead { break }
                if let end = firstReadEnd, input.offset >= end {
                    // This read ends where the real stream's did; the next ones are whole again.
                    firstReadEnd = nil
                    break
                }
            }
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

    /// The UTF-8 line breaks other than `\n` and `\r`, each as its last byte and the bytes before
    /// it, nearest first: NEL is C2 85; LS and PS are E2 80 A8 and E2 80 A9.
    private static let multiByteLineBreaks: [(last: UInt8, before: [UInt8])] = [
        (0x85, [0xC2]), (0xA8, [0x80, 0xE2]), (0xA9, [0x80, 0xE2]),
    ]

    /// Notes a line break other than `\n` in bytes read from the file (see `sawOtherLineBreak`).
    private func noteLineBreaks(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard notesLineBreaks, !sawOtherLineBreakNoted, let base = bytes.baseAddress, !bytes.isEmpty else { return }
        if memchr(base, 0x0D, bytes.count) != nil { sawOtherLineBreakNoted = true; return }
        for (last, before) in Self.multiByteLineBreaks {
            var from = 0
            while from < bytes.count, let found = memchr(base + from, Int32(last), bytes.count - from) {
                let index = UnsafePointer(found.assumingMemoryBound(to: UInt8.self)) - base
                if index < before.count { sawOtherLineBreakNoted = true; return }
                if before.enumerated().allSatisfy({ bytes[index - 1 - $0.offset] == $0.element }) {
                    sawOtherLineBreakNoted = true
                    return
                }
                from = index + 1
            }
        }
    }

    /// Ends the search for other line breaks (`sawOtherLineBreak`): called once the events list is
    /// reached and the reader has decided who reads it, after which nothing asks.
    func stopNotingLineBreaks() {
        notesLineBreaks = false
    }

    /// Continues after the libinput record reader's own scanner gave the rest of the file back:
    /// libyaml reads `standIn`, then the file from `standIn.fileOffset` (where `input` must be).
    func resume(with standIn: YAMLStandIn) {
        self.standIn = standIn.isExhausted ? nil : standIn
        firstReadEnd = standIn.firstReadEnd
        skippedRegion = standIn.region
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
            openNodes.append(OpenNode(isMapping: kind == .mappingStart, firstKey: keys.count, firstKeyByte: keyBytes.count))
        case .sequenceEnd, .mappingEnd:
            nesting -= 1
            if let node = openNodes.popLast() {
                keys.removeLast(keys.count - node.firstKey)
                keyBytes.removeLast(keyBytes.count - node.firstKeyByte)
            }
            nodeEnded()
        case .scalar:
            if let node = openNodes.last, node.isMapping, node.expectsKey { try noteKey() }
            nodeEnded()
        case .alias:
            nodeEnded()
        default: break
        }
    }

    // MARK: Unique keys

    /// The lists and mappings open at the current event, outermost first (as `nesting` counts them).
    private var openNodes: [OpenNode] = []
    /// The scalar keys of the open mappings, each mapping's after its parent's: what a key is
    /// compared with. Kept only while their mapping is open, so a recording's events (a mapping
    /// of one key each) keep none.
    private var keys: [MappingKey] = []
    /// The bytes of `keys`, one after another.
    private var keyBytes: [UInt8] = []

    private struct OpenNode {
        var isMapping: Bool
        /// For a mapping: its next node is a key (else a key's value).
        var expectsKey = true
        /// Where its keys begin in `keys` and `keyBytes`.
        var firstKey: Int
        var firstKeyByte: Int
        /// Its keys' positions in `keys` by hash, made once it has more than `keysScannedMax`
        /// (a hostile mapping of many keys is not compared key by key with every other).
        var keysByHash: [Int: [Int]]?
    }

    /// A key: its hash (of whether it is an integer, and its bytes) and where its bytes are: an
    /// integer's value, or the text's UTF-8.
    private struct MappingKey {
        var hash: Int
        var isInteger: Bool
        var start: Int
        var count: Int
        var line: Int
    }

    /// Keys compared one by one; a mapping with more is looked up by hash.
    static let keysScannedMax = 16

    /// The current node, a scalar, an alias or a list or mapping that just closed, is whole: in a
    /// mapping, a key is followed by its value and a value by the next key.
    @inline(__always) private func nodeEnded() {
        guard !openNodes.isEmpty, openNodes[openNodes.count - 1].isMapping else { return }
        openNodes[openNodes.count - 1].expectsKey.toggle()
    }

    /// Notes the current scalar as a key of the innermost mapping; a key that mapping has already
    /// is an error at its line. YAML requires a mapping's keys to be unique, and a reader that took
    /// one of two `events:` (or `name:`, or an axis of `absinfo:`) would read another recording
    /// than the file says. A key is compared as the reader reads it: an integer by its value
    /// (`0`, `00` and `+0` are one axis), anything else by its text (`"name"` and `name` are one key).
    /// Keys that are lists, mappings or aliases are not compared: no reader uses one.
    private func noteKey() throws {
        let start = keyBytes.count
        let integer = scalarInteger
        if let integer {
            withUnsafeBytes(of: integer) { keyBytes.append(contentsOf: $0) }
        } else {
            keyBytes.append(contentsOf: scalar)
        }
        let count = keyBytes.count - start
        var hasher = Hasher()
        hasher.combine(integer != nil)
        keyBytes.withUnsafeBufferPointer { hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: $0[start..<start + count]))) }
        let key = MappingKey(hash: hasher.finalize(), isInteger: integer != nil, start: start, count: count, line: line)
        let nodeIndex = openNodes.count - 1
        let node = openNodes[nodeIndex]
        func isSame(_ other: MappingKey) -> Bool {
            other.hash == key.hash && other.isInteger == key.isInteger && other.count == key.count
                && keyBytes[other.start..<other.start + other.count].elementsEqual(keyBytes[start..<start + count])
        }
        let earlier: MappingKey?
        if let byHash = node.keysByHash {
            earlier = byHash[key.hash]?.lazy.map { self.keys[$0] }.first(where: isSame)
        } else {
            earlier = keys[node.firstKey...].first(where: isSame)
        }
        if let earlier {
            throw RecordingError(path: path, line: line, kind: .malformedLine,
                                 expected: "each key once in a mapping (YAML keys are unique)",
                                 found: "\(foundDescription) again (first on line \(earlier.line))")
        }
        keys.append(key)
        if node.keysByHash != nil {
            openNodes[nodeIndex].keysByHash![key.hash, default: []].append(keys.count - 1)
        } else if keys.count - node.firstKey > YAMLEventReader.keysScannedMax {
            var byHash: [Int: [Int]] = [:]
            for index in node.firstKey..<keys.count { byHash[keys[index].hash, default: []].append(index) }
            openNodes[nodeIndex].keysByHash = byHash
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

    /// The 0-based column where the current event starts.
    var column: Int { event.pointee.start_mark.column }

    /// libyaml's character index where the current event starts (a byte order mark not counted).
    var characterIndex: Int { event.pointee.start_mark.index }

    /// True when the current event starts a block-style list (`- ` items, not `[...]`).
    var isBlockSequenceStart: Bool {
        kind == .sequenceStart && event.pointee.data.sequence_start.style == YAML_BLOCK_SEQUENCE_STYLE
    }

    /// Whether libyaml reads the input as UTF-8 (not UTF-16, which a byte order mark can ask for).
    var readsUTF8: Bool { parser.pointee.encoding == YAML_UTF8_ENCODING }

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
