import Foundation

/// The viewer page: one self-contained HTML file (no network: no CDN, fonts or scripts from
/// elsewhere) with the document embedded as JSON data, which the page's script reads and renders as
/// text only (`textContent`, canvas text), never as markup.
package enum ViewerPage {
    /// The whole page for `document`.
    package static func html(_ document: ViewerDocument) throws -> String {
        let json = try embeddableJSON(document)
        var page = ""
        page.reserveCapacity(ViewerPageFiles.beforeDocument.utf8.count + json.utf8.count + ViewerPageFiles.afterDocument.utf8.count)
        page += ViewerPageFiles.beforeDocument
        page += json
        page += ViewerPageFiles.afterDocument
        return page
    }

    /// `value` as JSON that can sit inside a `<script>` element whatever its strings hold: every `<`,
    /// `>` and `&` is written as a `\u` escape (so no `</script>` or `<!--` can end or change the
    /// element), and so are U+2028 and U+2029. `JSON.parse` reads the same strings back.
    package static func embeddableJSON<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        // Sorted: a dictionary's keys otherwise follow the process's random hash seed, and the same
        // recording made a different page on every run.
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        let data = try encoder.encode(value)
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
        return String(decoding: escaped, as: UTF8.self)
    }
}
