/// Which way a completion animation runs.
public enum CompletionDirection: String, Hashable, Sendable, Codable {
    /// Towards progress 1 (UIKit `finishInteractiveTransition`).
    case finish
    /// Back to progress 0 (UIKit `cancelInteractiveTransition`).
    case cancel

    /// The progress this direction ends at: 1 to finish, 0 to cancel.
    public var targetProgress: Double { self == .finish ? 1 : 0 }
}

/// The non-interactive rest of a transition after release: from `startProgress` at `startTime` to the
/// target, following a curve or a spring. A pure function of time.
public struct CompletionAnimation: Hashable, Sendable, Codable {
    /// Whether it finishes or cancels.
    public let direction: CompletionDirection
    /// When it started, seconds on the transition's clock.
    public let startTime: Double
    /// The progress it started from.
    public let startProgress: Double
    /// The curve or spring it follows.
    public let timing: CompletionTiming
    /// How much faster than the transition's duration it runs.
    public let completionSpeed: Double
    /// Real seconds until the animation ends: for a curve `|target - start| x duration / completionSpeed`,
    /// for a spring its settle time divided by `completionSpeed`.
    public let duration: Double
    /// For springs: the motion in spring time (real time x completionSpeed), displacement = progress - target.
    public let springMotion: SpringMotion?
    /// For springs: when the motion settles by the timing's rule. `reachedSearchLimit` means it never
    /// did within `SpringMotion.maximumSettleSearchSeconds` (almost no damping, or far too much): the
    /// animation is cut there and jumps onto the target by `displacement`. The transition reports
    /// this as `TransitionIssue.springCutAtSettleSearchLimit` so it is never silent. Nil for curves.
    public let springSettling: SpringSettling?

    /// The progress it ends at.
    public var targetProgress: Double { direction.targetProgress }
    /// When it ends, seconds on the transition's clock.
    public var endTime: Double { startTime + duration }

    /// - Parameters:
    ///   - transitionDuration: the transition's full duration in seconds (finite, > 0).
    ///   - completionSpeed: finite and > 0 (checked by the transition).
    ///   - releaseVelocity: progress per second; nil = no gesture velocity (a spring then uses its
    ///     `normalizedInitialVelocity`). Must be finite (sanitised by the caller).
    init(direction: CompletionDirection, startTime: Double, startProgress: Double, transitionDuration: Double,
         completionSpeed: Double, timing: CompletionTiming, releaseVelocity: Double?) {
        self.direction = direction
        self.startTime = startTime
        self.startProgress = startProgress
        self.timing = timing
        self.completionSpeed = completionSpeed
        let target = direction.targetProgress
        switch timing {
        case .curve:
            duration = abs(target - startProgress) * transitionDuration / completionSpeed
            springMotion = nil
            springSettling = nil
        case .spring(let spring):
            let velocity = releaseVelocity ?? SpringVelocity.progressPerSecond(
                normalized: spring.normalizedInitialVelocity, from: startProgress, to: target)
            // Spring time runs completionSpeed times faster than real time, so the real release
            // velocity v becomes v / completionSpeed in spring time (continuity at release).
            let motion = SpringMotion(parameters: spring.parameters, initialDisplacement: startProgress - target,
                                      initialVelocity: velocity / completionSpeed)
            springMotion = motion
            let settling = motion.settling(rule: spring.settleRule)
            springSettling = settling
            duration = settling.seconds / completionSpeed
        }
    }

    /// True once `time` has reached the end (the transition then snaps exactly onto the target).
    public func isComplete(at time: Double) -> Bool { time >= endTime }

    /// Progress at `time` (may overshoot 0...1 for an underdamped spring). Exactly the target at the end.
    public func progress(at time: Double) -> Double {
        if isComplete(at: time) { return targetProgress }
        let elapsed = min(max(time - startTime, 0), duration)
        switch timing {
        case .curve(let curve):
            let eased = curve.value(at: elapsed / duration)
            return startProgress + (targetProgress - startProgress) * eased
        case .spring:
            return targetProgress + (springMotion?.displacement(at: elapsed * completionSpeed) ?? 0)
        }
    }

    /// Progress per second at `time`; 0 after the end. Always finite (a vanishingly short completion
    /// would otherwise divide by almost nothing).
    public func velocity(at time: Double) -> Double {
        if isComplete(at: time) { return 0 }
        let elapsed = min(max(time - startTime, 0), duration)
        let result: Double
        switch timing {
        case .curve(let curve):
            result = (targetProgress - startProgress) * curve.slope(at: elapsed / duration) / duration
        case .spring:
            result = (springMotion?.velocity(at: elapsed * completionSpeed) ?? 0) * completionSpeed
        }
        return result.isFinite ? result : 0
    }
}
