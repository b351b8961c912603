import GestureCore
import SettingsTable

/// A decision a file's label rests on, with its margin: a gesture's kind rests on the decision that
/// began it, a labelled outcome (finish, cancel) on its release (`FileScore.labelledMargins`).
package struct LabelledDecision: Sendable, Hashable {
    /// Which decision.
    package enum Decision: Sendable, Hashable {
        /// The recognizer's decision that began the gesture, by this rule.
        case began(GestureRule)
        /// The release's finish-or-cancel decision.
        case release
    }

    /// The index of the gesture among the label's (0: the first).
    package var gesture: Int
    package var kind: GestureExpectation.Kind
    package var decision: Decision
    package var margin: DecisionMargin

    /// The decisions `expected` checks of `recognized` (each matched in order), with their
    /// margins: every gesture's beginning (its kind is always checked), and its release where
    /// the label gives an outcome (`GestureExpectation.restsOnRelease`). A decision no single
    /// setting flips has no margin and is left out.
    ///
    /// - Parameters:
    ///   - expected: the label's gestures.
    ///   - recognized: the replay's, matched to them in order.
    ///   - recognizer: the thresholds the replay's recognizer decided with (nil: no beginning has a margin).
    static func all(expected: [GestureExpectation], recognized: [RecognizedGesture],
                    recognizer: GestureRecognizerConfiguration?) -> [LabelledDecision] {
        var decisions: [LabelledDecision] = []
        for (index, (expectation, gesture)) in zip(expected, recognized).enumerated() {
            if let began = gesture.beganDecision, let recognizer, let margin = began.margin(in: recognizer) {
                decisions.append(LabelledDecision(gesture: index, kind: expectation.kind, decision: .began(began.rule), margin: margin))
            }
            if expectation.restsOnRelease, let margin = gesture.releaseMargin {
                decisions.append(LabelledDecision(gesture: index, kind: expectation.kind, decision: .release, margin: margin))
            }
        }
        return decisions
    }
}

extension GestureExpectation {
    /// Whether the label checks this gesture's release: it gives an outcome, finish or cancel.
    var restsOnRelease: Bool { outcome != nil && outcome != GestureExpectation.Outcome.none }
}

/// A decision a passing file's label rests on that came within a small margin of going the other
/// way, and that moving its setting just past the margin makes the label fail: `check` lists the
/// file as fragile (`--strict` fails it). A small margin whose move changes only the rule (a pinch
/// begun by different-directions instead of opposing-fingers) or that the label does not see is
/// no fragility (`CorpusCheck`).
package struct FragileDecision: Sendable, Hashable {
    /// Why a margin is small.
    package enum Smallness: Sendable, Hashable {
        /// A margin in time within one frame of the recording (the mean frame interval, ms).
        case withinFrame(ms: Double)
        /// A margin under `normalizedMarginLimit` of its setting's usual range (this fraction).
        case fraction(Double)
    }

    package var labelled: LabelledDecision
    package var smallness: Smallness
    /// What the replay recognized with the setting moved just past the margin (the label fails on it).
    package var becomes: [RecognizedGesture]

    /// A margin within 10% of its setting's range is small (`DecisionMargin.normalized`).
    static let normalizedMarginLimit = 0.1

    /// Why `margin` is small, if it is: for a timeout or a time window (ms), a distance of at most
    /// one frame of the recording (`frameIntervalMS`: the decision would have fallen on the next
    /// frame or the one before); otherwise a normalized margin under `normalizedMarginLimit`.
    ///
    /// - Parameters:
    ///   - margin: a decision's margin.
    ///   - frameIntervalMS: one frame of the recording; nil: no margin in time is small.
    /// - Returns: nil when the margin is not small.
    package static func smallness(of margin: DecisionMargin, frameIntervalMS: Double?) -> Smallness? {
        if margin.unit == "ms" {
            guard let frameIntervalMS, margin.distance <= frameIntervalMS else { return nil }
            return .withinFrame(ms: frameIntervalMS)
        }
        guard let normalized = margin.normalized, normalized < normalizedMarginLimit else { return nil }
        return .fraction(normalized)
    }

    /// The decisions of `score` whose margins are small, closest first (by normalized margin, a
    /// margin without a scale last): the candidates `CorpusCheck` replays to see whether the
    /// label would fail.
    static func candidates(of score: FileScore) -> [(LabelledDecision, Smallness)] {
        guard score.correct else { return [] }
        return score.labelledMargins
            .compactMap { decision in smallness(of: decision.margin, frameIntervalMS: score.frameIntervalMS).map { (decision, $0) } }
            .enumerated()
            .sorted { ($0.element.0.margin.normalized ?? .infinity, $0.offset) < ($1.element.0.margin.normalized ?? .infinity, $1.offset) }
            .map(\.element)
    }
}
