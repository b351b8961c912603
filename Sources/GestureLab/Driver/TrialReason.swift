import InteractiveTransition

/// Why a trial's transition finished or cancelled, kept typed until the output layer prints it
/// (`description` is the text of JSON's `"reason"` and of the human lines).
public struct TrialReason: Hashable, Sendable, CustomStringConvertible {
    /// What ended the trial: the policy, or a cancelled gesture.
    public enum Cause: Hashable, Sendable {
        /// The fingers lifted and the policy decided, by the rule and the numbers in the decision.
        case policy(CompletionDecision)
        /// The gesture was cancelled (finger count changed, resync, the input ended or went away
        /// with fingers down): the transition cancels without asking the policy.
        case gestureCancelled
    }

    /// What ended the trial.
    public var cause: Cause
    /// Set when the completion is a spring that never settles: it is cut after this many seconds,
    /// so the animation ends with a jump.
    public var springCutAfterSeconds: Double?

    /// A reason from its cause, and the cut of a spring that never settles.
    public init(_ cause: Cause, springCutAfterSeconds: Double? = nil) {
        self.cause = cause
        self.springCutAfterSeconds = springCutAfterSeconds
    }

    /// The policy's decision, when the policy was asked.
    public var decision: CompletionDecision? {
        if case .policy(let decision) = cause { return decision }
        return nil
    }

    /// The reason as a sentence: the policy's rule and figures, or that the gesture was cancelled.
    public var description: String {
        var text: String
        switch cause {
        case .policy(let decision): text = decision.description
        case .gestureCancelled: text = "the gesture was cancelled"
        }
        if let cut = springCutAfterSeconds {
            text += "; the completion spring never settles: cut after \(rounded(cut)) s"
        }
        return text
    }
}
