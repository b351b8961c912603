/// Every way a transition can be misconfigured or misused, as a value (never a crash).
public enum TransitionError: Error, Equatable, Sendable, Codable, CustomStringConvertible {
    /// `completionSpeed` must be finite and > 0 (UIKit's `UIPercentDrivenInteractiveTransition` rule).
    case invalidCompletionSpeed(Double)
    /// A duration must be finite and > 0 seconds.
    case invalidDuration(seconds: Double)
    /// Bézier control point x values must lie in 0...1 (otherwise time runs backwards) and all must be finite.
    case invalidBezierControlPoints(p1x: Double, p1y: Double, p2x: Double, p2y: Double)
    /// Spring parameters must be finite, mass and stiffness > 0, damping > 0 (an undamped spring never settles).
    case invalidSpring(reason: String)
    /// A finish/cancel policy value is out of range.
    case invalidPolicy(reason: String)
    /// The from-state and to-state must animate the same extra properties in the same order.
    case mismatchedSceneProperties(from: [String], to: [String])
    /// A scene value is NaN or infinite, or outside its own limits.
    case invalidSceneValue(name: String)
    /// The catalog has no transition with this name.
    case unknownTransition(name: String)
    /// `completeTransition(_:)` must be called exactly once; this is the second (or later) call.
    case completeTransitionCalledTwice(firstDidComplete: Bool, secondDidComplete: Bool)
    /// An alongside animation has a non-finite value, an end outside its limits, a name already
    /// registered, or was registered after the transition ended.
    case invalidAlongsideAnimation(reason: String)

    /// What is wrong, as one line.
    public var description: String {
        switch self {
        case .invalidCompletionSpeed(let speed):
            return "completionSpeed must be finite and > 0, got \(speed)"
        case .invalidDuration(let seconds):
            return "duration must be finite and > 0 s, got \(seconds)"
        case .invalidBezierControlPoints(let p1x, let p1y, let p2x, let p2y):
            return "cubic Bézier control points (\(p1x), \(p1y)) (\(p2x), \(p2y)) need finite values and x in 0...1"
        case .invalidSpring(let reason):
            return "invalid spring: \(reason)"
        case .invalidPolicy(let reason):
            return "invalid completion policy: \(reason)"
        case .mismatchedSceneProperties(let from, let to):
            return "from-state properties \(from) differ from to-state properties \(to)"
        case .invalidSceneValue(let name):
            return "scene value \(name) is not finite or outside its limits"
        case .unknownTransition(let name):
            return "no transition named '\(name)' (known: \(TransitionName.allCases.map(\.rawValue).joined(separator: ", ")))"
        case .completeTransitionCalledTwice(let first, let second):
            return "completeTransition(\(second)) called after completeTransition(\(first)); it must be called exactly once"
        case .invalidAlongsideAnimation(let reason):
            return "invalid alongside animation: \(reason)"
        }
    }
}
