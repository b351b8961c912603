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
        result.reason = summary.reason ?? ""
        return result
    }
}
