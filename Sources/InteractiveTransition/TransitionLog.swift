/// The named states of a percent-driven transition.
///
///     idle --begin/update/finish/cancel--> interactive
///     interactive --finish--> finishing --(animation ends)--> finished
///     interactive --cancel--> cancelling --(animation ends)--> cancelled
///     finishing / cancelling --pause--> interactive
public enum TransitionPhase: String, Hashable, Sendable, Codable, CaseIterable {
    /// Not begun.
    case idle
    /// Following `update(_:at:)` calls.
    case interactive
    /// Animating to progress 1 after `finish`.
    case finishing
    /// Animating back to progress 0 after `cancel`.
    case cancelling
    /// Done; the to-state is shown and `completeTransition(true)` was called.
    case finished
    /// Done; the from-state is restored exactly and `completeTransition(false)` was called.
    case cancelled

    /// Whether the transition is done: finished or cancelled.
    public var isTerminal: Bool { self == .finished || self == .cancelled }
    /// Whether a completion animation runs: finishing or cancelling.
    public var isAnimatingCompletion: Bool { self == .finishing || self == .cancelling }
}

/// The lifecycle a presentation controller sees, plus the transition's own milestones, recorded in order.
public enum LifecycleEvent: Hashable, Sendable, Codable {
    /// A presentation is about to begin.
    case presentationWillBegin
    /// A dismissal is about to begin.
    case dismissalWillBegin
    /// A completion animation started (`finish` or `cancel`) from `progress`, lasting `durationSeconds`.
    case completionStarted(direction: CompletionDirection, progress: Double, durationSeconds: Double)
    /// A running completion was grabbed back at `progress`.
    case paused(progress: Double)
    /// The transition called `completeTransition(didComplete)` on its context.
    case completeTransition(didComplete: Bool)
    /// A presentation ended, completed or not.
    case presentationDidEnd(completed: Bool)
    /// A dismissal ended, completed or not.
    case dismissalDidEnd(completed: Bool)
}

/// One lifecycle moment and when it happened.
public struct LifecycleRecord: Hashable, Sendable, Codable {
    /// Seconds, from the injected clock.
    public let time: Double
    /// What happened.
    public let event: LifecycleEvent
}

/// Misuse the transition survived: the call was ignored or its input sanitised, and it says so here.
public enum TransitionIssue: Hashable, Sendable, Codable, CustomStringConvertible {
    /// `update` outside the interactive phase (after finish/cancel, or once done): ignored.
    case updateIgnored(phase: TransitionPhase)
    /// `finish` when not interactive (e.g. finish twice): ignored.
    case finishIgnored(phase: TransitionPhase)
    /// `cancel` when not interactive (e.g. cancel twice): ignored.
    case cancelIgnored(phase: TransitionPhase)
    /// `pause` when no completion animation runs: ignored.
    case pauseIgnored(phase: TransitionPhase)
    /// `begin` when already begun: ignored.
    case beginIgnored(phase: TransitionPhase)
    /// The first call was not `begin`; the transition began implicitly (a very fast gesture).
    case implicitBegin
    /// NaN or infinite progress given to `update`: ignored.
    case nonFiniteProgressIgnored
    /// NaN or infinite velocity: taken as 0.
    case nonFiniteVelocityTreatedAsZero
    /// NaN or infinite time: the call was ignored.
    case nonFiniteTimeIgnored
    /// A time earlier than the last one seen: the last time was used instead.
    case timeWentBackwards(lastTime: Double)
    /// The completion spring never settles by its rule within `SpringMotion.maximumSettleSearchSeconds`
    /// (spring time): the animation is cut after `seconds` (real time) and then jumps onto its target
    /// by `displacement` (progress units). Give the spring a damping ratio nearer 1.
    case springCutAtSettleSearchLimit(seconds: Double, displacement: Double)

    /// The issue, as one line.
    public var description: String {
        switch self {
        case .updateIgnored(let phase): return "update ignored while \(phase.rawValue)"
        case .finishIgnored(let phase): return "finish ignored while \(phase.rawValue)"
        case .cancelIgnored(let phase): return "cancel ignored while \(phase.rawValue)"
        case .pauseIgnored(let phase): return "pause ignored while \(phase.rawValue)"
        case .beginIgnored(let phase): return "begin ignored while \(phase.rawValue)"
        case .implicitBegin: return "transition began implicitly (first call was not begin)"
        case .nonFiniteProgressIgnored: return "non-finite progress ignored"
        case .nonFiniteVelocityTreatedAsZero: return "non-finite velocity taken as 0"
        case .nonFiniteTimeIgnored: return "non-finite time: call ignored"
        case .timeWentBackwards(let last): return "time went backwards; using last time \(last)"
        case .springCutAtSettleSearchLimit(let seconds, let displacement):
            return "completion spring never settles; cut after \(seconds) s, jumping \(displacement) onto the target"
        }
    }
}

package struct TransitionDiagnostic: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Seconds (the last valid time when the given time was unusable).
    package let time: Double
    package let issue: TransitionIssue
    package var description: String { "t=\(time): \(issue)" }
}
