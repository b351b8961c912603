import SettingsTable

/// Decides at release whether an interactive transition finishes or cancels — data the tuner can search,
/// instead of the seeds' hard-coded `progress > 0.5`.
///
/// Rules, in order:
/// 1. Flick: if `flickVelocity` is set and |velocity| >= it, the sign of the velocity decides
///    (towards completion finishes, backwards cancels).
/// 2. Projection: if `decelerationRatePerMS` r is set, the progress the motion would coast to,
///    `p + (v / 1000) x r / (1 - r)` (WWDC 2018 "Designing Fluid Interfaces"), must exceed the threshold.
/// 3. Otherwise progress itself must exceed `progressThreshold` (strictly, as the seed's `progress > 0.5`).
///
/// Those are pinchlab's rules (`kind` `.pinchlab`). The other kinds are the desktops' own rules
/// (`DesktopCompletionRules.swift`), decided through a `CompletionTracker` that follows the gesture.
public struct CompletionPolicy: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Whose rule decides. For a desktop's rule, `progressThreshold` is the progress its rule
    /// compares with when the gesture is slow (drawn in plots) and the two optional rules are off.
    public var kind: CompletionPolicyKind = .pinchlab
    /// Finish when the (projected) progress is strictly above this, 0...1.
    public var progressThreshold: Double
    /// Per-millisecond deceleration rate r in (0, 1) for velocity projection; nil = no projection.
    public var decelerationRatePerMS: Double?
    /// Progress per second at or above which the direction of the velocity alone decides; nil = never.
    public var flickVelocity: Double?

    /// UIScrollView's `.normal` deceleration rate per ms.
    public static let normalDecelerationRatePerMS = 0.998
    /// UIScrollView's `.fast` deceleration rate per ms.
    public static let fastDecelerationRatePerMS = 0.99

    /// pinchlab's policy from its three settings; throws `TransitionError` for a value out of range.
    public init(progressThreshold: Double, decelerationRatePerMS: Double? = nil,
                flickVelocity: Double? = nil) throws(TransitionError) {
        self.progressThreshold = progressThreshold
        self.decelerationRatePerMS = decelerationRatePerMS
        self.flickVelocity = flickVelocity
        if let problem = Self.settings.rangeProblems(in: self).first { throw .invalidPolicy(reason: problem.text) }
    }

    private init(unchecked threshold: Double, _ rate: Double?, _ flick: Double?) {
        progressThreshold = threshold; decelerationRatePerMS = rate; flickVelocity = flick
    }

    /// A desktop's rule (validated), with its slow-gesture threshold for plots.
    public init(kind: CompletionPolicyKind) throws(TransitionError) {
        switch kind {
        case .pinchlab: self = .default; return
        case .gnome(let rule): try rule.validate(); progressThreshold = 0.5
        case .kwin(let rule): try rule.validate(); progressThreshold = rule.threshold
        case .hyprland(let rule): try rule.validate(); progressThreshold = rule.cancelRatio
        case .androidBack(let rule): try rule.validate(); progressThreshold = min(rule.triggerProgress, 1)
        }
        self.kind = kind
        decelerationRatePerMS = nil
        flickVelocity = nil
    }

    /// A tracker for one gesture under this policy.
    package func tracker(input: CompletionInput, initialProgress: Double, at time: Double) -> CompletionTracker {
        CompletionTracker(policy: self, input: input, initialProgress: initialProgress, at: time)
    }

    /// Exactly seed 000's rule: finish when progress > 0.5, velocity ignored.
    public static let seed = CompletionPolicy(unchecked: 0.5, nil, nil)
    /// Projection with UIKit's normal deceleration (a release at v progress/s coasts about v/2 further)
    /// and a flick above 1.5 progress/s (the whole transition in two thirds of a second).
    public static let `default` = CompletionPolicy(unchecked: 0.5, normalDecelerationRatePerMS, 1.5)
    /// Fast deceleration (coasts about v/10 further) but an easier flick at 0.75 progress/s: quick
    /// throws decide, slow drags go by position.
    public static let fluid = CompletionPolicy(unchecked: 0.5, fastDecelerationRatePerMS, 0.75)

    /// How far (progress units) a release at `velocity` progress/s coasts with per-ms rate `rate`.
    public static func projectedDistance(velocity: Double, decelerationRatePerMS rate: Double) -> Double {
        (velocity / 1000) * rate / (1 - rate)
    }

    /// The decision for a release at `progress` with `velocity` (progress/s, positive = towards finish).
    /// Non-finite inputs count as 0 and are flagged in the result; every number in the result is finite.
    public func decide(progress: Double, velocity: Double) -> CompletionDecision {
        let progressWasNonFinite = !progress.isFinite
        let velocityWasNonFinite = !velocity.isFinite
        let p = progressWasNonFinite ? 0 : progress
        let v = velocityWasNonFinite ? 0 : velocity
        let reason: CompletionReason
        let shouldFinish: Bool
        var flickTurnsIt = true
        if case .kwin(let rule) = kind {
            reason = .kwin(progress: p, threshold: rule.threshold)
            shouldFinish = p > rule.threshold
        } else if kind != .pinchlab {
            return oneUpdateTracker(progress: p).decide(progress: p, velocity: v, at: 0)
        } else {
            // What decides below the flick velocity: the projection, else the progress.
            let (positional, positionalFinishes) = positionalDecision(progress: p, velocity: v)
            if let flick = flickVelocity, abs(v) >= flick {
                reason = .flick(velocity: v, flickVelocity: flick)
                shouldFinish = v > 0
                // A flick above `flickVelocity` the release no longer reaches is decided by position.
                flickTurnsIt = positionalFinishes != shouldFinish
            } else {
                (reason, shouldFinish) = (positional, positionalFinishes)
            }
        }
        return CompletionDecision(shouldFinish: shouldFinish, reason: reason,
                                  progressWasNonFinite: progressWasNonFinite,
                                  velocityWasNonFinite: velocityWasNonFinite, settingTurnsIt: flickTurnsIt)
    }

    /// A rule that follows the gesture, asked about the release alone: a gesture of one update,
    /// on a touchpad, from 0 to `progress` at time 0.
    func oneUpdateTracker(progress: Double) -> CompletionTracker {
        var tracker = tracker(input: .touchpad, initialProgress: 0, at: 0)
        tracker.observe(progress: progress, at: 0)
        return tracker
    }

    /// pinchlab's rule under the flick: the projected progress (or the progress, without
    /// projection) against the threshold.
    private func positionalDecision(progress p: Double, velocity v: Double) -> (CompletionReason, Bool) {
        if let rate = decelerationRatePerMS {
            var projected = p + Self.projectedDistance(velocity: v, decelerationRatePerMS: rate)
            if !projected.isFinite { projected = v > 0 ? .greatestFiniteMagnitude : -.greatestFiniteMagnitude }
            return (.projected(projectedProgress: projected, threshold: progressThreshold), projected > progressThreshold)
        }
        return (.progress(progress: p, threshold: progressThreshold), p > progressThreshold)
    }

    private enum CodingKeys: String, CodingKey {
        case kind, progressThreshold, decelerationRatePerMS, flickVelocity
        case touchpad, touchscreen                  // gnome
        case threshold                              // kwin
        case distance, cancelRatio, minSpeedToForce // hyprland
        case triggerDP, switchDP, pageDP            // android-back
    }

    /// Decodes over `CompletionPolicy.default`: see `init(settings:over:at:)`.
    public init(from decoder: any Decoder) throws {
        self = try SettingsDecoding.read(from: decoder) { json throws(SettingsProblem) in try Self(settings: json, over: .default) }
    }

    /// Every key of the kind is written, a rule that is off as `null` (an optional encoded whole,
    /// not `encodeIfPresent`), so that decoding over the defaults gives this policy back rather
    /// than the defaults' rule.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind.name, forKey: .kind)
        switch kind {
        case .pinchlab:
            try container.encode(progressThreshold, forKey: .progressThreshold)
            try container.encode(decelerationRatePerMS, forKey: .decelerationRatePerMS)
            try container.encode(flickVelocity, forKey: .flickVelocity)
        case .gnome(let rule):
            try container.encode(rule.touchpad, forKey: .touchpad)
            try container.encode(rule.touchscreen, forKey: .touchscreen)
        case .kwin(let rule):
            try container.encode(rule.threshold, forKey: .threshold)
        case .hyprland(let rule):
            try container.encode(rule.distance, forKey: .distance)
            try container.encode(rule.cancelRatio, forKey: .cancelRatio)
            try container.encode(rule.minSpeedToForce, forKey: .minSpeedToForce)
        case .androidBack(let rule):
            try container.encode(rule.triggerDP, forKey: .triggerDP)
            try container.encode(rule.switchDP, forKey: .switchDP)
            try container.encode(rule.pageDP, forKey: .pageDP)
        }
    }

    /// The policy's kind and figures, as one line.
    public var description: String {
        switch kind {
        case .pinchlab: break
        case .gnome(let r):
            return "GNOME swipe: snap to the nearest end below \(r.touchpad.velocityThreshold) units/ms "
                + "(touchscreen \(r.touchscreen.velocityThreshold)), else project with \(r.touchpad.deceleration)/ms"
        case .kwin(let r): return "KWin: progress > \(r.threshold)"
        case .hyprland(let r):
            return "Hyprland: travel >= \(r.cancelRatio) x \(r.distance) or speed >= \(r.minSpeedToForce)/update"
        case .androidBack(let r):
            return "Android back: committed past \(r.triggerDP) dp, switched by \(r.switchDP) dp moves (page \(r.pageDP) dp)"
        }
        var parts = ["progress > \(progressThreshold)"]
        if let rate = decelerationRatePerMS { parts.append("projection r=\(rate)/ms") }
        if let flick = flickVelocity { parts.append("flick >= \(flick)/s") }
        return parts.joined(separator: ", ")
    }
}

/// Which rule of a `CompletionPolicy` decided, with the numbers it compared.
public enum CompletionReason: Hashable, Sendable, Codable {
    /// |velocity| >= flickVelocity: the sign decided.
    case flick(velocity: Double, flickVelocity: Double)
    /// The projected progress was compared with the threshold.
    case projected(projectedProgress: Double, threshold: Double)
    /// The progress was compared with the threshold.
    case progress(progress: Double, threshold: Double)
    /// KWin's `m_partialActivationFactor > 0.5`.
    case kwin(progress: Double, threshold: Double)
    /// GNOME's swipe tracker: snapped below its velocity threshold, or projected above it.
    case gnome(GNOMEDecision)
    /// Hyprland's workspace swipe: travel against distance x cancel ratio, or forced by speed.
    case hyprland(HyprlandDecision)
    /// Android's back: committed or not at the release.
    case androidBack(AndroidBackDecision)

    /// The progress a threshold rule compared and its threshold: pinchlab's projection or
    /// progress, KWin's progress; nil for every other rule.
    var progressComparison: (measured: Double, threshold: Double)? {
        switch self {
        case .projected(let measured, let threshold), .progress(let measured, let threshold), .kwin(let measured, let threshold):
            return (measured, threshold)
        case .flick, .gnome, .hyprland, .androidBack:
            return nil
        }
    }

    /// The rule's name, as JSON's `"rule"` and the tables print it.
    public var rule: String {
        switch self {
        case .flick: return "flick"
        case .projected: return "projected"
        case .progress: return "progress"
        case .kwin: return "kwin-threshold"
        case .gnome(let d): return d.projectedProgress == nil ? "gnome-snap" : "gnome-projection"
        case .hyprland(let d): return d.forced ? "hyprland-speed" : d.switches ? "hyprland-distance" : "hyprland-cancel"
        case .androidBack(let d): return "android-\(d.lastChange.rawValue)"
        }
    }
}

/// The outcome of `CompletionPolicy.decide`.
public struct CompletionDecision: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Whether the transition finishes (else it cancels).
    public let shouldFinish: Bool
    /// The rule that decided and the figures it compared.
    public let reason: CompletionReason
    /// The progress given was NaN or infinite and was taken as 0.
    public let progressWasNonFinite: Bool
    /// The velocity given was NaN or infinite and was taken as 0.
    public let velocityWasNonFinite: Bool
    /// Whether moving the deciding rule's setting just past the value it measured turns the
    /// decision: false when the rule that decides then agrees (a flick the projection would have
    /// finished too, GNOME's snap to the page its projection reaches). `margin(input:)` is nil
    /// then, as no value of that setting flips this release.
    var settingTurnsIt = true

    /// Every field but `settingTurnsIt`, which `margin(input:)` reads: the form as before it.
    private enum CodingKeys: String, CodingKey { case shouldFinish, reason, progressWasNonFinite, velocityWasNonFinite }

    /// The verdict, the rule and its figures, as one line.
    public var description: String {
        let verdict = shouldFinish ? "finish" : "cancel"
        var text: String
        switch reason {
        case .flick(let velocity, let flick):
            text = "\(verdict): flick, |velocity| \(Self.short(abs(velocity)))/s >= \(Self.short(flick))/s, "
                + (velocity > 0 ? "towards completion" : "backwards")
        case .projected(let projected, let threshold):
            text = "\(verdict): projected progress \(Self.short(projected)) \(shouldFinish ? ">" : "<=") threshold \(Self.short(threshold))"
        case .progress(let progress, let threshold):
            text = "\(verdict): progress \(Self.short(progress)) \(shouldFinish ? ">" : "<=") threshold \(Self.short(threshold))"
        case .kwin(let progress, let threshold):
            text = "\(verdict): KWin, progress \(Self.short(progress)) \(shouldFinish ? ">" : "<=") \(Self.short(threshold))"
        case .gnome(let d):
            let speed = "|velocity| \(Self.short(abs(d.velocity))) units/ms"
            if let projected = d.projectedProgress {
                text = "\(verdict): GNOME, \(speed) >= \(Self.short(d.velocityThreshold)), projected to \(Self.short(projected)), "
                    + "one page \(d.velocity > 0 ? "forwards" : "back")"
            } else {
                text = "\(verdict): GNOME, \(speed) < \(Self.short(d.velocityThreshold)), snapped to the nearest end"
            }
            text += " (animation \(Self.short(d.animationMS)) ms)"
        case .hyprland(let d):
            let travel = "travel \(Self.short(d.travel)) \(d.travel >= d.distance * d.cancelRatio ? ">=" : "<") \(Self.short(d.distance * d.cancelRatio))"
            let speed = "speed \(Self.short(d.averageSpeed))/update \(d.minSpeedToForce != 0 && d.averageSpeed >= d.minSpeedToForce ? ">=" : "<") \(Self.short(d.minSpeedToForce))"
            text = "\(verdict): Hyprland, \(travel), \(speed)"
            if d.travel < HyprlandSwipeRule.minimumTravel { text += ", under 2 units" }
        case .androidBack(let d):
            let why: String
            switch d.lastChange {
            case .neverTriggered: why = "never moved \(Self.short(d.triggerDP)) dp"
            case .triggered: why = "committed past \(Self.short(d.triggerDP)) dp"
            case .movedBack: why = "moved back more than \(Self.short(d.switchDP)) dp: uncommitted"
            case .movedOn: why = "moved on again more than \(Self.short(d.switchDP)) dp: committed"
            }
            text = "\(verdict): Android back, \(why)" + (d.switches > 0 ? " (\(d.switches) switches)" : "")
        }
        if progressWasNonFinite { text += " (non-finite progress taken as 0)" }
        if velocityWasNonFinite { text += " (non-finite velocity taken as 0)" }
        return text
    }

    /// Three decimals: enough to see why, short enough to read in a log line.
    static func short(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
}
