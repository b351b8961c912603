import GestureCore

/// Idle gaps of a recording shortened before it is played to libinput in real time. libinput's
/// timers and windows are all short (the longest, the pointer filter's motion history, is 1 s:
/// filter.c `MOTION_TIMEOUT`; tap, hold and the gesture timeouts are 100 to 500 ms), so once a
/// gap is longer than `longestPlayedSeconds` every one of them has run out and libinput cannot tell
/// 2 s from 2 h: a suspend of two minutes in a recording (or a jump of 1e9 s in its timestamps)
/// is played as 2 s instead of making the run wait for it. Times libinput reports are mapped back
/// to the recording's (`original`), so its gestures line up with pinchlab's.
package struct ShortenedGaps: Sendable, Hashable {
    /// What a longer gap is played as.
    package static let longestPlayedSeconds = 2.0

    /// One gap: where it ends in the played time (seconds since the first event) and how much was cut.
    package struct Cut: Sendable, Hashable, Encodable {
        /// Seconds since the recording's first event, in the recording's own time, where the gap began.
        package var at: Double
        /// The gap as recorded, seconds.
        package var seconds: Double
        /// Where the gap ends in the played time.
        var playedEnd: Double
        /// Seconds cut (`seconds - longestPlayedSeconds`).
        var removed: Double

        private enum CodingKeys: String, CodingKey { case at, seconds }
    }

    package private(set) var cuts: [Cut] = []
    package var isEmpty: Bool { cuts.isEmpty }

    package init() {}

    /// `events` with every gap longer than `longestPlayedSeconds` between two events played as that
    /// long, and the cuts made.
    package static func shorten(_ events: [InputEvent]) -> (events: [InputEvent], gaps: ShortenedGaps) {
        var gaps = ShortenedGaps()
        guard let first = events.first?.time.totalMicroseconds else { return (events, gaps) }
        let longest = Int64(longestPlayedSeconds * 1_000_000)
        var shortened = events
        var removed: Int64 = 0
        var previous = first
        for index in events.indices {
            let time = events[index].time.totalMicroseconds
            let gap = time &- previous
            if gap > longest {
                removed &+= gap - longest
                gaps.cuts.append(Cut(at: Double(previous - first) / 1e6, seconds: Double(gap) / 1e6,
                                     playedEnd: Double(time - first - removed) / 1e6, removed: Double(gap - longest) / 1e6))
            }
            previous = time
            if removed > 0 { shortened[index].time = EventTime(totalMicroseconds: time - removed) }
        }
        return (shortened, gaps)
    }

    /// A time libinput reported (seconds since the first event, as played) in the recording's time.
    package func original(_ played: Double) -> Double {
        var time = played
        for cut in cuts where played >= cut.playedEnd - 1e-6 { time += cut.removed }
        return time
    }
}

extension LibinputVerdict {
    /// This verdict in the recording's time: every gesture's and step's time mapped through `gaps`,
    /// which it keeps to say what was shortened.
    package func inRecordingTime(_ gaps: ShortenedGaps) -> LibinputVerdict {
        guard !gaps.isEmpty else { return self }
        var verdict = self
        verdict.shortenedGaps = gaps.cuts
        for index in verdict.gestures.indices {
            verdict.gestures[index].begin = gaps.original(verdict.gestures[index].begin)
            verdict.gestures[index].end = gaps.original(verdict.gestures[index].end)
        }
        verdict.steps = verdict.steps.map { step in
            switch step {
            case .gesture(var g): g.time = gaps.original(g.time); return .gesture(g)
            case .touch(var t): t.time = gaps.original(t.time); return .touch(t)
            }
        }
        return verdict
    }
}
