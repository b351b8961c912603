/// Text bound for a terminal with every character a terminal would act on or hide shown as its
/// number instead: a device name holding `ESC ] 0 ; ... BEL` would retitle the user's terminal and
/// `ESC [ 2 J` clear it. Names and anything else read from a recording or a device are data; the
/// command line's output layer passes every line it prints through `escaped(_:)`.
package enum TerminalText {
    /// Control characters (C0, DEL, C1), zero-width characters and line and paragraph separators,
    /// which a terminal acts on, shows as nothing or as a line break.
    package static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7f...0x9f, 0x200b...0x200f, 0x2028, 0x2029, 0x2060...0x2064: return true
        default: return false
        }
    }

    /// `text` with each invisible character but the tab written as its escape (`\n`, `\u{1b}`):
    /// what is printed is one line, and shows what the file holds.
    package static func escaped(_ text: String) -> String {
        // The common case, nothing to escape, costs one scan and no copy.
        guard text.unicodeScalars.contains(where: { isInvisible($0) && $0 != "\t" }) else { return text }
        var shown = ""
        for scalar in text.unicodeScalars {
            if scalar == "\t" { shown.unicodeScalars.append(scalar) } else { append(scalar, to: &shown) }
        }
        return shown
    }

    /// Appends `scalar`, escaped if it is invisible (the tab too).
    package static func append(_ scalar: Unicode.Scalar, to shown: inout String) {
        switch scalar {
        case "\0": shown += "\\0"
        case "\t": shown += "\\t"
        case "\r": shown += "\\r"
        case "\n": shown += "\\n"
        case _ where isInvisible(scalar): shown += "\\u{\(String(scalar.value, radix: 16))}"
        default: shown.unicodeScalars.append(scalar)
        }
    }
}
