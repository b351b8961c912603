/// Text bound for a terminal with every character a terminal would act on or hide shown as its
/// number instead: a device name holding `ESC ] 0 ; ... BEL` would retitle the user's terminal and
/// `ESC [ 2 J` clear it. Names and anything else read from a recording or a device are data; the
/// command line's output layer passes every line it prints through `escaped(_:)`.
package enum TerminalText {
    /// Control characters (C0, DEL, C1), zero-width characters, line and paragraph separators, and
    /// the formatting characters that reorder or hide text: a terminal acts on them, shows them as
    /// nothing or as a line break, or draws the text around them in another order (a device named
    /// `evil\u{202e}gnp.exe` reads as `evilexe.png`).
    ///
    /// - U+00AD soft hyphen (shown by most terminals as nothing);
    /// - U+061C Arabic letter mark, U+200E/U+200F left-to-right and right-to-left marks;
    /// - U+200B...U+200D zero-width space, non-joiner and joiner;
    /// - U+2028, U+2029 line and paragraph separators;
    /// - U+202A...U+202E bidirectional embeddings and overrides (LRE, RLE, PDF, LRO, RLO);
    /// - U+2060...U+206F word joiner, invisible operators, bidirectional isolates (LRI, RLI, FSI,
    ///   PDI: U+2066...U+2069) and the deprecated format characters;
    /// - U+FEFF zero-width no-break space (a byte order mark inside text);
    /// - U+FFF9...U+FFFB interlinear annotation marks.
    package static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7f...0x9f, 0xad, 0x61c, 0x200b...0x200f, 0x2028...0x202e, 0x2060...0x206f, 0xfeff,
             0xfff9...0xfffb:
            return true
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

    /// `text` of several lines, each escaped as `escaped(_:)` escapes one: the line feeds stay line
    /// feeds, every other line break (`\r`, U+2028) and invisible character is shown as its escape.
    package static func escapedLines(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { isInvisible($0) && $0 != "\t" && $0 != "\n" }) else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { escaped(String($0)) }
            .joined(separator: "\n")
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
