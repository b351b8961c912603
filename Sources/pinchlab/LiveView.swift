/// What the live screen shows at one moment. Plain numbers, filled in by the live command.
struct LiveSnapshot {
    var header: String
    var gestureLine: String = "gesture    (waiting for two fingers)"
    var transitionName: String
    var transitionState: String = "idle"
    var progress: Double = 0
    var threshold: Double? = 0.5
    /// The card's scale and alpha from the transition's scene at this progress.
    var cardScale: Double = 1
    var cardAlpha: Double = 1
    var decision: String = ""
    var footer: String = "Ctrl-C to quit"
}

/// Draws a `LiveSnapshot` in the terminal, updating in place: it moves the cursor back up over the
/// lines it drew last time instead of scrolling. Restores the cursor when told to stop.
struct LiveView {
    static let barWidth = 40
    static let cardAreaWidth = 44
    static let cardAreaHeight = 9
    private var linesDrawn = 0

    static let hideCursor = "\u{1B}[?25l"
    static let showCursor = "\u{1B}[?25h"
    static let clearLine = "\u{1B}[2K"

    mutating func draw(_ snapshot: LiveSnapshot) -> String {
        let lines = Self.render(snapshot)
        var out = linesDrawn > 0 ? "\u{1B}[\(linesDrawn)A" : Self.hideCursor
        for line in lines { out += "\r" + Self.clearLine + line + "\n" }
        linesDrawn = lines.count
        return out
    }

    static func render(_ s: LiveSnapshot) -> [String] {
        var lines = [s.header, s.gestureLine]
        let p = min(max(s.progress.isFinite ? s.progress : 0, 0), 1)
        let filled = Int((p * Double(barWidth)).rounded())
        var bar = Array(String(repeating: "█", count: filled) + String(repeating: "░", count: barWidth - filled))
        if let threshold = s.threshold, threshold > 0, threshold < 1 {
            let mark = min(barWidth - 1, Int((threshold * Double(barWidth)).rounded()))
            bar[mark] = bar[mark] == "█" ? "▓" : "┆"
        }
        let percent = String(Int((p * 100).rounded()))
        lines.append("transition \(s.transitionName)  \(s.transitionState.padding(11))[\(String(bar))] \(percent.leftPadding(3))%")
        lines.append(contentsOf: card(scale: s.cardScale, alpha: s.cardAlpha))
        lines.append(s.decision.isEmpty ? "decision   —" : "decision   \(s.decision)")
        lines.append(s.footer)
        return lines
    }

    /// A box standing for the presented card, shrinking with its scale; drawn fainter as it fades.
    static func card(scale: Double, alpha: Double) -> [String] {
        let s = min(max(scale.isFinite ? scale : 1, 0), 1.2)
        let w = max(2, Int((Double(cardAreaWidth - 4) * s).rounded()))
        let h = max(2, Int((Double(cardAreaHeight - 1) * s).rounded()))
        let fill: Character = alpha > 0.66 ? " " : (alpha > 0.33 ? "·" : " ")
        let edge: (Character, Character, Character, Character, Character, Character) =
            alpha > 0.33 ? ("┌", "┐", "└", "┘", "─", "│") : ("+", "+", "+", "+", "-", ":")
        let left = (cardAreaWidth - w) / 2
        var rows: [String] = []
        let top = (cardAreaHeight - h) / 2
        for r in 0..<cardAreaHeight {
            var row = String(repeating: " ", count: left)
            if r == top {
                row += String(edge.0) + String(repeating: edge.4, count: w - 2) + String(edge.1)
            } else if r == top + h - 1 {
                row += String(edge.2) + String(repeating: edge.4, count: w - 2) + String(edge.3)
            } else if r > top && r < top + h - 1 {
                row += String(edge.5) + String(repeating: fill, count: w - 2) + String(edge.5)
            }
            rows.append("           " + row)
        }
        return rows
    }
}

extension String {
    func padding(_ width: Int) -> String { count >= width ? self + " " : self + String(repeating: " ", count: width - count) }
    func leftPadding(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
