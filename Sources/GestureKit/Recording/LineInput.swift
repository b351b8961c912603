import Glibc

/// Reads a text file line by line through one fixed buffer, so memory stays flat however long the
/// file is and no line is copied into a `String`.
///
/// The current line is a view into the buffer, valid until the next `advance()`.
final class LineInput {
    /// Large enough that a refill happens every few thousand evemu lines.
    static let defaultBufferBytes = 1 << 20

    private(set) var path: String
    private var fd: Int32
    private let buffer: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    private var start = 0
    private var end = 0
    private var atEndOfFile = false
    /// Whether the buffered bytes hold a NUL: checked once per refill, so lines are searched for
    /// one only in a file that has any.
    private var bufferHasNul = false

    /// 1-based number of the current line, 0 before the first.
    private(set) var lineNumber = 0
    /// The current line without its `\n` (and without a `\r` before it).
    private(set) var line = UnsafeBufferPointer<UInt8>(start: nil, count: 0)

    init(path: String, bufferBytes: Int = LineInput.defaultBufferBytes) throws {
        self.path = path
        fd = try LineInput.openForReading(path)
        capacity = bufferBytes
        buffer = .allocate(capacity: bufferBytes)
    }

    private static func openForReading(_ path: String) throws -> Int32 {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw RecordingError.system(.reading, path: path, line: 0, expected: "a readable file")
        }
        return fd
    }

    /// Continues with another file (the `.events` half of a split evemu recording), from its line 1.
    func switchTo(path newPath: String) throws {
        let newFD = try LineInput.openForReading(newPath)
        close(fd)
        fd = newFD
        path = newPath
        start = 0
        end = 0
        atEndOfFile = false
        bufferHasNul = false
        lineNumber = 0
        line = UnsafeBufferPointer(start: nil, count: 0)
    }

    deinit {
        buffer.deallocate()
        close(fd)
    }

    /// Moves to the next line; false at the end of the file.
    /// Throws on a read error, a NUL byte, or a line that does not fit the buffer.
    func advance() throws -> Bool {
        while true {
            if start < end, let newline = memchr(buffer + start, 0x0A, end - start) {
                let newlineIndex = newline.assumingMemoryBound(to: UInt8.self) - buffer
                try takeLine(upTo: newlineIndex)
                start = newlineIndex + 1
                return true
            }
            if atEndOfFile {
                guard start < end else { return false }
                try takeLine(upTo: end)
                start = end
                return true
            }
            try refill()
        }
    }

    private func takeLine(upTo lineEnd: Int) throws {
        lineNumber += 1
        var length = lineEnd - start
        if length > 0 && buffer[start + length - 1] == 0x0D { length -= 1 }
        line = UnsafeBufferPointer(start: buffer + start, count: length)
        if bufferHasNul, length > 0, memchr(buffer + start, 0, length) != nil {
            throw RecordingError(path: path, line: lineNumber, kind: .binaryData,
                                 expected: "a text line", found: "a NUL byte in \(RecordingError.quote(line))")
        }
    }

    private func refill() throws {
        if start > 0 {
            memmove(buffer, buffer + start, end - start)
            end -= start
            start = 0
        }
        guard end < capacity else {
            throw RecordingError(path: path, line: lineNumber + 1, kind: .lineTooLong,
                                 expected: "a line shorter than \(capacity) bytes", found: "a longer line")
        }
        var count: Int
        repeat { count = read(fd, buffer + end, capacity - end) } while count < 0 && errno == EINTR
        guard count >= 0 else {
            throw RecordingError.system(.reading, path: path, line: lineNumber + 1, expected: "readable data")
        }
        if count == 0 { atEndOfFile = true } else { end += count }
        bufferHasNul = memchr(buffer, 0, end) != nil
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
