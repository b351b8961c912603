/// Reads the numbers of a `libinput record` event line in the layout libinput record (and
/// pinchlab) writes, `    - [  0, 123456,   3,  57,     0] # EV_ABS / ABS_MT_TRACKING_ID ...`: the item's
/// `-` at exactly `indent` spaces, `[` right after `- `, five decimal numbers (any width; spaces
/// or tabs around them), `]`, then the end of the line, blank space, or blank space and a comment.
///
/// Nearly every line of a recording's events is one of these; for anything else (a sign on an
/// unsigned field, more than 18 digits, a value outside 32 bits, `]` followed by more YAML, no
/// space before the comment) `read` returns nil, and libyaml reads the line. So this only ever accepts
/// lines that libyaml parses into the same five integers (`YAMLEventReader.scalarInteger`), as
/// one item of the frame's list. The bytes have been checked to be printable ASCII, tabs and line
/// breaks (`PlainTextScan`), so the comment is not looked at.
enum CanonicalRecordEventLine {
    /// What `YAMLEventReader.scalarInteger` reads: at most 18 digits.
    static let digitsMax = 18

    /// The line's numbers, in the fields of an evemu event line, and the index just after `]`
    /// (where the line's last YAML event ends); nil for any other line, and for numbers that
    /// `LibinputRecordReader` would refuse (usec of a million or more, a type or code over 16 bits).
    @inline(__always)
    static func read(_ line: UnsafeBufferPointer<UInt8>, indent: Int) -> (fields: CanonicalEventLine, yamlEnd: Int)? {
        guard let p = line.baseAddress, line.count >= indent + 13 else { return nil }  // "- [0,0,0,0,0]"
        guard p[indent] == UInt8(ascii: "-"), p[indent + 1] == UInt8(ascii: " "), p[indent + 2] == UInt8(ascii: "[")
        else { return nil }
        if let read = readPrintfWidths(line, from: indent + 3) { return read }
        return readAnySpacing(line, from: indent + 3)
    }

    /// libinput's own layout, `%3lu, %6u, %3d, %3d, %7d]` (seconds of any width): the fields after
    /// the seconds at fixed offsets, each spaces then digits. Three times faster than
    /// `readAnySpacing`, which reads the same numbers from the lines this takes.
    @inline(__always)
    private static func readPrintfWidths(_ line: UnsafeBufferPointer<UInt8>, from start: Int)
        -> (fields: CanonicalEventLine, yamlEnd: Int)? {
        let p = line.baseAddress!
        let n = line.count
        var i = start
        while i < n && p[i] == 0x20 { i += 1 }
        let secondsStart = i
        var seconds: UInt64 = 0
        while i < n {
            let digit = p[i] &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            seconds = seconds &* 10 &+ UInt64(digit)
            i += 1
        }
        // ", uuuuuu, ttt, ccc, vvvvvvv]" is 28 bytes.
        guard i > secondsStart, i - secondsStart <= digitsMax, i + 28 <= n else { return nil }
        let q = p + i
        let comma = UInt8(ascii: ","), space = UInt8(ascii: " ")
        guard q[0] == comma, q[1] == space, q[8] == comma, q[9] == space, q[13] == comma, q[14] == space,
              q[18] == comma, q[19] == space, q[27] == UInt8(ascii: "]"),
              let microseconds = rightAligned(q + 2, width: 6, signed: false),
              let type = rightAligned(q + 10, width: 3, signed: false),
              let code = rightAligned(q + 15, width: 3, signed: false),
              let value = rightAligned(q + 20, width: 7, signed: true) else { return nil }
        let yamlEnd = i + 28
        if yamlEnd < n {
            // Blank space, then the end or a comment.
            var j = yamlEnd
            guard p[j] == space || p[j] == 0x09 else { return nil }
            while j < n && (p[j] == space || p[j] == 0x09) { j += 1 }
            guard j == n || p[j] == UInt8(ascii: "#") else { return nil }
        }
        return (CanonicalEventLine(seconds: seconds, microseconds: UInt32(microseconds), type: UInt32(type),
                                   code: UInt32(code), value: Int32(value)), yamlEnd)
    }

    /// `width` bytes: spaces, then (when `signed`) perhaps `-`, then at least one digit.
    @inline(__always)
    private static func rightAligned(_ field: UnsafePointer<UInt8>, width: Int, signed: Bool) -> Int64? {
        var k = 0
        while k < width - 1 && field[k] == 0x20 { k += 1 }
        let negative = signed && field[k] == UInt8(ascii: "-") && k < width - 1
        if negative { k += 1 }
        var value: Int64 = 0
        while k < width {
            let digit = field[k] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            value = value &* 10 &+ Int64(digit)
            k += 1
        }
        return negative ? -value : value
    }

    /// Any spacing (spaces or tabs) around the numbers and commas.
    @inline(__always)
    private static func readAnySpacing(_ line: UnsafeBufferPointer<UInt8>, from start: Int)
        -> (fields: CanonicalEventLine, yamlEnd: Int)? {
        var scanner = LineScanner(line, from: start)
        // Inside `[...]` libyaml is in flow context, where tabs are blank space like spaces.
        scanner.skipSpaces()
        guard let seconds = scanner.unsignedDecimal(maxDigits: digitsMax), takeComma(&scanner),
              let microseconds = scanner.unsignedDecimal(maxDigits: digitsMax), takeComma(&scanner),
              let type = scanner.unsignedDecimal(maxDigits: digitsMax), takeComma(&scanner),
              let code = scanner.unsignedDecimal(maxDigits: digitsMax), takeComma(&scanner),
              let value = scanner.int32()  // a sign, then at most 18 digits, as `scalarInteger` reads
        else { return nil }
        scanner.skipSpaces()
        guard scanner.take(UInt8(ascii: "]")) else { return nil }
        let yamlEnd = scanner.index
        // After `]`: the end, or blank space and then the end or a comment.
        if !scanner.isAtEnd {
            guard scanner.skipSpaces(), scanner.isAtEndOrComment() else { return nil }
        }
        guard microseconds < UInt64(LibinputRecordReader.microsecondsPerSecond), type <= 0xffff, code <= 0xffff
        else { return nil }
        return (CanonicalEventLine(seconds: seconds, microseconds: UInt32(microseconds), type: UInt32(type),
                                   code: UInt32(code), value: value), yamlEnd)
    }

    /// Blank space, `,`, blank space.
    @inline(__always)
    private static func takeComma(_ scanner: inout LineScanner) -> Bool {
        scanner.skipSpaces()
        guard scanner.take(UInt8(ascii: ",")) else { return false }
        scanner.skipSpaces()
        return true
    }
}

extension CanonicalEventLine {
    /// Fields read from another layout (`CanonicalRecordEventLine`).
    @inline(__always)
    init(seconds: UInt64, microseconds: UInt32, type: UInt32, code: UInt32, value: Int32) {
        self.seconds = seconds
        self.microseconds = microseconds
        self.type = type
        self.code = code
        self.value = value
    }
}
