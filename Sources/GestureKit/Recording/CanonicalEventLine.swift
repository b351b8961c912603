/// The fields of an evemu event line in the exact layout evemu (and pinchlab) write,
/// `E: <sec>.<6 digits> <4 hex> <4 hex> <value>` followed by the end, spaces or a `# comment`, read
/// at fixed offsets. Nearly every line of a recording is in this layout; anything else (other
/// spacing, fewer digits, old unpadded files, mistakes) returns nil and goes to the general
/// scanner, which also words every error. So this only ever accepts what the scanner accepts.
struct CanonicalEventLine {
    var seconds: UInt64
    var microseconds: UInt32
    var type: UInt32
    var code: UInt32
    var value: Int32

    /// Seconds are at most this many digits here (longer ones take the general path).
    static let maximumSecondDigits = 12

    @inline(__always)
    init?(_ line: UnsafeBufferPointer<UInt8>) {
        guard let p = line.baseAddress, let (fields, _, _) = Self.read(p, available: line.count, endingAtNewline: false) else {
            return nil
        }
        self = fields
    }

    /// The fields of the line that begins at `p`, read straight from the input's buffer, and the
    /// line's length without its `\n` (and a `\r` before it): nil unless the line is canonical and
    /// its `\n` lies within the `available` bytes. The fields' scan goes on to the newline, so the
    /// line needs no separate search for its end (`LineInput.takeCanonicalEventLine`).
    /// - Returns: also the index of the newline (the line's length and one more, or two more after a
    ///   `\r`): the next line begins after it.
    @inline(__always)
    static func line(at p: UnsafePointer<UInt8>, available: Int) -> (fields: CanonicalEventLine, length: Int, newline: Int)? {
        read(p, available: available, endingAtNewline: true)
    }

    /// - Parameter endingAtNewline: false: `n` bytes are the line; true: the bytes run on past the
    ///   line, whose end is its first `\n`. What may follow the value is the same either way: spaces
    ///   or tabs, then the end or a comment.
    @inline(__always)
    private static func read(_ p: UnsafePointer<UInt8>, available n: Int, endingAtNewline: Bool)
        -> (CanonicalEventLine, Int, Int)? {
        // "E: " + 1 second digit + "." + 6 + " " + 4 + " " + 4 + " " + 1 value digit: 23 bytes.
        guard n >= 23, p[0] == UInt8(ascii: "E"), p[1] == UInt8(ascii: ":"), p[2] == UInt8(ascii: " ") else { return nil }
        var i = 3
        var seconds: UInt64 = 0
        while i < n, i - 3 < Self.maximumSecondDigits {
            let d = p[i] &- UInt8(ascii: "0")
            guard d < 10 else { break }
            seconds = seconds &* 10 &+ UInt64(d)
            i += 1
        }
        // ".uuuuuu tttt cccc " is 18 bytes, then at least one byte of value.
        guard i > 3, i + 19 <= n, p[i] == UInt8(ascii: ".") else { return nil }
        guard let microseconds = Self.decimal6(p + i + 1), p[i + 7] == UInt8(ascii: " "),
              let type = Self.hex4(p + i + 8), p[i + 12] == UInt8(ascii: " "),
              let code = Self.hex4(p + i + 13), p[i + 17] == UInt8(ascii: " ") else { return nil }
        i += 18
        var negative = false
        if p[i] == UInt8(ascii: "-") {
            negative = true
            i += 1
        }
        var magnitude: Int64 = 0
        let firstDigit = i
        while i < n {
            let d = p[i] &- UInt8(ascii: "0")
            guard d < 10 else { break }
            magnitude = magnitude &* 10 &+ Int64(d)
            i += 1
            guard i - firstDigit <= 10 else { return nil }  // longer: let the scanner judge it
        }
        guard i > firstDigit else { return nil }
        let value = negative ? -magnitude : magnitude
        guard value >= Int64(Int32.min), value <= Int64(Int32.max) else { return nil }
        var length = i
        if endingAtNewline {
            // The value's end, spaces or tabs, and then the newline or a comment up to it (evemu
            // writes "\t# EV_ABS / ABS_MT_POSITION_X  329" after nearly every value).
            guard i < n else { return nil }
            if p[i] != UInt8(ascii: "\n") {
                guard p[i] == UInt8(ascii: " ") || p[i] == UInt8(ascii: "\t") else { return nil }
                while i < n && (p[i] == UInt8(ascii: " ") || p[i] == UInt8(ascii: "\t")) { i += 1 }
                guard i < n else { return nil }
                if p[i] != UInt8(ascii: "\n") {
                    guard p[i] == UInt8(ascii: "#"), let newline = Self.newline(p, from: i + 1, available: n) else { return nil }
                    i = newline
                }
                length = i
                if p[length - 1] == UInt8(ascii: "\r") { length -= 1 }  // as LineInput cuts a CRLF line
            }
        } else if i < n {
            // What follows the value: the end, or spaces/tabs and then the end or a comment.
            guard p[i] == UInt8(ascii: " ") || p[i] == UInt8(ascii: "\t") else { return nil }
            while i < n && (p[i] == UInt8(ascii: " ") || p[i] == UInt8(ascii: "\t")) { i += 1 }
            guard i == n || p[i] == UInt8(ascii: "#") else { return nil }
        }
        return (CanonicalEventLine(seconds: seconds, microseconds: microseconds, type: type, code: code,
                                   value: Int32(value)), length, i)
    }

    /// The index of the first `\n` at or after `start` and before `n`, eight bytes at a time (a
    /// comment is a few dozen bytes: a call to `memchr` cost more than the search).
    @inline(__always)
    static func newline(_ p: UnsafePointer<UInt8>, from start: Int, available n: Int) -> Int? {
        var j = start
        while j + 8 <= n {
            // A zero byte of word ^ "\n\n\n\n\n\n\n\n" is a newline; the lowest flagged byte is exact.
            let x = UnsafeRawPointer(p + j).loadUnaligned(as: UInt64.self) ^ 0x0A0A_0A0A_0A0A_0A0A
            let flags = (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080
            if flags != 0 { return j + flags.trailingZeroBitCount / 8 }
            j += 8
        }
        while j < n {
            if p[j] == UInt8(ascii: "\n") { return j }
            j += 1
        }
        return nil
    }

    /// Six decimal digits, converted eight bytes at a time (SWAR): the line has at least 12 more
    /// bytes after them (checked by the caller), so the unaligned 8-byte load stays inside it.
    @inline(__always)
    static func decimal6(_ p: UnsafePointer<UInt8>) -> UInt32? {
        // Little-endian: the first digit is the lowest byte. Only the low six bytes are digits.
        let word = UnsafeRawPointer(p).loadUnaligned(as: UInt64.self) & 0x0000_FFFF_FFFF_FFFF
        // Every byte within "0"..."9": high nibble 3, and adding 6 does not carry out of the nibble.
        guard word & 0x0000_F0F0_F0F0_F0F0 == 0x0000_3030_3030_3030,
              (word &+ 0x0000_0606_0606_0606) & 0x0000_F0F0_F0F0_F0F0 == 0x0000_3030_3030_3030 else { return nil }
        // Two leading zero digits make eight; then pairs, quads, and the whole number.
        var v = (word & 0x0000_0F0F_0F0F_0F0F) << 16
        v = (v &* 2561) >> 8 & 0x00FF_00FF_00FF_00FF
        v = (v &* 6_553_601) >> 16 & 0x0000_FFFF_0000_FFFF
        v = (v &* 42_949_672_960_001) >> 32
        return UInt32(truncatingIfNeeded: v)
    }

    /// Four hexadecimal digits (either case), converted four bytes at a time (SWAR).
    @inline(__always)
    static func hex4(_ p: UnsafePointer<UInt8>) -> UInt32? {
        let word = UnsafeRawPointer(p).loadUnaligned(as: UInt32.self)
        guard word & 0x8080_8080 == 0 else { return nil }
        // Lower case; digits already have the 0x20 bit.
        let t = word | 0x2020_2020
        // Per byte, the high bit of each flag says: below "0", above "9", below "a", above "f".
        // Setting the high bit before subtracting keeps a byte's borrow from reaching the next.
        // Digits on the raw bytes: lower-casing would turn 0x10...0x19 into "0"..."9".
        let belowDigit = ~((word | 0x8080_8080) &- 0x3030_3030) & 0x8080_8080
        let aboveDigit = (word &+ 0x4646_4646) & 0x8080_8080
        let belowLetter = ~((t | 0x8080_8080) &- 0x6161_6161) & 0x8080_8080
        let aboveLetter = (t &+ 0x1919_1919) & 0x8080_8080
        guard (belowDigit | aboveDigit) & (belowLetter | aboveLetter) == 0 else { return nil }
        // A digit's value is its low nibble; a letter's is its low nibble + 9 ("a" = 0x61 -> 10).
        let letters = (t >> 6) & 0x0101_0101
        let nibbles = (t & 0x0F0F_0F0F) &+ letters &* 9
        // First character (lowest byte) is the most significant nibble.
        return (nibbles & 0xFF) << 12 | (nibbles >> 8 & 0xFF) << 8 | (nibbles >> 16 & 0xFF) << 4 | nibbles >> 24
    }

    /// The value of a hex digit, or 0xFF.
    @inline(__always)
    static func nibble(_ byte: UInt8) -> UInt8 {
        let digit = byte &- UInt8(ascii: "0")
        if digit < 10 { return digit }
        let letter = (byte | 0x20) &- UInt8(ascii: "a")
        return letter < 6 ? letter &+ 10 : 0xFF
    }
}
