import GestureKit
import InteractiveTransition

/// Collects a replay's records into a `ReplayTimeline` for `TimelinePlot`.
public struct TimelineRecorder {
    private var timeline: ReplayTimeline
    private var trackIndex: [UInt64: Int] = [:]
    private let policy: CompletionPolicy
    /// The trial of the last transition step (the driver numbers them); a step of another starts
    /// a new run of the progress line.
    private var lastTrial: Int?

    /// `settings` give the progress mapping's figures (the pan's distance, zoom's scale range).
    public init(title: String, device: DeviceDescription, transition: TransitionName, policy: CompletionPolicy,
                settings: LabSettings) {
        let geometry = device.geometry
        timeline = ReplayTimeline(title: title, surfaceWidthMM: geometry?.widthMM ?? 100,
                                  surfaceHeightMM: geometry?.heightMM ?? 60)
        timeline.transition = transition.rawValue
        timeline.drivingKind = TransitionBinding(transition).kind
        timeline.progressThreshold = policy.progressThreshold
        let mapping = TransitionBinding(transition).mapping
        timeline.progressMapping = mapping
        timeline.progressDivisor = mapping.divisor(settings)
        self.policy = policy
    }

    public mutating func record(_ record: LabRecord) {
        switch record {
        case .frame(let frame, let time):
            for touch in frame.touches {
                let index: Int
                if let known = trackIndex[touch.id] {
                    index = known
                } else {
                    index = timeline.tracks.count
                    trackIndex[touch.id] = index
                    timeline.tracks.append(.init(number: index + 1))
                }
                timeline.tracks[index].samples.append(.init(time: time, position: touch.position))
            }
        case .gesture(let g):
            recordGesture(g)
        case .transition(let t):
            recordTransition(t)
        case .stateChange:
            break
        case .button(let b):
            if b.state == .pressed {
                timeline.buttonPresses.append(.init(button: b.button, begin: b.time))
            } else if let open = timeline.buttonPresses.lastIndex(where: { $0.button == b.button && $0.end == nil }) {
                timeline.buttonPresses[open].end = b.time
            }
        }
    }

    private mutating func recordGesture(_ g: GestureRecord) {
        let event = g.event
        if event.state == .began {
            switch event.kind {
            case .pinch: timeline.scale.startRun()
            case .pan: timeline.translationXMM.startRun(); timeline.translationYMM.startRun()
            case .hold: break
            }
            timeline.markers.append(.init(kind: .gestureBegan, time: g.time, gesture: g.gesture,
                                          gestureKind: event.kind, fingers: event.fingerCount, rule: event.decision?.rule.rawValue))
        } else if event.state == .cancelled {
            timeline.markers.append(.init(kind: .gestureCancelled, time: g.time, gesture: g.gesture,
                                          gestureKind: event.kind, fingers: event.fingerCount, rule: event.decision?.rule.rawValue))
        }
        switch event.kind {
        case .pinch: timeline.scale.append(.init(time: g.time, value: event.scale))
        case .pan:
            timeline.translationXMM.append(.init(time: g.time, value: event.translationMM.x))
            timeline.translationYMM.append(.init(time: g.time, value: event.translationMM.y))
        case .hold: break
        }
    }

    private mutating func recordTransition(_ t: TransitionRecord) {
        let trial = max(t.trial, 0)
        if trial != lastTrial {
            lastTrial = trial
            timeline.progress.startRun()
        }
        timeline.progress.append(.init(time: t.time, value: t.progress))
        if t.reason != nil {
            // The policy was asked when there is a velocity; a cancelled gesture has none. The
            // decision is the one the driver made (a desktop's rule reads the whole gesture).
            let decision = t.decision ?? t.velocity.map { policy.decide(progress: t.progress, velocity: $0) }
            timeline.releases.append(.init(trial: trial, time: t.time, progress: t.progress, velocity: t.velocity, decision: decision))
            timeline.markers.append(.init(kind: .release, time: t.time, trial: trial))
        }
        if t.state == .finished || t.state == .cancelled {
            timeline.markers.append(.init(kind: t.state == .finished ? .finished : .cancelled, time: t.time, trial: trial))
            if let last = timeline.releases.indices.last, timeline.releases[last].trial == trial {
                timeline.releases[last].end = t.time
                timeline.releases[last].endProgress = t.progress
            }
        }
    }

    /// What this recorder saw, as another policy's overlay on a main timeline (`plot --compare`).
    public func overlay(name: String) -> ReplayTimeline.ProgressOverlay {
        var overlay = ReplayTimeline.ProgressOverlay(name: name)
        overlay.progress = timeline.progress
        overlay.releases = timeline.releases
        return overlay
    }

    public func timeline(summary: LabSummary) -> ReplayTimeline {
        var result = timeline
        result.summary = summary
        result.trials = summary.trials
        result.gestures = summary.gestures
        return result
    }
}
