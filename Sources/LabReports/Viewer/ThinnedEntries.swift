/// A page's entries with its bulk bounded, so a recording of hours makes a page of bounded size:
/// touch frames past `maximumFrames`, and a gesture's updates (`changed`) past
/// `maximumGestureUpdates`: past its bound every other entry of that kind is dropped and only 1 in
/// its stride new ones kept (a touch shorter than the stride may not be shown; a gesture keeps its
/// begin and end, only the updates between are fewer). The page says what was thinned.
/// Left-out touches, buttons, transition steps and every gesture's begin and end are all kept.
struct ThinnedEntries {
    static let maximumFrames = 150_000
    static let maximumGestureUpdates = 150_000

    private(set) var entries: [ViewerEntry] = []
    private(set) var frameStride = 1
    private(set) var gestureUpdateStride = 1
    private var frames = Bounded()
    private var updates = Bounded()

    /// One thinned kind's counts.
    private struct Bounded {
        var kept = 0
        var seen = 0
    }

    private enum Kind { case frame, gestureUpdate }

    private static func kind(of entry: ViewerEntry) -> Kind? {
        switch entry {
        case .frame: return .frame
        case .gesture(_, _, let state, _, _, _, _) where state == .changed: return .gestureUpdate
        default: return nil
        }
    }

    mutating func append(_ entry: ViewerEntry) {
        guard let kind = Self.kind(of: entry) else {
            entries.append(entry)
            return
        }
        var counts = kind == .frame ? frames : updates
        let stride = kind == .frame ? frameStride : gestureUpdateStride
        let kept = counts.seen % stride == 0
        counts.seen += 1
        if kept {
            entries.append(entry)
            counts.kept += 1
        }
        let bound = kind == .frame ? Self.maximumFrames : Self.maximumGestureUpdates
        if counts.kept > bound {
            counts.kept = dropEveryOther(kind)
            if kind == .frame { frameStride *= 2 } else { gestureUpdateStride *= 2 }
        }
        if kind == .frame { frames = counts } else { updates = counts }
    }

    /// Drops every other entry of `kind`; returns how many are left.
    private mutating func dropEveryOther(_ kind: Kind) -> Int {
        var index = 0
        entries.removeAll { entry in
            guard Self.kind(of: entry) == kind else { return false }
            defer { index += 1 }
            return index % 2 == 1
        }
        return entries.reduce(0) { count, entry in Self.kind(of: entry) == kind ? count + 1 : count }
    }
}
