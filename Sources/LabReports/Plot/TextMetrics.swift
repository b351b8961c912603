/// The size of a line of text as a browser or rsvg draws it, without a renderer: the plots ask for
/// DejaVu Sans (Debian's default sans-serif, installed by scripts/setup-debian), and these are its
/// advance widths. Layout that relies on them is checked against boxes measured in Chromium
/// (Tests/CLITests/PlotLayoutCLITests).
enum TextMetrics {
    /// The font the plots name first.
    static let fontFamily = "DejaVu Sans, sans-serif"

    /// DejaVu Sans advance widths of ASCII 32...126 in thousandths of an em, measured with
    /// `getComputedTextLength()` in Chromium at 100 px.
    static let asciiWidths: [Int] = [
        318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337,   // space ... /
        636, 636, 636, 636, 636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 531,   // 0 ... ?
        1000, 684, 686, 698, 770, 632, 575, 775, 752, 295, 295, 656, 557, 863, 748, 787, // @ ... O
        603, 787, 695, 635, 611, 732, 684, 989, 685, 611, 685, 390, 337, 390, 838, 500,  // P ... _
        500, 613, 635, 550, 635, 615, 352, 635, 634, 278, 278, 579, 278, 974, 634, 612,  // ` ... o
        635, 635, 411, 521, 392, 634, 592, 818, 592, 592, 525, 636, 337, 636, 838,       // p ... ~
    ]

    /// Widths of the non-ASCII characters the plots themselves write.
    static let otherWidths: [Character: Int] = ["≤": 838, "≥": 838, "−": 838, "→": 838, "↓": 838, "…": 1000,
                                                 "·": 318, "×": 838, "°": 500, "—": 1000]

    /// The width of `text` at `size` pixels. A character the table does not know (a device name in
    /// another script, drawn from a fallback font) counts as a full em, wider than most.
    static func width(_ text: String, size: Double) -> Double {
        var thousandths = 0
        for character in text {
            if let ascii = character.asciiValue, ascii >= 32, ascii <= 126 {
                thousandths += asciiWidths[Int(ascii) - 32]
            } else {
                thousandths += otherWidths[character] ?? 1000
            }
        }
        // 2% and a pixel of slack for kerning and rounding.
        return Double(thousandths) / 1000 * size * 1.02 + 1
    }

    /// DejaVu's ascent and descent, as fractions of the size: a text's box runs from
    /// `baseline - ascent * size` to `baseline + descent * size`.
    static let ascent = 0.93, descent = 0.24

    /// The box a line of text covers.
    static func box(_ text: String, x: Double, baseline: Double, size: Double, anchor: SVGDocument.Anchor) -> Box {
        let w = width(text, size: size)
        let left: Double
        switch anchor {
        case .start: left = x
        case .middle: left = x - w / 2
        case .end: left = x - w
        }
        return Box(minX: left, minY: baseline - ascent * size, maxX: left + w, maxY: baseline + descent * size)
    }
}

/// A rectangle in the picture's pixels.
struct Box: Equatable, Sendable {
    var minX, minY, maxX, maxY: Double
    var width: Double { maxX - minX }
    var height: Double { maxY - minY }

    func intersects(_ other: Box, gap: Double = 0) -> Bool {
        minX < other.maxX + gap && other.minX < maxX + gap && minY < other.maxY + gap && other.minY < maxY + gap
    }

    func offsetBy(dx: Double, dy: Double) -> Box { Box(minX: minX + dx, minY: minY + dy, maxX: maxX + dx, maxY: maxY + dy) }
}
