/// Draws a replay as an SVG picture. Left: the finger tracks on the device's surface, the same
/// zoomed to where the fingers moved, and what happened in words. Right: the gesture's scale or
/// translation over time, and the transition's progress over time with the threshold line; both
/// with the gesture's begin, the release and the finish or cancel marked on a shared time axis.
public enum TimelinePlot {
    static let palette = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"]

    static let canvasWidth = 1000.0
    static let canvasHeight = 640.0
    static let leftX = 20.0, leftWidth = 380.0
    static let chartX = 470.0, chartWidth = 500.0
    /// Rows of marker labels above each chart (labels never overlap on a row).
    static let markerLabelRows = 3
    static let markerLabelSize = 10.0
    static let markerRowHeight = 12.0

    public static func svg(_ timeline: ReplayTimeline) -> String {
        var doc = SVGDocument(width: canvasWidth, height: canvasHeight)
        doc.text(timeline.title, x: leftX, y: 28, size: 16, weight: "bold")
        doc.text("outcome: \(timeline.outcome)" + (timeline.reason.isEmpty ? "" : " — \(timeline.reason)"),
                 x: leftX, y: 48, size: 12, fill: "#444")

        let zoom = TrackPanels.zoomRegion(timeline)
        let surfaceBottom = TrackPanels.drawSurface(&doc, timeline, x: leftX, y: 70, maxWidth: leftWidth, maxHeight: 230, zoomed: zoom)
        var factsTop = surfaceBottom + 24
        if let zoom {
            factsTop = TrackPanels.drawZoomed(&doc, timeline, region: zoom, x: leftX, y: surfaceBottom + 16,
                                              maxWidth: leftWidth, maxHeight: 190) + 28
        }
        let factsBottom = drawFacts(&doc, timeline.facts, x: leftX, y: factsTop)

        let duration = max(timeline.duration, 0.001)
        let gestureChart = Chart(x: chartX, y: 70, width: chartWidth, plotHeight: 170, duration: duration)
        if !timeline.scale.isEmpty {
            gestureChart.draw(&doc, timeline.scale, title: "pinch scale (1 at the gesture's begin)", color: palette[0],
                              range: PlotAxis.range(of: timeline.scale.map(\.value), including: [1]),
                              markers: timeline.markers, guide: 1)
        } else if !timeline.translationMM.isEmpty {
            gestureChart.draw(&doc, timeline.translationMM, title: "pan translation down (mm)", color: palette[0],
                              range: PlotAxis.range(of: timeline.translationMM.map(\.value), including: [0]),
                              markers: timeline.markers, guide: 0)
        } else {
            gestureChart.drawEmpty(&doc, title: "gesture", note: "no gesture was recognized")
        }

        let progressChart = Chart(x: chartX, y: 360, width: chartWidth, plotHeight: 170, duration: duration)
        if timeline.progress.isEmpty {
            progressChart.drawEmpty(&doc, title: "transition progress", note: "the transition never started")
        } else {
            // A spring may overshoot past 1 (or below 0 when cancelling): the axis keeps it in view.
            progressChart.draw(&doc, timeline.progress, title: "transition progress", color: palette[2],
                               range: PlotAxis.range(of: timeline.progress.map(\.value), including: [0, 1], padFraction: 0.03),
                               markers: timeline.markers, guide: timeline.progressThreshold,
                               guideLabel: timeline.progressThreshold.map { "threshold \(SVGDocument.number($0))" })
        }
        doc.height = max(canvasHeight, factsBottom + 20)
        return doc.rendered
    }

    /// Returns the bottom of what it drew.
    static func drawFacts(_ doc: inout SVGDocument, _ facts: [String], x: Double, y: Double) -> Double {
        guard !facts.isEmpty else { return y }
        doc.text("what happened", x: x, y: y, size: 12)
        // Sans-serif at 11 px averages about 0.55 em a character.
        let characterWidth = 11 * 0.55
        let perLine = Int(leftWidth / characterWidth)
        var lineY = y + 18
        for fact in facts {
            // Long facts (a policy's reason) wrap at a word rather than run under the charts.
            for (index, piece) in wrapped(fact, width: perLine).enumerated() {
                doc.text((index > 0 ? "   " : "") + piece, x: x, y: lineY, size: 11, fill: "#333")
                lineY += 15
            }
        }
        return lineY
    }

    /// `text` in lines of at most `width` characters, broken at spaces where possible.
    static func wrapped(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            if !current.isEmpty && current.count + 1 + word.count > width {
                lines.append(current)
                current = String(word)
            } else {
                current += (current.isEmpty ? "" : " ") + word
            }
        }
        if !current.isEmpty || lines.isEmpty { lines.append(current) }
        return lines
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

    static func color(of marker: ReplayTimeline.Marker.Kind) -> String {
        switch marker {
        case .began: return "#777"
        case .release: return "#ff7f0e"
        case .finish: return "#2ca02c"
        case .cancel, .gestureCancelled: return "#d62728"
        }
    }

    /// One chart over time: a title, a band of marker labels, the plot with value and time ticks.
    struct Chart {
        let x: Double, y: Double, width: Double, plotHeight: Double, duration: Double
        var bandTop: Double { y + 18 }
        var plotTop: Double { bandTop + Double(TimelinePlot.markerLabelRows) * TimelinePlot.markerRowHeight + 4 }
        var plotBottom: Double { plotTop + plotHeight }

        func px(_ time: Double) -> Double { x + time / duration * width }

        func drawEmpty(_ doc: inout SVGDocument, title: String, note: String) {
            doc.text(title, x: x, y: y + 10, size: 12)
            doc.rect(x: x, y: plotTop, width: width, height: plotHeight, fill: "#fafafa", stroke: "#bbb")
            doc.text(note, x: x + width / 2, y: plotTop + plotHeight / 2, size: 13, anchor: "middle", fill: "#888")
        }

        func draw(_ doc: inout SVGDocument, _ samples: [ReplayTimeline.ValueSample], title: String, color: String,
                  range: ClosedRange<Double>, markers: [ReplayTimeline.Marker], guide: Double?, guideLabel: String? = nil) {
            func py(_ value: Double) -> Double {
                plotTop + (1 - (value - range.lowerBound) / (range.upperBound - range.lowerBound)) * plotHeight
            }
            doc.text(title, x: x, y: y + 10, size: 12)
            doc.rect(x: x, y: plotTop, width: width, height: plotHeight, fill: "#fafafa", stroke: "#bbb")
            for value in PlotAxis.ticks(in: range, target: 4) {
                doc.line(x1: x, y1: py(value), x2: x + width, y2: py(value), stroke: "#e6e6e6")
                doc.text(SVGDocument.number(value), x: x - 5, y: py(value) + 3.5, size: 10, anchor: "end", fill: "#666")
            }
            let timeTicks = PlotAxis.ticks(in: 0...duration, target: 6)
            for (index, time) in timeTicks.enumerated() {
                doc.line(x1: px(time), y1: plotTop, x2: px(time), y2: plotBottom, stroke: "#eeeeee")
                doc.line(x1: px(time), y1: plotBottom, x2: px(time), y2: plotBottom + 4, stroke: "#999")
                let label = SVGDocument.number(time) + (index == timeTicks.count - 1 ? " s" : "")
                doc.text(label, x: px(time), y: plotBottom + 15, size: 10, anchor: "middle", fill: "#666")
            }
            if let guide, range.contains(guide) {
                doc.line(x1: x, y1: py(guide), x2: x + width, y2: py(guide), stroke: "#888", dash: "6 4")
            }
            drawMarkers(&doc, markers)
            doc.polyline(samples.map { (px($0.time), py($0.value)) }, stroke: color, width: 2)
            if let guide, let guideLabel, range.contains(guide) {
                // At the right end, on a backing so the curve and the marker lines do not strike it through.
                let w = TimelinePlot.labelWidth(guideLabel, size: 10)
                let labelY = py(guide) - 4
                doc.rect(x: x + width - w - 8, y: labelY - 10, width: w + 4, height: 13, fill: "#ffffff", opacity: 0.85)
                doc.text(guideLabel, x: x + width - 6, y: labelY, size: 10, anchor: "end", fill: "#555")
            }
        }

        /// Lines through the plot at each marker's time; labels in the band above, on rows so none
        /// overlap, hanging left of their line near the right edge.
        func drawMarkers(_ doc: inout SVGDocument, _ markers: [ReplayTimeline.Marker]) {
            let ordered = markers.sorted { $0.time < $1.time }
            let size = TimelinePlot.markerLabelSize
            let extents = ordered.map { marker -> (left: Double, right: Double) in
                let w = TimelinePlot.labelWidth(marker.label, size: size)
                let at = px(marker.time)
                return at > x + width - w - 6 ? (at - 3 - w, at - 3) : (at + 3, at + 3 + w)
            }
            let rows = TimelinePlot.labelRows(extents, rows: TimelinePlot.markerLabelRows)
            for (index, marker) in ordered.enumerated() {
                let color = TimelinePlot.color(of: marker.kind)
                let at = px(marker.time)
                let labelY = bandTop + 10 + Double(rows[index]) * TimelinePlot.markerRowHeight
                doc.line(x1: at, y1: labelY - 9, x2: at, y2: plotBottom, stroke: color, width: 1.5, dash: "3 3")
                let hangsLeft = extents[index].right <= at
                doc.text(marker.label, x: hangsLeft ? extents[index].right : extents[index].left, y: labelY,
                         size: size, anchor: hangsLeft ? "end" : "start", fill: color)
            }
        }
    }
}
