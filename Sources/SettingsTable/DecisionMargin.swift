/// How close one decision came to going the other way: the value the rule measured, the threshold
/// that would have decided otherwise, which setting that threshold is, and the unit of both.
///
/// Shared by the recognizer's rules (GestureCore: mm, degrees, ms) and the release policies
/// (InteractiveTransition: progress, progress/s), so that `check`, the tuner and every output read
/// one shape. Made only when an output asks (from a decision's evidence and the settings), never on
/// the per-frame path.
public struct DecisionMargin: Sendable, Hashable {
    /// What the rule measured (an angle, a distance, a wait, a projected progress).
    public var value: Double
    /// The threshold the value was compared with; moving this setting past `value` flips the decision.
    public var threshold: Double
    /// The settings key of that threshold, as a settings file spells it
    /// (`touchpadRecognizer.pinchOpposingMinimumAngleDegrees`, `policy.progressThreshold`).
    public var key: String
    /// The unit of `value` and `threshold` ("mm", "degrees", "ms", "progress", "progress/s").
    public var unit: String
    /// The width of the setting's valid (or usual) range, in `unit`: what `normalized` divides by.
    /// nil when the setting has no finite range.
    public var scale: Double?

    /// A margin from the value measured, the threshold, and the setting's key, unit and range width.
    public init(value: Double, threshold: Double, key: String, unit: String, scale: Double? = nil) {
        self.value = value
        self.threshold = threshold
        self.key = key
        self.unit = unit
        self.scale = scale
    }

    /// How far the value was from the threshold, in `unit` (never negative).
    public var distance: Double { abs(value - threshold) }

    /// `distance` over `scale`: 0 at the edge of the decision, 1 a whole range away. nil without a
    /// scale. `check` calls a decision fragile below a small normalized margin; the tuner prefers
    /// settings whose smallest normalized margin over the correct decisions is largest.
    public var normalized: Double? {
        guard let scale, scale > 0, scale.isFinite else { return nil }
        return distance / scale
    }
}
