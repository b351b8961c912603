/// A page's entries with its touch frames bounded: past `maximumFrames`, every other frame entry
/// is dropped and only 1 in `frameStride` new frames kept, so a recording of a million touches
/// makes a page of bounded size (a touch shorter than the stride may not be shown; the page says
/// the frames are thinned). Gestures, left-out touches and transition steps are all kept.
struct ThinnedEntries {
    static let maximumFrames = 150_000

    private(set) var entries: [ViewerEntry] = []
    private(set) var frameStride = 1
    private var frames = 0
    private var framesSeen = 0

    mutating func append(_ entry: ViewerEntry) {
        guard case .frame = entry else {
            entries.append(entry)
            return
        }
        let kept = framesSeen % frameStride == 0
        framesSeen += 1
        guard kept else { return }
        entries.append(entry)
        frames += 1
        if frames > Self.maximumFrames { dropEveryOtherFrame() }
    }

    private mutating func dropEveryOtherFrame() {
        var index = 0
        entries.removeAll { entry in
            guard case .frame = entry else { return false }
            defer { index += 1 }
            return index % 2 == 1
        }
        frameStride *= 2
        frames = entries.reduce(0) { count, entry in
            if case .frame = entry { return count + 1 }
            return count
        }
    }
}
