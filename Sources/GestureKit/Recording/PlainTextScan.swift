/// Finds, ahead of a reader, the first byte that is not printable ASCII, a tab or a line feed.
///
/// libyaml decodes a whole read (16 KiB) at once and stops at the first byte that is not valid
/// UTF-8 or is a control character, wherever the line it is parsing is. So a reader that reads
/// some lines without libyaml, and must hand out exactly the events libyaml would have before
/// such an error, only reads lines well before any byte that might be one (`margin`): anything
/// outside the plain set counts, valid UTF-8 and `\r` included, which costs nothing but a
/// hand-back to libyaml in files that have them.
struct PlainTextScan {
    /// Bytes a line's end must be before the first odd byte: more than libyaml reads ahead of
    /// what it parses (one read of 16 KiB and a few characters).
    static let margin: Int64 = 64 << 10

    /// Where the first odd byte is (as `LineInput.offset` counts); `Int64.max` while none is known.
    private(set) var firstOddByte = Int64.max
    /// Where the scan has reached.
    private var scannedTo: Int64

    init(from offset: Int64) { scannedTo = offset }

    /// Whether a line ending at `lineEnd` is far enough before any odd byte.
    @inline(__always)
    func isClear(lineEnd: Int64) -> Bool { lineEnd + Self.margin < firstOddByte }

    /// Scans what `input` has buffered past the scan so far, up to the first odd byte.
    mutating func scan(_ input: LineInput) {
        guard firstOddByte == .max else { return }
        let ahead = input.bufferedAhead
        let aheadOffset = input.offset
        let from = Int(scannedTo - aheadOffset)
        guard from < ahead.count, let base = ahead.baseAddress else { return }
        var index = max(0, from)
        // Sixteen bytes at a time while all are plain (a byte-wise test on 64-bit words: Swift's
        // SIMD types compile to a loop per lane here, 30 times slower); the first block with an
        // odd byte is then looked at byte by byte.
        while index + 16 <= ahead.count {
            let first = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            let second = UnsafeRawPointer(base + index + 8).loadUnaligned(as: UInt64.self)
            if Self.outsideASCIIPrintable(first) | Self.outsideASCIIPrintable(second) != 0,
               Self.oddBytes(first) | Self.oddBytes(second) != 0 { break }
            index += 16
        }
        while index < ahead.count {
            let byte = base[index]
            if (byte < 0x20 && byte != 0x0A && byte != 0x09) || byte > 0x7E {
                firstOddByte = aheadOffset + Int64(index)
                return
            }
            index += 1
        }
        scannedTo = aheadOffset + Int64(ahead.count)
    }

    private static let highBits: UInt64 = 0x8080_8080_8080_8080
    private static let lowBits: UInt64 = 0x7F7F_7F7F_7F7F_7F7F

    /// The high bit of each byte of `word` that is not 0x20...0x7E (line feeds and tabs too). No
    /// carry crosses a byte: each sum is at most 0xDF.
    @inline(__always)
    private static func outsideASCIIPrintable(_ word: UInt64) -> UInt64 {
        let low = word & lowBits
        // 0x80 and up; low seven bits 0x7F; low seven bits below 0x20.
        return (word | (low &+ 0x0101_0101_0101_0101) | ~(low &+ 0x6060_6060_6060_6060)) & highBits
    }

    /// The high bit of each odd byte of `word`: outside 0x20...0x7E and not a line feed or a tab.
    @inline(__always)
    private static func oddBytes(_ word: UInt64) -> UInt64 {
        outsideASCIIPrintable(word) & ~(zeroBytes(word ^ 0x0A0A_0A0A_0A0A_0A0A) | zeroBytes(word ^ 0x0909_0909_0909_0909))
    }

    /// The high bit of each zero byte of `word`, exactly (no borrow crosses a byte).
    @inline(__always)
    private static func zeroBytes(_ word: UInt64) -> UInt64 {
        ~(((word & lowBits) &+ lowBits) | word | lowBits)
    }
}
