import InteractiveTransition

/// The finish/cancel policies offered by name (`--policy`), instead of the configured one.
public enum PolicyPreset: String, CaseIterable, Sendable, Hashable {
    /// Progress > 0.5 only, velocity ignored: exactly the seeds' rule.
    case seed
    /// The shipped default: projection with UIKit's normal deceleration and a flick.
    case `default`
    /// Fast deceleration, an easier flick.
    case fluid

    public var policy: CompletionPolicy {
        switch self {
        case .seed: return .seed
        case .default: return LabSettings.default.policy
        case .fluid: return .fluid
        }
    }
}

extension PolicyPreset: CustomStringConvertible {
    public var description: String { rawValue }
}
