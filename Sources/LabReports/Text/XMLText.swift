/// Text from a recording (device and file names, reasons) made safe for XML: the SVG plots and the
/// JUnit report share this one escaper. Markup is escaped, and characters XML 1.0 cannot hold at all
/// (controls other than tab and line breaks, U+FFFE, U+FFFF) become U+FFFD, so a hostile name never
/// makes the document unreadable. (Unpaired surrogates cannot occur in a Swift string.)
package enum XMLText {
    /// What becomes of tabs and line breaks.
    package enum Whitespace: Sendable {
        /// Kept as character references, so an attribute keeps them too (a JUnit failure message).
        case kept
        /// Each one a space: an SVG `<text>` is one line.
        case asSpaces
    }

    package static func escape(_ text: String, whitespace: Whitespace) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\t", "\n", "\r":
                out += whitespace == .asSpaces ? " " : "&#\(scalar.value);"
            default:
                let v = scalar.value
                if v < 0x20 || (0x7F...0x9F).contains(v) || v == 0xFFFE || v == 0xFFFF {
                    out.unicodeScalars.append("\u{FFFD}")
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
