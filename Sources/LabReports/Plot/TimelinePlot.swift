import GestureLab
import GestureTools
import InteractiveTransition

/// Draws a replay as an SVG picture. Left: the finger tracks on the device's surface, the same
/// zoomed to where the fingers moved, and what happened in words. Right, on one time axis with idle
/// stretches cut out: the chart of the gesture that drives the transition (a pinch's scale, a pan's
/// translation on both axes) and the transition's progress, where each release shows its velocity,
/// the progress the policy projected, and the decision's reason; a legend names every mark.
package enum TimelinePlot {
    static let canvasWidth = 1240.0
    static let leftX = 20.0, leftWidth = 370.0
    static let chartX = 455.0, chartWidth = 680.0
    static let plotHeight = 160.0
    /// Progress the projection line may reach before it is drawn at the plot's edge (the label
    /// still gives the number): a flick's projection of 5 would flatten the curve it explains.
    static let projectionRange = -0.5...1.5

    static let progressColor = "#2ca02c"
    static let overlayColors = ["#7f7f7f", "#17becf", "#bcbd22"]

    /// The picture of `timeline`, cropped to `window`.
    package static func svg(_ timeline: ReplayTimeline, window: PlotWindow = .all) throws(PlotError) -> String {
        try document(timeline, window: window).rendered
    }

    static func document(_ full: ReplayTimeline, window: PlotWindow) throws(PlotError) -> SVGDocument {
        let seconds = try window.seconds(of: full)
        let timeline = full.cropped(to: seconds)
        var doc = SVGDocument(width: canvasWidth, height: 640)
        drawHeader(&doc, full, window: window, seconds: seconds)

        // Left column: where the fingers went, and what happened in words.
        let colors = TrackPanels.colors(count: timeline.tracks.count)
        let zoom = TrackPanels.zoomRegion(timeline)
        var leftBottom = TrackPanels.drawSurface(&doc, timeline, colors: colors, x: leftX, y: 66, maxWidth: leftWidth,
                                                 maxHeight: 220, zoomed: zoom)
        if let zoom {
            leftBottom = TrackPanels.drawZoomed(&doc, timeline, colors: colors, region: zoom, x: leftX, y: leftBottom + 14,
                                                maxWidth: leftWidth, maxHeight: 210)
        }
        leftBottom = drawFacts(&doc, Facts.lines(full, window: window, seconds: seconds), x: leftX, y: leftBottom + 26)

        // Right column: the charts on one time axis, then the legend.
        let axis = TimeAxis(window: seconds, activity: timeline.activity, x: chartX, width: chartWidth)
        var chartsBottom = drawGestureChart(&doc, timeline, axis: axis, top: 66)
        chartsBottom = drawTouchLanes(&doc, timeline, colors: colors, axis: axis, top: chartsBottom + 8)
        chartsBottom = drawHoldLane(&doc, timeline, axis: axis, below: chartsBottom)
        chartsBottom = drawButtonLane(&doc, timeline, axis: axis, below: chartsBottom)
        chartsBottom = drawToolLanes(&doc, timeline, axis: axis, below: chartsBottom)
        chartsBottom = drawProgressChart(&doc, timeline, axis: axis, top: chartsBottom + 14)
        chartsBottom = Legend.draw(&doc, timeline, axis: axis, x: chartX, y: chartsBottom + 18, width: chartWidth)

        doc.height = max(leftBottom, chartsBottom) + 20
        return doc
    }

    static func drawHeader(_ doc: inout SVGDocument, _ t: ReplayTimeline, window: PlotWindow, seconds: ClosedRange<Double>) {
        doc.text(t.title, x: leftX, y: 26, size: 16, weight: "bold", role: "header")
        var line = Facts.attemptsTotal(t)
        if let trial = window.trial {
            line += " · attempt \(trial) alone"
        }
        if window != .all {
            line += " · showing \(Facts.seconds(seconds.lowerBound))-\(Facts.seconds(seconds.upperBound)) s of \(Facts.seconds(t.duration)) s"
        }
        doc.text(line, x: leftX, y: 46, size: 12, fill: "#444", role: "header")
    }

    // MARK: - The gesture chart

    static func gestureLines(_ t: ReplayTimeline) -> (title: String, lines: [TimeChart.Line], guide: Double) {
        switch t.drivingKind {
        case .pan:
            return ("pan translation from each pan's begin (mm), drives \(t.transition)",
                    [.init(name: "x (right +)", color: "#1f77b4", series: t.translationXMM),
                     .init(name: "y (down +)", color: "#8c564b", series: t.translationYMM)], 0)
        case .pinch, .hold, nil:
            return ("pinch scale (1 at each pinch's begin), drives \(t.transition)",
                    [.init(name: "scale", color: "#1f77b4", series: t.scale)], 1)
        }
    }

    /// A gesture marker's label above the gesture chart: `G2 pan 3f · same-direction` where it
    /// began, `G2 cancelled · touch-jump` where it was cancelled.
    /// Holds get none: they drive no transition, and a touchpad session holds at nearly every
    /// touch, so they are drawn in their own lane (`drawHoldLane`) instead.
    static func gestureLabel(_ marker: ReplayTimeline.Marker) -> TimeChart.BandLabel? {
        guard let index = marker.gesture, marker.gestureKind != .hold else { return nil }
        let rule = marker.rule.map { " · \($0)" } ?? ""
        switch marker.kind {
        case .gestureBegan:
            let kind = marker.gestureKind?.rawValue ?? "gesture"
            let fingers = marker.fingers.map { " \($0)f" } ?? ""
            return .init(time: marker.time, text: "G\(index + 1) \(kind)\(fingers)\(rule)", shape: .gestureBegan,
                         short: "G\(index + 1)")
        case .gestureCancelled:
            return .init(time: marker.time, text: "G\(index + 1) cancelled\(rule)", shape: .gestureCancelled, short: "G\(index + 1)")
        default:
            return nil
        }
    }

    /// Returns the bottom of what it drew.
    static func drawGestureChart(_ doc: inout SVGDocument, _ t: ReplayTimeline, axis: TimeAxis, top: Double) -> Double {
        let labels = t.markers.compactMap(gestureLabel)
        let chart = TimeChart(axis: axis, top: top, plotHeight: plotHeight, labelLimit: canvasWidth - 8, labels: labels)
        let (title, lines, guide) = gestureLines(t)
        chart.drawTitle(&doc, title, lines: lines)
        let values = lines.flatMap { $0.series.values }
        let range = PlotAxis.range(of: values, including: [guide])
        chart.drawFrame(&doc, range: range, valueDecimals: 2)
        if values.isEmpty {
            chart.drawNote(&doc, "no \(t.drivingKind?.rawValue ?? "gesture") was recognized" + (t.markers.isEmpty ? "" : " here"))
        } else {
            chart.drawGuide(&doc, guide, range: range, label: nil)
            // Where each release fell, faintly, to line the gesture up with the decision below.
            for release in t.releases {
                let at = axis.px(release.time)
                doc.line(x1: at, y1: chart.plotTop, x2: at, y2: chart.plotBottom, stroke: MarkerShape.release.color, width: 1,
                         dash: "2 3", opacity: 0.5)
            }
            chart.drawLines(&doc, lines, range: range)
        }
        return drawOmitted(&doc, chart, bottom: chart.drawTimeAxis(&doc))
    }

    // MARK: - Fingers down

    static let laneHeight = 5.0
    static let maximumLanes = 10

    /// When each finger was down, as a bar in its track's colour on the charts' time axis (one lane
    /// per finger down at once): the tracks' colours tied to time. Returns the bottom.
    static func drawTouchLanes(_ doc: inout SVGDocument, _ t: ReplayTimeline, colors: [String], axis: TimeAxis, top: Double) -> Double {
        guard !t.tracks.isEmpty else { return top }
        var laneEnds: [Double] = []
        var lanes: [Int] = []
        for track in t.tracks {
            if let free = laneEnds.firstIndex(where: { $0 < track.begin }) {
                laneEnds[free] = track.end; lanes.append(free)
            } else if laneEnds.count < maximumLanes {
                laneEnds.append(track.end); lanes.append(laneEnds.count - 1)
            } else {
                let soonest = laneEnds.indices.min { laneEnds[$0] < laneEnds[$1] }!
                laneEnds[soonest] = max(laneEnds[soonest], track.end); lanes.append(soonest)
            }
        }
        let height = Double(laneEnds.count) * (laneHeight + 1) + 2
        doc.rect(x: axis.x, y: top, width: axis.width, height: height, fill: "#fafafa", stroke: "#ddd")
        let name = doc.text("fingers down", x: axis.x + axis.width + 6, y: top + min(height, 12) - 2, size: laneNameSize,
                            fill: "#666", role: "tick")
        for (index, track) in t.tracks.enumerated() {
            let x0 = axis.px(track.begin), x1 = max(axis.px(track.end), x0 + 1.5)
            doc.rect(x: x0, y: top + 1.5 + Double(lanes[index]) * (laneHeight + 1), width: x1 - x0, height: laneHeight,
                     fill: colors[index % max(colors.count, 1)])
        }
        // One finger at a time makes a band shorter than its name: the lane below (holds,
        // buttons) must start where its own name clears this one, not where the band ends.
        return max(top + height, name.maxY + laneNameRise + 1)
    }

    static let holdColor = "#555555", cancelledHoldColor = "#bbbbbb"

    /// Every hold as a bar from its begin to its end (pale when motion cancelled it), in one lane
    /// under the fingers: many short holds stay one quiet strip. Returns the bottom.
    static func drawHoldLane(_ doc: inout SVGDocument, _ t: ReplayTimeline, axis: TimeAxis, below: Double) -> Double {
        let holds = t.gestures.filter { $0.kind == .hold && $0.end >= axis.window.lowerBound && $0.begin <= axis.window.upperBound }
        return drawLane(&doc, name: "holds", role: "hold-lane", axis: axis, below: below, bars: holds.map {
            LaneBar(begin: $0.begin, end: $0.end, fill: $0.isHoldCancelledByMotion ? cancelledHoldColor : holdColor, role: "hold")
        })
    }

    /// One bar of a lane, in seconds.
    struct LaneBar {
        var begin: Double
        var end: Double
        var fill: String
        var role: String
    }

    static let laneGap = 2.0, laneBandHeight = laneHeight + 3
    /// Lanes are named at their right in this size, on a baseline this far above the band's bottom.
    static let laneNameSize = 10.0, laneNameAboveBottom = 1.0
    /// How far a lane's name reaches above the `below` it is drawn under (a name is taller than a
    /// lane): what is drawn above a lane must end this much higher for the two not to touch.
    static let laneNameRise = TextMetrics.ascent * laneNameSize - (laneBandHeight - laneNameAboveBottom) - laneGap

    /// A lane of bars under the fingers, named at its right; nothing when there are no bars.
    /// Returns the bottom.
    static func drawLane(_ doc: inout SVGDocument, name: String, role: String, axis: TimeAxis, below: Double,
                         bars: [LaneBar]) -> Double {
        guard !bars.isEmpty else { return below }
        let top = below + laneGap
        let height = laneBandHeight
        doc.rect(x: axis.x, y: top, width: axis.width, height: height, fill: "#fafafa", stroke: "#ddd", role: role)
        doc.text(name, x: axis.x + axis.width + 6, y: top + height - laneNameAboveBottom, size: laneNameSize, fill: "#666",
                 role: "tick")
        for bar in bars {
            let x0 = axis.px(bar.begin), x1 = max(axis.px(bar.end), x0 + 1.5)
            doc.rect(x: x0, y: top + 1.5, width: x1 - x0, height: laneHeight, fill: bar.fill, role: bar.role)
        }
        return top + height
    }

    static let buttonColor = "#8c564b"
    static let toolColor = "#9467bd", cancelledToolColor = "#c5b0d5", toolActedColor = "#3f1d5c"

    /// Each gesture tool's firings (`plot --tool`) as bars from the gesture's begin (or the tool's
    /// firing before) to where the tool acted, a dark tick there, pale where it cancelled, one lane a tool named by it, under the buttons: what
    /// touchegg or lisgd did, against the fingers and the progress. A tool that fired nothing in
    /// the window gets no lane (the facts say so). Returns the bottom.
    static func drawToolLanes(_ doc: inout SVGDocument, _ t: ReplayTimeline, axis: TimeAxis, below: Double) -> Double {
        let window = axis.window
        var bottom = below
        for verdict in t.tools {
            // A tool that fires again within one gesture (fusuma's repeats, InputActions' turns)
            // would draw its bars over each other: each starts where the one before ended, and a
            // dark tick marks the moment it acted.
            var bars: [LaneBar] = []
            var previousEnd = -Double.infinity
            for fired in verdict.fired where fired.end >= window.lowerBound && fired.begin <= window.upperBound {
                let begin = max(fired.begin, previousEnd, window.lowerBound), end = min(fired.end, window.upperBound)
                previousEnd = fired.end
                bars.append(LaneBar(begin: begin, end: end, fill: fired.executed == false ? cancelledToolColor : toolColor, role: "tool-fired"))
                bars.append(LaneBar(begin: end, end: end, fill: toolActedColor, role: "tool-acted"))
            }
            bottom = drawLane(&doc, name: verdict.name.rawValue, role: "tool-lane", axis: axis, below: bottom + 2, bars: bars)
        }
        return bottom
    }

    /// Every button press as a bar from press to release (to the end of the window when never
    /// released), named by its button, in one lane under the holds: a clickpad's clicks, seen
    /// beside the gestures they stop. Returns the bottom.
    static func drawButtonLane(_ doc: inout SVGDocument, _ t: ReplayTimeline, axis: TimeAxis, below: Double) -> Double {
        let window = axis.window
        let presses = t.buttonPresses.filter { ($0.end ?? .infinity) >= window.lowerBound && $0.begin <= window.upperBound }
        guard !presses.isEmpty else { return below }
        // 2 more below the lane above: the lanes' names at the right are taller than a lane.
        return drawLane(&doc, name: "buttons", role: "button-lane", axis: axis, below: below + 2, bars: presses.map {
            LaneBar(begin: max($0.begin, window.lowerBound), end: min($0.end ?? window.upperBound, window.upperBound),
                    fill: buttonColor, role: "button-\($0.button.name)")
        })
    }

    // MARK: - The progress chart

    /// Returns the bottom of what it drew.
    static func drawProgressChart(_ doc: inout SVGDocument, _ t: ReplayTimeline, axis: TimeAxis, top: Double) -> Double {
        let releases = t.releases
        let labels = releases.enumerated().map { index, release in
            let grabbed = release.end == nil && releases[(index + 1)...].contains { $0.trial == release.trial }
            return TimeChart.BandLabel(time: release.time, text: releaseLabel(release, grabbedBack: grabbed, axis: axis),
                                       shape: .release, short: Facts.releaseShort(release))
        }
        let chart = TimeChart(axis: axis, top: top, plotHeight: plotHeight, labelLimit: canvasWidth - 8, labels: labels)
        var lines = [TimeChart.Line(name: "progress", color: progressColor, series: t.progress)]
        for (index, overlay) in t.overlays.enumerated() {
            lines.append(.init(name: overlay.name, color: overlayColors[index % overlayColors.count], series: overlay.progress,
                               dash: "5 3", width: 1.5))
        }
        chart.drawTitle(&doc, progressTitle(t), lines: lines)
        let projections = (releases + t.overlays.flatMap(\.releases)).compactMap(\.projectedProgress)
            .map { min(max($0, projectionRange.lowerBound), projectionRange.upperBound) }
        let values = lines.flatMap { $0.series.values }
        let range = PlotAxis.range(of: values + projections, including: [0, 1], padFraction: 0.03)
        chart.drawFrame(&doc, range: range, valueDecimals: 2)
        if values.isEmpty {
            chart.drawNote(&doc, "the transition never started" + (t.summary?.trialCount ?? 0 > 0 ? " here" : ""))
        } else {
            if let threshold = t.progressThreshold {
                chart.drawGuide(&doc, threshold, range: range, label: "threshold \(SVGDocument.number(threshold, decimals: 3))")
            }
            // Overlays under the main line, so the decision drawn stays on top.
            chart.drawLines(&doc, Array(lines.dropFirst()), range: range)
            chart.drawLines(&doc, [lines[0]], range: range)
            for overlayIndex in t.overlays.indices {
                for release in t.overlays[overlayIndex].releases {
                    drawRelease(&doc, release, chart: chart, range: range, color: overlayColors[overlayIndex % overlayColors.count])
                }
            }
            for release in releases { drawRelease(&doc, release, chart: chart, range: range, color: nil) }
        }
        return drawOmitted(&doc, chart, bottom: chart.drawTimeAxis(&doc))
    }

    /// A release's label with what would have flipped it (the facts say it whole): after the
    /// reason where that leaves the label clear of the left column, else in place of where and how
    /// fast it was released (the facts say that too) when that is no wider; else the reason alone.
    static func releaseLabel(_ release: ReleaseMarks, grabbedBack: Bool, axis: TimeAxis) -> String {
        let text = Facts.releaseText(release, grabbedBack: grabbedBack)
        guard let margin = release.margins?.flip.shortWouldHave else { return text }
        let at = axis.px(release.time)
        func width(_ label: String) -> Double {
            let extent = TimeChart.extent(of: label, at: at, limit: canvasWidth - 8)
            return extent.right - extent.left
        }
        let after = text + "; " + margin
        if TimeChart.extent(of: after, at: at, limit: canvasWidth - 8).left >= leftX + leftWidth + 6 { return after }
        let instead = Facts.releaseText(release, grabbedBack: grabbedBack, margin: margin)
        return width(instead) <= width(text) ? instead : text
    }

    /// `transition progress (pan-dismiss: travel down / 40 mm)`: what the chart's 0 to 1 measures,
    /// so a pan that went 40 mm right at progress 0 reads as the mapping, not a fault.
    static func progressTitle(_ t: ReplayTimeline) -> String {
        let divisor = t.progressDivisor.map { SVGDocument.number($0, decimals: 2) } ?? ""
        switch t.progressMapping {
        case .pinchIn?: return "transition progress (\(t.transition): 1 - scale)"
        case .pinchOut?:
            return "transition progress (\(t.transition): " + (t.progressDivisor == 1 ? "scale - 1)" : "(scale - 1) / \(divisor))")
        case .panDown?: return "transition progress (\(t.transition): travel down / \(divisor) mm)"
        case nil: return "transition progress (\(t.transition))"
        }
    }

    /// A release on the progress curve: a dot where it happened, an arrow along its velocity, a
    /// dashed line to the diamond of the progress the policy projected (drawn at the animation's
    /// end), and the finished or cancelled mark where the animation ended. `color` tints an overlay's.
    static func drawRelease(_ doc: inout SVGDocument, _ release: ReleaseMarks, chart: TimeChart, range: ClosedRange<Double>,
                            color: String?) {
        let axis = chart.axis
        guard axis.window.contains(release.time) else { return }
        let x = axis.px(release.time), y = chart.py(release.progress, range)
        if let projected = release.projectedProgress {
            let endX = release.end.map { axis.px($0) } ?? x + 40
            let toX = min(max(endX, x + 30), chart.x + chart.width - 6)
            let toY = chart.py(projected, range)
            doc.line(x1: x, y1: y, x2: toX, y2: toY, stroke: color ?? MarkerShape.projected.color, width: 1.5, dash: "5 3")
            MarkerShape.projected.draw(&doc, x: toX, y: toY)
        }
        if let velocity = release.velocity {
            // The velocity's slope on screen, as an arrow of fixed length.
            let perSecond = (axis.px(release.time + 0.01) - x) / 0.01
            let perUnit = chart.plotHeight / (range.upperBound - range.lowerBound)
            var dx = perSecond > 0 ? perSecond : 1, dy = -velocity * perUnit
            let length = (dx * dx + dy * dy).squareRoot()
            dx = dx / length * 48; dy = dy / length * 48
            // Kept inside the plot, head included (4.5 px either side of the tip's line): at its top
            // and bottom, and at its right edge, where the last release of a recording lies.
            let limit = dy < 0 ? min(chart.plotTop + 5 - y, 0) : max(chart.plotBottom - 5 - y, 0)
            if dy != 0, abs(dy) > abs(limit) { let f = abs(limit / dy); dx *= f; dy *= f }
            let room = max(chart.x + chart.width - 5 - x, 0)
            if dx > room { let f = room / dx; dx *= f; dy *= f }
            let tipX = x + dx, tipY = y + dy
            let norm = (dx * dx + dy * dy).squareRoot()
            // No room left (a release at the plot's end): the dot alone; its label gives the velocity.
            if norm >= 10 {
                doc.line(x1: x, y1: y, x2: tipX, y2: tipY, stroke: color ?? "#b35900", width: 2.2, role: "velocity")
                let ux = dx / norm, uy = dy / norm
                doc.polygon([(tipX, tipY), (tipX - 9 * ux - 4.5 * uy, tipY - 9 * uy + 4.5 * ux),
                             (tipX - 9 * ux + 4.5 * uy, tipY - 9 * uy - 4.5 * ux)], fill: color ?? "#b35900", role: "velocity")
            }
        }
        if color == nil {
            MarkerShape.release.draw(&doc, x: x, y: y)
        } else {
            doc.circle(cx: x, cy: y, r: MarkerShape.radius, fill: "#ffffff", stroke: color!, width: 1.5)
        }
        if let end = release.end, let endProgress = release.endProgress, axis.window.contains(end) {
            let shape: MarkerShape = release.finished ? .finished : .cancelled
            shape.draw(&doc, x: axis.px(end), y: chart.py(endProgress, range))
        }
    }

    typealias ReleaseMarks = ReplayTimeline.Release

    /// Says under a chart how many of its labels found no row. Returns the new bottom.
    static func drawOmitted(_ doc: inout SVGDocument, _ chart: TimeChart, bottom: Double) -> Double {
        guard chart.omitted > 0 else { return bottom }
        doc.text("\(chart.omitted) marker label\(chart.omitted == 1 ? "" : "s") left out for room: crop with --from/--to or --trial",
                 x: chart.x, y: bottom + 12, size: 10, fill: "#a00", role: "note")
        return bottom + 16
    }

    // MARK: - Facts

    /// The facts in lines that fit the left column, broken at spaces, a fact's further lines
    /// indented so each fact's start stands out. Returns the bottom.
    static func drawFacts(_ doc: inout SVGDocument, _ facts: [String], x: Double, y: Double) -> Double {
        guard !facts.isEmpty else { return y }
        doc.text("what happened", x: x, y: y, size: 12, role: "title")
        var lineY = y + 18
        for fact in facts {
            for (index, piece) in wrapped(fact, width: leftWidth, size: 11).enumerated() {
                // By position, not leading spaces: SVG collapses those, so a continued line would
                // start at the margin like a new fact.
                doc.text(piece, x: x + (index > 0 ? factIndent : 0), y: lineY, size: 11, fill: "#333", role: "fact")
                lineY += 15
            }
        }
        return lineY
    }

    /// How far a fact's further lines are indented.
    static let factIndent = 12.0

    /// `text` in lines at most `width` pixels wide at `size`, broken at spaces where possible (a
    /// word longer than a line is cut).
    static func wrapped(_ text: String, width: Double, size: Double) -> [String] {
        let indent = factIndent
        var lines: [String] = []
        var current = ""
        func fits(_ candidate: String) -> Bool { TextMetrics.width(candidate, size: size) + (lines.isEmpty ? 0 : indent) <= width }
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            let candidate = current.isEmpty ? String(word) : current + " " + word
            if fits(candidate) { current = candidate; continue }
            if !current.isEmpty { lines.append(current) }
            current = ""
            // A word wider than the line: cut it.
            for character in word {
                if !fits(current + String(character)), !current.isEmpty { lines.append(current); current = "" }
                current.append(character)
            }
        }
        if !current.isEmpty || lines.isEmpty { lines.append(current) }
        return lines
    }
}
