import GestureCore
import InteractiveTransition

/// Binds a recognizer's gesture to a percent-driven transition, the way a UIKit gesture handler
/// drives `UIPercentDrivenInteractiveTransition`:
/// - `began` starts the transition (or, while a completion is still animating, grabs it back with
///   `pause` and continues from where it is);
/// - `changed` updates the progress: the progress at `began` plus the gesture's change since then,
///   in either direction, clamped to 0...1 (so a grabbed-back completion can be reversed);
/// - `ended` asks the policy to finish or cancel from the progress and the release velocity;
/// - `cancelled` cancels.
/// A hold drives nothing, but fingers that land while a completion animates stop it where it is (as
/// a new touch does in GNOME's swipe tracker): a pinch or pan that follows grabs it back as above,
/// and a hold that ends without one lets the completion carry on to where it was going.
/// After the release, the completion animation is sampled at the display rate from the release time,
/// so output is a deterministic function of the event timestamps.
public struct GestureTransitionDriver: Sendable {
    /// An animation that has not ended after this long is stopped where it is (a safety net; the
    /// longest completion in the catalog is a spring of a few seconds). As long as the transition's own
    /// cut of a spring that never settles, which it reports, so the driver never cuts first and silently.
    public static let maximumAnimationSeconds = SpringMotion.maximumSettleSearchSeconds
    /// Release velocities beyond this many progress units per second are clamped to it. The whole
    /// transition in a microsecond (the event clock's resolution) is already faster than any finger;
    /// the bound keeps the spring, the policy's projection and every printed number finite when a
    /// gesture reports an absurd but finite velocity. A release's margins search velocities up to it.
    public static let maximumProgressVelocityPerSecond = ReleaseFlip.fastestVelocity

    package let binding: TransitionBinding
    /// The transition it drives.
    public let spec: TransitionSpec
    /// The settings it maps gestures and decides releases with.
    public let settings: LabSettings
    /// The binding's divisor of these settings (`TransitionBinding.Mapping.divisor`), taken once.
    private let progressDivisor: Double?
    /// The transition of the trial in progress (or of the last one).
    public private(set) var transition: PercentDrivenTransition
    /// The first `LabSummary.maximumListed` trials and the one in progress; `trialCount` counts all.
    public private(set) var trials: [TrialSummary] = []
    /// How many trials began, listed or not.
    public private(set) var trialCount = 0
    /// Trials that ended, by outcome (all of them, not only those listed in `trials`).
    public private(set) var finishedCount = 0
    /// How many trials cancelled.
    public private(set) var cancelledCount = 0

    /// What the driver is doing, with the data of that and nothing else (`Phase`).
    private var phase = Phase.idle
    /// Follows the gesture for the policy (the desktops' rules read its path, not only the
    /// release): set when a gesture is followed, read and dropped at its release. Beside the phase,
    /// not in `Phase.following`, because every update changes it and an enum's payload cannot be
    /// changed in place: each update copied it out and back in (callgrind counted it, with a copy of
    /// the recognizer's stage, in the instruction gate's pipeline: 1590 per event before, 1636
    /// with both copies, 1571 without).
    private var tracker: CompletionTracker?
    /// What the fingers are on (GNOME's figures differ).
    public let input: CompletionInput
    /// Measure every release's margins (`TrialSummary.flip` and `margins`, `takeReleaseMargins`):
    /// set by the pipeline when an output asks for them; off, nothing more is done per update.
    package var measuresMargins = false
    /// The presets that read the gesture's path, following it beside `tracker`: set at a gesture's
    /// begin while margins are measured.
    private var presetTrackers: PresetTrackers?
    /// The preset the policy is, if any (its margins are that preset's entry): found once.
    private let usedPreset: CompletionPolicyPreset?
    /// The last release's margins until the pipeline takes them.
    private var pendingMargins: TrialMargins?

    /// Told of each trial's lifecycle (will-begin, did-end(completed:), ...) as it happens.
    public var lifecycleObserver: (any TransitionLifecycleObserver)? {
        didSet { transition.lifecycleObserver = lifecycleObserver }
    }

    /// A driver for the named transition, with these settings, for gestures on this kind of surface.
    public init(transition name: TransitionName, settings: LabSettings = .default, input: CompletionInput = .touchpad,
                lifecycleObserver: (any TransitionLifecycleObserver)? = nil) throws {
        self.input = input
        self.binding = TransitionBinding(name)
        self.settings = settings
        self.progressDivisor = binding.mapping.divisor(settings)
        self.usedPreset = CompletionPolicyPreset(matching: settings.policy)
        self.spec = try TransitionCatalog().spec(name)
        self.lifecycleObserver = lifecycleObserver
        self.transition = try Self.makeTransition(spec: spec, settings: settings, observer: lifecycleObserver)
    }

    /// A trial's transition: the settings' completion speed and timing, told to `observer`.
    private static func makeTransition(spec: TransitionSpec, settings: LabSettings,
                                       observer: (any TransitionLifecycleObserver)?) throws -> PercentDrivenTransition {
        try PercentDrivenTransition(spec: spec, completionSpeed: settings.completionSpeed,
                                    completionTiming: settings.completion, lifecycleObserver: observer)
    }

    /// The threshold the policy compares progress with (for plots and the live view).
    public var progressThreshold: Double { settings.policy.progressThreshold }
    /// True while a gesture drives the transition.
    public var isFollowingGesture: Bool {
        switch phase {
        case .following: true
        case .idle, .animating, .held: false
        }
    }
    /// True while a completion animation runs.
    public var isAnimating: Bool { transition.phase.isAnimatingCompletion }

    /// - Parameters:
    ///   - event: the recognizer's event; only the kind this transition follows moves it.
    ///   - time: the event's time in seconds, the only clock the transition reads.
    ///   - gestureIndex: which gesture this is, counted from 0 in the order gestures began
    ///     (the index of its entry in a summary's `gestures`); a trial it starts remembers it.
    ///   - emit: every transition record the event makes, in time order.
    public mutating func handle(_ event: GestureEvent, at time: Double, gestureIndex: Int? = nil,
                                emit: (TransitionRecord) -> Void) {
        if event.kind == .hold {
            handleHold(event, at: time, emit: emit)
            return
        }
        guard event.kind == binding.kind else { return }
        switch event.state {
        case .began:
            let trialsBefore = trialCount
            begin(event, at: time, emit: emit)
            if trialCount > trialsBefore { trials[trials.count - 1].gesture = gestureIndex }
        case .changed:
            guard let gesture = followedGesture else { return }
            follow(event, gesture, at: time, emitting: true, emit: emit)
        case .ended:
            guard let gesture = followedGesture else { return }
            let velocity = follow(event, gesture, at: time, emitting: false, emit: emit)
            let margins = measuresMargins ? margins(of: event, gesture, at: time, velocity: velocity) : nil
            let decision = decide(at: time, velocity: velocity)
            pendingMargins = margins
            release(at: time, velocity: velocity, cause: .policy(decision), margins: margins, emit: emit)
        case .cancelled:
            guard followedGesture != nil else { return }
            transition.cancel(at: time, velocity: nil)
            release(at: time, velocity: nil, cause: .gestureCancelled, emit: emit)
        }
    }

    /// The gesture being followed; nil when none is: a change or end of a gesture the driver does
    /// not follow moves nothing.
    private var followedGesture: Following? {
        switch phase {
        case .following(let gesture): gesture
        case .idle, .animating, .held: nil
        }
    }

    /// A hold stops a running completion where it is; when the hold ends with no gesture taking the
    /// transition over, the completion goes on from there towards the end it was heading for.
    private mutating func handleHold(_ event: GestureEvent, at time: Double, emit: (TransitionRecord) -> Void) {
        switch event.state {
        case .began:
            guard !isFollowingGesture, transition.phase.isAnimatingCompletion else { return }
            advance(to: time, emit: emit)
            endAnimationIfOver(by: time, emit: emit)
            guard transition.phase.isAnimatingCompletion else { return }
            let finishes = transition.phase == .finishing
            transition.pause(at: time)
            phase = .held(finishes: finishes)
            emit(record(at: time))
        case .ended, .cancelled:
            guard case .held(let finishes) = phase, transition.phase == .interactive else { return }
            if finishes { transition.finish(at: time) } else { transition.cancel(at: time) }
            phase = .animating(Animating(releaseTime: time))
            emit(record(at: time))
        case .changed:
            break
        }
    }

    /// Samples the completion animation at the display rate up to and including `time`.
    public mutating func advance(to time: Double, emit: (TransitionRecord) -> Void) {
        guard case .animating(var animation) = phase, transition.phase.isAnimatingCompletion else { return }
        let releaseTime = animation.releaseTime
        let step = 1 / settings.animationFrameRateHz
        while transition.phase.isAnimatingCompletion {
            let tickTime = releaseTime + Double(animation.tickIndex + 1) * step
            guard tickTime <= time else { break }
            animation.tickIndex += 1
            let endTime = transition.completion?.endTime ?? tickTime
            let limitReached = tickTime - releaseTime > Self.maximumAnimationSeconds
            if transition.tick(at: limitReached ? max(tickTime, endTime) : tickTime).isTerminal {
                let at = min(tickTime, max(endTime, releaseTime))
                emit(record(at: at))
                closeTrial(at: at)
                phase = .idle
                return
            }
            emit(record(at: tickTime))
        }
        phase = .animating(animation)
    }

    /// A completion that ended after the last display tick but by `time` is over: a gesture
    /// beginning at `time` cannot grab it back. Ends it at its own end time, as the next tick would.
    private mutating func endAnimationIfOver(by time: Double, emit: (TransitionRecord) -> Void) {
        guard transition.phase.isAnimatingCompletion, case .animating(let animation) = phase,
              let endTime = transition.completion?.endTime, endTime <= time else { return }
        let at = max(endTime, animation.releaseTime)
        transition.tick(at: at)
        emit(record(at: at))
        closeTrial(at: at)
        phase = .idle
    }

    /// End of input: lets a running completion animation play to its end.
    public mutating func finish(emit: (TransitionRecord) -> Void) {
        guard case .animating(let animation) = phase else { return }
        advance(to: animation.releaseTime + Self.maximumAnimationSeconds + 1, emit: emit)
    }

    // MARK: - Steps

    private mutating func begin(_ event: GestureEvent, at time: Double, emit: (TransitionRecord) -> Void) {
        let startScale = event.scale > 0 && event.scale.isFinite ? event.scale : 1
        if isFollowingGesture, transition.phase == .interactive {
            // A second `began` without an end (a recognizer that lost its gesture): keep the trial and
            // continue from the progress shown, instead of dropping a transition that never completed.
            phase = .following(Following(startScale: startScale, grabbedProgress: transition.percentComplete))
            emit(record(at: time))
            return
        }
        let grabbedProgress: Double
        if transition.phase.isAnimatingCompletion {
            advance(to: time, emit: emit)
            endAnimationIfOver(by: time, emit: emit)
        }
        if transition.phase.isAnimatingCompletion {
            // Caught mid-animation: take it back and continue from where it is (UIKit's pause).
            transition.pause(at: time)
            grabbedProgress = transition.percentComplete
            trials[trials.count - 1].grabbedCount += 1
            trials[trials.count - 1].release = nil
            trials[trials.count - 1].decision = nil
            trials[trials.count - 1].reason = nil
            trials[trials.count - 1].flip = nil
            trials[trials.count - 1].margins = nil
        } else {
            if transition.phase != .idle {
                // The previous trial ended: present the scene again for the next one.
                transition = try! Self.makeTransition(spec: spec, settings: settings, observer: lifecycleObserver)   // as in init
            }
            transition.begin(at: time)
            grabbedProgress = 0
            trialCount += 1
            if trials.count >= LabSummary.maximumListed + 1 { trials.removeLast() }
            trials.append(TrialSummary(begin: rounded(time)))
        }
        phase = .following(Following(startScale: startScale, grabbedProgress: grabbedProgress))
        tracker = settings.policy.tracker(input: input, initialProgress: transition.percentComplete, at: time)
        presetTrackers = measuresMargins ? PresetTrackers(input: input, initialProgress: transition.percentComplete, at: time) : nil
        emit(record(at: time))
    }

    /// The policy's decision at the release, from everything its tracker saw; the transition
    /// finishes or cancels by it.
    private mutating func decide(at time: Double, velocity: Double) -> CompletionDecision {
        let decision = tracker?.decide(progress: transition.percentComplete, velocity: velocity, at: time)
            ?? settings.policy.decide(progress: transition.percentComplete, velocity: velocity)
        return transition.end(at: time, velocity: velocity, decision: decision)
    }

    /// Moves the transition with the gesture; returns the gesture's progress velocity (clamped).
    @discardableResult
    private mutating func follow(_ event: GestureEvent, _ gesture: Following, at time: Double, emitting: Bool,
                                 emit: (TransitionRecord) -> Void) -> Double {
        let mapped = binding.progressChange(of: event, startScale: gesture.startScale, divisor: progressDivisor)
        // Only the sum is clamped: the change may be negative (reversing a grabbed-back completion).
        let progress = min(max(gesture.grabbedProgress + mapped.change, 0), 1)
        transition.update(progress, at: time)
        tracker?.observe(progress: transition.percentComplete, at: time)
        presetTrackers?.observe(progress: transition.percentComplete, at: time)
        if emitting { emit(record(at: time)) }
        return min(max(mapped.velocity, -Self.maximumProgressVelocityPerSecond), Self.maximumProgressVelocityPerSecond)
    }

    private mutating func release(at time: Double, velocity: Double?, cause: TrialReason.Cause,
                                  margins: TrialMargins? = nil, emit: (TransitionRecord) -> Void) {
        var reason = TrialReason(cause)
        if let completion = transition.completion,
           let settling = completion.springSettling, settling.reachedSearchLimit {
            // Say so where the reader looks: the animation ends with a jump, not a settled spring.
            reason.springCutAfterSeconds = completion.duration
        }
        phase = .animating(Animating(releaseTime: time))
        tracker = nil
        presetTrackers = nil
        trials[trials.count - 1].release = rounded(time)
        trials[trials.count - 1].reason = reason
        trials[trials.count - 1].decision = reason.decision.map {
            TrialSummary.Decision(progress: rounded(transition.completion?.startProgress ?? transition.percentComplete),
                                  velocity: rounded(velocity ?? 0), finish: $0.shouldFinish)
        }
        trials[trials.count - 1].flip = margins?.flip
        trials[trials.count - 1].margins = margins?.presets
        var step = record(at: time)
        step.reason = reason
        step.velocity = velocity
        step.decision = reason.decision
        emit(step)
        if transition.phase.isTerminal {
            // Released exactly at 0 or 1: nothing left to animate, and the step just emitted is
            // already the transition's end.
            closeTrial(at: time)
            phase = .idle
        }
    }

    private mutating func closeTrial(at time: Double) {
        trials[trials.count - 1].end = rounded(time)
        let finished = transition.phase == .finished
        trials[trials.count - 1].outcome = finished ? .finished : .cancelled
        if finished { finishedCount += 1 } else { cancelledCount += 1 }
    }

    /// The margins of the release just decided, once (the pipeline emits them as a record).
    package mutating func takeReleaseMargins() -> TrialMargins? {
        defer { pendingMargins = nil }
        return pendingMargins
    }

    /// A release's margins, from what the trackers saw and the gesture at its release; nil for a
    /// gesture that began before margins were measured.
    private func margins(of event: GestureEvent, _ gesture: Following, at time: Double, velocity: Double) -> TrialMargins? {
        guard let tracker, let presetTrackers else { return nil }
        let released = ReleasedGesture(mapping: binding.mapping, event: event, startScale: gesture.startScale,
                                       grabbedProgress: gesture.grabbedProgress, settings: settings)
        return TrialMargins.measure(tracker: tracker, usedPreset: usedPreset, presets: presetTrackers,
                                    progress: transition.percentComplete, velocity: velocity, at: time, gesture: released)
    }

    private func record(at time: Double) -> TransitionRecord {
        TransitionRecord(name: binding.name, trial: trialCount - 1, state: transition.phase, time: time,
                         progress: transition.progress)
    }
}

extension GestureTransitionDriver {
    /// What the driver is doing. Every handler switches over it (or guards on one case), so a phase
    /// carries exactly the data it needs and none is left over from another.
    enum Phase: Sendable {
        /// Nothing to follow or animate: before the first gesture, and after a completion ended.
        case idle
        /// A gesture drives the transition.
        case following(Following)
        /// Released: the completion animation is sampled at the display rate.
        case animating(Animating)
        /// A hold stopped a running completion where it was; when the hold ends with no gesture
        /// taking the transition over, the completion goes on to the end it was heading for (true:
        /// finishing).
        case held(finishes: Bool)
    }

    struct Following: Sendable {
        /// The gesture's scale at its `began` (1 for a pan).
        var startScale: Double
        /// The progress the gesture took the transition at (0, or where a grabbed completion was).
        var grabbedProgress: Double
    }

    struct Animating: Sendable {
        /// When the gesture let go (or the hold ended): display ticks count from here.
        var releaseTime: Double
        /// Display ticks sampled so far.
        var tickIndex = 0
    }
}

/// One go at the transition: from the gesture's begin to the end of its completion animation.
/// JSON: a summary's `"trials"`, written by hand (`appendJSON`).
public struct TrialSummary: Sendable, Hashable {
    /// How a trial ended.
    public enum Outcome: String, Sendable, Hashable, Codable {
        /// The transition finished.
        case finished
        /// The transition cancelled.
        case cancelled
        /// Undecided: the trial has not ended, or no gesture started it.
        case none
    }
    /// The progress and velocity at the release, and which way the policy decided.
    public struct Decision: Sendable, Hashable {
        /// Progress at the release, 0...1.
        public var progress: Double
        /// Progress per second at the release.
        public var velocity: Double
        /// Whether the policy finished the transition.
        public var finish: Bool
    }

    /// When the trial's gesture began, seconds from the first event.
    public var begin: Double
    /// The gesture that started this trial: its index in the summary's `gestures` (nil when the
    /// driver was not told). Later gestures that grabbed the completion back are counted in
    /// `grabbedCount`.
    public var gesture: Int?
    /// When the fingers let go, seconds; nil while the gesture goes on.
    public var release: Double?
    /// When the completion animation ended, seconds; nil until it does.
    public var end: Double?
    /// Finished, cancelled, or none while undecided.
    public var outcome: Outcome = .none
    /// Why it finished or cancelled (printed as a sentence; `reason.decision?.reason.rule` names the policy's rule).
    public var reason: TrialReason?
    /// The release's figures and the policy's verdict, when the policy decided.
    public var decision: Decision?
    /// How often a running completion was grabbed back by a new gesture.
    public var grabbedCount = 0
    /// How close the release came to going the other way under the policy that decided it (JSON
    /// `"flip"`): nil unless the run measures margins, and for a gesture that was cancelled.
    package var flip: ReleaseMargin?
    /// The same release under every preset (JSON `"margins"`, keyed by preset).
    package var margins: PresetMargins?

    package init(begin: Double) { self.begin = begin }
}
