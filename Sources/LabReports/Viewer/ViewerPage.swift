import Foundation
import GestureLab

/// The viewer page: one self-contained HTML file (no network: no CDN, fonts or scripts from
/// elsewhere) with the document embedded as JSON data, which the page's script reads and renders as
/// text only (`textContent`, canvas text), never as markup.
package enum ViewerPage {
    /// Entries encoded at a time: the encoder's tree of a whole page's entries took several times
    /// the page's size (a page of 1.2 million gesture entries, 65 MB, took 590 MB to write).
    static let entriesPerPiece = 4_096

    /// The whole page for `document`.
    package static func html(_ document: ViewerDocument) throws -> String {
        var page: [UInt8] = []
        try write(document) { page += $0 }
        return String(decoding: page, as: UTF8.self)
    }

    /// The page for `document`, handed to `write` piece by piece (each at most a few hundred KB) in
    /// order: the bytes of `html(document)`, without the whole of them in memory at once.
    package static func write(_ document: ViewerDocument, to write: ([UInt8]) throws -> Void) throws {
        var frame = document
        frame.entries = []
        let json = try embeddableJSONBytes(frame, members: try document.summaryMembers())
        // Keys are sorted and a string's quotes are escaped, so `"entries":` is only ever the key.
        let emptyEntries = Array(#""entries":[]"#.utf8)
        guard let hole = json.firstRange(of: emptyEntries) else {
            preconditionFailure("a viewer document's JSON holds its entries' key")
        }
        try write(Array(ViewerPageFiles.beforeDocument.utf8))
        try write(Array(json[..<(hole.upperBound - 1)]))
        for start in stride(from: 0, to: document.entries.count, by: entriesPerPiece) {
            let piece = document.entries[start..<min(start + entriesPerPiece, document.entries.count)]
            var bytes = try embeddableJSONBytes(Array(piece))
            // `[e1,e2]` -> `e1,e2`, and a comma before every piece but the first.
            bytes.removeLast()
            if start == 0 { bytes.removeFirst() } else { bytes[0] = UInt8(ascii: ",") }
            try write(bytes)
        }
        try write(Array(json[(hole.upperBound - 1)...]))
        try write(Array(ViewerPageFiles.afterDocument.utf8))
    }

    /// `value` as JSON that can sit inside a `<script>` element whatever its strings hold: every `<`,
    /// `>` and `&` is written as a `\u` escape (so no `</script>` or `<!--` can end or change the
    /// element), and so are U+2028 and U+2029. `JSON.parse` reads the same strings back.
    package static func embeddableJSON<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try embeddableJSONBytes(value), as: UTF8.self)
    }

    /// A document with its summaries (which its `Encodable` form leaves out: `ViewerDocument.summaryMembers`).
    package static func embeddableJSON(_ document: ViewerDocument) throws -> String {
        String(decoding: try embeddableJSONBytes(document, members: try document.summaryMembers()), as: UTF8.self)
    }

    /// `value` as `embeddableJSON`, an object with `members` (JSON already written) added where their keys sort.
    static func embeddableJSONBytes<T: Encodable>(_ value: T, members: [(key: String, json: [UInt8])] = []) throws -> [UInt8] {
        let encoder = JSONEncoder()
        // Sorted: a dictionary's keys otherwise follow the process's random hash seed, and the same
        // recording made a different page on every run.
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        var data = Array(try encoder.encode(value))
        if !members.isEmpty { data = JSONLineBytes.inserting(members, into: data) }
        var escaped = [UInt8]()
        escaped.reserveCapacity(data.count + 64)
        var index = data.startIndex
        while index < data.endIndex {
            let byte = data[index]
            switch byte {
            case UInt8(ascii: "<"): escaped.append(contentsOf: Array("\\u003c".utf8))
            case UInt8(ascii: ">"): escaped.append(contentsOf: Array("\\u003e".utf8))
            case UInt8(ascii: "&"): escaped.append(contentsOf: Array("\\u0026".utf8))
            case 0xE2 where index + 2 < data.endIndex && data[index + 1] == 0x80
                && (data[index + 2] == 0xA8 || data[index + 2] == 0xA9):
                // U+2028 / U+2029 (E2 80 A8 / A9): line terminators in older JavaScript.
                escaped.append(contentsOf: Array((data[index + 2] == 0xA8 ? "\\u2028" : "\\u2029").utf8))
                index += 2
            default: escaped.append(byte)
            }
            index += 1
        }
        return escaped
    }
}
