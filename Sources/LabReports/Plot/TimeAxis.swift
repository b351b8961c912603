/// The charts' shared time axis: seconds to pixels, with idle stretches collapsed. A real
/// recording is mostly waiting (9.4 s of a 14 s session with no finger down): drawn to scale, the
/// gestures would get a third of the width. Each idle stretch longer than `idleLimit` keeps
/// `idleMargin` on either side and is cut to a fixed-width break, marked on the axis with its length.
struct TimeAxis {
    /// A stretch of time drawn to scale.
    struct Segment { var start, end, x0, x1: Double }
    /// A collapsed idle stretch: from `start` to `end` seconds, drawn as a break between `x0` and `x1`.
    /// `idleSeconds` is the whole idle stretch it stands for (the cut and the margins kept either side).
    struct Break { var start, end, x0, x1: Double; var idleSeconds: Double }

    static let idleLimit = 1.0
    static let idleMargin = 0.2
    static let breakWidth = 22.0

    private(set) var segments: [Segment] = []
    private(set) var breaks: [Break] = []
    let window: ClosedRange<Double>
    let x: Double, width: Double

    /// - Parameters:
    ///   - window: the seconds shown.
    ///   - activity: when something happened (sorted, merged); idle is what lies between.
    init(window: ClosedRange<Double>, activity: [ClosedRange<Double>], x: Double, width: Double) {
        self.window = window
        self.x = x
        self.width = width
        // The idle stretches to cut: gaps between activity (and before the first, after the last).
        var cuts: [ClosedRange<Double>] = []
        var idle: [Double] = []
        var cursor = window.lowerBound
        let inside = activity.compactMap { span -> ClosedRange<Double>? in
            let low = max(span.lowerBound, window.lowerBound), high = min(span.upperBound, window.upperBound)
            return low <= high ? low...high : nil
        }
        for span in inside {
            let gapStart = cursor == window.lowerBound ? cursor : cursor + Self.idleMargin
            let gapEnd = span.lowerBound - Self.idleMargin
            if span.lowerBound - cursor > Self.idleLimit, gapEnd > gapStart {
                cuts.append(gapStart...gapEnd)
                idle.append(span.lowerBound - cursor)
            }
            cursor = max(cursor, span.upperBound)
        }
        if !inside.isEmpty, window.upperBound - cursor > Self.idleLimit {
            cuts.append((cursor + Self.idleMargin)...window.upperBound)
            idle.append(window.upperBound - cursor)
        }
        // Pieces drawn to scale between the cuts.
        var pieces: [ClosedRange<Double>] = []
        var start = window.lowerBound
        for cut in cuts {
            if cut.lowerBound > start { pieces.append(start...cut.lowerBound) }
            start = cut.upperBound
        }
        if window.upperBound > start || pieces.isEmpty { pieces.append(start...max(start, window.upperBound)) }
        let shown = pieces.reduce(0) { $0 + ($1.upperBound - $1.lowerBound) }
        let breakPixels = Double(cuts.count) * Self.breakWidth
        let perSecond = (width - breakPixels) / max(shown, 1e-6)
        // Walk left to right, alternating pieces and the breaks between them.
        var px = x
        var cutIndex = 0
        for piece in pieces {
            while cutIndex < cuts.count && cuts[cutIndex].upperBound <= piece.lowerBound {
                breaks.append(Break(start: cuts[cutIndex].lowerBound, end: cuts[cutIndex].upperBound, x0: px, x1: px + Self.breakWidth,
                                    idleSeconds: idle[cutIndex]))
                px += Self.breakWidth
                cutIndex += 1
            }
            let w = (piece.upperBound - piece.lowerBound) * perSecond
            segments.append(Segment(start: piece.lowerBound, end: piece.upperBound, x0: px, x1: px + w))
            px += w
        }
        while cutIndex < cuts.count {
            breaks.append(Break(start: cuts[cutIndex].lowerBound, end: cuts[cutIndex].upperBound, x0: px, x1: px + Self.breakWidth,
                                    idleSeconds: idle[cutIndex]))
            px += Self.breakWidth
            cutIndex += 1
        }
    }

    /// The pixel column of `time`; a time inside a break is drawn at the break's middle.
    func px(_ time: Double) -> Double {
        for segment in segments where time <= segment.end {
            if time < segment.start { break }
            let span = segment.end - segment.start
            return span > 0 ? segment.x0 + (time - segment.start) / span * (segment.x1 - segment.x0) : segment.x0
        }
        for b in breaks where time >= b.start && time <= b.end { return (b.x0 + b.x1) / 2 }
        if time < window.lowerBound { return x }
        if time > window.upperBound { return x + width }
        // Between a segment's end and the next break's start (rounding): the nearest edge.
        let edges = segments.flatMap { [($0.end, $0.x1), ($0.start, $0.x0)] }
        return edges.min { abs($0.0 - time) < abs($1.0 - time) }?.1 ?? x
    }

    /// Whether `time` is drawn to scale (not inside a break).
    func isShown(_ time: Double) -> Bool { segments.contains { time >= $0.start && time <= $0.end } }

    /// A run of samples split where it crosses a break (a line across a cut would draw a slope that
    /// never happened), dropping samples outside the window.
    func pieces(of run: [ReplayTimeline.ValueSample]) -> [[ReplayTimeline.ValueSample]] {
        var out: [[ReplayTimeline.ValueSample]] = []
        var current: [ReplayTimeline.ValueSample] = []
        var currentSegment: Int?
        for sample in run {
            let segment = segments.firstIndex { sample.time >= $0.start && sample.time <= $0.end }
            if segment == nil || segment != currentSegment {
                if !current.isEmpty { out.append(current) }
                current = []
            }
            currentSegment = segment
            if segment != nil { current.append(sample) }
        }
        if !current.isEmpty { out.append(current) }
        return out
    }

    /// Round tick times (about one per `spacing` pixels) inside the segments drawn to scale.
    func ticks(spacing: Double = 70) -> [Double] {
        let shown = segments.reduce(0) { $0 + ($1.end - $1.start) }
        let drawn = segments.reduce(0) { $0 + ($1.x1 - $1.x0) }
        guard shown > 0, drawn > 0 else { return [] }
        let step = PlotAxis.roundStep(shown / max(drawn / spacing, 1))
        var ticks: [Double] = []
        for segment in segments {
            var t = (segment.start / step).rounded(.up) * step
            while t <= segment.end + step * 1e-9 {
                ticks.append(abs(t) < step * 1e-9 ? 0 : t)
                t += step
            }
        }
        return ticks
    }

    /// Decimals enough to tell ticks apart.
    func tickDecimals(_ ticks: [Double]) -> Int {
        guard ticks.count > 1 else { return 1 }
        let step = zip(ticks, ticks.dropFirst()).map { $1 - $0 }.filter { $0 > 1e-9 }.min() ?? 1
        return step >= 1 ? 0 : step >= 0.1 ? 1 : step >= 0.01 ? 2 : 3
    }
}
