/// One chart over the shared time axis: a title (with a swatch per line), a band of marker labels
/// laid out on rows above the plot (never over the data, never over each other), the plot with its
/// value ticks, the time ticks and the idle breaks under it.
struct TimeChart {
    /// A label in the band above the plot, pointing down at `time`.
    struct BandLabel {
        var time: Double
        var text: String
        var shape: MarkerShape
        /// A shorter text for when the full ones need too many rows.
        var short: String
    }

    /// A line drawn in the plot.
    struct Line {
        var name: String
        var color: String
        var series: ReplayTimeline.Series
        var dash: String? = nil
        var width = 2.0
    }

    static let labelSize = 10.0
    static let rowHeight = 13.0
    /// Past this many rows the band switches to short labels, then leaves labels out (and says so).
    static let maximumRows = 9
    static let titleHeight = 20.0

    let axis: TimeAxis
    let top: Double
    let plotHeight: Double
    /// The right edge labels may reach (the canvas, less a margin).
    let labelLimit: Double
    private(set) var rows: [Int] = []
    private(set) var labels: [BandLabel] = []
    private(set) var texts: [String] = []
    private(set) var extents: [(left: Double, right: Double)] = []
    /// Labels left out because even short ones needed more than `maximumRows` rows.
    private(set) var omitted = 0

    var x: Double { axis.x }
    var width: Double { axis.width }
    var bandTop: Double { top + Self.titleHeight }
    var rowCount: Int { (rows.max() ?? -1) + 1 }
    var plotTop: Double { bandTop + Double(rowCount) * Self.rowHeight + (rowCount > 0 ? 6 : 0) }
    var plotBottom: Double { plotTop + plotHeight }
    var plotBox: Box { Box(minX: x, minY: plotTop, maxX: x + width, maxY: plotBottom) }

    init(axis: TimeAxis, top: Double, plotHeight: Double, labelLimit: Double, labels: [BandLabel]) {
        self.axis = axis
        self.top = top
        self.plotHeight = plotHeight
        self.labelLimit = labelLimit
        let shown = labels.filter { axis.window.contains($0.time) }.sorted { $0.time < $1.time }
        for useShort in [false, true] {
            let texts = shown.map { useShort ? $0.short : $0.text }
            let extents = zip(shown, texts).map { label, text in Self.extent(of: text, at: axis.px(label.time), limit: labelLimit) }
            let rows = LabelLayout.rows(zip(shown, extents).map { ($1.left, $1.right, axis.px($0.time)) },
                                        maximumRows: Self.maximumRows)
            if (rows.max() ?? -1) < Self.maximumRows || useShort {
                // Whatever still does not fit in the rows is left out, never drawn over another.
                let kept = rows.indices.filter { rows[$0] < Self.maximumRows }
                self.labels = kept.map { shown[$0] }
                self.texts = kept.map { texts[$0] }
                self.extents = kept.map { extents[$0] }
                self.rows = kept.map { rows[$0] }
                omitted = shown.count - kept.count
                break
            }
        }
    }

    /// A label's extent: shape on its line, text to the right, or to the left when it would pass `limit`.
    static func extent(of text: String, at px: Double, limit: Double) -> (left: Double, right: Double) {
        let w = TextMetrics.width(text, size: labelSize)
        let r = MarkerShape.radius
        return px + r + 3 + w > limit ? (px - r - 3 - w, px + r) : (px - r, px + r + 3 + w)
    }

    /// The title, with a swatch and name for each line after it.
    func drawTitle(_ doc: inout SVGDocument, _ title: String, lines: [Line]) {
        let box = doc.text(title, x: x, y: top + 12, size: 12, role: "title")
        var at = box.maxX + 14
        for line in lines {
            doc.line(x1: at, y1: top + 8, x2: at + 18, y2: top + 8, stroke: line.color, width: line.width, dash: line.dash)
            at = doc.text(line.name, x: at + 22, y: top + 12, size: 10, fill: "#444", role: "title").maxX + 14
        }
    }

    /// The plot's frame, value ticks and grid, the idle breaks, the marker lines and band labels.
    func drawFrame(_ doc: inout SVGDocument, range: ClosedRange<Double>, valueDecimals: Int = 2) {
        doc.rect(x: x, y: plotTop, width: width, height: plotHeight, fill: "#fafafa", stroke: "#bbb", role: "plot-area")
        for tick in PlotAxis.ticks(in: range, target: 5) {
            let y = py(tick, range)
            doc.line(x1: x, y1: y, x2: x + width, y2: y, stroke: "#e6e6e6")
            doc.text(SVGDocument.number(tick, decimals: valueDecimals), x: x - 6, y: y + 3.5, size: 10, anchor: .end, fill: "#666",
                     role: "tick")
        }
        for b in axis.breaks {
            // The cut: a pale band across the plot with a double slash on the frame at top and bottom.
            doc.rect(x: b.x0 + 3, y: plotTop, width: b.x1 - b.x0 - 6, height: plotHeight, fill: "#eeeeee")
            for y in [plotTop, plotBottom] {
                doc.rect(x: b.x0 + 3, y: y - 4, width: b.x1 - b.x0 - 6, height: 8, fill: "#ffffff")
                doc.line(x1: b.x0 + 2, y1: y + 5, x2: b.x0 + 8, y2: y - 5, stroke: "#666", width: 1.2)
                doc.line(x1: b.x1 - 8, y1: y + 5, x2: b.x1 - 2, y2: y - 5, stroke: "#666", width: 1.2)
            }
        }
        drawBand(&doc)
    }

    /// The marker lines (from their label down through the plot) and the labels on their rows.
    private func drawBand(_ doc: inout SVGDocument) {
        for (index, label) in labels.enumerated() {
            let at = axis.px(label.time)
            let rowY = bandTop + Double(rows[index]) * Self.rowHeight + Self.rowHeight / 2
            doc.line(x1: at, y1: rowY + MarkerShape.radius, x2: at, y2: plotBottom, stroke: label.shape.color, width: 1,
                     dash: "3 3", opacity: 0.6)
            label.shape.draw(&doc, x: at, y: rowY)
            let hangsLeft = extents[index].right <= at + MarkerShape.radius + 0.01
            doc.text(texts[index], x: hangsLeft ? at - MarkerShape.radius - 3 : at + MarkerShape.radius + 3, y: rowY + 3.5,
                     size: Self.labelSize, anchor: hangsLeft ? .end : .start, fill: Self.textColor(of: label.shape),
                     role: "marker-label")
        }
    }

    /// A darker shade for text in a marker's colour (orange text on white is hard to read).
    static func textColor(of shape: MarkerShape) -> String {
        switch shape {
        case .release: return "#b35900"
        case .finished: return "#1e7a1e"
        default: return shape.color
        }
    }

    func py(_ value: Double, _ range: ClosedRange<Double>) -> Double {
        let clamped = min(max(value, range.lowerBound), range.upperBound)
        return plotTop + (1 - (clamped - range.lowerBound) / (range.upperBound - range.lowerBound)) * plotHeight
    }

    func drawLines(_ doc: inout SVGDocument, _ lines: [Line], range: ClosedRange<Double>) {
        for line in lines {
            for run in line.series.runs {
                for piece in axis.pieces(of: run) {
                    doc.polyline(piece.map { (axis.px($0.time), py($0.value, range)) }, stroke: line.color, width: line.width,
                                 dash: line.dash, role: "data")
                }
            }
        }
    }

    /// A dashed line across the plot at `value`, named in the right margin.
    func drawGuide(_ doc: inout SVGDocument, _ value: Double, range: ClosedRange<Double>, label: String?) {
        guard range.contains(value) else { return }
        let y = py(value, range)
        doc.line(x1: x, y1: y, x2: x + width, y2: y, stroke: "#888", dash: "6 4")
        if let label { doc.text(label, x: x + width + 6, y: y + 3.5, size: 10, fill: "#555", role: "guide-label") }
    }

    /// The note across an empty plot.
    func drawNote(_ doc: inout SVGDocument, _ note: String) {
        doc.text(note, x: x + width / 2, y: plotTop + plotHeight / 2, size: 13, anchor: .middle, fill: "#888", role: "note")
    }

    /// Time ticks under the plot (a label is left out rather than drawn over another or over a
    /// break), then each break's idle time on rows below. Returns the bottom of what it drew.
    func drawTimeAxis(_ doc: inout SVGDocument) -> Double {
        let ticks = axis.ticks()
        let decimals = axis.tickDecimals(ticks)
        let labelY = plotBottom + 14
        var placed: [Box] = axis.breaks.map { Box(minX: $0.x0, minY: plotBottom, maxX: $0.x1, maxY: labelY + 4) }
        for tick in ticks {
            let at = axis.px(tick)
            doc.line(x1: at, y1: plotBottom, x2: at, y2: plotBottom + 4, stroke: "#888")
            let text = SVGDocument.number(tick, decimals: decimals)
            let box = TextMetrics.box(text, x: at, baseline: labelY, size: 10, anchor: .middle)
            guard !placed.contains(where: { $0.intersects(box, gap: 3) }), box.maxX <= x + width + 12 else { continue }
            placed.append(box)
            doc.text(text, x: at, y: labelY, size: 10, anchor: .middle, fill: "#666", role: "tick")
        }
        doc.text("s", x: x + width + 16, y: labelY, size: 10, fill: "#666", role: "tick")
        // Idle breaks: "9.4 s idle" centred under each, on as many rows as they need.
        let breakTexts = axis.breaks.map { "\(SVGDocument.number($0.idleSeconds, decimals: 1)) s idle" }
        let breakExtents = zip(axis.breaks, breakTexts).map { b, text -> (left: Double, right: Double) in
            let w = TextMetrics.width(text, size: 9), mid = (b.x0 + b.x1) / 2
            return (mid - w / 2, mid + w / 2)
        }
        let breakRows = LabelLayout.rows(breakExtents)
        var bottom = labelY + 4
        for (index, b) in axis.breaks.enumerated() {
            let y = labelY + 13 + Double(breakRows[index]) * 12
            let mid = (b.x0 + b.x1) / 2
            doc.line(x1: mid, y1: labelY - 8, x2: mid, y2: y - 8, stroke: "#aaa", width: 0.8)
            doc.text(breakTexts[index], x: mid, y: y, size: 9, anchor: .middle, fill: "#777", role: "break-label")
            bottom = max(bottom, y + 3)
        }
        return bottom
    }
}
