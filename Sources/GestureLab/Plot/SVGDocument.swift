import GestureKit

/// A minimal SVG writer: elements appended as text, numbers printed with fixed precision so the
/// same timeline always gives the same bytes.
struct SVGDocument {
    private(set) var body: [String] = []
    let width: Double
    /// May grow after drawing, to hold everything drawn.
    var height: Double

    init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// `value` with at most `decimals` decimals and no trailing zeros, the same bytes on every run.
    static func number(_ value: Double, decimals: Int = 2) -> String {
        FixedPoint.string(value, decimals: decimals, trimmingZeros: true)
    }

    static func escape(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }

    mutating func rect(x: Double, y: Double, width: Double, height: Double, fill: String, stroke: String = "none", radius: Double = 0,
                       dash: String? = nil, opacity: Double? = nil) {
        let dashAttribute = dash.map { " stroke-dasharray=\"\($0)\"" } ?? ""
        let opacityAttribute = opacity.map { " fill-opacity=\"\(Self.number($0))\"" } ?? ""
        body.append("<rect x=\"\(Self.number(x))\" y=\"\(Self.number(y))\" width=\"\(Self.number(width))\" height=\"\(Self.number(height))\" rx=\"\(Self.number(radius))\" fill=\"\(fill)\" stroke=\"\(stroke)\"\(dashAttribute)\(opacityAttribute)/>")
    }

    mutating func line(x1: Double, y1: Double, x2: Double, y2: Double, stroke: String, width: Double = 1, dash: String? = nil) {
        let dashAttribute = dash.map { " stroke-dasharray=\"\($0)\"" } ?? ""
        body.append("<line x1=\"\(Self.number(x1))\" y1=\"\(Self.number(y1))\" x2=\"\(Self.number(x2))\" y2=\"\(Self.number(y2))\" stroke=\"\(stroke)\" stroke-width=\"\(Self.number(width))\"\(dashAttribute)/>")
    }

    mutating func polyline(_ points: [(Double, Double)], stroke: String, width: Double = 1.5) {
        guard points.count > 1 else { return }
        let list = points.map { "\(Self.number($0.0)),\(Self.number($0.1))" }.joined(separator: " ")
        body.append("<polyline points=\"\(list)\" fill=\"none\" stroke=\"\(stroke)\" stroke-width=\"\(Self.number(width))\" stroke-linejoin=\"round\"/>")
    }

    mutating func circle(cx: Double, cy: Double, r: Double, fill: String) {
        body.append("<circle cx=\"\(Self.number(cx))\" cy=\"\(Self.number(cy))\" r=\"\(Self.number(r))\" fill=\"\(fill)\"/>")
    }

    mutating func text(_ content: String, x: Double, y: Double, size: Double = 12, anchor: String = "start",
                       fill: String = "#222", weight: String = "normal") {
        body.append("<text x=\"\(Self.number(x))\" y=\"\(Self.number(y))\" font-family=\"sans-serif\" font-size=\"\(Self.number(size))\" text-anchor=\"\(anchor)\" fill=\"\(fill)\" font-weight=\"\(weight)\">\(Self.escape(content))</text>")
    }

    var rendered: String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Self.number(width))\" height=\"\(Self.number(height))\" viewBox=\"0 0 \(Self.number(width)) \(Self.number(height))\">\n"
        out += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"
        out += body.joined(separator: "\n")
        out += "\n</svg>\n"
        return out
    }
}
