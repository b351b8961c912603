import GestureKit
import SettingsTable

/// A decision a passing file's label rests on that came within a small margin of going the other
/// way: `check` lists the file as fragile (`--strict` fails it). A kind rests on the decision that
/// began the gesture; a labelled outcome (finish, cancel) on its release.
public struct FragileDecision: Sendable, Hashable {
    /// Which decision.
    public enum Decision: Sendable, Hashable {
        /// The recognizer's decision that began the gesture, by this rule.
        case began(GestureRule)
        /// The release's finish-or-cancel decision.
        case release
    }

    /// The index of the gesture among the label's (0: the first).
    public var gesture: Int
    public var kind: GestureExpectation.Kind
    public var decision: Decision
    public var margin: DecisionMargin

    /// A margin within 10% of its setting's range is small (`DecisionMargin.normalized`).
    public static let normalizedMarginLimit = 0.1

    /// Whether `margin` is small: for a timeout or a time window (ms), a distance of at most one
    /// frame of the recording (`frameIntervalMS`: the decision would have fallen on the next frame
    /// or the one before); otherwise under `normalizedMarginLimit`.
    ///
    /// - Parameters:
    ///   - margin: a decision's margin.
    ///   - frameIntervalMS: one frame of the recording; nil: no margin in time is small.
    public static func isSmall(_ margin: DecisionMargin, frameIntervalMS: Double?) -> Bool {
        if margin.unit == "ms" {
            guard let frameIntervalMS else { return false }
            return margin.distance <= frameIntervalMS
        }
        guard let normalized = margin.normalized else { return false }
        return normalized < normalizedMarginLimit
    }

    /// The smallest small margin among what `expected` checks of `recognized` (each matched in
    /// order): every gesture's beginning (its kind is always checked), and its release where the
    /// label gives an outcome; nil when none is small.
    ///
    /// - Parameters:
    ///   - expected: the label's gestures.
    ///   - recognized: the replay's, matched to them in order.
    ///   - beganMargins: the margin of each recognized gesture's beginning (`FileScore.beganMargins`).
    ///   - frameIntervalMS: one frame of the recording, for a margin in time.
    /// - Returns: the closest small margin's decision, or nil. A release's margin comes from
    ///   `RecognizedGesture.releaseMargin`.
    public static func closest(expected: [GestureExpectation], recognized: [RecognizedGesture],
                               beganMargins: [DecisionMargin?], frameIntervalMS: Double?) -> FragileDecision? {
        var closest: FragileDecision?
        func consider(_ margin: DecisionMargin?, _ decision: Decision, gesture: Int, kind: GestureExpectation.Kind) {
            guard let margin, isSmall(margin, frameIntervalMS: frameIntervalMS) else { return }
            let candidate = FragileDecision(gesture: gesture, kind: kind, decision: decision, margin: margin)
            if let current = closest, (current.margin.normalized ?? 0) <= (margin.normalized ?? 0) { return }
            closest = candidate
        }
        for (index, (expectation, gesture)) in zip(expected, recognized).enumerated() {
            if let rule = gesture.beganDecision?.rule, index < beganMargins.count {
                consider(beganMargins[index], .began(rule), gesture: index, kind: expectation.kind)
            }
            if let outcome = expectation.outcome, outcome != .none {
                consider(gesture.releaseMargin, .release, gesture: index, kind: expectation.kind)
            }
        }
        return closest
    }
}
