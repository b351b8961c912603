import GestureKit
import InteractiveTransition

/// The presets whose rules read the gesture's path (GNOME's velocity window, Hyprland's speed,
/// Android's commitment), each following the gesture beside the driver's own tracker while margins
/// are measured. The others (pinchlab's, KWin's) read the release alone and need nothing followed.
struct PresetTrackers: Sendable {
    /// Every preset with its policy, made once: a preset's `policy` builds and checks its figures.
    static let presets = CompletionPolicyPreset.allCases.map { (preset: $0, policy: $0.policy) }
    /// The presets followed, in `presets` order.
    static let followed = presets.filter { entry in
        switch entry.policy.kind {
        case .pinchlab, .kwin: false
        case .gnome, .hyprland, .androidBack: true
        }
    }

    private var trackers: [CompletionTracker] = []

    /// Empty: follows nothing until `begin`.
    init() {}

    /// Starts following a gesture that took the transition at `initialProgress`.
    mutating func begin(input: CompletionInput, initialProgress: Double, at time: Double) {
        trackers = Self.followed.map { $0.policy.tracker(input: input, initialProgress: initialProgress, at: time) }
    }

    mutating func observe(progress: Double, at time: Double) {
        for index in trackers.indices { trackers[index].observe(progress: progress, at: time) }
    }

    /// Every preset's flip for a release at `progress` with `velocity` (progress/s).
    func flips(progress: Double, velocity: Double, at time: Double) -> [(CompletionPolicyPreset, ReleaseFlip)] {
        Self.presets.map { preset, policy in
            if let index = Self.followed.firstIndex(where: { $0.preset == preset }), index < trackers.count {
                return (preset, trackers[index].flip(progress: progress, velocity: velocity, at: time))
            }
            return (preset, policy.flip(progress: progress, velocity: velocity))
        }
    }

    /// The preset `policy` is, if any (`CompletionPolicyPreset(matching:)` without building them again).
    static func preset(matching policy: CompletionPolicy) -> CompletionPolicyPreset? {
        presets.first { $0.policy == policy }?.preset
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
    /// A release's margins: under the policy (its tracker's, or the release alone when it follows
    /// nothing) and under every preset, at `progress` (the transition's, as the policy was asked)
    /// with `velocity` (progress/s).
    static func measure(policy: CompletionPolicy, tracker: CompletionTracker?, presets: PresetTrackers,
                        progress: Double, velocity: Double, at time: Double, gesture: ReleasedGesture) -> TrialMargins {
        let flip = tracker?.flip(progress: progress, velocity: velocity, at: time)
            ?? policy.flip(progress: progress, velocity: velocity)
        let entries = presets.flips(progress: progress, velocity: velocity, at: time).map { preset, flip in
            PresetMargin(preset: preset, margin: ReleaseMargin(flip: flip, gesture: gesture.flip(flip.progress)))
        }
        return TrialMargins(progress: progress, velocity: velocity, usedPreset: PresetTrackers.preset(matching: policy),
                            flip: ReleaseMargin(flip: flip, gesture: gesture.flip(flip.progress)),
                            presets: PresetMargins(entries: entries))
    }
}
