/// The finger tracks, twice: on the whole surface (where on the device), and zoomed to where the
/// fingers moved (which way, and how far, with a scale bar): a 10 mm pinch on a 290 mm touchscreen
/// is otherwise a few pixels. Each track fades from light at touch-down to full colour at the lift
/// (which way time ran), and no two tracks in one picture share a colour.
enum TrackPanels {
    /// The zoomed view spans at least this much, so sensor noise on a tap is not blown up to fill it.
    static let minimumZoomSpanMM = 10.0
    /// Space around the tracks in the zoomed view, as a fraction of their extent.
    static let zoomMarginFraction = 0.12
    /// Distinct colours for up to ten tracks (Tableau 10 less its grey); more tracks get hues spread
    /// round the colour wheel instead.
    static let palette = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf", "#bcbd22",
                          "#393b79"]
    /// Opacity at touch-down; full at the lift.
    static let fadeFrom = 0.25
    static let fadeSteps = 6
    /// Tracks numbered in the zoomed view at most (placing a number looks at every number placed, so
    /// a recording with thousands of touches would take quadratic time for an unreadable crowd).
    static let maximumNumbered = 80

    /// A rectangle of the surface, millimetres.
    struct RegionMM {
        var minX, minY, maxX, maxY: Double
        var width: Double { maxX - minX }
        var height: Double { maxY - minY }
    }

    /// A colour for each of `count` tracks, none repeated: the palette while it lasts, else hues a
    /// golden angle apart (so tracks that follow one another differ the most), in a darkness that
    /// reads on white.
    static func colors(count: Int) -> [String] {
        guard count > palette.count else { return Array(palette.prefix(count)) }
        return (0..<count).map { index in
            let hue = (Double(index) * 137.507_764).truncatingRemainder(dividingBy: 360)
            let lightness = [0.38, 0.48, 0.30][index % 3]
            return hsl(hue: hue, saturation: 0.75, lightness: lightness)
        }
    }

    /// `#rrggbb` for a hue in degrees, saturation and lightness in 0...1.
    static func hsl(hue: Double, saturation s: Double, lightness l: Double) -> String {
        let c = (1 - abs(2 * l - 1)) * s
        let h = hue / 60
        let x = c * (1 - abs(h.truncatingRemainder(dividingBy: 2) - 1))
        let (r, g, b): (Double, Double, Double)
        switch Int(h) {
        case 0: (r, g, b) = (c, x, 0)
        case 1: (r, g, b) = (x, c, 0)
        case 2: (r, g, b) = (0, c, x)
        case 3: (r, g, b) = (0, x, c)
        case 4: (r, g, b) = (x, 0, c)
        default: (r, g, b) = (c, 0, x)
        }
        let m = l - c / 2
        func hex(_ v: Double) -> String {
            let byte = Int(((v + m) * 255).rounded())
            let digits = String(min(max(byte, 0), 255), radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }
        return "#" + hex(r) + hex(g) + hex(b)
    }

    /// The whole surface. Returns the bottom of what it drew.
    @discardableResult
    static func drawSurface(_ doc: inout SVGDocument, _ t: ReplayTimeline, colors: [String], x: Double, y: Double,
                            maxWidth: Double, maxHeight: Double, zoomed: RegionMM?) -> Double {
        let w = max(t.surfaceWidthMM, 1), h = max(t.surfaceHeightMM, 1)
        let top = y + 20
        let scale = min(maxWidth / w, (maxHeight - 20) / h)
        doc.text("finger tracks on the surface (\(SVGDocument.number(w, decimals: 1)) x \(SVGDocument.number(h, decimals: 1)) mm)", x: x, y: y + 12, size: 12,
                 role: "title")
        doc.rect(x: x, y: top, width: w * scale, height: h * scale, fill: "#f4f4f4", stroke: "#999", radius: 6)
        if let zoomed {
            // Kept on the surface: tracks past an estimated size would take the box off the panel.
            let left = max(zoomed.minX, 0), top2 = max(zoomed.minY, 0)
            let right = min(zoomed.maxX, w), bottom = min(zoomed.maxY, h)
            if right > left, bottom > top2 {
                doc.rect(x: x + left * scale, y: top + top2 * scale, width: (right - left) * scale, height: (bottom - top2) * scale,
                         fill: "none", stroke: "#bbb", dash: "3 2")
            }
        }
        _ = drawTracks(&doc, t, colors: colors, originX: x, originY: top, offsetMM: (0, 0), scale: scale, markerRadius: 3)
        return top + h * scale
    }

    /// The region the zoomed view shows, in mm: the tracks' extent with a margin, at least
    /// `minimumZoomSpanMM` wide and high, nil when there are no tracks.
    static func zoomRegion(_ t: ReplayTimeline) -> RegionMM? {
        let points = t.tracks.flatMap { $0.samples.map(\.position) }.filter { $0.x.isFinite && $0.y.isFinite }
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

    /// The zoomed view with a scale bar and each finger numbered where it touched down. Returns the
    /// bottom of what it drew.
    @discardableResult
    static func drawZoomed(_ doc: inout SVGDocument, _ t: ReplayTimeline, colors: [String], region: RegionMM,
                           x: Double, y: Double, maxWidth: Double, maxHeight: Double) -> Double {
        let w = region.width, h = region.height
        let top = y + 20
        let scale = min(maxWidth / w, (maxHeight - 20) / h)
        doc.text("zoomed to the touches (dashed box), numbered", x: x, y: y + 12, size: 12, role: "title")
        doc.rect(x: x, y: top, width: w * scale, height: h * scale, fill: "#fafafa", stroke: "#bbb", radius: 4)
        let starts = drawTracks(&doc, t, colors: colors, originX: x, originY: top, offsetMM: (region.minX, region.minY),
                                scale: scale, markerRadius: 4)
        let panel = Box(minX: x - 14, minY: top - 2, maxX: x + w * scale + 14, maxY: top + h * scale + 2)
        let unplaced = drawNumbers(&doc, starts, within: panel)
        // A scale bar of a round length, about a fifth of the view, under it (inside, it could hide a track).
        let barMM = PlotAxis.roundStep(w / 5)
        let barY = top + h * scale + 12
        doc.line(x1: x, y1: barY, x2: x + barMM * scale, y2: barY, stroke: "#444", width: 2)
        doc.line(x1: x, y1: barY - 3, x2: x, y2: barY + 3, stroke: "#444", width: 1.5)
        doc.line(x1: x + barMM * scale, y1: barY - 3, x2: x + barMM * scale, y2: barY + 3, stroke: "#444", width: 1.5)
        var note = "\(SVGDocument.number(barMM)) mm"
        if unplaced > 0 { note += " · \(unplaced) track number\(unplaced == 1 ? "" : "s") left out (no room)" }
        doc.text(note, x: x + barMM * scale + 5, y: barY + 4, size: 10, fill: "#444", role: "scale")
        return barY + 6
    }

    /// Draws every track; returns where each touched down (for its number) with its colour.
    static func drawTracks(_ doc: inout SVGDocument, _ t: ReplayTimeline, colors: [String], originX: Double, originY: Double,
                           offsetMM: (Double, Double), scale: Double, markerRadius r: Double)
        -> [(number: Int, x: Double, y: Double, color: String)] {
        var starts: [(number: Int, x: Double, y: Double, color: String)] = []
        for (i, track) in t.tracks.enumerated() where !track.samples.isEmpty {
            let color = colors[i % max(colors.count, 1)]
            let points = track.samples.map { (originX + ($0.position.x - offsetMM.0) * scale, originY + ($0.position.y - offsetMM.1) * scale) }
            // Light to dark in equal pieces of the track's time: which end is the start shows without a legend.
            let pieces = min(fadeSteps, max(points.count - 1, 1))
            for piece in 0..<pieces {
                let from = piece * (points.count - 1) / pieces, to = (piece + 1) * (points.count - 1) / pieces
                guard to > from else { continue }
                let opacity = fadeFrom + (1 - fadeFrom) * Double(piece + 1) / Double(pieces)
                doc.polyline(Array(points[from...to]), stroke: color, width: 2, opacity: opacity)
            }
            if let first = points.first {
                doc.circle(cx: first.0, cy: first.1, r: r, fill: "#ffffff", stroke: color, width: 1.5)
                starts.append((track.number, first.0, first.1, color))
            }
            if let last = points.last {
                doc.line(x1: last.0 - r, y1: last.1 - r, x2: last.0 + r, y2: last.1 + r, stroke: color, width: 2)
                doc.line(x1: last.0 - r, y1: last.1 + r, x2: last.0 + r, y2: last.1 - r, stroke: color, width: 2)
            }
        }
        return starts
    }

    /// Each track's number beside where it touched down, at the first spot (around it, then further
    /// out with a leader line) that covers no other number. Returns how many found no spot.
    static func drawNumbers(_ doc: inout SVGDocument, _ starts: [(number: Int, x: Double, y: Double, color: String)],
                            within panel: Box) -> Int {
        let size = 11.0
        var occupied: [Box] = []
        var unplaced = 0
        for start in starts.prefix(maximumNumbered) {
            let text = "\(start.number)"
            let w = TextMetrics.width(text, size: size), h = (TextMetrics.ascent + TextMetrics.descent) * size
            var candidates: [Box] = []
            for distance in [6.0, 14, 24, 36, 50] {
                for (dx, dy) in [(-1.0, -1.0), (1, -1), (-1, 1), (1, 1), (0, -1), (0, 1), (-1, 0), (1, 0)] {
                    let cx = start.x + dx * (distance + w / 2), cy = start.y + dy * (distance + h / 2)
                    candidates.append(Box(minX: cx - w / 2, minY: cy - h / 2, maxX: cx + w / 2, maxY: cy + h / 2))
                }
            }
            guard let spot = LabelLayout.firstFree(candidates, avoiding: occupied, within: panel, gap: 1) else {
                unplaced += 1
                continue
            }
            occupied.append(spot)
            let mid = ((spot.minX + spot.maxX) / 2, (spot.minY + spot.maxY) / 2)
            if abs(mid.0 - start.x) > w / 2 + 10 || abs(mid.1 - start.y) > h / 2 + 10 {
                doc.line(x1: start.x, y1: start.y, x2: mid.0, y2: mid.1, stroke: start.color, width: 0.7, opacity: 0.7)
            }
            // The baseline that puts the text's box where the layout chose.
            doc.text(text, x: spot.minX, y: spot.minY + TextMetrics.ascent * size, size: size, fill: start.color,
                     role: "track-label")
        }
        return unplaced + max(starts.count - maximumNumbered, 0)
    }
}
