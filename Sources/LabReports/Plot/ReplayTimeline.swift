import GestureCore
import GestureLab
import GestureTools
import InteractiveTransition

/// What a replay produced, kept for drawing: finger tracks, the driving gesture's values over time,
/// the transition's progress over time, every attempt's release and decision, and the moments that
/// matter. Times are seconds from the first event. Everything stays typed (kinds, decisions, indices):
/// `TimelinePlot` makes the words.
package struct ReplayTimeline: Sendable {
    package struct FingerSample: Sendable { package var time: Double; package var position: PointMM }
    package struct ValueSample: Sendable { package var time: Double; package var value: Double }

    /// One contact from touch-down to lift.
    package struct Track: Sendable {
        /// 1-based, in the order contacts began (the number drawn beside it).
        package var number: Int
        package var samples: [FingerSample] = []
        package var begin: Double { samples.first?.time ?? 0 }
        package var end: Double { samples.last?.time ?? 0 }
    }

    /// Values over time drawn as lines; each run is one unbroken line (one gesture, one attempt).
    /// Past `maximumSamples`, every other sample of each run is dropped (a run's first and last
    /// stay; runs too short for that go every other one) and only 1 in `stride` new samples is kept
    /// (with the last of each run).
    package struct Series: Sendable {
        package var runs: [[ValueSample]] = []
        package var maximumSamples = Int.max
        package private(set) var stride = 1
        private var count = 0
        private var seen = 0
        /// The last sample was kept only as its run's last so far: the next one replaces it.
        private var provisionalLast = false
        package var isEmpty: Bool { runs.allSatisfy(\.isEmpty) }
        package var values: [Double] { runs.flatMap { $0.map(\.value) } }
        package mutating func startRun() {
            if runs.last?.isEmpty == false || runs.isEmpty { runs.append([]) }
            provisionalLast = false
        }
        package mutating func append(_ sample: ValueSample) {
            if runs.isEmpty { runs.append([]) }
            let last = runs.count - 1
            if provisionalLast { runs[last].removeLast(); count -= 1 }
            provisionalLast = seen % stride != 0 && !runs[last].isEmpty
            seen += 1
            runs[last].append(sample)
            count += 1
            if count > maximumSamples { thin() }
        }

        /// Every other sample of each run; when the runs are too short for that to bring the count
        /// under the bound (thousands of two-sample gestures), every other run as well, the one
        /// being drawn kept. The stride doubles only when samples went, and stops at 2^30: doubling
        /// on every append after a thinning that removed nothing overflowed within 62 appends.
        private mutating func thin() {
            let before = count
            runs = runs.map(ReplayTimeline.everyOther)
            count = runs.reduce(0) { $0 + $1.count }
            if count > maximumSamples {
                let last = runs.count - 1
                runs = runs.enumerated().filter { (last - $0.offset) % 2 == 0 }.map(\.element)
                count = runs.reduce(0) { $0 + $1.count }
            }
            if count < before { stride = min(stride * 2, 1 << 30) }
            provisionalLast = false
        }
    }

    /// A physical button held from `begin` to `end` (nil: still down when the replay stopped).
    package struct ButtonPress: Sendable {
        package var button: PhysicalButtons
        package var begin: Double
        package var end: Double?
    }

    /// `samples` without every other one between the first and the last.
    static func everyOther<Sample>(_ samples: [Sample]) -> [Sample] {
        guard samples.count > 2 else { return samples }
        var kept = samples.indices.dropLast().filter { $0 % 2 == 0 }.map { samples[$0] }
        kept.append(samples[samples.count - 1])
        return kept
    }

    /// How much of a very long recording the picture leaves out (`TimelineRecorder`'s bounds).
    package struct Thinning: Sendable {
        /// Touches in the recording, and tracks kept for drawing.
        package var touches = 0
        package var tracksDrawn = 0
        /// 1 in this many frames' finger positions drawn; 1 in this many values of a line.
        package var frameStride = 1
        package var seriesStride = 1
        /// 1 in this many attempts' and gestures' marks drawn (releases, decisions, begins).
        package var attemptStride = 1
        package var gestureStride = 1
        package var isThinned: Bool {
            tracksDrawn < touches || frameStride > 1 || seriesStride > 1 || attemptStride > 1 || gestureStride > 1
        }
    }

    /// A moment marked on the charts.
    package struct Marker: Sendable {
        package enum Kind: String, Sendable, CaseIterable {
            case gestureBegan, gestureCancelled, release, finished, cancelled
        }
        package var kind: Kind
        package var time: Double
        /// The gesture's index in the summary's `gestures` (gesture markers).
        package var gesture: Int?
        package var gestureKind: GestureKind?
        package var fingers: Int?
        /// The attempt's index in the summary's `trials` (release, finished, cancelled).
        package var trial: Int?
        /// The recognizer rule that fired here, when one did (a thumb band, a resting touch), drawn
        /// after the marker's label.
        package var rule: String?

        package init(kind: Kind, time: Double, gesture: Int? = nil, gestureKind: GestureKind? = nil, fingers: Int? = nil,
                    trial: Int? = nil, rule: String? = nil) {
            self.kind = kind; self.time = time; self.gesture = gesture; self.gestureKind = gestureKind
            self.fingers = fingers; self.trial = trial; self.rule = rule
        }
    }

    /// An attempt's release: where the fingers lifted (or the gesture was cancelled) and what decided.
    package struct Release: Sendable {
        /// Index in the summary's `trials`.
        package var trial: Int
        package var time: Double
        package var progress: Double
        /// Progress per second at the release; nil when the gesture was cancelled.
        package var velocity: Double?
        /// The policy's decision; nil when the gesture was cancelled (the policy was not asked).
        package var decision: CompletionDecision?
        /// When the completion animation ended and the progress it ended at (nil if the replay
        /// stopped before, or a new gesture grabbed the animation back).
        package var end: Double?
        package var endProgress: Double?
        /// What would have flipped it (when the replay measured margins).
        package var margins: TrialMargins?
        package var finished: Bool { decision?.shouldFinish ?? false }

        /// The progress the policy projected the motion to, when projection decided.
        package var projectedProgress: Double? {
            if case .projected(let projected, _)? = decision?.reason { return projected }
            if case .gnome(let gnome)? = decision?.reason, let projected = gnome.projectedProgress { return projected }
            return nil
        }

        package init(trial: Int, time: Double, progress: Double, velocity: Double?, decision: CompletionDecision?, end: Double? = nil) {
            self.trial = trial; self.time = time; self.progress = progress; self.velocity = velocity
            self.decision = decision; self.end = end
        }
    }

    /// Another policy's progress over the same recording (`--compare`), drawn over the main one.
    package struct ProgressOverlay: Sendable {
        package var name: String
        package var progress = Series()
        package var releases: [Release] = []
        package init(name: String) { self.name = name }
    }

    package var title: String
    package var surfaceWidthMM: Double
    package var surfaceHeightMM: Double
    /// The transition drawn, and the kind of gesture that drives it (which gesture chart is shown).
    package var transition: String = ""
    package var drivingKind: GestureKind?
    package var tracks: [Track] = []
    /// The pinch's scale over time, one run per gesture.
    package var scale = Series()
    /// The pan's translation in millimetres over time, both axes (x right, y down), one run per gesture.
    package var translationXMM = Series()
    package var translationYMM = Series()
    /// The transition's progress (interactive and animated) over time, one run per attempt.
    package var progress = Series()
    package var overlays: [ProgressOverlay] = []
    /// The gesture tools' verdicts on the same replay (`plot --tool`): a lane each, and their lines.
    package var tools: [ToolVerdict] = []
    package var progressThreshold: Double?
    /// How the driving gesture becomes progress, and the figure it divides by (pan-dismiss's
    /// distance in mm, zoom-present's scale range), for the progress chart's title.
    package var progressMapping: TransitionBinding.Mapping?
    package var progressDivisor: Double?
    package var markers: [Marker] = []
    package var releases: [Release] = []
    /// The summary's attempts and gestures (for the facts and `--trial`).
    package var trials: [TrialSummary] = []
    package var gestures: [LabSummary.Gesture] = []
    /// Every button press, in time order (a clickpad's clicks).
    package var buttonPresses: [ButtonPress] = []
    package var summary: LabSummary?
    /// What was left out for drawing a very long recording.
    package var thinning = Thinning()
    /// When fingers were down, every touch's (drawn or not), in time order: runs closer than the
    /// time axis's idle limit are one span, since no idle cut could fall between them.
    package private(set) var touchActivity: [ClosedRange<Double>] = []

    /// Adds a touch's span to `touchActivity`.
    package mutating func noteTouch(_ span: ClosedRange<Double>) {
        if let last = touchActivity.last, span.lowerBound - last.upperBound <= TimeAxis.idleLimit,
           span.lowerBound >= last.lowerBound {
            touchActivity[touchActivity.count - 1] = last.lowerBound...max(last.upperBound, span.upperBound)
        } else {
            touchActivity.append(span)
        }
    }

    package init(title: String, surfaceWidthMM: Double, surfaceHeightMM: Double) {
        self.title = title
        self.surfaceWidthMM = surfaceWidthMM
        self.surfaceHeightMM = surfaceHeightMM
    }

    /// The last moment anything happened.
    package var duration: Double {
        var end = summary?.duration ?? 0
        for track in tracks { end = max(end, track.end) }
        for series in [scale, translationXMM, translationYMM, progress] + overlays.map(\.progress) {
            if let last = series.runs.last?.last { end = max(end, last.time) }
        }
        for marker in markers { end = max(end, marker.time) }
        return end
    }

    /// The stretches where something happened: a finger down, a gesture, an attempt from its begin to
    /// the end of its animation. Sorted and merged; what lies between is idle.
    package var activity: [ClosedRange<Double>] {
        var spans: [ClosedRange<Double>] = touchActivity + tracks.map { $0.begin...$0.end }
        for series in [scale, translationXMM, progress] + overlays.map(\.progress) {
            for run in series.runs { if let f = run.first, let l = run.last { spans.append(f.time...max(f.time, l.time)) } }
        }
        spans += markers.map { $0.time...$0.time }
        return Self.merged(spans)
    }

    static func merged(_ spans: [ClosedRange<Double>]) -> [ClosedRange<Double>] {
        var out: [ClosedRange<Double>] = []
        for span in spans.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = out.last, span.lowerBound <= last.upperBound {
                out[out.count - 1] = last.lowerBound...max(last.upperBound, span.upperBound)
            } else {
                out.append(span)
            }
        }
        return out
    }
}
