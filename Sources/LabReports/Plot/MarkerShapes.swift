/// The shapes that mark moments on the charts, one per kind, named in the legend.
enum MarkerShape: CaseIterable {
    case gestureBegan, gestureCancelled, release, projected, finished, cancelled

    init(_ kind: ReplayTimeline.Marker.Kind) {
        switch kind {
        case .gestureBegan: self = .gestureBegan
        case .gestureCancelled: self = .gestureCancelled
        case .release: self = .release
        case .finished: self = .finished
        case .cancelled: self = .cancelled
        }
    }

    var color: String {
        switch self {
        case .gestureBegan: return "#555555"
        case .gestureCancelled, .cancelled: return "#d62728"
        case .release: return "#ff7f0e"
        case .projected: return "#9467bd"
        case .finished: return "#2ca02c"
        }
    }

    /// What the legend calls it.
    var legendName: String {
        switch self {
        case .gestureBegan: return "gesture began"
        case .gestureCancelled: return "gesture cancelled"
        case .release: return "release (arrow: velocity)"
        case .projected: return "projected progress (dashed from the release)"
        case .finished: return "transition finished"
        case .cancelled: return "transition cancelled"
        }
    }

    /// Half the shape's width, pixels.
    static let radius = 4.5

    /// Draws the shape centred on (x, y).
    func draw(_ doc: inout SVGDocument, x: Double, y: Double, radius r: Double = MarkerShape.radius) {
        switch self {
        case .gestureBegan:
            doc.polygon([(x - r, y - r), (x + r, y), (x - r, y + r)], fill: color)
        case .gestureCancelled:
            doc.polygon([(x - r, y - r), (x + r, y - r), (x, y + r)], fill: "#ffffff", stroke: color, width: 1.5)
        case .release:
            doc.circle(cx: x, cy: y, r: r, fill: color)
        case .projected:
            doc.polygon([(x, y - r - 1), (x + r + 1, y), (x, y + r + 1), (x - r - 1, y)], fill: color)
        case .finished:
            doc.rect(x: x - r, y: y - r, width: 2 * r, height: 2 * r, fill: color)
        case .cancelled:
            doc.line(x1: x - r, y1: y - r, x2: x + r, y2: y + r, stroke: color, width: 2.5)
            doc.line(x1: x - r, y1: y + r, x2: x + r, y2: y - r, stroke: color, width: 2.5)
        }
    }
}
