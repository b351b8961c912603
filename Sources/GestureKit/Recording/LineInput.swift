import Glibc
import SystemPackage

/// Reads a recording line by line through one fixed buffer (two more, and their tables of lines, when
/// a large file is read ahead on another thread: `ReadAhead`), so memory stays flat however long the
/// file is and no line is copied into a `String`.
///
/// The file is opened once and read front to back, so a pipe or standard input (`-`) works like a
/// file: format detection looks at the first buffer (`peekAhead`) without consuming it, and the
/// YAML reader takes the same bytes (`readBytes`). The current line is a view into the buffer,
/// valid until the next `advance()`.
final class LineInput {
    /// Large enough that a refill happens every few thousand evemu lines; also the longest line.
    static let defaultBufferBytes = 1 << 20
    /// The path that names standard input on the command line.
    static let standardInputPath = "-"
    /// How messages name standard input.
    static let standardInputName = "<stdin>"
    /// UTF-8's byte order mark, which some editors put at the start of a text file.
    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    private(set) var path: String
    private var fd: FileDescriptor
    /// The buffer lines are read from: `ownBuffer`, or in read-ahead mode one of `readAhead`'s.
    private var buffer: UnsafeMutablePointer<UInt8>
    private let ownBuffer: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    /// Set by `readAheadOnAnotherThread()`: refills take the chunks it read.
    private var readAhead: ReadAhead?
    /// The read-ahead's last chunk came: the end of the file, or the error to throw at the next refill.
    private var readAheadEnded: ReadAhead.Chunk?
    /// The current chunk's canonical event lines the read-ahead thread read (`ReadAhead.ParsedLine`),
    /// and the first not yet passed.
    private var parsedLines: UnsafeMutablePointer<ReadAhead.ParsedLine>?
    private var parsedLineCount = 0
    private var parsedLineCursor = 0
    /// How many lines were taken from the tables of earlier chunks (tests see that they are used).
    private var linesParsedAheadBefore = 0
    /// How many lines were taken from the tables: counted at each chunk, not each line.
    var linesParsedAhead: Int { linesParsedAheadBefore + parsedLineCursor }
    /// Files smaller than this are read on the parsing thread (`readAheadOnAnotherThread()`):
    /// a thread is not worth starting for a few buffers.
    var readAheadMinimumFileBytes = 4 * LineInput.defaultBufferBytes
    private var start = 0
    private var end = 0
    private var atEndOfFile = false
    /// Whether the buffered bytes hold a NUL: checked once per refill, so lines are searched for
    /// one only in a file that has any.
    private var bufferHasNul = false
    /// While set, every byte handed out is also written here, so an unseekable input (a pipe) can
    /// be read again from the start (`rewind()`). An unlinked temporary file.
    private var copyFD: FileDescriptor?
    /// Where the file was when it was opened: 0, or further on for standard input that a shell
    /// had already read from. `rewind()` returns there.
    private var startOffset: Int64 = 0
    /// Where `buffer[0]` is in the file, counted from where reading began (`startOffset`).
    private var bufferOffset: Int64 = 0
    /// How many bytes before the current position a refill keeps. 0 (the evemu readers): none. The
    /// libinput record reader keeps some, to step back over bytes it handed to libyaml (`move(to:)`).
    var retainedBytesBehind = 0

    /// 1-based number of the current line, 0 before the first.
    private(set) var lineNumber = 0
    /// The current line without its `\n` (and without a `\r` before it).
    private(set) var line = UnsafeBufferPointer<UInt8>(start: nil, count: 0)

    init(path: String, bufferBytes: Int = LineInput.defaultBufferBytes) throws {
        self.path = LineInput.displayName(path)
        fd = try LineInput.openForReading(path)
        capacity = bufferBytes
        ownBuffer = .allocate(capacity: bufferBytes)
        buffer = ownBuffer
        startOffset = (try? fd.seek(offset: 0, from: .current)) ?? 0
    }

    /// `path` as messages name it: standard input as `<stdin>`.
    static func displayName(_ path: String) -> String {
        path == standardInputPath ? standardInputName : path
    }

    /// Opens `path` (`-`: a duplicate of standard input). A directory is refused here, as a
    /// problem of the whole file rather than of its first line.
    private static func openForReading(_ path: String) throws -> FileDescriptor {
        let name = displayName(path)
        let fd: FileDescriptor
        do {
            fd = path == standardInputPath ? try FileDescriptor.standardInput.duplicateCloseOnExec() : try FileDescriptor.openInput(path)
        } catch where error.kind == .interrupted {
            // Only a FIFO's open waits (for a writer); SIGINT/SIGTERM asked to stop first.
            throw RecordingError.system(.reading, path: name, line: 0, expected: "a writer to open the FIFO before the stop",
                                        errno: error)
        } catch {
            throw RecordingError.system(.reading, path: name, line: 0, expected: "a readable file", errno: error)
        }
        if (try? fd.stat())?.type == .directory {
            try? fd.close()
            throw RecordingError(path: name, line: 0, kind: .io, expected: "a recording file", found: "a directory",
                                 systemFailure: .init(operation: .reading, errno: .isDirectory))
        }
        return fd
    }

    /// Continues with another file (the `.events` half of a split evemu recording), from its line 1.
    func switchTo(path newPath: String) throws {
        precondition(readAhead == nil, "a file read ahead is read to its end (EvemuReader reads ahead after the switch)")
        let newFD = try LineInput.openForReading(newPath)
        try? fd.close()
        fd = newFD
        path = LineInput.displayName(newPath)
        resetBuffer()
    }

    private func resetBuffer() {
        start = 0
        end = 0
        bufferOffset = 0
        atEndOfFile = false
        bufferHasNul = false
        lineNumber = 0
        line = UnsafeBufferPointer(start: nil, count: 0)
    }

    deinit {
        readAhead?.stop()
        ownBuffer.deallocate()
        try? fd.close()
        try? copyFD?.close()
    }

    /// Moves to the next line; false at the end of the file.
    /// Throws on a read error, a NUL byte, or a line that does not fit the buffer.
    func advance() throws -> Bool {
        while true {
            // A line and its newline fit in `capacity` bytes. Reading ahead, the buffer holds more
            // (the carried-over line and a whole chunk), so the search stops there as the buffer did.
            let searched = min(end - start, capacity)
            if searched > 0, let newline = memchr(buffer + start, 0x0A, searched) {
                let newlineIndex = newline.assumingMemoryBound(to: UInt8.self) - buffer
                try takeLine(upTo: newlineIndex)
                start = newlineIndex + 1
                return true
            }
            if searched == capacity { throw lineTooLong }
            if atEndOfFile {
                guard start < end else { return false }
                try takeLine(upTo: end)
                start = end
                return true
            }
            try refill()
        }
    }

    /// Takes the next line as `advance()` would when it is a canonical evemu event line (the fields
    /// at their fixed places, then the newline, or spaces or tabs and the newline or a comment up
    /// to it) lying wholly in the buffer, and returns its fields; else takes nothing and returns
    /// nil (the caller goes on with `advance()`). One scan reads the fields and finds the line's
    /// end: no `memchr` first. Never the first line (which may begin with a byte order mark) nor in
    /// a buffer holding a NUL (`advance()` words that error). The line is cut as `advance()` cuts
    /// it: without its `\n` and a `\r` before it.
    @inline(__always)
    func takeCanonicalEventLine() -> CanonicalEventLine? {
        guard lineNumber > 0, !bufferHasNul else { return nil }
        if let parsed = takeParsedLine() { return parsed }
        guard let (fields, length, newline) = CanonicalEventLine.line(at: buffer + start, available: min(end - start, capacity))
        else { return nil }
        lineNumber += 1
        line = UnsafeBufferPointer(start: buffer + start, count: length)
        start += newline + 1
        return fields
    }

    /// The line at `start` from the read-ahead thread's table (`ReadAhead.ParsedLine`), taken as
    /// `takeCanonicalEventLine()` takes it; nil when the table does not have it.
    @inline(__always)
    private func takeParsedLine() -> CanonicalEventLine? {
        guard parsedLineCount > 0, let table = parsedLines else { return nil }
        while parsedLineCursor < parsedLineCount && Int(table[parsedLineCursor].offset) < start { parsedLineCursor += 1 }
        guard parsedLineCursor < parsedLineCount, Int(table[parsedLineCursor].offset) == start else { return nil }
        let entry = table[parsedLineCursor]
        parsedLineCursor += 1
        lineNumber += 1
        line = UnsafeBufferPointer(start: buffer + start, count: Int(entry.length))
        start = Int(entry.next)
        return entry.fields
    }

    /// The next line does not fit the buffer.
    private var lineTooLong: RecordingError {
        RecordingError(path: path, line: lineNumber + 1, kind: .lineTooLong,
                       expected: "a line shorter than \(capacity) bytes", found: "a longer line")
    }

    private func takeLine(upTo lineEnd: Int) throws {
        lineNumber += 1
        var lineStart = start
        if lineNumber == 1 && lineEnd - start >= 3 && buffer[start] == 0xEF && buffer[start + 1] == 0xBB
            && buffer[start + 2] == 0xBF {
            lineStart += 3 // an editor's byte order mark, not part of the text
        }
        var length = lineEnd - lineStart
        if length > 0 && buffer[lineStart + length - 1] == 0x0D { length -= 1 }
        line = UnsafeBufferPointer(start: buffer + lineStart, count: length)
        if bufferHasNul, length > 0, memchr(buffer + lineStart, 0, length) != nil {
            throw RecordingError(path: path, line: lineNumber, kind: .binaryData,
                                 expected: "a text line", found: "a NUL byte in \(RecordingError.quote(line))")
        }
    }

    private func refill() throws {
        if let readAhead { return try refill(from: readAhead) }
        let keptFrom = max(0, start - retainedBytesBehind)
        if keptFrom > 0 {
            memmove(buffer, buffer + keptFrom, end - keptFrom)
            end -= keptFrom
            start -= keptFrom
            bufferOffset += Int64(keptFrom)
        }
        guard end < capacity else { throw lineTooLong }
        let count = try readFromFile(into: buffer + end, maxCount: capacity - end)
        if count == 0 { atEndOfFile = true } else { end += count }
        bufferHasNul = memchr(buffer, 0, end) != nil
    }

    // MARK: Reading ahead on another thread

    /// From here on, the file is read by another thread ahead of the lines (`ReadAhead`), when it
    /// is a regular file of at least `readAheadMinimumFileBytes`, and nothing needs the bytes behind
    /// the current position (no `retainedBytesBehind`, no copy for `rewind()`). Lines, their
    /// numbers and every error stay as they are.
    func readAheadOnAnotherThread() {
        guard readsAheadWhenWorthIt, readAhead == nil, isWorthReadingAhead else { return }
        readAhead = ReadAhead(fd: fd, chunkBytes: capacity)
    }

    /// False when the whole reader runs on a thread of its own (`EventReadAhead`), which then reads
    /// the lines itself: a third thread only added the handing over of each line.
    var readsAheadWhenWorthIt = true

    /// A regular file of at least `readAheadMinimumFileBytes`, nothing needing the bytes behind
    /// the current position: reading it never waits for a writer, and a thread pays for itself.
    var isWorthReadingAhead: Bool {
        !atEndOfFile && isWorthReadingAhead(try? fd.stat())
    }

    /// The same of the file at `path`, which `switchTo(path:)` will read next.
    func isWorthReadingAhead(path: String) -> Bool {
        path != "-" && isWorthReadingAhead(try? FilePath(path).stat())
    }

    private func isWorthReadingAhead(_ status: Stat?) -> Bool {
        guard copyFD == nil, retainedBytesBehind == 0, let status, status.type == .regular else { return false }
        return status.size >= Int64(readAheadMinimumFileBytes)
    }

    var readsAhead: Bool { readAhead != nil }

    /// Takes the next chunk the read-ahead thread read, with the unfinished line at the end of the
    /// current buffer moved in front of it, and gives the current buffer back to be filled again.
    private func refill(from readAhead: ReadAhead) throws {
        let tail = end - start
        guard tail < capacity else { throw lineTooLong }
        var chunk = readAheadEnded ?? readAhead.next()
        if let next = chunk.buffer {
            let newStart = readAhead.headroom - tail
            (next + newStart).update(from: buffer + start, count: tail)
            let tailHasNul = bufferHasNul && tail > 0 && memchr(buffer + start, 0, tail) != nil
            if buffer != ownBuffer { readAhead.recycle(buffer) }
            // The chunk's first byte is where the file was at the old buffer's end.
            bufferOffset += Int64(end) - Int64(readAhead.headroom)
            buffer = next
            start = newStart
            end = readAhead.headroom + chunk.count
            bufferHasNul = chunk.hasNul || tailHasNul
            linesParsedAheadBefore += parsedLineCursor
            parsedLines = chunk.parsed
            parsedLineCount = chunk.parsedCount
            parsedLineCursor = 0
            return
        }
        // The end, kept so that no later refill waits for another; its error is thrown once.
        let error = chunk.error
        chunk.error = nil
        readAheadEnded = chunk
        if let error {
            throw RecordingError.system(.reading, path: path, line: lineNumber + 1, expected: "readable data", errno: error)
        }
        atEndOfFile = true
    }

    private func readFromFile(into destination: UnsafeMutablePointer<UInt8>, maxCount: Int) throws -> Int {
        do {
            return try fd.readUnlessStopping(into: UnsafeMutableRawBufferPointer(start: destination, count: maxCount))
        } catch {
            throw RecordingError.system(.reading, path: path, line: lineNumber + 1, expected: "readable data", errno: error)
        }
    }

    // MARK: Looking ahead, and bytes for a parser of its own

    /// Calls `decide` with the bytes from the start of the file, reading more each time it
    /// returns nil, until it returns a value. `isComplete` is true when no more will come: the
    /// end of the file, or a full buffer. Nothing is consumed; call before anything else.
    func peekAhead<T>(_ decide: (_ bytes: UnsafeBufferPointer<UInt8>, _ isComplete: Bool) throws -> T?) throws -> T {
        precondition(start == 0 && lineNumber == 0, "peekAhead reads from the start of the file")
        while true {
            let isComplete = atEndOfFile || end == capacity
            if let decision = try decide(UnsafeBufferPointer(start: buffer, count: end), isComplete) {
                return decision
            }
            precondition(!isComplete, "peekAhead needs a decision once the bytes are complete")
            try refill()
        }
    }

    /// Copies the next bytes of the file (from the start, or after what lines or earlier calls
    /// consumed) to `destination`, as a parser with its own buffer (libyaml) wants them; 0 at
    /// the end of the file.
    /// The bytes pass through the buffer, so the last `retainedBytesBehind` of them can be read
    /// again as lines (`move(to:)`).
    func readBytes(into destination: UnsafeMutablePointer<UInt8>, maxCount: Int) throws -> Int {
        if start == end {
            if atEndOfFile { return 0 }
            try refill()
            if start == end { return 0 }
        }
        let count = min(end - start, maxCount)
        destination.update(from: buffer + start, count: count)
        start += count
        if let copyFD { try writeCopy(destination, count: count, to: copyFD) }
        return count
    }

    // MARK: Positions, for a reader that shares the input with a parser of its own

    /// Where the next byte handed out (by `readBytes` or in the next line) is, counted from where
    /// reading began.
    var offset: Int64 { bufferOffset + Int64(start) }

    /// The buffered bytes from the current position on (valid until the next `advance()`,
    /// `readBytes` or `bufferAhead`).
    var bufferedAhead: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: buffer + start, count: end - start) }

    /// Every byte in the buffer, before and after the current position, and where the first is.
    var buffered: (bytes: UnsafeBufferPointer<UInt8>, offset: Int64) {
        (UnsafeBufferPointer(start: buffer, count: end), bufferOffset)
    }

    /// Whether the whole rest of the file is buffered.
    var hasBufferedToEnd: Bool { atEndOfFile }

    /// Reads until at least `count` bytes past the current position are buffered, or the file ends.
    /// `count` must leave room in the buffer for `retainedBytesBehind`.
    func bufferAhead(_ count: Int) throws {
        while end - start < count && !atEndOfFile { try refill() }
    }

    /// Continues at `offset`, a byte still buffered (at most `retainedBytesBehind` before the
    /// current position, or buffered after it), the next line numbered `lineNumber + 1`. False,
    /// and nothing changed, when that byte is not buffered.
    func move(to offset: Int64, lineNumber: Int) -> Bool {
        let index = offset - bufferOffset
        guard index >= 0, index <= Int64(end) else { return false }
        start = Int(index)
        self.lineNumber = lineNumber
        line = UnsafeBufferPointer(start: nil, count: 0)
        return true
    }

    /// Whether the input is a regular file: each read then returns all it asks for, up to the end.
    var isRegularFile: Bool { (try? fd.stat())?.type == .regular }

    // MARK: Reading again from the start

    /// Whether the file can be read again from its start by seeking (a regular file or a block
    /// device, unlike a pipe or a terminal).
    private var isSeekable: Bool {
        guard let type = (try? fd.stat())?.type, type == .regular || type == .blockSpecial else { return false }
        return (try? fd.seek(offset: 0, from: .current)) != nil
    }

    /// Prepares `rewind()` for an unseekable input: from here every byte read is also kept in an
    /// unlinked temporary file (on disk, not in memory), until `stopKeepingCopy()`. Call before
    /// reading anything with `readBytes` (the look-ahead buffer is still whole then).
    func keepCopyForRewind() throws {
        guard copyFD == nil, !isSeekable else { return }
        precondition(start == 0, "the copy must begin at the start of the file")
        let directory = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        let template = "\(directory)/pinchlab-input-XXXXXX"
        do {
            let (copy, copyPath) = try FileDescriptor.openTemporary(template: template)
            unlink(copyPath)
            copyFD = copy
        } catch {
            throw RecordingError.system(.writing, path: template, line: 0,
                                        expected: "a temporary copy of \(path) to read it twice", errno: error)
        }
    }

    /// Drops the copy `keepCopyForRewind()` started: the input will not be read again.
    func stopKeepingCopy() {
        guard let copyFD else { return }
        try? copyFD.close()
        self.copyFD = nil
    }

    private func writeCopy(_ bytes: UnsafeMutablePointer<UInt8>, count: Int, to copy: FileDescriptor) throws {
        do {
            try copy.writeAll(from: UnsafeRawBufferPointer(start: bytes, count: count))
        } catch {
            throw RecordingError.system(.writing, path: path, line: 0,
                                        expected: "room for a temporary copy of the input (in $TMPDIR)", errno: error)
        }
    }

    /// Starts again at the first byte read: by seeking, or for a pipe from the copy
    /// `keepCopyForRewind()` kept (the rest of the pipe is copied first).
    func rewind() throws {
        precondition(readAhead == nil, "a file read ahead is not read again (only EvemuReader reads ahead, and never rewinds)")
        if let copy = copyFD {
            let chunk = UnsafeMutablePointer<UInt8>.allocate(capacity: 1 << 16)
            defer { chunk.deallocate() }
            while try readBytes(into: chunk, maxCount: 1 << 16) > 0 {}
            try? fd.close()
            fd = copy
            copyFD = nil
            startOffset = 0
        }
        do {
            _ = try Errno.catching { try fd.seek(offset: startOffset, from: .start) }
        } catch {
            throw RecordingError.system(.reading, path: path, line: 0, expected: "a file that can be read twice", errno: error)
        }
        resetBuffer()
    }
}

/// A cursor over one line's bytes with the few number grammars the evemu format uses.
struct LineScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var index: Int

    init(_ bytes: UnsafeBufferPointer<UInt8>, from index: Int = 0) {
        self.bytes = bytes
        self.index = index
    }

    @inline(__always) var isAtEnd: Bool { index >= bytes.count }

    @inline(__always) static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    /// Skips spaces and tabs; returns whether there were any.
    @inline(__always) @discardableResult
    mutating func skipSpaces() -> Bool {
        let before = index
        while index < bytes.count && LineScanner.isSpace(bytes[index]) { index += 1 }
        return index != before
    }

    /// True when only spaces and an optional `#` comment are left.
    @inline(__always)
    mutating func isAtEndOrComment() -> Bool {
        skipSpaces()
        return index >= bytes.count || bytes[index] == UInt8(ascii: "#")
    }

    /// 1 to `maxDigits` hexadecimal digits.
    @inline(__always)
    mutating func hex(maxDigits: Int) -> UInt32? {
        var value: UInt32 = 0
        var digits = 0
        while index < bytes.count && digits < maxDigits {
            let byte = bytes[index]
            let nibble: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = byte &- UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = byte &- UInt8(ascii: "a") &+ 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = byte &- UInt8(ascii: "A") &+ 10
            default: return digits > 0 && !isHexDigitAhead ? value : nil
            }
            value = value << 4 | UInt32(nibble)
            digits += 1
            index += 1
        }
        return digits > 0 && !isHexDigitAhead ? value : nil
    }

    private var isHexDigitAhead: Bool {
        guard index < bytes.count else { return false }
        switch bytes[index] {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
             UInt8(ascii: "A")...UInt8(ascii: "F"): return true
        default: return false
        }
    }

    /// Unsigned decimal, 1 to `maxDigits` digits, no sign.
    @inline(__always)
    mutating func unsignedDecimal(maxDigits: Int) -> UInt64? {
        var value: UInt64 = 0
        var digits = 0
        while index < bytes.count {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            guard digits < maxDigits else { return nil }
            value = value &* 10 &+ UInt64(digit)
            digits += 1
            index += 1
        }
        return digits > 0 ? value : nil
    }

    /// A signed decimal that fits `Int32`, with optional `+`/`-` (as `%d` reads it).
    @inline(__always)
    mutating func int32() -> Int32? {
        var negative = false
        if index < bytes.count && (bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+")) {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        // 10 digits plus leading zeros (`-001`) are allowed; the range check does the rest.
        guard let magnitude = unsignedDecimal(maxDigits: 18) else { return nil }
        let value = negative ? -Int64(magnitude) : Int64(magnitude)
        guard value >= Int64(Int32.min) && value <= Int64(Int32.max) else { return nil }
        return Int32(value)
    }

    /// True when the next byte is `byte`; consumes it.
    @inline(__always)
    mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count && bytes[index] == byte else { return false }
        index += 1
        return true
    }
}
