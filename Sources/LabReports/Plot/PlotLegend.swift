import GestureLab

extension TimelinePlot {
    /// Names every mark the charts use, in rows that wrap at the column's width.
    enum Legend {
        enum Glyph { case shape(MarkerShape), dashedLine, idleBreak, track, hold, button, tool }

        /// The marks this picture draws, and only those: a 32 s pointer session has no release, no
        /// projection and no labelled gesture, and a legend of nine entries for two marks hides them.
        static func entries(_ t: ReplayTimeline, axis: TimeAxis) -> [(Glyph, String)] {
            var entries: [(Glyph, String)] = MarkerShape.allCases.filter { shows($0, t, axis: axis) }.map { shape in
                // A release decided without a velocity (its gesture was cancelled) gets no arrow.
                let arrows = shownReleases(t, axis: axis).contains { $0.velocity != nil }
                return (.shape(shape), shape == .release && !arrows ? "release" : shape.legendName)
            }
            if !(t.scale.runs.isEmpty && t.translationXMM.runs.isEmpty && t.progress.runs.isEmpty) {
                entries.append((.dashedLine, "threshold (progress), begin value (gesture)"))
            }
            if !axis.breaks.isEmpty {
                entries.append((.idleBreak, "idle stretch over \(SVGDocument.number(TimeAxis.idleLimit)) s, cut out"))
            }
            if !t.tracks.isEmpty { entries.append((.track, "track: touch-down, fading in to the lift")) }
            if t.gestures.contains(where: { $0.kind == .hold }) {
                entries.append((.hold, "hold (pale: cancelled by motion)"))
            }
            if !t.buttonPresses.isEmpty {
                let names = Set(t.buttonPresses.map(\.button.name)).sorted().joined(separator: ", ")
                entries.append((.button, "button held (\(names))"))
            }
            if t.tools.contains(where: { !$0.fired.isEmpty }) {
                entries.append((.tool, "a tool's gesture, from its begin (or its firing before) to where the tool acted, the tick (pale: cancelled)"))
            }
            return entries
        }

        /// Whether the charts draw `shape` (the main replay's releases and the overlays').
        static func shows(_ shape: MarkerShape, _ t: ReplayTimeline, axis: TimeAxis) -> Bool {
            let releases = shownReleases(t, axis: axis)
            let ends = releases.filter { r in r.end.map { axis.window.contains($0) } ?? false && r.endProgress != nil }
            switch shape {
            case .gestureBegan, .gestureCancelled:
                let kind: ReplayTimeline.Marker.Kind = shape == .gestureBegan ? .gestureBegan : .gestureCancelled
                return t.markers.contains { $0.kind == kind && TimelinePlot.gestureLabel($0) != nil }
            case .release: return !releases.isEmpty
            case .projected: return releases.contains { $0.projectedProgress != nil }
            case .finished: return ends.contains(where: \.finished)
            case .cancelled: return ends.contains { !$0.finished }
            }
        }

        /// The releases in the window, the main replay's and the overlays'.
        static func shownReleases(_ t: ReplayTimeline, axis: TimeAxis) -> [ReplayTimeline.Release] {
            (t.releases + t.overlays.flatMap(\.releases)).filter { axis.window.contains($0.time) }
        }

        /// Returns the bottom of what it drew.
        static func draw(_ doc: inout SVGDocument, _ t: ReplayTimeline, axis: TimeAxis, x: Double, y: Double, width: Double) -> Double {
            let entries = entries(t, axis: axis), key = labelKey(t)
            guard !entries.isEmpty || key != nil else { return y }
            doc.text("legend", x: x, y: y, size: 12, role: "title")
            let rowHeight = 16.0, glyphWidth = 24.0, size = 10.0
            var at = x, rowY = y + 18
            for (glyph, name) in entries {
                let w = glyphWidth + TextMetrics.width(name, size: size) + 14
                if at + w > x + width, at > x { at = x; rowY += rowHeight }
                drawGlyph(&doc, glyph, x: at + glyphWidth / 2 - 2, y: rowY - 3.5)
                doc.text(name, x: at + glyphWidth, y: rowY, size: size, fill: "#444", role: "legend")
                at += w
            }
            if let key {
                for line in TimelinePlot.wrapped(key, width: width, size: size) {
                    rowY += rowHeight
                    doc.text(line, x: x, y: rowY, size: size, fill: "#666", role: "legend")
                }
            }
            return rowY + 4
        }

        /// How to read the labels, told on the picture's own first gesture and attempt (none when
        /// it has neither): `G1 hold 1f · hold-timeout: gesture 1, a hold with 1 finger, begun by
        /// that rule · attempt 1: numbered as replay lists attempts`.
        static func labelKey(_ t: ReplayTimeline) -> String? {
            var parts: [String] = []
            if let began = t.markers.first(where: { $0.kind == .gestureBegan && TimelinePlot.gestureLabel($0) != nil }),
               let index = began.gesture, let label = TimelinePlot.gestureLabel(began) {
                var words = "\(label.text): gesture \(index + 1), a \(began.gestureKind?.rawValue ?? "gesture")"
                if let fingers = began.fingers { words += " with \(fingers) finger\(fingers == 1 ? "" : "s")" }
                if began.rule != nil { words += ", begun by that rule" }
                parts.append(words)
            }
            if let release = t.releases.first {
                parts.append("attempt \(release.trial + 1): numbered as replay lists attempts")
            }
            return parts.isEmpty ? nil : parts.joined(separator: " · ")
        }

        static func drawGlyph(_ doc: inout SVGDocument, _ glyph: Glyph, x: Double, y: Double) {
            switch glyph {
            case .shape(let shape):
                shape.draw(&doc, x: x, y: y)
            case .dashedLine:
                doc.line(x1: x - 10, y1: y, x2: x + 10, y2: y, stroke: "#888", dash: "6 4")
            case .idleBreak:
                doc.rect(x: x - 6, y: y - 7, width: 12, height: 14, fill: "#eeeeee")
                doc.line(x1: x - 9, y1: y + 5, x2: x - 3, y2: y - 5, stroke: "#666", width: 1.2)
                doc.line(x1: x + 3, y1: y + 5, x2: x + 9, y2: y - 5, stroke: "#666", width: 1.2)
            case .hold:
                doc.rect(x: x - 10, y: y - 2.5, width: 9, height: TimelinePlot.laneHeight, fill: TimelinePlot.holdColor)
                doc.rect(x: x + 1, y: y - 2.5, width: 9, height: TimelinePlot.laneHeight, fill: TimelinePlot.cancelledHoldColor)
            case .button:
                doc.rect(x: x - 10, y: y - 2.5, width: 20, height: TimelinePlot.laneHeight, fill: TimelinePlot.buttonColor)
            case .tool:
                doc.rect(x: x - 10, y: y - 2.5, width: 9, height: TimelinePlot.laneHeight, fill: TimelinePlot.toolColor)
                doc.rect(x: x + 1, y: y - 2.5, width: 9, height: TimelinePlot.laneHeight, fill: TimelinePlot.cancelledToolColor)
            case .track:
                let color = TrackPanels.palette[0]
                doc.polyline([(x - 8, y + 4), (x - 2, y + 1)], stroke: color, width: 2, opacity: 0.35)
                doc.polyline([(x - 2, y + 1), (x + 6, y - 3)], stroke: color, width: 2, opacity: 1)
                doc.circle(cx: x - 8, cy: y + 4, r: 3, fill: "#ffffff", stroke: color, width: 1.5)
                doc.line(x1: x + 4, y1: y - 6, x2: x + 10, y2: y, stroke: color, width: 2)
                doc.line(x1: x + 4, y1: y, x2: x + 10, y2: y - 6, stroke: color, width: 2)
            }
        }
    }
}

extension ReplayTimeline {
    /// The part of the timeline inside `window`: samples, markers and releases outside it dropped,
    /// runs kept whole where they are inside. Attempts, gestures and the summary stay whole (the
    /// facts describe them).
    func cropped(to window: ClosedRange<Double>) -> ReplayTimeline {
        var out = self
        func crop(_ series: Series) -> Series {
            var result = Series()
            result.runs = series.runs.map { $0.filter { window.contains($0.time) } }.filter { !$0.isEmpty }
            return result
        }
        out.tracks = tracks.map { track in
            var kept = track
            kept.samples = track.samples.filter { window.contains($0.time) }
            return kept
        }.filter { !$0.samples.isEmpty }
        out.scale = crop(scale)
        out.translationXMM = crop(translationXMM)
        out.translationYMM = crop(translationYMM)
        out.progress = crop(progress)
        out.overlays = overlays.map { overlay in
            var kept = overlay
            kept.progress = crop(overlay.progress)
            kept.releases = overlay.releases.filter { window.contains($0.time) }
            return kept
        }
        out.markers = markers.filter { window.contains($0.time) }
        out.releases = releases.filter { window.contains($0.time) }
        return out
    }
}
