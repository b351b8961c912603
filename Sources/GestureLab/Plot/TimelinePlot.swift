/// Draws a replay as an SVG picture: the finger tracks on the device's surface (left), the
/// gesture's scale or translation over time (top right) and the transition's progress over time
/// with the threshold line, the release and the finish or cancel marked (bottom right).
public enum TimelinePlot {
    static let palette = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"]

    public static func svg(_ timeline: ReplayTimeline) -> String {
        let width = 1000.0, height = 560.0
        var doc = SVGDocument(width: width, height: height)
        doc.text(timeline.title, x: 20, y: 28, size: 16, weight: "bold")
        doc.text("outcome: \(timeline.outcome)" + (timeline.reason.isEmpty ? "" : " — \(timeline.reason)"),
                 x: 20, y: 48, size: 12, fill: "#444")
        drawSurface(&doc, timeline, x: 20, y: 70, maxWidth: 380, maxHeight: 460)
        let duration = max(timeline.duration, 0.001)
        if !timeline.scale.isEmpty {
            drawSeries(&doc, timeline.scale, title: "pinch scale", x: 440, y: 70, width: 530, height: 200,
                       duration: duration, range: seriesRange(timeline.scale, including: [1]), color: palette[0],
                       markers: timeline.markers, guide: 1)
        } else if !timeline.translationMM.isEmpty {
            drawSeries(&doc, timeline.translationMM, title: "pan translation down (mm)", x: 440, y: 70, width: 530,
                       height: 200, duration: duration, range: seriesRange(timeline.translationMM, including: [0]),
                       color: palette[0], markers: timeline.markers, guide: nil)
        } else {
            drawEmpty(&doc, title: "gesture", note: "no gesture of this transition's kind was recognized",
                      x: 440, y: 70, width: 530, height: 200)
        }
        if timeline.progress.isEmpty {
            drawEmpty(&doc, title: "transition progress", note: "the transition never started", x: 440, y: 320,
                      width: 530, height: 200)
        } else {
            // A spring may overshoot past 1 (or below 0 when cancelling): the axis keeps it in view.
            let values = timeline.progress.map(\.value)
            let range = min(0, values.min() ?? 0)...max(1, values.max() ?? 1)
            drawSeries(&doc, timeline.progress, title: "transition progress", x: 440, y: 320, width: 530, height: 200,
                       duration: duration, range: range, color: palette[2], markers: timeline.markers,
                       guide: timeline.progressThreshold,
                       guideLabel: timeline.progressThreshold.map { "threshold \(SVGDocument.number($0))" })
        }
        return doc.rendered
    }

    static func drawEmpty(_ doc: inout SVGDocument, title: String, note: String, x: Double, y: Double, width: Double,
                          height: Double) {
        let top = y + 20, plotHeight = height - 20
        doc.text(title, x: x, y: y + 10, size: 12)
        doc.rect(x: x, y: top, width: width, height: plotHeight, fill: "#fafafa", stroke: "#bbb")
        doc.text(note, x: x + width / 2, y: top + plotHeight / 2, size: 13, anchor: "middle", fill: "#888")
    }

    /// Approximate width of a label in pixels (SVG gives no text metrics without a renderer).
    static func labelWidth(_ text: String, size: Double) -> Double { Double(text.count) * size * 0.6 }

    /// A row for each marker label, lowest first, such that no two labels on one row overlap; the
    /// labels are `(left, right)` extents in time order.
    static func labelRows(_ extents: [(left: Double, right: Double)], rows: Int) -> [Int] {
        var rightEdge = [Double](repeating: -Double.infinity, count: rows)
        return extents.map { extent in
            let row = rightEdge.firstIndex { $0 + 4 <= extent.left } ?? rightEdge.indices.min { rightEdge[$0] < rightEdge[$1] }!
            rightEdge[row] = extent.right
            return row
        }
    }

    static func seriesRange(_ samples: [ReplayTimeline.ValueSample], including extra: [Double]) -> ClosedRange<Double> {
        let values = samples.map(\.value) + extra
        var low = values.min() ?? 0, high = values.max() ?? 1
        if high - low < 1e-6 { low -= 0.5; high += 0.5 }
        let pad = (high - low) * 0.08
        return (low - pad)...(high + pad)
    }

    static func drawSurface(_ doc: inout SVGDocument, _ t: ReplayTimeline, x: Double, y: Double, maxWidth: Double, maxHeight: Double) {
        let w = max(t.surfaceWidthMM, 1), h = max(t.surfaceHeightMM, 1)
        let scale = min(maxWidth / w, (maxHeight - 20) / h)
        let top = y + 20
        doc.text("finger tracks on the surface (\(SVGDocument.number(w)) x \(SVGDocument.number(h)) mm)", x: x, y: y + 10, size: 12)
        doc.rect(x: x, y: top, width: w * scale, height: h * scale, fill: "#f4f4f4", stroke: "#999", radius: 6)
        for (i, track) in t.fingerTracks.enumerated() {
            let color = palette[i % palette.count]
            let points = track.map { (x + $0.position.x * scale, top + $0.position.y * scale) }
            doc.polyline(points, stroke: color, width: 2)
            if let first = points.first { doc.circle(cx: first.0, cy: first.1, r: 4, fill: color) }
            if let last = points.last {
                doc.line(x1: last.0 - 4, y1: last.1 - 4, x2: last.0 + 4, y2: last.1 + 4, stroke: color, width: 2)
                doc.line(x1: last.0 - 4, y1: last.1 + 4, x2: last.0 + 4, y2: last.1 - 4, stroke: color, width: 2)
            }
        }
        doc.text("● touch down   ✕ lift", x: x, y: top + h * scale + 16, size: 11, fill: "#555")
    }

    static func drawSeries(_ doc: inout SVGDocument, _ samples: [ReplayTimeline.ValueSample], title: String,
                           x: Double, y: Double, width: Double, height: Double, duration: Double,
                           range: ClosedRange<Double>, color: String, markers: [ReplayTimeline.Marker],
                           guide: Double?, guideLabel: String? = nil) {
        let top = y + 20, plotHeight = height - 20
        func px(_ time: Double) -> Double { x + time / duration * width }
        func py(_ value: Double) -> Double {
            top + (1 - (value - range.lowerBound) / (range.upperBound - range.lowerBound)) * plotHeight
        }
        doc.text(title, x: x, y: y + 10, size: 12)
        doc.rect(x: x, y: top, width: width, height: plotHeight, fill: "#fafafa", stroke: "#bbb")
        doc.text(SVGDocument.number(range.upperBound), x: x - 4, y: top + 10, size: 10, anchor: "end", fill: "#666")
        doc.text(SVGDocument.number(range.lowerBound), x: x - 4, y: top + plotHeight, size: 10, anchor: "end", fill: "#666")
        doc.text("\(SVGDocument.number(duration)) s", x: x + width, y: top + plotHeight + 14, size: 10, anchor: "end", fill: "#666")
        if let guide, range.contains(guide) {
            doc.line(x1: x, y1: py(guide), x2: x + width, y2: py(guide), stroke: "#888", dash: "6 4")
            if let guideLabel { doc.text(guideLabel, x: x + 4, y: py(guide) - 4, size: 10, fill: "#666") }
        }
        let labelSize = 10.0
        let ordered = markers.sorted { $0.time < $1.time }
        let extents = ordered.map { marker -> (left: Double, right: Double) in
            let w = labelWidth(marker.label, size: labelSize)
            let nearRightEdge = px(marker.time) > x + width - w - 6
            return nearRightEdge ? (px(marker.time) - 3 - w, px(marker.time) - 3) : (px(marker.time) + 3, px(marker.time) + 3 + w)
        }
        let rows = labelRows(extents, rows: 4)
        for (index, marker) in ordered.enumerated() {
            let color: String
            switch marker.kind {
            case .began: color = "#999"
            case .release: color = "#ff7f0e"
            case .finish: color = "#2ca02c"
            case .cancel, .gestureCancelled: color = "#d62728"
            }
            doc.line(x1: px(marker.time), y1: top, x2: px(marker.time), y2: top + plotHeight, stroke: color, width: 1.5, dash: "3 3")
            // Near the right edge a label hangs to the left of its line.
            let extent = extents[index]
            let hangsLeft = extent.right <= px(marker.time)
            doc.text(marker.label, x: hangsLeft ? extent.right : extent.left, y: top + 12 + Double(rows[index]) * 12,
                     size: labelSize, anchor: hangsLeft ? "end" : "start", fill: color)
        }
        doc.polyline(samples.map { (px($0.time), py($0.value)) }, stroke: color, width: 2)
    }
}
