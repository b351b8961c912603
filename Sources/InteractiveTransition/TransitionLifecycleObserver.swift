/// A presentation controller's lifecycle hooks, called by `PercentDrivenTransition` as each moment
/// happens, in order, with a snapshot of the transition at that moment (its time comes from the
/// transition's clock, never the wall clock).
///
/// UIKit's `UIPresentationController` gets `presentationTransitionWillBegin()` and
/// `presentationTransitionDidEnd(_ completed:)` (and the dismissal pair): will-begin is where the seeds
/// add the dimming view at alpha 0 and move the close button off screen; did-end with
/// `completed == false` is where a cancelled presentation removes what it added. Did-end comes after
/// `completeTransition` and sees the final state: progress exactly 1 when completed, 0 when not.
/// Every method has an empty default, so an observer implements only what it needs.
public protocol TransitionLifecycleObserver: AnyObject, Sendable {
    /// A presentation is about to begin.
    func presentationTransitionWillBegin(_ transition: TransitionSnapshot)
    /// A presentation ended: completed, or cancelled with the from-state restored.
    func presentationTransitionDidEnd(completed: Bool, _ transition: TransitionSnapshot)
    /// A dismissal is about to begin.
    func dismissalTransitionWillBegin(_ transition: TransitionSnapshot)
    /// A dismissal ended: completed, or cancelled with the from-state restored.
    func dismissalTransitionDidEnd(completed: Bool, _ transition: TransitionSnapshot)
    /// Every lifecycle record as it is made, the four above included: completion started, paused,
    /// `completeTransition`.
    func transition(_ transition: TransitionSnapshot, recorded record: LifecycleRecord)
}

extension TransitionLifecycleObserver {
    package func presentationTransitionWillBegin(_ transition: TransitionSnapshot) {}
    package func presentationTransitionDidEnd(completed: Bool, _ transition: TransitionSnapshot) {}
    package func dismissalTransitionWillBegin(_ transition: TransitionSnapshot) {}
    package func dismissalTransitionDidEnd(completed: Bool, _ transition: TransitionSnapshot) {}
    package func transition(_ transition: TransitionSnapshot, recorded record: LifecycleRecord) {}

    /// Calls the hook `record` stands for, then `transition(_:recorded:)`.
    func deliver(_ record: LifecycleRecord, _ snapshot: TransitionSnapshot) {
        switch record.event {
        case .presentationWillBegin: presentationTransitionWillBegin(snapshot)
        case .presentationDidEnd(let completed): presentationTransitionDidEnd(completed: completed, snapshot)
        case .dismissalWillBegin: dismissalTransitionWillBegin(snapshot)
        case .dismissalDidEnd(let completed): dismissalTransitionDidEnd(completed: completed, snapshot)
        case .completionStarted, .paused, .completeTransition: break
        }
        transition(snapshot, recorded: record)
    }
}
