import Foundation

/// Writes a summary with `JSONEncoder` and its trials by hand: `JSONEncoder` spends about 2,000
/// instructions on every value, and a trial with its margins (`flip`, `margins`) holds some sixty,
/// so a summary of a few hundred trials (the instruction gate's `replay --summary`) spent more on
/// them than on replaying the file. Each trial writes a placeholder string where it goes, holding a
/// number made for this one encoding, and `encode` puts the hand-written bytes there: the same
/// bytes `JSONEncoder` writes for it (`ReleaseMarginTests` compares the two on every recording).
package final class MarginsSplice: @unchecked Sendable {
    package static let key = CodingUserInfoKey(rawValue: "pinchlab.marginsSplice")!

    /// DEL, then `pinchlab-margins-<random>-`: no text of a recording can hold it, as nothing else
    /// knows it. JSON writes DEL as it is, so the placeholders are found with `memchr` at a few
    /// instructions a kilobyte (a DEL in a recording's text is passed over: the whole marker must follow).
    private let prefix: String
    /// Every piece's bytes, one after another, and where each ends. (Only the encoding thread
    /// touches them, so no dynamic exclusivity check.)
    @exclusivity(unchecked) private var bytes = JSONLineBytes(reservingCapacity: 1 << 14)
    @exclusivity(unchecked) private var ends: [Int] = []

    private init() {
        prefix = "\u{7F}pinchlab-margins-\(UInt64.random(in: 1...UInt64.max))-"
    }

    /// `value` as `encoder` writes it, every margin a summary's trials hold written by hand. Only
    /// this call uses `encoder` while it runs (its `userInfo` carries the splice).
    package static func encode(_ value: some Encodable, with encoder: JSONEncoder) throws -> Data {
        let splice = MarginsSplice()
        encoder.userInfo[key] = splice
        defer { encoder.userInfo[key] = nil }
        let data = try encoder.encode(value)
        guard !splice.ends.isEmpty else { return data }
        if let spliced = splice.spliced(data) { return spliced }
        // Not every placeholder where the one before left off (a value whose keys put its trials
        // in another order than they were encoded): JSONEncoder's own bytes, never a half-spliced line.
        encoder.userInfo[key] = nil
        return try encoder.encode(value)
    }

    /// The placeholder a trial encodes, as a string, for the bytes `write` appends.
    func placeholder(_ write: (inout JSONLineBytes) -> Void) -> String {
        write(&bytes)
        ends.append(bytes.count)
        return prefix + String(ends.count - 1)
    }

    /// `data` with every `"<prefix>N"` (quotes included) replaced by piece N. The placeholders come
    /// in the order they were made, so each is looked for after the one before; nil when one is not.
    private func spliced(_ data: Data) -> Data? {
        let marker = Array(("\"" + prefix).utf8)
        var out = Data(capacity: data.count + bytes.count)
        let whole = data.withUnsafeBytes { raw -> Bool in
            guard let base = raw.baseAddress else { return false }
            var copied = 0
            for piece in ends.indices {
                let tail = Array((String(piece) + "\"").utf8)
                guard let at = Self.find(marker, in: raw, from: copied) else { return false }
                // A placeholder is a whole string: the marker, then exactly this piece's number.
                guard at + marker.count + tail.count <= raw.count,
                      memcmp(base + at + marker.count, tail, tail.count) == 0 else { return false }
                out.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[copied..<at]))
                let start = piece == 0 ? 0 : ends[piece - 1]
                out.append(contentsOf: bytes.bytes[start..<ends[piece]])
                copied = at + marker.count + tail.count
            }
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[copied...]))
            return true
        }
        return whole ? out : nil
    }

    /// Where `marker` (a quote, then DEL, then the rest) first is in `raw` from `start`: each DEL
    /// found by `memchr`, the quote before it and the rest compared with `memcmp`.
    private static func find(_ marker: [UInt8], in raw: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard let base = raw.baseAddress else { return nil }
        var at = start + 1
        while at + marker.count - 1 <= raw.count {
            guard let del = memchr(base + at, Int32(marker[1]), raw.count - at) else { return nil }
            at = base.distance(to: UnsafeRawPointer(del))
            if at + marker.count - 1 <= raw.count, memcmp(base + at - 1, marker, marker.count) == 0 { return at - 1 }
            at += 1
        }
        return nil
    }
}
