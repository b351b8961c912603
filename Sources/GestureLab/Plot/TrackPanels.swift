/// The finger tracks, twice: on the whole surface (where on the device), and zoomed to where the
/// fingers moved (which way, and how far, with a scale bar): a 10 mm pinch on a 290 mm touchscreen
/// is otherwise a few pixels.
enum TrackPanels {
    /// The zoomed view spans at least this much, so sensor noise on a tap is not blown up to fill it.
    static let minimumZoomSpanMM = 10.0
    /// Space around the tracks in the zoomed view, as a fraction of their extent.
    static let zoomMarginFraction = 0.12

    /// A rectangle of the surface, millimetres.
    struct RegionMM {
        var minX, minY, maxX, maxY: Double
        var width: Double { maxX - minX }
        var height: Double { maxY - minY }
    }

    /// The whole surface. Returns the bottom of what it drew.
    @discardableResult
    static func drawSurface(_ doc: inout SVGDocument, _ t: ReplayTimeline, x: Double, y: Double,
                            maxWidth: Double, maxHeight: Double, zoomed: RegionMM?) -> Double {
        let w = max(t.surfaceWidthMM, 1), h = max(t.surfaceHeightMM, 1)
        let top = y + 20
        let scale = min(maxWidth / w, (maxHeight - 20) / h)
        doc.text("finger tracks on the surface (\(SVGDocument.number(w)) x \(SVGDocument.number(h)) mm)", x: x, y: y + 10, size: 12)
        doc.rect(x: x, y: top, width: w * scale, height: h * scale, fill: "#f4f4f4", stroke: "#999", radius: 6)
        if let zoomed {
            doc.rect(x: x + zoomed.minX * scale, y: top + zoomed.minY * scale, width: zoomed.width * scale,
                     height: zoomed.height * scale, fill: "none", stroke: "#bbb", dash: "3 2")
        }
        drawTracks(&doc, t, originX: x, originY: top, offsetMM: (0, 0), scale: scale, markerRadius: 3)
        return top + h * scale
    }

    /// The region the zoomed view shows, in mm: the tracks' extent with a margin, at least
    /// `minimumZoomSpanMM` wide and high, nil when there are no tracks.
    static func zoomRegion(_ t: ReplayTimeline) -> RegionMM? {
        let points = t.fingerTracks.flatMap { $0.map(\.position) }.filter { $0.x.isFinite && $0.y.isFinite }
        guard let first = points.first else { return nil }
        var minX = first.x, maxX = first.x, minY = first.y, maxY = first.y
        for p in points {
            minX = min(minX, p.x); maxX = max(maxX, p.x); minY = min(minY, p.y); maxY = max(maxY, p.y)
        }
        let spanX = max(maxX - minX, minimumZoomSpanMM), spanY = max(maxY - minY, minimumZoomSpanMM)
        let midX = (minX + maxX) / 2, midY = (minY + maxY) / 2
        let halfX = spanX * (0.5 + zoomMarginFraction), halfY = spanY * (0.5 + zoomMarginFraction)
        return RegionMM(minX: midX - halfX, minY: midY - halfY, maxX: midX + halfX, maxY: midY + halfY)
    }

    /// The zoomed view with a scale bar and each finger numbered where it touched down.
    @discardableResult
    static func drawZoomed(_ doc: inout SVGDocument, _ t: ReplayTimeline, region: RegionMM,
                           x: Double, y: Double, maxWidth: Double, maxHeight: Double) -> Double {
        let w = region.width, h = region.height
        let top = y + 20
        let scale = min(maxWidth / w, (maxHeight - 20) / h)
        doc.text("zoomed to the touches (the dashed box)", x: x, y: y + 10, size: 12)
        doc.rect(x: x, y: top, width: w * scale, height: h * scale, fill: "#fafafa", stroke: "#bbb", radius: 4)
        drawTracks(&doc, t, originX: x, originY: top, offsetMM: (region.minX, region.minY), scale: scale, markerRadius: 4,
                   numbered: true)
        // A scale bar of a round length, about a fifth of the view, under it (inside, it could hide a track).
        let barMM = PlotAxis.roundStep(w / 5)
        let barY = top + h * scale + 10
        doc.line(x1: x, y1: barY, x2: x + barMM * scale, y2: barY, stroke: "#444", width: 2)
        doc.line(x1: x, y1: barY - 3, x2: x, y2: barY + 3, stroke: "#444", width: 1.5)
        doc.line(x1: x + barMM * scale, y1: barY - 3, x2: x + barMM * scale, y2: barY + 3, stroke: "#444", width: 1.5)
        doc.text("\(SVGDocument.number(barMM)) mm", x: x + barMM * scale + 5, y: barY + 4, size: 10, fill: "#444")
        return barY
    }

    static func drawTracks(_ doc: inout SVGDocument, _ t: ReplayTimeline, originX: Double, originY: Double,
                           offsetMM: (Double, Double), scale: Double, markerRadius r: Double, numbered: Bool = false) {
        for (i, track) in t.fingerTracks.enumerated() {
            let color = TimelinePlot.palette[i % TimelinePlot.palette.count]
            let points = track.map { (originX + ($0.position.x - offsetMM.0) * scale, originY + ($0.position.y - offsetMM.1) * scale) }
            doc.polyline(points, stroke: color, width: 2)
            if let first = points.first {
                doc.circle(cx: first.0, cy: first.1, r: r, fill: color)
                if numbered { doc.text("\(i + 1)", x: first.0 - r - 2, y: first.1 - r - 1, size: 11, anchor: "end", fill: color, weight: "bold") }
            }
            if let last = points.last {
                doc.line(x1: last.0 - r, y1: last.1 - r, x2: last.0 + r, y2: last.1 + r, stroke: color, width: 2)
                doc.line(x1: last.0 - r, y1: last.1 + r, x2: last.0 + r, y2: last.1 - r, stroke: color, width: 2)
            }
        }
    }
}
