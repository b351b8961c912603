import SettingsTable

/// The finish/cancel rules of the desktops and phones people use every day, with their own figures,
/// so a replay can be decided the way they would decide it. Each rule reads what its source reads
/// (a velocity window, the path of the gesture, a per-update speed) from a `CompletionTracker` fed
/// with every interactive progress update. Progress is the transition's, 0...1 (one "page").

/// What the fingers are on: GNOME has different figures for each.
public enum CompletionInput: String, Hashable, Sendable, Codable {
    /// A touchpad, or a touchscreen.
    case touchpad, touchscreen
}

/// GNOME Shell's `js/ui/swipeTracker.js` (libadwaita's `adw-swipe-tracker.c` has the same
/// constants): velocity from the progress deltas of the last 150 ms (`EVENT_HISTORY_THRESHOLD_MS`);
/// below `VELOCITY_THRESHOLD_TOUCHPAD` 0.6 (`_TOUCH` 0.3) units/ms snap to the nearest end; above,
/// project with `DECELERATION_TOUCHPAD` 0.997 (`_TOUCH` 0.998) and move at least one page in the
/// direction of travel (`_findPointForProjection`); the end animation lasts
/// |distance / velocity| x 3 (`DURATION_MULTIPLIER`), clamped to 100...400 ms.
public struct GNOMESwipeRule: Hashable, Sendable, Codable {
    /// GNOME's figures for one kind of input.
    public struct Figures: Hashable, Sendable, Codable {
        /// Units per ms below which the gesture snaps to the nearest end.
        public var velocityThreshold: Double
        /// Per-ms deceleration of the projection.
        public var deceleration: Double
        /// Units of finger travel per page (progress 0 -> 1). On a touchpad GNOME divides the
        /// unaccelerated deltas by `TOUCHPAD_BASE_WIDTH` 400 (`_HEIGHT` 300); on a touchscreen
        /// the page is the monitor in pixels (1080 assumed).
        public var pageDistance: Double

        /// One range per figure, where `validate()` took any velocity threshold >= 0 and any page
        /// distance > 0 and a settings file 0...100 and (0, 100000]: GNOME's thresholds are 0.6
        /// and 0.3 units/ms and its parabola starts at `VELOCITY_CURVE_THRESHOLD` 2; at 100 units/ms
        /// (250 touchpad pages a second) every gesture snaps, and 100000 units is a page no finger crosses.
        public static let settings = SettingsTable<Figures>([
            .number("velocityThreshold", \.velocityThreshold, "units/ms", SettingRange(0...100),
                    source: "GNOME swipeTracker.js VELOCITY_THRESHOLD_TOUCHPAD 0.6, _TOUCH 0.3; 0 always projects, at 100 every gesture snaps"),
            .number("deceleration", \.deceleration, "per ms", SettingRange(0, 1, lowerIsOpen: true, upperIsOpen: true),
                    source: "GNOME DECELERATION_TOUCHPAD 0.997, _TOUCH 0.998; its projection divides by 1 - deceleration"),
            .number("pageDistance", \.pageDistance, "units", SettingRange(0, 100_000, lowerIsOpen: true),
                    source: "GNOME TOUCHPAD_BASE_WIDTH 400 (HEIGHT 300); a 1080-pixel monitor on a touchscreen"),
        ])
    }
    /// The figures on a touchpad.
    public var touchpad: Figures
    /// The figures on a touchscreen.
    public var touchscreen: Figures

    /// How far back the velocity looks, ms (`EVENT_HISTORY_THRESHOLD_MS`).
    public static let historyMS = 150.0
    static let velocityCurveThreshold = 2.0          // VELOCITY_CURVE_THRESHOLD
    static let decelerationParabolaMultiplier = 0.35 // DECELERATION_PARABOLA_MULTIPLIER
    static let durationMultiplier = 3.0              // DURATION_MULTIPLIER
    static let animationBaseVelocity = 0.002         // ANIMATION_BASE_VELOCITY, pages/ms
    static let minimumAnimationMS = 100.0, maximumAnimationMS = 400.0

    /// GNOME Shell's shipped figures.
    public static let shell = GNOMESwipeRule(
        touchpad: Figures(velocityThreshold: 0.6, deceleration: 0.997, pageDistance: 400),
        touchscreen: Figures(velocityThreshold: 0.3, deceleration: 0.998, pageDistance: 1080))

    /// The figures for this kind of input.
    public func figures(for input: CompletionInput) -> Figures { input == .touchpad ? touchpad : touchscreen }

    /// Its keys: each figure per input (`touchpad.velocityThreshold`, ...).
    public static let settings = SettingsTable<GNOMESwipeRule>(
        Figures.settings.settings.map { $0.nested(in: \.touchpad, prefix: "touchpad") }
            + Figures.settings.settings.map { $0.nested(in: \.touchscreen, prefix: "touchscreen") })

    func validate() throws(TransitionError) {
        if let problem = Self.settings.rangeProblems(in: self).first { throw .invalidPolicy(reason: "gnome " + problem.text) }
    }

    /// `_getEndProgress` and `_endGesture` with snap points 0 and 1. `velocity` in units/ms
    /// (progress/ms x page distance); `initial` the progress when the swipe was confirmed.
    func decide(progress: Double, velocity: Double, initial: Double, input: CompletionInput) -> GNOMEDecision {
        let f = figures(for: input)
        let end: Double
        let projected: Double?
        if abs(velocity) < f.velocityThreshold {
            end = Self.closest(progress)
            projected = nil
        } else {
            let slope = f.deceleration / (1 - f.deceleration) / 1000
            var distance: Double
            let speed = abs(velocity)
            if speed > Self.velocityCurveThreshold {
                let c = slope / 2 / Self.decelerationParabolaMultiplier
                let x = speed - Self.velocityCurveThreshold + c
                distance = slope * Self.velocityCurveThreshold + Self.decelerationParabolaMultiplier * (x * x - c * c)
            } else {
                distance = speed * slope
            }
            if !distance.isFinite { distance = .greatestFiniteMagnitude }
            let pos = min(max(progress + (velocity > 0 ? distance : -distance), 0), 1)
            projected = pos
            // At least one page in the direction of travel: from the page the swipe began on,
            // the next page that way; otherwise the page nearest the projection.
            let initialPoint = Self.closest(initial)
            let previous = pos >= 1 ? 1.0 : 0.0   // last snap point <= pos
            let next = pos <= 0 ? 0.0 : 1.0       // first snap point >= pos
            if (velocity > 0 ? previous : next) == initialPoint {
                end = velocity > 0 ? next : previous
            } else {
                end = Self.closest(pos)
            }
        }
        var pagesPerMS = velocity / f.pageDistance
        if (end - progress) * pagesPerMS <= 0 { pagesPerMS = Self.animationBaseVelocity }
        var duration = abs((progress - end) / pagesPerMS * Self.durationMultiplier)
        if duration > 0 { duration = min(max(duration, Self.minimumAnimationMS), Self.maximumAnimationMS) }
        return GNOMEDecision(velocity: velocity, velocityThreshold: f.velocityThreshold,
                             projectedProgress: projected, endProgress: end, animationMS: duration)
    }

    /// Whether the velocity threshold moved just past `decision`'s velocity turns it: the threshold
    /// only chooses between snapping and projecting, so it turns it when the other one ends on the
    /// other page.
    func thresholdTurns(_ decision: GNOMEDecision, progress: Double, initial: Double, input: CompletionInput) -> Bool {
        let speed = abs(decision.velocity)
        // At the speed itself the rule projects; just above it, it snaps.
        let moved = decision.projectedProgress == nil ? speed : speed.nextUp
        var rule = self
        if input == .touchpad { rule.touchpad.velocityThreshold = moved } else { rule.touchscreen.velocityThreshold = moved }
        return rule.decide(progress: progress, velocity: decision.velocity, initial: initial, input: input).endProgress
            != decision.endProgress
    }

    /// `_findClosestPoint` over [0, 1]: a tie goes to the first point, 0.
    static func closest(_ position: Double) -> Double { abs(1 - position) < abs(position) ? 1 : 0 }
}

/// What GNOME's rule compared (velocity in units/ms).
public struct GNOMEDecision: Hashable, Sendable, Codable {
    /// The release velocity, units/ms.
    public var velocity: Double
    /// The threshold it was compared with, units/ms.
    public var velocityThreshold: Double
    /// Where the projection landed (clamped to 0...1); nil when the velocity was below the
    /// threshold and the gesture snapped to the nearest end.
    public var projectedProgress: Double?
    /// The progress the gesture ends at: 0 or 1.
    public var endProgress: Double
    /// GNOME's end animation, ms (0 when already at the end).
    public var animationMS: Double
}

/// KWin's gestures: a swipe's progress is min(|delta| / 200, 1) (`SwipeGesture::s_minimumDelta`), a
/// pinch's |scale - 1| / 0.2 (`DEFAULT_MINIMUM_SCALE_DELTA`); an effect driven by it
/// (`EffectTogglableState`) activates on release when `m_partialActivationFactor > 0.5`, else
/// deactivates. pinchlab's transitions map the gesture to progress themselves; the rule is the 0.5.
public struct KWinRule: Hashable, Sendable, Codable {
    /// The progress above which an effect activates on release.
    public var threshold: Double
    /// KWin's shipped threshold, 0.5.
    public static let effects = KWinRule(threshold: 0.5)

    /// Its key in a settings file.
    public static let settings = SettingsTable<KWinRule>([
        .number("threshold", \.threshold, "", SettingRange(0...1), source: "KWin EffectTogglableState: m_partialActivationFactor > 0.5"),
    ])

    func validate() throws(TransitionError) {
        if let problem = Self.settings.rangeProblems(in: self).first { throw .invalidPolicy(reason: "kwin " + problem.text) }
    }
}

/// Hyprland's workspace swipe (`src/managers/input/UnifiedWorkspaceSwipeGesture.cpp`, defaults in
/// `src/config/ConfigManager.cpp`): on release it reverts when the travel is below
/// `workspace_swipe_distance x workspace_swipe_cancel_ratio` (300 x 0.5) and the average speed is
/// below `workspace_swipe_min_speed_to_force` (30; 0 turns forcing off), or when the travel is
/// under 2 units; otherwise it switches. The speed is the mean |change| per update event in
/// units, not per second: it depends on the event rate.
public struct HyprlandSwipeRule: Hashable, Sendable, Codable {
    /// Units of travel per page (`workspace_swipe_distance`).
    public var distance: Double
    /// The share of a page below which a slow swipe reverts (`workspace_swipe_cancel_ratio`).
    public var cancelRatio: Double
    /// Units per update; 0 = never force.
    public var minSpeedToForce: Double
    static let minimumTravel = 2.0

    /// Hyprland's shipped figures.
    public static let workspaceSwipe = HyprlandSwipeRule(distance: 300, cancelRatio: 0.5, minSpeedToForce: 30)

    /// One range per figure, where `validate()` took any distance >= 1 and any speed >= 0.
    public static let settings = SettingsTable<HyprlandSwipeRule>([
        .number("distance", \.distance, "units", SettingRange(1...100_000),
                source: "Hyprland workspace_swipe_distance 300; travel under 2 units never switches, so a page of 1 is the least"),
        .number("cancelRatio", \.cancelRatio, "", SettingRange(0...1), source: "Hyprland workspace_swipe_cancel_ratio 0.5, a fraction of the distance"),
        .number("minSpeedToForce", \.minSpeedToForce, "units per update", SettingRange(0...100_000),
                source: "Hyprland workspace_swipe_min_speed_to_force 30; 0 never forces"),
    ])

    func validate() throws(TransitionError) {
        if let problem = Self.settings.rangeProblems(in: self).first { throw .invalidPolicy(reason: "hyprland " + problem.text) }
    }

    func decide(progress: Double, averageSpeedPages: Double) -> HyprlandDecision {
        let travel = progress * distance
        let speed = averageSpeedPages * distance
        let forced = minSpeedToForce != 0 && speed >= minSpeedToForce
        let switches = travel >= Self.minimumTravel && (travel >= distance * cancelRatio || forced)
        return HyprlandDecision(travel: travel, distance: distance, cancelRatio: cancelRatio,
                                averageSpeed: speed, minSpeedToForce: minSpeedToForce,
                                forced: switches && travel < distance * cancelRatio, switches: switches)
    }
}

/// What Hyprland's rule compared (in its units).
public struct HyprlandDecision: Hashable, Sendable, Codable {
    /// How far the gesture travelled, units.
    public var travel: Double
    /// Units of travel per page.
    public var distance: Double
    /// The share of a page below which a slow swipe reverts.
    public var cancelRatio: Double
    /// The mean change per update, units.
    public var averageSpeed: Double
    /// The speed that forces a switch, units per update.
    public var minSpeedToForce: Double
    /// The speed alone made it switch (the travel was below the ratio).
    public var forced: Bool
    /// Whether the workspace switches (the transition finishes).
    public var switches: Bool

    /// The speed reached `minSpeedToForce` (whether or not the travel also switched it).
    var speedForces: Bool { minSpeedToForce != 0 && averageSpeed >= minSpeedToForce }
}

/// Android's back gesture (SystemUI `NavigationBarEdgePanel.handleMoveEvent`): the back is
/// triggered once the finger passed `mSwipeTriggerThreshold` (16 dp); after that, continuous motion
/// of more than `mMinDeltaForSwitch` (32 dp) in one direction sets it (forwards) or clears it
/// (backwards), so moving back un-commits and moving on again re-commits. On release a triggered
/// back finishes, anything else cancels; the release velocity changes only the animation.
public struct AndroidBackRule: Hashable, Sendable, Codable {
    /// dp of travel that triggers the back (`mSwipeTriggerThreshold`).
    public var triggerDP: Double
    /// dp of continuous motion that sets or clears it (`mMinDeltaForSwitch`).
    public var switchDP: Double
    /// dp of travel per page (progress 0 -> 1): a 411 dp wide phone.
    public var pageDP: Double

    /// Android SystemUI's shipped figures.
    public static let predictiveBack = AndroidBackRule(triggerDP: 16, switchDP: 32, pageDP: 411)

    var triggerProgress: Double { triggerDP / pageDP }
    var switchProgress: Double { switchDP / pageDP }

    /// One range per figure, where `validate()` took any distance >= 0 (a page > 0).
    public static let settings = SettingsTable<AndroidBackRule>([
        .number("triggerDP", \.triggerDP, "dp", SettingRange(0...100_000), source: "SystemUI NavigationBarEdgePanel mSwipeTriggerThreshold 16 dp"),
        .number("switchDP", \.switchDP, "dp", SettingRange(0...100_000), source: "SystemUI mMinDeltaForSwitch 32 dp"),
        .number("pageDP", \.pageDP, "dp", SettingRange(0, 100_000, lowerIsOpen: true), source: "a 411 dp wide phone; progress divides by it"),
    ])

    func validate() throws(TransitionError) {
        if let problem = Self.settings.rangeProblems(in: self).first { throw .invalidPolicy(reason: "android-back " + problem.text) }
    }
}

/// What Android's rule saw: whether back was triggered at the release and what last set it.
public struct AndroidBackDecision: Hashable, Sendable, Codable {
    /// What last set or cleared the back.
    public enum LastChange: String, Hashable, Sendable, Codable {
        /// Never passed the trigger distance.
        case neverTriggered = "never-triggered"
        /// Passed the trigger distance and never switched since.
        case triggered
        /// The last continuous motion of more than the switch distance went back.
        case movedBack = "moved-back"
        /// The last continuous motion of more than the switch distance went forwards again.
        case movedOn = "moved-on"
    }
    /// Whether back was triggered at the release (the transition finishes).
    public var committed: Bool
    /// What last set or cleared it.
    public var lastChange: LastChange
    /// How often the commitment flipped during the gesture.
    public var switches: Int
    /// The trigger distance it used, dp.
    public var triggerDP: Double
    /// The switch distance it used, dp.
    public var switchDP: Double
}
