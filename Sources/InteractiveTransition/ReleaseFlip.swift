import SettingsTable

/// Where a release's decision turns over one quantity (a threshold, the release velocity, the
/// release progress), everything else held as it was: values past `value` on `otherSide` decide
/// the other way, and `includesValue` says whether `value` itself does (the rules compare strictly,
/// `progress > threshold`, or not, a flick's `|velocity| >= flickVelocity`).
package struct FlipPoint: Hashable, Sendable {
    package enum Side: String, Hashable, Sendable {
        /// Values above `value` decide the other way.
        case above
        /// Values below `value` decide the other way.
        case below
    }

    package var value: Double
    package var otherSide: Side
    package var includesValue: Bool

    package init(value: Double, otherSide: Side, includesValue: Bool) {
        self.value = value
        self.otherSide = otherSide
        self.includesValue = includesValue
    }

    /// Whether `x` decides the other way.
    package func flips(_ x: Double) -> Bool {
        if x == value { return includesValue }
        return otherSide == .above ? x > value : x < value
    }
}

/// How one release would have gone the other way under one policy: the threshold, the release
/// velocity and the release progress at which the same release decides otherwise (each with the
/// rest of the release held as it was), nil where no value can; and the deciding rule's own margin.
///
/// Made by `CompletionTracker.flip(progress:velocity:at:)` from what the tracker saw (or
/// `CompletionPolicy.flip(progress:velocity:)` for a release alone), only when an output asks:
/// never on the per-update path.
package struct ReleaseFlip: Hashable, Sendable {
    /// The decision as it went: true when the release finishes.
    package var finishes: Bool
    /// The value of the policy's progress threshold at which the release decides the other way:
    /// pinchlab's `progressThreshold` (what `--threshold` sets), KWin's `threshold`, Hyprland's
    /// `cancelRatio`. nil when no threshold in 0...1 can flip it (a flick decided; GNOME's and
    /// Android's rules have none; Hyprland's speed forced the switch; the progress it would take
    /// lies outside 0...1).
    package var threshold: FlipPoint?
    /// Which setting `threshold` is.
    package var thresholdSetting = ThresholdSetting.progressThreshold
    /// The release velocity (progress/s, positive towards finishing) at which the same release,
    /// at the same progress, decides the other way. For GNOME it is its own velocity over the last
    /// 150 ms of updates, in progress/s. nil when the rule reads no release velocity (KWin,
    /// Hyprland, Android, `uikit-seed`) or none within `ReleaseFlip.fastestVelocity` flips it.
    package var velocity: FlipPoint?
    /// The release progress at which the same release, at the same velocity, decides the other
    /// way. nil when the progress does not decide (a flick, Android's path) or it would take a
    /// progress outside 0...1.
    package var progress: FlipPoint?
    /// The deciding rule's margin, in its own units and setting (`CompletionDecision.margin(input:)`):
    /// the (projected) progress against the threshold, a flick's |velocity| against
    /// `flickVelocity`, GNOME's velocity against its velocity threshold, Hyprland's speed against
    /// `minSpeedToForce`. nil where no value of that setting turns the release (a flick the
    /// projection decides the same way, Android's path, Hyprland's under-2-units rule).
    package var margin: DecisionMargin?

    /// The setting a release's `threshold` is: a progress threshold (pinchlab's `progressThreshold`,
    /// KWin's `threshold`) or Hyprland's `cancelRatio`, a fraction of its swipe distance.
    package enum ThresholdSetting: Hashable, Sendable {
        case progressThreshold, cancelRatio
    }

    package init(finishes: Bool, threshold: FlipPoint? = nil, velocity: FlipPoint? = nil, progress: FlipPoint? = nil,
                margin: DecisionMargin? = nil) {
        self.finishes = finishes
        self.threshold = threshold
        self.velocity = velocity
        self.progress = progress
        self.margin = margin
    }

    /// The fastest release velocity a flip may need, progress/s: as fast as the gesture driver
    /// lets a release be (the whole transition in a microsecond, faster than any finger).
    package static let fastestVelocity = 1e6
}

extension CompletionPolicy {
    /// How a release at `progress` with `velocity` (progress/s) would have gone the other way,
    /// decided on its own as `decide(progress:velocity:)` decides it (a desktop's rule that
    /// follows the gesture as `decide`'s gesture of one update).
    package func flip(progress given: Double, velocity givenVelocity: Double) -> ReleaseFlip {
        switch kind {
        case .pinchlab, .kwin:
            // Rules that read the release alone, in closed form.
            return ThresholdFlip(policy: self, progress: given.isFinite ? given : 0,
                                 velocity: givenVelocity.isFinite ? givenVelocity : 0)
                .flip(decide(progress: given, velocity: givenVelocity))
        case .gnome, .hyprland, .androidBack:
            return oneUpdateTracker(progress: given).flip(progress: given, velocity: givenVelocity, at: 0)
        }
    }
}

extension CompletionTracker {
    /// How this gesture's release would have gone the other way, from what the tracker saw up to
    /// the release (the path, GNOME's velocity window, Hyprland's speed): the arguments are
    /// `decide(progress:velocity:at:)`'s, and the flip agrees with that decision exactly.
    package func flip(progress given: Double, velocity givenVelocity: Double, at time: Double) -> ReleaseFlip {
        let progress = given.isFinite ? given : 0
        switch policy.kind {
        case .pinchlab, .kwin:
            return policy.flip(progress: given, velocity: givenVelocity)
        case .gnome(let rule):
            return gnomeFlip(rule, progress: progress, at: time, decision: decide(progress: given, velocity: givenVelocity, at: time))
        case .hyprland(let rule):
            return hyprlandFlip(rule, progress: progress, decision: decide(progress: given, velocity: givenVelocity, at: time))
        case .androidBack:
            // Committed or not by the path: no release figure turns it.
            return ReleaseFlip(finishes: decide(progress: given, velocity: givenVelocity, at: time).shouldFinish)
        }
    }

    /// A threshold compared as `measured > threshold` (pinchlab's, KWin's): a cancel finishes
    /// under any threshold below the measured value, a finish cancels at it or above; nil when
    /// that lies outside the threshold's range 0...1.
    static func strictThreshold(measured: Double, finishes: Bool) -> FlipPoint? {
        if finishes {
            return measured <= 1 ? FlipPoint(value: measured, otherSide: .above, includesValue: true) : nil
        }
        return measured > 0 ? FlipPoint(value: measured, otherSide: .below, includesValue: false) : nil
    }

    /// The release progress past which `progress > bound` turns, within 0...1.
    static func strictProgress(_ bound: Double, finishes: Bool) -> FlipPoint? {
        if finishes {
            return bound >= 0 ? FlipPoint(value: bound, otherSide: .below, includesValue: true) : nil
        }
        return bound < 1 ? FlipPoint(value: bound, otherSide: .above, includesValue: false) : nil
    }

    private func gnomeFlip(_ rule: GNOMESwipeRule, progress: Double, at time: Double,
                           decision: CompletionDecision) -> ReleaseFlip {
        let figures = rule.figures(for: input)
        let page = figures.pageDistance
        let window = windowVelocity(at: time)   // progress per ms
        func finishes(progress: Double, pagesPerMS: Double) -> Bool {
            rule.decide(progress: progress, velocity: pagesPerMS * page, initial: initialProgress, input: input).endProgress == 1
        }
        // Both are monotone (shown in docs/reference/policies.md): the boundary is found by halving.
        let fastest = ReleaseFlip.fastestVelocity / 1000
        // Most turn where the rule switches from snapping to projecting, or at the middle: tried first.
        let switchAt = figures.velocityThreshold / page
        let velocity = FlipSearch.boundary(from: window, in: -fastest...fastest, finishes: decision.shouldFinish,
                                           tryingFirst: [switchAt, -switchAt]) {
            finishes(progress: progress, pagesPerMS: $0)
        }.map { FlipPoint(value: $0.value * 1000, otherSide: $0.otherSide, includesValue: true) }
        let progressFlip = FlipSearch.boundary(from: progress, in: 0...1, finishes: decision.shouldFinish, tryingFirst: [0.5]) {
            finishes(progress: $0, pagesPerMS: window)
        }
        return ReleaseFlip(finishes: decision.shouldFinish, velocity: velocity, progress: progressFlip,
                           margin: decision.margin(input: input))
    }

    private func hyprlandFlip(_ rule: HyprlandSwipeRule, progress: Double, decision: CompletionDecision) -> ReleaseFlip {
        guard case .hyprland(let d) = decision.reason else { return ReleaseFlip(finishes: decision.shouldFinish) }
        let switches = d.switches
        let speedForces = d.speedForces
        let longEnough = d.travel >= HyprlandSwipeRule.minimumTravel
        // Switches when travel >= distance x cancelRatio (with travel >= 2 units and no forcing
        // speed): a cancel switches at any ratio at or below the progress, a switch reverts above it.
        var threshold: FlipPoint?
        if longEnough && !speedForces {
            threshold = switches
                ? (progress < 1 ? FlipPoint(value: progress, otherSide: .above, includesValue: false) : nil)
                : FlipPoint(value: progress, otherSide: .below, includesValue: true)
        }
        // The release progress: at least 2 units of travel, and the ratio unless speed forces it.
        let least = HyprlandSwipeRule.minimumTravel / rule.distance
        let bound = speedForces ? least : max(least, rule.cancelRatio)
        let progressFlip: FlipPoint? = switches
            ? (bound > 0 ? FlipPoint(value: bound, otherSide: .below, includesValue: false) : nil)
            : (bound <= 1 ? FlipPoint(value: bound, otherSide: .above, includesValue: true) : nil)
        var flip = ReleaseFlip(finishes: switches, threshold: threshold, progress: progressFlip, margin: decision.margin(input: input))
        flip.thresholdSetting = .cancelRatio
        return flip
    }
}

/// The rules that compare the release's progress with a threshold, in closed form: pinchlab's own
/// (flick, else projection or progress against the threshold) and KWin's (progress alone).
struct ThresholdFlip {
    let policy: CompletionPolicy
    let progress: Double
    let velocity: Double

    /// Progress the release coasts (0 without projection, and for KWin's rule), as `decide` computes it.
    var coast: Double {
        guard case .pinchlab = policy.kind, let rate = policy.decelerationRatePerMS else { return 0 }
        return CompletionPolicy.projectedDistance(velocity: velocity, decelerationRatePerMS: rate)
    }

    func flip(_ decision: CompletionDecision) -> ReleaseFlip {
        let finishes = decision.shouldFinish
        let velocityFlip = velocityBoundary(finishes: finishes)
        // The rules read no input (GNOME's figures are the only ones that differ by it).
        let margin = decision.margin(input: .touchpad)
        guard let compared = decision.reason.progressComparison else {
            // A flick: the velocity's sign decided, whatever the threshold and the progress.
            return ReleaseFlip(finishes: finishes, velocity: velocityFlip, margin: margin)
        }
        // The threshold and the release progress move the comparison `progress + coast > threshold`.
        return ReleaseFlip(finishes: finishes,
                           threshold: CompletionTracker.strictThreshold(measured: compared.measured, finishes: finishes),
                           velocity: velocityFlip,
                           progress: CompletionTracker.strictProgress(compared.threshold - coast, finishes: finishes),
                           margin: margin)
    }

    /// The velocity at which a release at `progress` turns. With flick F and projection factor k
    /// it finishes when v >= F, or -F < v < F and progress + k v > threshold: one boundary,
    /// b = clamp((threshold - progress) / k, -F, F), whatever the flick and projection are.
    func velocityBoundary(finishes: Bool) -> FlipPoint? {
        guard case .pinchlab = policy.kind else { return nil }   // KWin's rule reads no velocity
        let threshold = policy.progressThreshold
        let boundary: Double
        let boundaryFinishes: Bool
        switch (policy.decelerationRatePerMS, policy.flickVelocity) {
        case (nil, nil):
            return nil   // the velocity is not read
        case (nil, let flick?):
            (boundary, boundaryFinishes) = progress > threshold ? (-flick, false) : (flick, true)
        case (let rate?, let flick):
            let perProgressPerSecond = CompletionPolicy.projectedDistance(velocity: 1, decelerationRatePerMS: rate)
            let crossing = (threshold - progress) / perProgressPerSecond
            if let flick, crossing < -flick {
                (boundary, boundaryFinishes) = (-flick, false)
            } else if let flick, crossing >= flick {
                (boundary, boundaryFinishes) = (flick, true)
            } else {
                // Projection decides here; made exact against `decide` (rounding of the division).
                (boundary, boundaryFinishes) = (exactCrossing(near: crossing), false)
            }
        }
        guard boundary.isFinite, abs(boundary) <= ReleaseFlip.fastestVelocity else { return nil }
        return finishes
            ? FlipPoint(value: boundary, otherSide: .below, includesValue: !boundaryFinishes)
            : FlipPoint(value: boundary, otherSide: .above, includesValue: boundaryFinishes)
    }

    /// The largest velocity near `estimate` that `decide` still cancels at (the next one up finishes).
    private func exactCrossing(near estimate: Double) -> Double {
        func finishes(_ v: Double) -> Bool { policy.decide(progress: progress, velocity: v).shouldFinish }
        var v = estimate
        var steps = 0
        while finishes(v) && steps < 64 { v = v.nextDown; steps += 1 }
        while !finishes(v.nextUp) && steps < 128 { v = v.nextUp; steps += 1 }
        return v
    }

}

extension CompletionDecision {
    /// The deciding rule's margin, from the decision's own numbers: the measured value, the
    /// threshold it was compared with, that setting's key (as a settings file's `policy` section
    /// spells it), unit and usual range. `ReleaseFlip.margin`; the tuner's robustness reads it too.
    /// Moving that setting just past the value turns the decision; where no value of it does, nil.
    /// - the (projected) progress against `progressThreshold` (KWin's `threshold`, Hyprland's
    ///   `cancelRatio`), progress, range 1 (the whole transition);
    /// - a flick's |velocity| against `flickVelocity`, progress/s, range 4.5 (the tuner's 0.5...5:
    ///   its valid range, up to 1000/s, is far wider than any flick people use); nil when the
    ///   projection (or the progress) would have decided the same (`settingTurnsIt`);
    /// - GNOME's velocity against its velocity threshold, units/ms, no range (its figures are the
    ///   source's), nil when snapping and projecting end on the same page; Hyprland's speed
    ///   against `minSpeedToForce` when the speed alone forced the switch;
    /// - nil for Android's path, for Hyprland's travel under 2 units and for a Hyprland switch
    ///   both its ratio and its speed made (no one setting turns them).
    /// - Parameter input: what the fingers were on (GNOME's threshold is the touchpad's or the touchscreen's).
    package func margin(input: CompletionInput) -> DecisionMargin? {
        func progress(_ value: Double, _ threshold: Double, _ key: String) -> DecisionMargin {
            DecisionMargin(value: value, threshold: threshold, key: key, unit: "progress", scale: 1)
        }
        switch reason {
        case .projected(let measured, let threshold), .progress(let measured, let threshold):
            return progress(measured, threshold, MarginKey.progressThreshold)
        case .flick(let velocity, let flick):
            guard settingTurnsIt else { return nil }
            return DecisionMargin(value: abs(velocity), threshold: flick, key: MarginKey.flickVelocity, unit: "progress/s",
                                  scale: Self.flickScale)
        case .kwin(let measured, let threshold):
            return progress(measured, threshold, MarginKey.kwinThreshold)
        case .gnome(let d):
            guard settingTurnsIt else { return nil }
            return DecisionMargin(value: abs(d.velocity), threshold: d.velocityThreshold,
                                  key: MarginKey.gnomeVelocityThreshold(input), unit: "units/ms")
        case .hyprland(let d):
            guard d.travel >= HyprlandSwipeRule.minimumTravel else { return nil }
            if d.forced {
                return DecisionMargin(value: d.averageSpeed, threshold: d.minSpeedToForce, key: MarginKey.minSpeedToForce,
                                      unit: "units per update")
            }
            // Far enough and fast enough: moving either setting alone leaves the other to switch it.
            if d.speedForces { return nil }
            return progress(d.travel / d.distance, d.cancelRatio, MarginKey.cancelRatio)
        case .androidBack:
            return nil
        }
    }

    /// The keys a margin names, as a settings file's `policy` section spells them: each its row's,
    /// found by its property and looked up once, not at every release.
    enum MarginKey {
        static let progressThreshold = policyKey(CompletionPolicy.settings, \.progressThreshold)
        static let flickVelocity = policyKey(CompletionPolicy.settings, \.flickVelocity)
        static let kwinThreshold = policyKey(KWinRule.settings, \.threshold)
        static let minSpeedToForce = policyKey(HyprlandSwipeRule.settings, \.minSpeedToForce)
        static let cancelRatio = policyKey(HyprlandSwipeRule.settings, \.cancelRatio)
        static let gnomeTouchpadVelocityThreshold = policyKey(GNOMESwipeRule.settings, \.touchpad.velocityThreshold)
        static let gnomeTouchscreenVelocityThreshold = policyKey(GNOMESwipeRule.settings, \.touchscreen.velocityThreshold)

        static func gnomeVelocityThreshold(_ input: CompletionInput) -> String {
            switch input {
            case .touchpad: gnomeTouchpadVelocityThreshold
            case .touchscreen: gnomeTouchscreenVelocityThreshold
            }
        }

        private static func policyKey<Rule>(_ table: SettingsTable<Rule>, _ path: PartialKeyPath<Rule>) -> String {
            "policy." + table.setting(for: path).key
        }
    }

    /// The flick's usual range: looked up once, not at every release.
    static let flickScale = tuningSpan(CompletionPolicy.settings.setting(for: \.flickVelocity))

    /// The span of the values the tuner tries for a setting: its usual range, when its valid
    /// range (a flick's (0, 1000]) is far wider than any setting people use.
    static func tuningSpan(_ setting: Setting<CompletionPolicy>) -> Double? {
        guard let low = setting.tuningValues.min(), let high = setting.tuningValues.max(), high > low else { return nil }
        return high - low
    }
}

/// The boundary of a decision that is monotone in one quantity, found by halving: for GNOME's
/// rule, whose projection (a line, then a parabola) and page logic have no simple inverse.
enum FlipSearch {
    /// Where `finishes(x)` turns, searching from `current` towards the other decision within
    /// `range`; the value returned decides the other way, within 1e-12 of the turn (relative, past
    /// 1). nil when nothing in `range` does. `finishes` must be monotone non-decreasing.
    /// About 50 halvings: the search runs at each release, for GNOME's preset too.
    /// `tryingFirst`: values where the turn often is; each (and its neighbours a bit either side)
    /// is checked before halving, so a turn found there costs a few calls instead of fifty.
    static func boundary(from current: Double, in range: ClosedRange<Double>, finishes currentlyFinishes: Bool,
                         tryingFirst candidates: [Double] = [], _ finishes: (Double) -> Bool) -> FlipPoint? {
        // Finishing lies above: a cancel looks upwards, a finish downwards.
        var keeps = min(max(current, range.lowerBound), range.upperBound)
        var flips = currentlyFinishes ? range.lowerBound : range.upperBound
        guard finishes(flips) != currentlyFinishes, finishes(keeps) == currentlyFinishes else { return nil }
        let side: FlipPoint.Side = currentlyFinishes ? .below : .above
        for candidate in candidates where range.contains(candidate) {
            for value in [candidate.nextDown, candidate, candidate.nextUp] {
                // The turn is at `value` when it flips and the next value towards `current` does not.
                let towards = currentlyFinishes ? value.nextUp : value.nextDown
                if (currentlyFinishes ? value < keeps : value > keeps), finishes(value) != currentlyFinishes,
                   finishes(towards) == currentlyFinishes {
                    return FlipPoint(value: value, otherSide: side, includesValue: true)
                }
            }
        }
        while abs(flips - keeps) > 1e-12 * max(1, abs(flips)) {
            let middle = keeps + (flips - keeps) / 2
            if middle == keeps || middle == flips { break }
            if finishes(middle) == currentlyFinishes { keeps = middle } else { flips = middle }
        }
        return FlipPoint(value: flips, otherSide: side, includesValue: true)
    }
}
