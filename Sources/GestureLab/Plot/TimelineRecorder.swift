import GestureKit

/// Collects a replay's records into a `ReplayTimeline` for `TimelinePlot`.
public struct TimelineRecorder {
    private var timeline: ReplayTimeline
    private var trackIndex: [UInt64: Int] = [:]

    public init(title: String, device: DeviceDescription, threshold: Double?) {
        let geometry = device.geometry
        timeline = ReplayTimeline(title: title, surfaceWidthMM: geometry?.widthMM ?? 100,
                                  surfaceHeightMM: geometry?.heightMM ?? 60)
        timeline.progressThreshold = threshold
    }

    public mutating func record(_ record: LabRecord) {
        switch record {
        case .frame(let frame, let time):
            for touch in frame.touches {
                let index: Int
                if let known = trackIndex[touch.id] {
                    index = known
                } else {
                    index = timeline.fingerTracks.count
                    trackIndex[touch.id] = index
                    timeline.fingerTracks.append([])
                }
                timeline.fingerTracks[index].append(.init(time: time, position: touch.position))
            }
        case .gesture(let g):
            switch g.event.kind {
            case .pinch: timeline.scale.append(.init(time: g.time, value: g.event.scale))
            case .pan: timeline.translationMM.append(.init(time: g.time, value: g.event.translationMM.y))
            }
            if g.event.state == .began {
                timeline.markers.append(.init(kind: .began, time: g.time, label: "\(g.event.kind.rawValue) began"))
            } else if g.event.state == .cancelled {
                timeline.markers.append(.init(kind: .gestureCancelled, time: g.time, label: "\(g.event.kind.rawValue) cancelled"))
            }
        case .transition(let t):
            timeline.progress.append(.init(time: t.time, value: t.progress))
            if t.reason != nil {
                timeline.markers.append(.init(kind: .release, time: t.time, label: "release"))
            }
            if t.state == .finished { timeline.markers.append(.init(kind: .finish, time: t.time, label: "finished")) }
            if t.state == .cancelled { timeline.markers.append(.init(kind: .cancel, time: t.time, label: "cancelled")) }
        }
    }

    public func timeline(summary: LabSummary) -> ReplayTimeline {
        var result = timeline
        result.outcome = summary.outcome.rawValue
        result.reason = summary.reason.map { "\($0)" } ?? ""
        result.facts = Self.facts(summary)
        return result
    }

    /// The gestures listed in the facts; more are counted.
    static let listedGestures = 3

    static func facts(_ s: LabSummary) -> [String] {
        func n(_ value: Double, _ decimals: Int = 3) -> String { SVGDocument.number(value, decimals: decimals) }
        var lines: [String] = []
        for g in s.gestures.prefix(listedGestures) { lines.append(g.text) }
        if s.gestureCount > listedGestures { lines.append("and \(s.gestureCount - listedGestures) more gestures") }
        if s.gestureCount == 0 { lines.append("no gesture recognized") }
        if let trial = s.trials.first {
            if let release = trial.release {
                let decision = trial.decision.map { ": progress \(n($0.progress)), velocity \(n($0.velocity))/s" } ?? ""
                lines.append("released at \(n(release)) s\(decision)")
            }
            if let reason = trial.reason { lines.append("decided: \(reason)") }
            if let end = trial.end { lines.append("\(trial.outcome.rawValue) at \(n(end)) s") }
            if s.trialCount > 1 { lines.append("\(s.trialCount) goes at the transition; the first is shown above") }
        } else {
            let kind = TransitionBinding(s.transition).kind
            lines.append("\(s.transition) follows \(kind.rawValue) gestures: it never started")
        }
        lines.append("policy: \(s.policy)")
        lines.append("device: \(s.device.text)")
        if let error = s.error { lines.append("stopped early: \(error)") }
        return lines
    }
}
