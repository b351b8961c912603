/// Which part of a replay a picture shows: all of it, the seconds between `from` and `to`, or one
/// attempt at the transition alone (`trial`, numbered from 1 as the summary lists them).
package struct PlotWindow: Sendable, Hashable {
    package var from: Double?
    package var to: Double?
    /// 1-based: attempt 1 is the summary's `trials[0]`.
    package var trial: Int?

    package init(from: Double? = nil, to: Double? = nil, trial: Int? = nil) {
        self.from = from
        self.to = to
        self.trial = trial
    }

    package static let all = PlotWindow()

    /// Seconds shown around an attempt alone: before its fingers touched, after its animation ended.
    static let trialMargin = 0.15

    /// The seconds to draw of `timeline`.
    func seconds(of timeline: ReplayTimeline) throws(PlotError) -> ClosedRange<Double> {
        let duration = timeline.duration
        // The whole of a recording with one event (or none) still gets an axis.
        guard from != nil || to != nil || trial != nil else { return 0...max(duration, 0.001) }
        var low = 0.0, high = duration
        if let trial {
            let count = timeline.summary?.trialCount ?? timeline.trials.count
            guard trial >= 1, trial <= count else { throw .noSuchTrial(trial, count: count) }
            guard trial <= timeline.trials.count else { throw .trialNotKept(trial, kept: timeline.trials.count) }
            let t = timeline.trials[trial - 1]
            // From the first touch of the fingers that made it, to the end of its animation.
            let end = t.end ?? t.release ?? timeline.releases.last { $0.trial == trial - 1 }?.time ?? duration
            let touchDown = timeline.tracks.filter { $0.begin <= t.begin && $0.end >= t.begin }.map(\.begin).min() ?? t.begin
            low = max(0, touchDown - Self.trialMargin)
            high = min(duration, max(end, t.release ?? end) + Self.trialMargin)
            let lifts = timeline.tracks.filter { $0.begin <= high && $0.end >= t.begin }.map(\.end)
            high = min(duration, max(high, (lifts.max() ?? high) + Self.trialMargin))
        }
        if let from {
            guard from < duration else { throw .startsAfterTheEnd(from: from, duration: duration) }
            low = max(low, from)
        }
        if let to { high = min(high, to) }
        guard high > low else { throw .emptyWindow(from: low, to: high) }
        return low...high
    }
}

/// Why a picture cannot be drawn as asked.
package enum PlotError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `--trial` names an attempt the replay did not have.
    case noSuchTrial(Int, count: Int)
    /// The attempt happened, but past the first `LabSummary.maximumListed` that a replay keeps.
    case trialNotKept(Int, kept: Int)
    /// `--from` lies past the recording's last event.
    case startsAfterTheEnd(from: Double, duration: Double)
    /// `--from` is not before `--to` (after cropping to an attempt, too).
    case emptyWindow(from: Double, to: Double)

    package var description: String {
        func s(_ value: Double) -> String { FixedPoint.string(value, decimals: 3, trimmingZeros: true) }
        switch self {
        case .noSuchTrial(let n, let count):
            return count == 0 ? "there is no attempt \(n): the transition never started"
                : "there is no attempt \(n): the replay made \(count) (numbered from 1)"
        case .trialNotKept(let n, let kept):
            return "attempt \(n) is past the first \(kept) that a replay keeps"
        case .startsAfterTheEnd(let from, let duration):
            return "the window starts at \(s(from)) s, after the recording's end at \(s(duration)) s"
        case .emptyWindow(let from, let to):
            return "the window \(s(from))-\(s(to)) s is empty"
        }
    }
}
