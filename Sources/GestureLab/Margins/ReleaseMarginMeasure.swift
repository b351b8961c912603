import GestureCore
import InteractiveTransition

/// The presets whose rules read the gesture's path (GNOME's velocity window, Hyprland's speed,
/// Android's commitment), each following one gesture beside the driver's own tracker while margins
/// are measured. The others (pinchlab's, KWin's) read the release alone and need nothing followed.
struct PresetTrackers: Sendable {
    /// Every preset, in `allCases` order, with its tracker's index in `trackers` when its rule
    /// follows the gesture (nil: it reads the release alone).
    private static let presets: [(preset: CompletionPolicyPreset, tracker: Int?)] = {
        var followed = 0
        return CompletionPolicyPreset.allCases.map { preset in
            switch preset.policy.kind {
            case .pinchlab, .kwin:
                return (preset, nil)
            case .gnome, .hyprland, .androidBack:
                defer { followed += 1 }
                return (preset, followed)
            }
        }
    }()

    private var trackers: [CompletionTracker]

    /// Follows a gesture that took the transition at `initialProgress` at `time`.
    init(input: CompletionInput, initialProgress: Double, at time: Double) {
        trackers = Self.presets.compactMap { entry in
            entry.tracker.map { _ in entry.preset.policy.tracker(input: input, initialProgress: initialProgress, at: time) }
        }
    }

    mutating func observe(progress: Double, at time: Double) {
        for index in trackers.indices { trackers[index].observe(progress: progress, at: time) }
    }

    /// Every preset's flip for a release at `progress` with `velocity` (progress/s).
    func flips(progress: Double, velocity: Double, at time: Double) -> [(CompletionPolicyPreset, ReleaseFlip)] {
        Self.presets.map { preset, tracker in
            (preset, tracker.map { trackers[$0].flip(progress: progress, velocity: velocity, at: time) }
                ?? preset.policy.flip(progress: progress, velocity: velocity))
        }
    }
}

/// What the driver knows of a gesture when it lifts, to say a progress flip in the gesture's terms:
/// the mapping from gesture to progress (`TransitionBinding.progressChange`) turned around.
struct ReleasedGesture: Sendable {
    var mapping: TransitionBinding.Mapping
    /// The figure the mapping divides by (pan-dismiss's mm, zoom-present's scale range).
    var divisor: Double?
    var startScale: Double
    /// The progress the gesture took the transition at (0, or where a grabbed completion was).
    var grabbedProgress: Double
    /// The pinch's scale, or the pan's downward translation (mm), at the release.
    var value: Double

    init(mapping: TransitionBinding.Mapping, event: GestureEvent, startScale: Double, grabbedProgress: Double,
         settings: LabSettings) {
        self.mapping = mapping
        divisor = mapping.divisor(settings)
        self.startScale = startScale
        self.grabbedProgress = grabbedProgress
        value = mapping == .panDown ? event.translationMM.y : event.scale
    }

    /// The gesture's value that puts the transition at `progress` (before the clamp to 0...1).
    func value(atProgress progress: Double) -> Double {
        let change = progress - grabbedProgress
        switch mapping {
        case .pinchIn: return startScale * (1 - change)
        case .pinchOut: return startScale * (1 + change * (divisor ?? 1))
        case .panDown: return change * (divisor ?? 1)
        }
    }

    /// `point` (a release progress) as the gesture's value: pinching in lowers the scale as the
    /// progress grows, so the side turns over.
    func flip(_ point: FlipPoint?) -> GestureFlip {
        let measure: GestureFlip.Measure = mapping == .panDown ? .travelMM : .scale
        let turned = point.flatMap { point -> FlipPoint? in
            let value = value(atProgress: point.value)
            guard value.isFinite else { return nil }
            let side = mapping == .pinchIn ? (point.otherSide == .above ? FlipPoint.Side.below : .above) : point.otherSide
            return FlipPoint(value: value, otherSide: side, includesValue: point.includesValue)
        }
        return GestureFlip(measure: measure, atRelease: value, point: turned)
    }
}

extension TrialMargins {
    /// A release's margins: under the policy that decided it (`tracker`'s), which is `usedPreset`'s
    /// entry when it is a preset, and under every preset, at `progress` (the transition's, as the
    /// policy was asked) with `velocity` (progress/s).
    static func measure(tracker: CompletionTracker, usedPreset: CompletionPolicyPreset?, presets: PresetTrackers,
                        progress: Double, velocity: Double, at time: Double, gesture: ReleasedGesture) -> TrialMargins {
        let entries = presets.flips(progress: progress, velocity: velocity, at: time).map { preset, flip in
            PresetMargin(preset: preset, margin: ReleaseMargin(flip: flip, gesture: gesture.flip(flip.progress)))
        }
        let flip = entries.first { $0.preset == usedPreset }?.margin ?? {
            let flip = tracker.flip(progress: progress, velocity: velocity, at: time)
            return ReleaseMargin(flip: flip, gesture: gesture.flip(flip.progress))
        }()
        return TrialMargins(progress: progress, velocity: velocity, usedPreset: usedPreset, flip: flip,
                            presets: PresetMargins(entries: entries))
    }
}
