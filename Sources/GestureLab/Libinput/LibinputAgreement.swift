
/// How pinchlab's gestures and libinput's line up on one recording: summary key `"agreement"`.
///
/// Compared are libinput's pinches (with pinchlab's pinches of the same finger count), swipes (with
/// pinchlab's pans of the same count), finger scrolls (with pinchlab's two-finger pans, and its
/// one-finger pans: edge scrolls on a touchpad, where libinput's scroll does not say how many
/// fingers made it) and holds
/// (with pinchlab's holds of the same count); pointer motion has no pinchlab counterpart and is
/// left out. Two gestures match when they
/// overlap in time (within `toleranceSeconds`); each gesture matches at most once, in time order.
package struct LibinputAgreement: Sendable, Hashable, Encodable {
    static let toleranceSeconds = 0.05

    /// Pairs of gestures that match.
    package var matched: Int
    /// Indices into libinput's `gestures` of compared gestures nothing of pinchlab's matched.
    package var libinputOnly: [Int]
    /// Indices into the summary's `gestures` that nothing of libinput's matched.
    package var pinchlabOnly: [Int]
    /// matched / (matched + unmatched on either side); 1 when neither side has a gesture.
    @Rounded package var ratio: Double

    package init(pinchlab: [LabSummary.Gesture], libinput: [LibinputGesture]) {
        var used = Set<Int>()
        var matched = 0
        var libinputOnly: [Int] = []
        for (index, theirs) in libinput.enumerated() {
            guard Self.isCompared(theirs) else { continue }
            let candidate = pinchlab.indices.first { i in
                !used.contains(i) && Self.counterparts(pinchlab[i], theirs)
                    && pinchlab[i].begin <= theirs.end + Self.toleranceSeconds
                    && theirs.begin <= pinchlab[i].end + Self.toleranceSeconds
            }
            if let candidate {
                used.insert(candidate)
                matched += 1
            } else {
                libinputOnly.append(index)
            }
        }
        let pinchlabOnly = pinchlab.indices.filter { !used.contains($0) }
        self.matched = matched
        self.libinputOnly = libinputOnly
        self.pinchlabOnly = pinchlabOnly
        let total = matched + libinputOnly.count + pinchlabOnly.count
        ratio = total == 0 ? 1 : Double(matched) / Double(total)
    }

    static func isCompared(_ gesture: LibinputGesture) -> Bool {
        switch gesture.kind {
        case .pinch, .swipe, .scroll, .hold: return true
        case .motion: return false
        }
    }

    static func counterparts(_ ours: LabSummary.Gesture, _ theirs: LibinputGesture) -> Bool {
        switch theirs.kind {
        case .pinch: return ours.kind == .pinch && ours.fingers == theirs.fingers
        case .swipe: return ours.kind == .pan && ours.fingers == theirs.fingers
        case .scroll: return ours.kind == .pan && (ours.fingers == 1 || ours.fingers == 2)
        case .hold: return ours.kind == .hold && ours.fingers == theirs.fingers
        case .motion: return false
        }
    }
}
