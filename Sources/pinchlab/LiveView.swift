import GestureKit
import Glibc
import SystemPackage

/// What the live screen shows at one moment. Plain numbers, filled in by the live command.
struct LiveSnapshot {
    var header: String
    var deviceLine: String
    var gestureLine: String = "gesture    (waiting for two fingers)"
    /// The gesture's numbers, on a line of their own so both fit 80 columns.
    var gestureValues: String = ""
    var transitionName: String
    var transitionState: String = "idle"
    var progress: Double = 0
    var threshold: Double? = 0.5
    /// The card's scale and alpha from the transition's scene at this progress.
    var cardScale: Double = 1
    var cardAlpha: Double = 1
    /// The card's centre relative to the container: (0.5, 0.5) is the middle, (0, 0) the top left.
    var cardCenterX: Double = 0.5
    var cardCenterY: Double = 0.5
    var decision: String = ""
    /// `live --tool`: the last gesture a tool would have acted on.
    var toolLine: String = ""
    var footer: String = "Ctrl-C to quit"
}

/// Draws a `LiveSnapshot` in the terminal, updating in place: it moves the cursor back up over the
/// lines it drew last time instead of scrolling. Restores the cursor when told to stop.
///
/// Every line fits the terminal's width: a line the terminal wrapped would take two rows, and moving
/// back up by the number of lines drawn would then land in the wrong place and scroll garbage.
struct LiveView {
    static let maximumBarWidth = 40
    static let minimumBarWidth = 10
    static let cardAreaWidth = 44
    static let cardAreaHeight = 9
    /// Used when the width cannot be read (not a terminal): the classic 80 columns.
    static let fallbackColumns = 80
    private var linesDrawn = 0

    static let hideCursor = "\u{1B}[?25l"
    static let showCursor = "\u{1B}[?25h"
    static let clearLine = "\u{1B}[2K"

    mutating func draw(_ snapshot: LiveSnapshot, columns: Int) -> String {
        let lines = Self.render(snapshot, columns: columns)
        var out = linesDrawn > 0 ? "\u{1B}[\(linesDrawn)A" : Self.hideCursor
        for line in lines { out += "\r" + Self.clearLine + line + "\n" }
        linesDrawn = lines.count
        return out
    }

    /// The screen's lines, none longer than `columns - 1` characters (writing the last column makes
    /// some terminals wrap at once).
    static func render(_ s: LiveSnapshot, columns: Int) -> [String] {
        let width = max(20, columns) - 1
        var lines = [s.header, s.deviceLine, s.gestureLine, s.gestureValues]
        let p = min(max(s.progress.isFinite ? s.progress : 0, 0), 1)
        let percent = String(Int((p * 100).rounded()))
        let head = "transition \(s.transitionName)  \(s.transitionState.padding(11))"
        let tail = "] \(percent.leftPadding(3))%"
        if head.count + 1 + minimumBarWidth + tail.count <= width {
            let barWidth = min(maximumBarWidth, width - head.count - 1 - tail.count)
            lines.append(head + "[" + bar(p, threshold: s.threshold, width: barWidth) + tail)
        } else {
            // A narrow terminal (40 columns): the bar and its percentage get a line of their own
            // rather than being cut off the end of the transition's line.
            lines.append(head.trimmingCharacters(in: .whitespaces))
            let barWidth = min(maximumBarWidth, max(1, width - 1 - tail.count))
            lines.append("[" + bar(p, threshold: s.threshold, width: barWidth) + tail)
        }
        lines.append(contentsOf: card(scale: s.cardScale, alpha: s.cardAlpha, centerX: s.cardCenterX, centerY: s.cardCenterY,
                                      areaWidth: min(cardAreaWidth, width - cardIndent.count)))
        lines.append(s.decision.isEmpty ? "decision   —" : "decision   \(s.decision)")
        if !s.toolLine.isEmpty { lines.append("tool       \(s.toolLine)") }
        lines.append(s.footer)
        // Escaped before fitting: the escapes take columns too. Only `draw` adds control sequences.
        return lines.map { fitted(TerminalText.escaped($0), width: width) }
    }

    static func bar(_ progress: Double, threshold: Double?, width: Int) -> String {
        let filled = Int((progress * Double(width)).rounded())
        var bar = Array(String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled))
        if let threshold, threshold > 0, threshold < 1 {
            let mark = min(width - 1, Int((threshold * Double(width)).rounded()))
            bar[mark] = bar[mark] == "█" ? "▓" : "┆"
        }
        return String(bar)
    }

    /// `line` cut to `width` characters, the cut marked with an ellipsis. Every character drawn here
    /// takes one column (box drawing, blocks, °, ·).
    static func fitted(_ line: String, width: Int) -> String {
        line.count <= width ? line : String(line.prefix(width - 1)) + "…"
    }

    static let cardIndent = String(repeating: " ", count: 11)

    /// A box standing for the presented card where the scene has it: shrinking with its scale,
    /// centred where its frame is in the container, drawn fainter as it fades.
    static func card(scale: Double, alpha: Double, centerX: Double = 0.5, centerY: Double = 0.5,
                     areaWidth: Int = cardAreaWidth) -> [String] {
        let s = min(max(scale.isFinite ? scale : 1, 0), 1.2)
        let w = min(areaWidth, max(2, Int((Double(cardAreaWidth - 4) * s).rounded())))
        let h = min(cardAreaHeight, max(2, Int((Double(cardAreaHeight - 1) * s).rounded())))
        let fill: Character = alpha > 0.66 ? " " : (alpha > 0.33 ? "·" : " ")
        let edge: (Character, Character, Character, Character, Character, Character) =
            alpha > 0.33 ? ("┌", "┐", "└", "┘", "─", "│") : ("+", "+", "+", "+", "-", ":")
        func origin(_ center: Double, area: Int, size: Int) -> Int {
            let c = center.isFinite ? min(max(center, 0), 1) : 0.5
            return min(max(Int((c * Double(area) - Double(size) / 2).rounded()), 0), area - size)
        }
        let left = origin(centerX, area: areaWidth, size: w)
        let top = origin(centerY, area: cardAreaHeight, size: h)
        var rows: [String] = []
        for r in 0..<cardAreaHeight {
            var row = String(repeating: " ", count: left)
            if r == top {
                row += String(edge.0) + String(repeating: edge.4, count: w - 2) + String(edge.1)
            } else if r == top + h - 1 {
                row += String(edge.2) + String(repeating: edge.4, count: w - 2) + String(edge.3)
            } else if r > top && r < top + h - 1 {
                row += String(edge.5) + String(repeating: fill, count: w - 2) + String(edge.5)
            }
            rows.append(cardIndent + row)
        }
        return rows
    }
}

/// The terminal's width in columns (TIOCGWINSZ on stdout), read at every draw so a resized window
/// is followed; nil when stdout is not a terminal.
func terminalColumns() -> Int? {
    var size = winsize()
    guard (try? FileDescriptor.standardOutput.control(UInt(TIOCGWINSZ), &size)) != nil, size.ws_col > 0 else { return nil }
    return Int(size.ws_col)
}

extension String {
    func padding(_ width: Int) -> String { count >= width ? self + " " : self + String(repeating: " ", count: width - count) }
    func leftPadding(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
