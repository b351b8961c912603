/// Whether a transition presents a scene or dismisses it (picks the lifecycle hooks).
public enum TransitionRole: String, Hashable, Sendable, Codable {
    /// The transition shows a scene.
    case presentation
    /// The transition takes a scene away.
    case dismissal
}

/// An animation controller (`UIViewControllerAnimatedTransitioning`) as data: duration, completion
/// timing, and the scene at progress 0 and 1. The interactive phase is linear in progress between them.
public struct TransitionSpec: Hashable, Sendable, Codable {
    /// The transition's name (`pinch-dismiss`).
    public let name: String
    /// Whether it presents or dismisses.
    public let role: TransitionRole
    /// Seconds for the whole transition from 0 to 1 (UIKit `transitionDuration(using:)`).
    public let duration: Double
    /// The default completion curve or spring (the transition may override it).
    public let completionTiming: CompletionTiming
    /// The container's bounds in points.
    public let containerBounds: SceneRect
    /// The scene at progress 0.
    public let fromState: SceneState
    /// The scene at progress 1.
    public let toState: SceneState

    /// A spec from its values; throws `TransitionError` for a duration, timing or scene out of range.
    public init(name: String, role: TransitionRole, duration: Double, completionTiming: CompletionTiming,
                containerBounds: SceneRect, fromState: SceneState, toState: SceneState) throws(TransitionError) {
        guard duration.isFinite, duration > 0 else { throw .invalidDuration(seconds: duration) }
        guard containerBounds.isFinite else { throw .invalidSceneValue(name: "containerBounds") }
        if let error = fromState.validationError() { throw error }
        if let error = toState.validationError() { throw error }
        guard fromState.extraNames == toState.extraNames else {
            throw .mismatchedSceneProperties(from: fromState.extraNames, to: toState.extraNames)
        }
        self.name = name; self.role = role; self.duration = duration; self.completionTiming = completionTiming
        self.containerBounds = containerBounds; self.fromState = fromState; self.toState = toState
    }

    /// The scene at `progress` (see `SceneState.interpolate`).
    public func scene(at progress: Double) -> SceneState {
        SceneState.interpolate(from: fromState, to: toState, progress: progress)
    }

    private enum CodingKeys: String, CodingKey {
        case name, role, duration, completionTiming, containerBounds, fromState, toState
    }
    /// Reads a spec from its JSON form, checked as its init checks it.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            name: c.decode(String.self, forKey: .name), role: c.decode(TransitionRole.self, forKey: .role),
            duration: c.decode(Double.self, forKey: .duration),
            completionTiming: c.decode(CompletionTiming.self, forKey: .completionTiming),
            containerBounds: c.decode(SceneRect.self, forKey: .containerBounds),
            fromState: c.decode(SceneState.self, forKey: .fromState), toState: c.decode(SceneState.self, forKey: .toState))
    }
}
