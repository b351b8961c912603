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
        guard let p = line.baseAddress else { return nil }
        let n = line.count
        // "E: " + 1 second digit + "." + 6 + " " + 4 + " " + 4 + " " + 1 value digit.
        guard n >= 22, p[0] == UInt8(ascii: "E"), p[1] == UInt8(ascii: ":"), p[2] == UInt8(ascii: " ") else { return nil }
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
        // What follows the value: the end, or spaces/tabs and then the end or a comment.
        if i < n {
            guard p[i] == UInt8(ascii: " ") || p[i] == UInt8(ascii: "\t") else { return nil }
            while i < n && (p[i] == UInt8(ascii: " ") || p[i] == UInt8(ascii: "\t")) { i += 1 }
            guard i == n || p[i] == UInt8(ascii: "#") else { return nil }
        }
        self.seconds = seconds
        self.microseconds = microseconds
        self.type = type
        self.code = code
        self.value = Int32(value)
    }

    /// Six decimal digits.
    @inline(__always)
    static func decimal6(_ p: UnsafePointer<UInt8>) -> UInt32? {
        let d0 = p[0] &- 48, d1 = p[1] &- 48, d2 = p[2] &- 48, d3 = p[3] &- 48, d4 = p[4] &- 48, d5 = p[5] &- 48
        guard (d0 | d1 | d2 | d3 | d4 | d5) < 16, d0 < 10, d1 < 10, d2 < 10, d3 < 10, d4 < 10, d5 < 10 else { return nil }
        let high = UInt32(d0) &* 100 &+ UInt32(d1) &* 10 &+ UInt32(d2)
        let low = UInt32(d3) &* 100 &+ UInt32(d4) &* 10 &+ UInt32(d5)
        return high &* 1000 &+ low
    }

    /// Four hexadecimal digits (either case).
    @inline(__always)
    static func hex4(_ p: UnsafePointer<UInt8>) -> UInt32? {
        let a = nibble(p[0]), b = nibble(p[1]), c = nibble(p[2]), d = nibble(p[3])
        guard (a | b | c | d) < 16 else { return nil }
        return UInt32(a) << 12 | UInt32(b) << 8 | UInt32(c) << 4 | UInt32(d)
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
