/// An animation run alongside the transition, like UIKit's
/// `transitionCoordinator.animate(alongsideTransition:completion:)` called from a presentation
/// controller's `presentationTransitionWillBegin` (seeds 002 and 003 fade a blur view in this way).
///
/// It is one named number that goes from `fromValue` to `toValue` following the transition's own
/// progress: scrubbed by `update` while interactive, carried by every sample of the completion curve
/// or spring after release, exactly `toValue` once finished and exactly `fromValue` once cancelled.
///
/// It is a value registered with `PercentDrivenTransition.animateAlongside(_:)`, not a closure: the
/// transition is a value, and a closure captured by it would be shared by every copy and run once per
/// copy. Read the current number with `alongsideValue(named:)` after each call that moves the transition.
package struct AlongsideAnimation: Hashable, Sendable, Codable {
    /// Unique among the alongside animations of one transition.
    package let name: String
    /// The value at progress 0, and exactly the value left behind by a cancelled transition.
    package let fromValue: Double
    /// The value at progress 1, and exactly the value left behind by a finished transition.
    let toValue: Double
    /// Values are clamped into this range (a spring overshoot must not push an alpha past 1); nil = unbounded.
    package let limits: ClosedRange<Double>?
    /// The value shown now; set by the transition at every change of its progress.
    package internal(set) var value: Double

    /// Rejects non-finite values, and end values outside `limits` (an end the animation could never show).
    package init(name: String, from fromValue: Double, to toValue: Double,
                limits: ClosedRange<Double>? = nil) throws(TransitionError) {
        guard fromValue.isFinite, toValue.isFinite else {
            throw .invalidAlongsideAnimation(reason: "\(name): from and to values must be finite, got \(fromValue), \(toValue)")
        }
        if let limits {
            guard limits.lowerBound.isFinite, limits.upperBound.isFinite else {
                throw .invalidAlongsideAnimation(reason: "\(name): limits must be finite, got \(limits)")
            }
            guard limits.contains(fromValue), limits.contains(toValue) else {
                throw .invalidAlongsideAnimation(reason: "\(name): \(fromValue) and \(toValue) must lie within \(limits)")
            }
        }
        self.name = name
        self.fromValue = fromValue
        self.toValue = toValue
        self.limits = limits
        self.value = fromValue
    }

    /// The value at `progress`: exactly `fromValue` at 0 (and for a non-finite progress), exactly
    /// `toValue` at 1, linear in between, extrapolated by an overshoot and then clamped into `limits`.
    package func value(atProgress progress: Double) -> Double {
        guard progress.isFinite, progress != 0 else { return fromValue }
        if progress == 1 { return toValue }
        var result = SceneState.lerp(fromValue, toValue, progress)
        if let limits { result = min(max(result, limits.lowerBound), limits.upperBound) }
        return result
    }
}
