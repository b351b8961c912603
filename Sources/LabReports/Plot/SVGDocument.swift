/// A minimal SVG writer: elements appended as text, numbers printed with fixed precision so the
/// same timeline always gives the same bytes. Every text drawn is kept with its estimated box, so
/// layout can be checked without a renderer (and against one: `class` names each text's role).
struct SVGDocument {
    enum Anchor: String { case start, middle, end }

    private(set) var body: [String] = []
    /// Each text drawn, with the box `TextMetrics` expects it to cover.
    private(set) var texts: [(text: String, box: Box, role: String)] = []
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

    /// XML-safe text on one line (`XMLText`).
    static func escape(_ text: String) -> String { XMLText.escape(text, whitespace: .asSpaces) }

    private static func attributes(_ pairs: [(String, String?)]) -> String {
        pairs.compactMap { name, value in value.map { " \(name)=\"\($0)\"" } }.joined()
    }

    mutating func rect(x: Double, y: Double, width: Double, height: Double, fill: String, stroke: String = "none", radius: Double = 0,
                       dash: String? = nil, opacity: Double? = nil, role: String? = nil) {
        body.append("<rect x=\"\(Self.number(x))\" y=\"\(Self.number(y))\" width=\"\(Self.number(width))\" height=\"\(Self.number(height))\" rx=\"\(Self.number(radius))\" fill=\"\(fill)\" stroke=\"\(stroke)\""
            + Self.attributes([("stroke-dasharray", dash), ("fill-opacity", opacity.map { Self.number($0) }), ("class", role)]) + "/>")
    }

    mutating func line(x1: Double, y1: Double, x2: Double, y2: Double, stroke: String, width: Double = 1, dash: String? = nil,
                       opacity: Double? = nil, role: String? = nil) {
        body.append("<line x1=\"\(Self.number(x1))\" y1=\"\(Self.number(y1))\" x2=\"\(Self.number(x2))\" y2=\"\(Self.number(y2))\" stroke=\"\(stroke)\" stroke-width=\"\(Self.number(width))\""
            + Self.attributes([("stroke-dasharray", dash), ("stroke-opacity", opacity.map { Self.number($0) }), ("class", role)]) + "/>")
    }

    mutating func polyline(_ points: [(Double, Double)], stroke: String, width: Double = 1.5, dash: String? = nil,
                           opacity: Double? = nil, role: String? = nil) {
        guard points.count > 1 else { return }
        let list = Self.thinned(points).map { "\(Self.number($0.0)),\(Self.number($0.1))" }.joined(separator: " ")
        body.append("<polyline points=\"\(list)\" fill=\"none\" stroke=\"\(stroke)\" stroke-width=\"\(Self.number(width))\" stroke-linejoin=\"round\""
            + Self.attributes([("stroke-dasharray", dash), ("stroke-opacity", opacity.map { Self.number($0) }), ("class", role)]) + "/>")
    }

    /// `points` less those within a quarter pixel of the last one kept (the last point always
    /// stays): a long recording's thousands of samples per line, most on the same pixel, shrink to
    /// what can be seen.
    static func thinned(_ points: [(Double, Double)]) -> [(Double, Double)] {
        guard var last = points.first else { return [] }
        var kept = [last]
        for point in points.dropFirst().dropLast() {
            let dx = point.0 - last.0, dy = point.1 - last.1
            if dx * dx + dy * dy >= 0.0625 { kept.append(point); last = point }
        }
        if points.count > 1 { kept.append(points[points.count - 1]) }
        return kept
    }

    mutating func polygon(_ points: [(Double, Double)], fill: String, stroke: String = "none", width: Double = 1,
                          role: String? = nil) {
        let list = points.map { "\(Self.number($0.0)),\(Self.number($0.1))" }.joined(separator: " ")
        body.append("<polygon points=\"\(list)\" fill=\"\(fill)\" stroke=\"\(stroke)\" stroke-width=\"\(Self.number(width))\""
            + Self.attributes([("class", role)]) + "/>")
    }

    mutating func circle(cx: Double, cy: Double, r: Double, fill: String, stroke: String = "none", width: Double = 1) {
        body.append("<circle cx=\"\(Self.number(cx))\" cy=\"\(Self.number(cy))\" r=\"\(Self.number(r))\" fill=\"\(fill)\""
            + (stroke == "none" ? "" : " stroke=\"\(stroke)\" stroke-width=\"\(Self.number(width))\"") + "/>")
    }

    /// Draws `content` on one line and returns the box it covers. `role` becomes the element's class
    /// (tests measure each role's boxes in a browser).
    @discardableResult
    mutating func text(_ content: String, x: Double, y: Double, size: Double = 12, anchor: Anchor = .start,
                       fill: String = "#222", weight: String = "normal", role: String = "label") -> Box {
        body.append("<text x=\"\(Self.number(x))\" y=\"\(Self.number(y))\" font-family=\"\(TextMetrics.fontFamily)\" font-size=\"\(Self.number(size))\" text-anchor=\"\(anchor.rawValue)\" fill=\"\(fill)\" font-weight=\"\(weight)\" class=\"\(role)\">\(Self.escape(content))</text>")
        let box = TextMetrics.box(content, x: x, baseline: y, size: size, anchor: anchor)
        texts.append((content, box, role))
        return box
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
