/// UIKit's `UIPercentDrivenInteractiveTransition` together with the animator and context it drives,
/// as a value: headless, deterministic, every call takes the time in seconds from the caller's clock.
///
/// A gesture calls `begin`, then `update(_:at:)` with progress in 0...1 (clamped), then `finish` or
/// `cancel` (or `end(at:velocity:policy:)` to let a `CompletionPolicy` choose). The completion animation
/// is advanced by `tick(at:)`; when it ends the transition calls `completeTransition(!transitionWasCancelled)`
/// on its context exactly once and records the presentation/dismissal lifecycle. `pause(at:)` grabs a running
/// completion back into interactive control. Misuse (update after finish, finish twice, NaN input, time
/// running backwards) is ignored or sanitised and recorded in `diagnostics`, never corrupting the state.
/// `animateAlongside(_:)` registers extra values that follow the same progress (the transition coordinator).
public struct PercentDrivenTransition: Sendable {
    /// `diagnostics` keeps at most this many entries (a driver that keeps calling `update` after finishing
    /// must not grow memory per event); later ones are only counted in `droppedDiagnosticCount`.
    package static let maximumRecordedDiagnostics = 64

    /// What animates, and how long the whole transition takes.
    public let spec: TransitionSpec
    /// The context the transition completes, exactly once.
    public private(set) var context: TransitionContext
    /// Where the transition is: idle, interactive, finishing, cancelling, finished or cancelled.
    public private(set) var phase: TransitionPhase = .idle
    /// The progress shown: the interactive value, or the completion animation's value (an underdamped
    /// spring may overshoot 0...1 briefly). Exactly 1 when finished, exactly 0 when cancelled. Always finite.
    public private(set) var progress: Double = 0
    /// Progress per second of the completion animation at the last time seen (0 while interactive).
    public private(set) var velocity: Double = 0
    /// The last valid time seen, seconds.
    public private(set) var time: Double?
    /// > 0; completion takes `remaining x duration / completionSpeed` (UIKit's `completionSpeed`).
    public private(set) var completionSpeed: Double
    /// UIKit's `completionCurve`, extended with springs. Used by the next `finish`/`cancel`.
    public var completionTiming: CompletionTiming
    /// The running (or last) completion animation.
    public private(set) var completion: CompletionAnimation?
    /// Animations registered with `animateAlongside(_:)`, in registration order, each holding the value
    /// it shows at the current progress.
    package private(set) var alongsideAnimations: [AlongsideAnimation] = []
    /// Every lifecycle moment so far, in order.
    public private(set) var lifecycle: [LifecycleRecord] = []
    /// Told of every lifecycle moment as it happens (a presentation controller's hooks); see
    /// `TransitionLifecycleObserver`. Held strongly: the transition is a value its owner keeps.
    public var lifecycleObserver: (any TransitionLifecycleObserver)?
    package private(set) var diagnostics: [TransitionDiagnostic] = []
    package private(set) var droppedDiagnosticCount = 0

    /// A transition at progress 0, idle; throws `TransitionError` for an invalid spec or speed.
    public init(spec: TransitionSpec, completionSpeed: Double = 1,
                completionTiming: CompletionTiming? = nil,
                lifecycleObserver: (any TransitionLifecycleObserver)? = nil) throws(TransitionError) {
        guard completionSpeed.isFinite, completionSpeed > 0 else { throw .invalidCompletionSpeed(completionSpeed) }
        self.spec = spec
        self.context = TransitionContext(spec: spec)
        self.completionSpeed = completionSpeed
        self.completionTiming = completionTiming ?? spec.completionTiming
        self.lifecycleObserver = lifecycleObserver
        lifecycle.reserveCapacity(16)
        diagnostics.reserveCapacity(Self.maximumRecordedDiagnostics)
    }

    /// UIKit's `percentComplete`: progress clamped to 0...1.
    public var percentComplete: Double { min(max(progress, 0), 1) }
    /// UIKit's `duration`: the animator's transition duration, seconds.
    public var duration: Double { spec.duration }
    /// Whether it was cancelled (UIKit's `transitionWasCancelled`).
    public var transitionWasCancelled: Bool { context.transitionWasCancelled }

    /// Rejects non-finite or non-positive speeds (UIKit requires > 0). Affects the next completion.
    public mutating func setCompletionSpeed(_ speed: Double) throws(TransitionError) {
        guard speed.isFinite, speed > 0 else { throw .invalidCompletionSpeed(speed) }
        completionSpeed = speed
    }

    /// Seconds a curve completion takes from `progress`: `(1 - p) x duration / speed` to finish,
    /// `p x duration / speed` to cancel. (Springs take their settle time instead.)
    package static func remainingCurveDuration(direction: CompletionDirection, progress: Double, duration: Double,
                                              completionSpeed: Double) -> Double {
        abs(direction.targetProgress - progress) * duration / completionSpeed
    }

    /// Seconds until the running completion ends, measured from the last time seen; nil when none runs.
    public var remainingSeconds: Double? {
        guard phase.isAnimatingCompletion, let completion, let time else { return nil }
        return max(0, completion.endTime - time)
    }

    // MARK: - Commands

    /// Starts the interactive phase (UIKit: `startInteractiveTransition`) and fires `…WillBegin`.
    @discardableResult
    public mutating func begin(at time: Double) -> TransitionIssue? {
        guard let now = acceptTime(time) else { return .nonFiniteTimeIgnored }
        guard phase == .idle else { return report(.beginIgnored(phase: phase), at: now) }
        startInteraction(at: now)
        return nil
    }

    /// UIKit's `update(_:)`: sets the progress, clamped to 0...1. Ignored (and reported) unless interactive
    /// or when not finite; from idle it begins implicitly.
    @discardableResult
    public mutating func update(_ newProgress: Double, at time: Double) -> TransitionIssue? {
        guard let now = acceptTime(time) else { return .nonFiniteTimeIgnored }
        beginImplicitlyIfIdle(at: now)
        guard phase == .interactive else { return report(.updateIgnored(phase: phase), at: now) }
        // An infinite progress says nothing about where the gesture is, any more than NaN does.
        guard newProgress.isFinite else { return report(.nonFiniteProgressIgnored, at: now) }
        show(progress: min(max(newProgress, 0), 1))
        velocity = 0
        return nil
    }

    /// UIKit's `finish()`: animates to progress 1. `velocity` (progress/s) starts a spring completion;
    /// nil means "no gesture velocity". Ignored (and reported) unless interactive.
    @discardableResult
    public mutating func finish(at time: Double, velocity releaseVelocity: Double? = nil) -> TransitionIssue? {
        startCompletion(.finish, at: time, velocity: releaseVelocity)
    }

    /// UIKit's `cancel()`: animates back to progress 0, then restores the from-state exactly.
    @discardableResult
    public mutating func cancel(at time: Double, velocity releaseVelocity: Double? = nil) -> TransitionIssue? {
        startCompletion(.cancel, at: time, velocity: releaseVelocity)
    }

    /// Lets `policy` decide between finish and cancel from the current progress and `velocity`, and does it.
    /// The decision is returned even when the transition ignores the resulting call (not interactive);
    /// `diagnostics` then says so.
    @discardableResult
    public mutating func end(at time: Double, velocity releaseVelocity: Double, policy: CompletionPolicy) -> CompletionDecision {
        end(at: time, velocity: releaseVelocity, decision: policy.decide(progress: percentComplete, velocity: releaseVelocity))
    }

    /// Finishes or cancels as `decision` says (made by a `CompletionTracker` that followed the
    /// gesture), passing the release velocity on to the completion.
    @discardableResult
    public mutating func end(at time: Double, velocity releaseVelocity: Double, decision: CompletionDecision) -> CompletionDecision {
        if decision.shouldFinish {
            finish(at: time, velocity: releaseVelocity)
        } else {
            cancel(at: time, velocity: releaseVelocity)
        }
        return decision
    }

    /// UIKit's `pauseInteractiveTransition()`: stops a running completion where it is now and returns to
    /// the interactive phase; the next `update` continues from there. A spring caught mid-overshoot is
    /// clamped into 0...1 (the interactive phase never leaves it). `transitionWasCancelled` is cleared
    /// until the next `finish`/`cancel`. A completion whose end time has passed by `time` completes
    /// instead (no tick may have come since it ended): it can no longer be grabbed.
    @discardableResult
    public mutating func pause(at time: Double) -> TransitionIssue? {
        guard let now = acceptTime(time) else { return .nonFiniteTimeIgnored }
        advanceCompletion(to: now)
        guard phase.isAnimatingCompletion, let completion else { return report(.pauseIgnored(phase: phase), at: now) }
        show(progress: min(max(completion.progress(at: now), 0), 1))
        velocity = 0
        phase = .interactive
        context.transitionWasCancelled = false
        record(.paused(progress: progress), at: now)
        return nil
    }

    /// Advances a running completion animation to `time`; when it ends, completes the transition.
    @discardableResult
    public mutating func tick(at time: Double) -> TransitionPhase {
        guard let now = acceptTime(time) else { return phase }
        advanceCompletion(to: now)
        return phase
    }

    // MARK: - Alongside animations

    /// UIKit's `animate(alongsideTransition:)`: from now on `animation` follows this transition's
    /// progress (interactive updates, every completion sample, and the end: exactly `toValue` when
    /// finished, exactly `fromValue` when cancelled). It is a function of progress, not of time, so
    /// registered mid-way it shows its value for the current progress at once. Rejected once the
    /// transition has ended (nothing is left to animate) and for a name already registered.
    package mutating func animateAlongside(_ animation: AlongsideAnimation) throws(TransitionError) {
        guard !phase.isTerminal else {
            throw .invalidAlongsideAnimation(reason: "\(animation.name): registered after the transition \(phase.rawValue)")
        }
        guard !alongsideAnimations.contains(where: { $0.name == animation.name }) else {
            throw .invalidAlongsideAnimation(reason: "\(animation.name): already registered")
        }
        var registered = animation
        registered.value = animation.value(atProgress: progress)
        alongsideAnimations.append(registered)
    }

    /// The value the alongside animation named `name` shows now; nil if none has that name.
    package func alongsideValue(named name: String) -> Double? {
        alongsideAnimations.first { $0.name == name }?.value
    }

    // MARK: - Scene

    /// The scene now: the from-state exactly while idle or once cancelled, the to-state exactly once
    /// finished, otherwise the interpolation at `progress`.
    public var scene: SceneState {
        var result = context.fromState
        scene(into: &result)
        return result
    }

    /// As `scene`, writing into a reused buffer.
    package func scene(into result: inout SceneState) {
        SceneState.shown(in: phase, progress: progress, from: context.fromState, to: context.toState, into: &result)
    }

    /// The transition now, as a value for output and observers.
    public var snapshot: TransitionSnapshot {
        TransitionSnapshot(name: spec.name, time: time, phase: phase, progress: progress,
                           percentComplete: percentComplete, velocity: velocity,
                           transitionWasCancelled: context.transitionWasCancelled,
                           remainingSeconds: remainingSeconds, didComplete: context.didComplete)
    }

    // MARK: - Internals

    private mutating func startCompletion(_ direction: CompletionDirection, at time: Double,
                                          velocity releaseVelocity: Double?) -> TransitionIssue? {
        guard let now = acceptTime(time) else { return .nonFiniteTimeIgnored }
        beginImplicitlyIfIdle(at: now)
        guard phase == .interactive else {
            let issue: TransitionIssue = direction == .finish ? .finishIgnored(phase: phase) : .cancelIgnored(phase: phase)
            return report(issue, at: now)
        }
        var velocity = releaseVelocity
        if let given = velocity, !given.isFinite {
            report(.nonFiniteVelocityTreatedAsZero, at: now)
            velocity = 0
        }
        let animation = CompletionAnimation(
            direction: direction, startTime: now, startProgress: progress, transitionDuration: spec.duration,
            completionSpeed: completionSpeed, timing: completionTiming, releaseVelocity: velocity)
        completion = animation
        if let settling = animation.springSettling, settling.reachedSearchLimit {
            report(.springCutAtSettleSearchLimit(seconds: animation.duration, displacement: settling.displacement), at: now)
        }
        context.transitionWasCancelled = direction == .cancel
        phase = direction == .finish ? .finishing : .cancelling
        record(.completionStarted(direction: direction, progress: progress, durationSeconds: animation.duration), at: now)
        advanceCompletion(to: now)
        return nil
    }

    private mutating func advanceCompletion(to now: Double) {
        guard phase.isAnimatingCompletion, let completion else { return }
        if completion.isComplete(at: now) {
            completeTransition(at: now)
        } else {
            show(progress: completion.progress(at: now))
            velocity = completion.velocity(at: now)
        }
    }

    /// Reached once per transition: only from finishing/cancelling, and it leaves them for a terminal phase.
    private mutating func completeTransition(at now: Double) {
        let didComplete = !context.transitionWasCancelled
        phase = didComplete ? .finished : .cancelled
        show(progress: didComplete ? 1 : 0)
        velocity = 0
        // Cannot throw: the phase machine gets here at most once (terminal phases never animate).
        try? context.completeTransition(didComplete)
        record(.completeTransition(didComplete: didComplete), at: now)
        switch spec.role {
        case .presentation: record(.presentationDidEnd(completed: didComplete), at: now)
        case .dismissal: record(.dismissalDidEnd(completed: didComplete), at: now)
        }
    }

    /// Every change of progress goes through here, so alongside animations see each one (including
    /// every completion sample and the exact end values).
    private mutating func show(progress newProgress: Double) {
        progress = newProgress
        for index in alongsideAnimations.indices {
            alongsideAnimations[index].value = alongsideAnimations[index].value(atProgress: newProgress)
        }
    }

    private mutating func beginImplicitlyIfIdle(at now: Double) {
        guard phase == .idle else { return }
        report(.implicitBegin, at: now)
        startInteraction(at: now)
    }

    private mutating func startInteraction(at now: Double) {
        phase = .interactive
        show(progress: 0)
        record(spec.role == .presentation ? .presentationWillBegin : .dismissalWillBegin, at: now)
    }

    /// The time to use, or nil (reported) when it is not finite; never earlier than the last time seen.
    private mutating func acceptTime(_ given: Double) -> Double? {
        guard given.isFinite else {
            report(.nonFiniteTimeIgnored, at: time ?? 0)
            return nil
        }
        if let last = time, given < last {
            report(.timeWentBackwards(lastTime: last), at: last)
            return last
        }
        time = given
        return given
    }

    @discardableResult
    private mutating func report(_ issue: TransitionIssue, at now: Double) -> TransitionIssue {
        if diagnostics.count < Self.maximumRecordedDiagnostics {
            diagnostics.append(TransitionDiagnostic(time: now, issue: issue))
        } else {
            droppedDiagnosticCount += 1
        }
        return issue
    }

    private mutating func record(_ event: LifecycleEvent, at now: Double) {
        let record = LifecycleRecord(time: now, event: event)
        lifecycle.append(record)
        lifecycleObserver?.deliver(record, snapshot)
    }
}

/// A readable, Codable picture of a transition at one moment (for JSON output and plots).
public struct TransitionSnapshot: Hashable, Sendable, Codable {
    /// The transition's name.
    public let name: String
    /// The clock's time at this moment, seconds; nil before the first call.
    public let time: Double?
    /// The transition's phase.
    public let phase: TransitionPhase
    /// The progress, 0...1.
    public let progress: Double
    /// The progress as UIKit's `percentComplete`.
    public let percentComplete: Double
    /// Progress per second.
    public let velocity: Double
    /// Whether it was cancelled.
    public let transitionWasCancelled: Bool
    /// Seconds until the completion animation ends; nil when none runs.
    public let remainingSeconds: Double?
    /// The argument `completeTransition` was called with; nil until the transition ends.
    public let didComplete: Bool?
}
