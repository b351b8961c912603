/// The scroll edges a point lies in (libinput's `EDGE_RIGHT`, `EDGE_BOTTOM`). A touch landing in
/// the bottom-right corner lies in both until its motion leaves one.
struct ScrollEdges: OptionSet, Sendable, Hashable {
    let rawValue: UInt8
    static let right = ScrollEdges(rawValue: 1)
    static let bottom = ScrollEdges(rawValue: 2)
}

/// Where the scroll edges of a touchpad lie and what an edge touch must do to scroll, in mm and ms
/// (libinput's `tp_edge_scroll_init`): the right edge is the band `widthMM` wide along the right
/// side, the bottom edge the band along the bottom, which a touchpad shorter than
/// `edgeScrollBottomMinimumHeightMM` does not have unless it is a clickpad. nil from `init` when
/// the scroll method in effect is not edge scrolling, or the surface size is unknown.
struct EdgeScrollZones: Sendable {
    /// Positions right of this are in the right edge.
    let rightEdgeX: Double
    /// Positions below this are in the bottom edge (infinity: no bottom edge).
    let bottomEdgeY: Double
    let widthMM: Double
    let minMoveMM: Double
    /// Infinity on a clickpad (see `GestureRecognizerConfiguration.edgeScrollLockTimeoutMS`).
    let lockTimeoutMS: Double

    init?(_ c: GestureRecognizerConfiguration) {
        guard c.scrollMethod.resolved(for: c.device) == .edge, let width = c.device.widthMM,
              let height = c.device.heightMM else { return nil }
        let isClickpad = c.device.isClickpad == true
        widthMM = c.edgeScrollWidthMM
        rightEdgeX = width - c.edgeScrollWidthMM
        bottomEdgeY = isClickpad || height >= c.edgeScrollBottomMinimumHeightMM ? height - c.edgeScrollWidthMM : .infinity
        minMoveMM = c.edgeScrollMinMoveMM
        lockTimeoutMS = isClickpad ? .infinity : c.edgeScrollLockTimeoutMS
    }

    /// libinput's `tp_touch_get_edge`: strictly past the edge's inner line.
    func edges(at p: PointMM) -> ScrollEdges {
        var edges: ScrollEdges = []
        if p.x > rightEdgeX { edges.insert(.right) }
        if p.y > bottomEdgeY { edges.insert(.bottom) }
        return edges
    }
}

/// One touch's edge-scroll state, kept on the touch as libinput keeps `t->scroll` on each of its
/// touches (`tp_edge_scroll_touch_state` in evdev-mt-touchpad-edge-scroll.c). A touch in
/// `edgeNew` or `edge` belongs to edge scrolling: the gesture recognizer leaves it out, as
/// libinput's `tp_touch_active_for_gesture` does.
enum EdgeScrollTouchState: Sendable, Equatable {
    /// Not judged yet: a touch that has just landed, or edge scrolling is off.
    case none
    /// Landed in an edge and not scrolling yet (`EDGE_SCROLL_TOUCH_STATE_EDGE_NEW`): where, and when.
    case edgeNew(ScrollEdges, landed: PointMM, since: EventTime)
    /// Scrolling along its edge, or locked into it by resting (`EDGE_SCROLL_TOUCH_STATE_EDGE`), for
    /// the rest of its life. `lockedAt`: where it was when the lock timeout ran out, nil when it
    /// got here by moving `minMoveMM`.
    case edge(ScrollEdges, landed: PointMM, since: EventTime, lockedAt: PointMM?)
    /// Not an edge touch (`EDGE_SCROLL_TOUCH_STATE_AREA`): a finger like any other.
    case area
    /// pinchlab's own: down while another touch's edge scroll is in flight. Left out until that
    /// scroll ends, then a finger (`area`): the transition follows one gesture at a time.
    case waiting

    /// Left out by the gesture recognizer.
    var leavesTouchOut: Bool {
        switch self {
        case .edgeNew, .edge, .waiting: true
        case .none, .area: false
        }
    }

    /// The single edge this touch scrolls along, nil while it is in none or in both (a corner:
    /// libinput waits to know the direction).
    var scrollEdge: ScrollEdges? {
        guard case .edge(let edges, _, _, _) = self, edges == .right || edges == .bottom else { return nil }
        return edges
    }

    /// Whether the touch scrolls at `position`: along a single edge, in it, and (after the lock
    /// timeout) moved along it since the lock (libinput posts no scroll of 0).
    func scrolls(at position: PointMM, zones: EdgeScrollZones) -> Bool {
        guard case .edge(let edges, _, _, let lockedAt) = self, let edge = scrollEdge,
              zones.edges(at: position).contains(edge) else { return false }
        return lockedAt.map { Self.along(edges, position - $0) > 0 } ?? true
    }

    /// One frame for this touch, at `position`: libinput's `SCROLL_EVENT_TOUCH` for a new touch, its
    /// lock `SCROLL_EVENT_TIMEOUT` if due by `now` (its timer runs before the frame's motion), its
    /// `SCROLL_EVENT_MOTION`, and `SCROLL_EVENT_POSTED` once an edge-new touch moved
    /// `minMoveMM` along its edge (`tp_edge_scroll_post_events`).
    mutating func follow(_ position: PointMM, at now: EventTime, zones: EdgeScrollZones) {
        switch self {
        case .none:
            let edges = zones.edges(at: position)
            self = edges.isEmpty ? .area : .edgeNew(edges, landed: position, since: now)
        case .edgeNew(var edges, let landed, let since):
            if now.milliseconds(since: since) >= zones.lockTimeoutMS {
                self = .edge(edges, landed: landed, since: since, lockedAt: position)
                follow(position, at: now, zones: zones)
                return
            }
            edges.formIntersection(zones.edges(at: position))
            if edges.isEmpty {
                self = .area
            } else if edges != [.right, .bottom], Self.along(edges, position - landed) >= zones.minMoveMM {
                self = .edge(edges, landed: landed, since: since, lockedAt: nil)
            } else {
                self = .edgeNew(edges, landed: landed, since: since)
            }
        case .edge(var edges, let landed, let since, let lockedAt):
            // Started in the corner: the first edge the touch leaves decides the direction.
            guard edges == [.right, .bottom] else { return }
            edges.formIntersection(zones.edges(at: position))
            self = edges.isEmpty ? .area : .edge(edges, landed: landed, since: since, lockedAt: lockedAt)
        case .area, .waiting:
            return
        }
    }

    /// The distance along an edge's scroll axis: vertical on the right edge, horizontal on the bottom.
    static func along(_ edges: ScrollEdges, _ d: PointMM) -> Double {
        edges == .bottom ? abs(d.x) : abs(d.y)
    }
}
