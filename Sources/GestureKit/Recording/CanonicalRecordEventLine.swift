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
        var scanner = LineScanner(line, from: indent + 3)
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
