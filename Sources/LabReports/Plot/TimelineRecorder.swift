import GestureCore
import GestureLab
import InteractiveTransition

/// Collects a replay's records into a `ReplayTimeline` for `TimelinePlot`.
package struct TimelineRecorder {
    private var timeline: ReplayTimeline
    private var trackIndex: [UInt64: Int] = [:]
    private let policy: CompletionPolicy
    /// The trial of the last transition step (the driver numbers them); a step of another starts
    /// a new run of the progress line.
    private var lastTrial: Int?

    /// `settings` give the progress mapping's figures (the pan's distance, zoom's scale range).
    package init(title: String, device: DeviceDescription, transition: TransitionName, policy: CompletionPolicy,
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
        for series in [\ReplayTimeline.scale, \.translationXMM, \.translationYMM, \.progress] {
            timeline[keyPath: series].maximumSamples = Self.maximumSeriesSamples
        }
        self.policy = policy
    }

    /// The most finger tracks kept for drawing: past it, every other track is dropped and only
    /// every other new one kept (1 in 2, 4, 8...), so a recording of a million touches draws a
    /// bounded picture of touches spread over all of it.
    package static let maximumTracks = 2_000
    /// The most finger samples kept over all tracks: past it, every other sample of each track is
    /// dropped (its first and last stay) and frames are sampled half as often from then on.
    package static let maximumTrackSamples = 200_000
    /// The most samples kept per value series (scale, translation, progress), thinned the same way.
    package static let maximumSeriesSamples = 100_000

    /// The most attempts, and gestures, marked (release, decision, end; began, cancelled): past
    /// it, the marks of every other one kept are dropped and only 1 in 2, 4, 8... new ones marked,
    /// so a recording of hours of attempts draws a bounded picture (their lines are thinned apart).
    package static let maximumMarkedAttempts = 2_000
    package static let maximumMarkedGestures = 2_000
    /// Which attempts and gestures (by index) are marked.
    private var markedAttempts = MarkedIndices(bound: maximumMarkedAttempts)
    private var markedGestures = MarkedIndices(bound: maximumMarkedGestures)

    /// Touches down now: their track's index (nil for a touch not kept) and when they touched down.
    private var liveTracks: [UInt64: (index: Int?, begin: Double)] = [:]
    private var touchesSeen = 0
    private var trackStride = 1
    private var frameStride = 1
    private var framesSeen = 0
    private var keptSamples = 0

    package mutating func record(_ record: LabRecord) {
        switch record {
        case .frame(let frame, let time):
            let sampled = framesSeen % frameStride == 0
            framesSeen += 1
            for touch in frame.touches {
                let index: Int?, begin: Double
                if let known = liveTracks[touch.id] {
                    (index, begin) = known
                } else {
                    (index, begin) = (touchesSeen % trackStride == 0 ? timeline.tracks.count : nil, time)
                    touchesSeen += 1
                    if index != nil { timeline.tracks.append(.init(number: touchesSeen)) }
                    liveTracks[touch.id] = (index, begin)
                }
                // A track's first and last sample always; the ones between as the frame stride allows.
                if let index, sampled || touch.phase == .began || touch.phase == .ended || timeline.tracks[index].samples.isEmpty {
                    timeline.tracks[index].samples.append(.init(time: time, position: touch.position))
                    keptSamples += 1
                }
                if touch.phase == .ended {
                    liveTracks[touch.id] = nil
                    timeline.noteTouch(begin...time)
                }
            }
            if timeline.tracks.count > Self.maximumTracks { dropEveryOtherTrack() }
            if keptSamples > Self.maximumTrackSamples { thinTrackSamples() }
        case .gesture(let g):
            recordGesture(g)
        case .transition(let t):
            recordTransition(t)
        case .stateChange:
            break
        case .releaseMargins(let m):
            recordMargins(m)
        case .button(let b):
            if b.state == .pressed {
                timeline.buttonPresses.append(.init(button: b.button, begin: b.time))
            } else if let open = timeline.buttonPresses.lastIndex(where: { $0.button == b.button && $0.end == nil }) {
                timeline.buttonPresses[open].end = b.time
            }
        }
    }

    private mutating func dropEveryOtherTrack() {
        let kept = timeline.tracks.indices.filter { $0 % 2 == 0 }
        var newIndex: [Int: Int] = [:]
        for (new, old) in kept.enumerated() { newIndex[old] = new }
        timeline.tracks = kept.map { timeline.tracks[$0] }
        for (id, live) in liveTracks { liveTracks[id] = (live.index.flatMap { newIndex[$0] }, live.begin) }
        trackStride *= 2
        keptSamples = timeline.tracks.reduce(0) { $0 + $1.samples.count }
    }

    private mutating func thinTrackSamples() {
        for index in timeline.tracks.indices {
            timeline.tracks[index].samples = ReplayTimeline.everyOther(timeline.tracks[index].samples)
        }
        frameStride *= 2
        keptSamples = timeline.tracks.reduce(0) { $0 + $1.samples.count }
    }

    /// Whether gesture `index` is marked; past the bound, thins the marks so far.
    private mutating func marksGesture(_ index: Int) -> Bool {
        var marked = markedGestures
        defer { markedGestures = marked }
        return marked.keeps(index) { stride in
            timeline.markers.removeAll { marker in marker.gesture.map { $0 % stride != 0 } ?? false }
        }
    }

    /// Whether attempt `trial` is marked; past the bound, thins the marks and releases so far.
    private mutating func marksAttempt(_ trial: Int) -> Bool {
        var marked = markedAttempts
        defer { markedAttempts = marked }
        return marked.keeps(trial) { stride in
            timeline.markers.removeAll { marker in marker.trial.map { $0 % stride != 0 } ?? false }
            timeline.releases.removeAll { $0.trial % stride != 0 }
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
        }
        if (event.state == .began || event.state == .cancelled) && marksGesture(g.gesture) {
            timeline.markers.append(.init(kind: event.state == .began ? .gestureBegan : .gestureCancelled, time: g.time,
                                          gesture: g.gesture, gestureKind: event.kind, fingers: event.fingerCount,
                                          rule: event.decision?.rule.rawValue))
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
        guard marksAttempt(trial) else { return }
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

    /// A release's margins go with it (they follow its transition step).
    private mutating func recordMargins(_ m: ReleaseMarginsRecord) {
        guard let index = timeline.releases.lastIndex(where: { $0.trial == m.trial }) else { return }
        timeline.releases[index].margins = m.margins
    }

    /// What this recorder saw, as another policy's overlay on a main timeline (`plot --compare`).
    package func overlay(name: String) -> ReplayTimeline.ProgressOverlay {
        var overlay = ReplayTimeline.ProgressOverlay(name: name)
        overlay.progress = timeline.progress
        overlay.releases = timeline.releases
        return overlay
    }

    package func timeline(summary: LabSummary) -> ReplayTimeline {
        var result = timeline
        result.thinning = .init(touches: touchesSeen, tracksDrawn: timeline.tracks.count, frameStride: frameStride,
                                seriesStride: max(timeline.scale.stride, timeline.translationXMM.stride, timeline.translationYMM.stride,
                                                  timeline.progress.stride),
                                attemptStride: markedAttempts.stride, gestureStride: markedGestures.stride)
        result.summary = summary
        result.trials = summary.trials
        result.gestures = summary.gestures
        return result
    }
}
