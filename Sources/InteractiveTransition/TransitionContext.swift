/// The transitioning context (`UIViewControllerContextTransitioning`): from/to scenes, the container,
/// whether the transition was cancelled, and `completeTransition(_:)` which must be called exactly once.
public struct TransitionContext: Hashable, Sendable, Codable {
    /// Whether the transition presents or dismisses.
    public let role: TransitionRole
    /// The container's bounds, points.
    public let containerBounds: SceneRect
    /// The scene at progress 0.
    public let fromState: SceneState
    /// The scene at progress 1.
    public let toState: SceneState
    /// Set by cancelling, cleared again if a paused transition is then finished.
    public internal(set) var transitionWasCancelled: Bool = false
    /// The argument of the first `completeTransition` call; nil until then.
    public private(set) var didComplete: Bool?
    /// How many times `completeTransition` was called, including erroneous repeats (so tests can see them).
    public private(set) var completeTransitionCallCount: Int = 0

    /// A context from its role, container and scenes, not yet completed.
    public init(role: TransitionRole, containerBounds: SceneRect, fromState: SceneState, toState: SceneState) {
        self.role = role; self.containerBounds = containerBounds; self.fromState = fromState; self.toState = toState
    }

    /// The context of a spec's transition, not yet completed.
    public init(spec: TransitionSpec) {
        self.init(role: spec.role, containerBounds: spec.containerBounds, fromState: spec.fromState, toState: spec.toState)
    }

    /// Whether `completeTransition` was called.
    public var isCompleted: Bool { didComplete != nil }

    /// Records the end of the transition. A second call is a programming error: it is counted, leaves the
    /// first result untouched, and throws `.completeTransitionCalledTwice`.
    public mutating func completeTransition(_ didComplete: Bool) throws(TransitionError) {
        completeTransitionCallCount += 1
        if let first = self.didComplete {
            throw .completeTransitionCalledTwice(firstDidComplete: first, secondDidComplete: didComplete)
        }
        self.didComplete = didComplete
    }
}
