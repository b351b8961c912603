/// Recognises pinch, pan and hold from touch frames, deciding between them as libinput's touchpad
/// gesture code does, and reports them with UIKit's began / changed / ended / cancelled life cycle.
/// Every began, ended and cancelled event names the rule that decided it (`GestureDecision`).
///
/// An explicit state machine (`docs/recognizer-states.md` draws it): `State` is an enum whose
/// cases carry their own data, `Input` names what can happen, `handle(_:at:)` dispatches each input
/// to its state's handler, and `enter(_:because:at:)` is the one place the state changes. A pair of
/// state and input the machine does not expect is a recognizer bug: an assertion in debug builds,
/// counted in `bugCount` (and recorded in the trace) in release, and the state is left alone.
///
/// Time comes only from the frames (and from `advance(to:)` / `finish(at:)`); the recognizer never
/// reads a clock. `process(_:)` does not allocate.
///
/// Decisions (the rule names in brackets), each tested in `Recognizer*Tests`:
/// - Fingers moving clearly apart or together pinch after 1 mm each [opposing-fingers].
/// - Both tracked touches past `minMoveMM` in the same or neighbouring compass directions pan
///   [same-direction]; otherwise pinch [different-directions]. With 3+ fingers the topmost and
///   bottommost touches are tracked (libinput's choice: a pinching hand's thumb is lowest).
/// - Side by side and undecided past `scrollDecisionTimeoutMS`: pan [side-by-side-timeout].
/// - A two-finger pan that within `pinchCorrectionWindowMS` of the fingers coming down turns out to
///   move them apart is cancelled and a pinch begins in the same frame [scroll-to-pinch-correction].
/// - Fingers down and still for the hold timeout begin a hold [hold-timeout] (libinput: 180 ms;
///   40 ms for one or two fingers); motion past `holdMaxMoveMM`, or the decision finding a pan or
///   pinch, cancels it [motion-ends-hold] and the decision goes on; lifting ends it [all-lifted].
/// - Finger added or lifted during a pan, pinch or hold: nothing is emitted for `fingerCountDebounceMS`;
///   if the count is back by then the gesture continues, otherwise it is cancelled
///   [finger-count-change] and the new set of fingers starts a fresh decision.
/// - All fingers lifted: the gesture ends (`ended`, not cancelled), at once [all-lifted].
/// - One touch past `maxMoveMM` while the other stays below `minMoveMM`: on a touchpad, a still
///   lower touch in the bottom thumb band is a resting thumb [resting-thumb], suppressed for the rest
///   of its life. Otherwise, with two fingers, a moving touch heading at or away from the still one
///   pinches [one-sided-pinch]; failing that the pair pans [one-finger-moved].
/// - Three or more fingers: a touch that stays still while all the others move along together is
///   resting [resting-finger]; the thumb moving while every finger rests pinches [thumb-pinch].
/// - A touch lying in the thumb band below two or more fingers is left out before anything is
///   decided [thumb-band], while it moves less than `restingThumbMaxMoveMM`.
/// - Resync frame [resync], a touch jump [touch-jump], an invalid position or time going backwards
///   [bad-numbers]: the gesture is cancelled rather than jumping, and a fresh decision starts from
///   the frame's positions. A finger replaced within a frame [fingers-replaced] does the same.
/// - A clickpad (`INPUT_PROP_BUTTONPAD`) pressed by a finger cancels the gesture in flight and
///   nothing begins until the button is released [clickpad-pressed], as libinput's
///   `tp_gesture_post_events` does; a press with every touch in the thumb band is a thumb's, and
///   changes nothing (libinput: the button "held down by a thumb"). After the release the fingers
///   down are judged afresh.
/// - `finish(at:)` (end of stream, device removed) cancels whatever is in flight [end-of-stream].
/// - Scroll method edge (`scrollMethod`): a touch landing in the right or bottom edge is left out;
///   one that moves along it scrolls, a one-finger pan [edge-scroll], beside the machine
///   (`TouchGestureRecognizer+EdgeScroll`); two fingers moving together do not pan.
public struct TouchGestureRecognizer: Sendable {
    public let configuration: GestureRecognizerConfiguration

    // MARK: States

    /// What a decision started from (libinput `gesture.initial_time` and its touches).
    struct Decision: Sendable {
        /// When the fingers of this decision came down.
        var since: EventTime
        /// The tracked pair: top and bottom touch (nil with fewer than two positioned fingers).
        var pair: (top: UInt64, bottom: UInt64)?
        /// A thumb resting in the band, left out while it stays there.
        var bandThumb: BandThumb?
        /// The set of touches it judges, to notice one replaced by another.
        var signature: TouchSignature
    }

    /// A touch resting in the thumb band below the other fingers, and the pair to judge without it.
    struct BandThumb: Sendable {
        var thumb: UInt64
        var pair: (top: UInt64, bottom: UInt64)
    }

    /// The values a gesture reported last, and its baseline.
    struct InFlight: Sendable {
        var last: GestureEvent
        var initialCenter: PointMM
        var initialSpanMM = 0.0
        var lastAngleDegrees = 0.0
        /// Rotation since began, unwrapped; reported wrapped to ±180°.
        var turnedDegrees = 0.0
    }

    /// A pan or pinch waiting out a finger-count change.
    struct Switching: Sendable {
        var count: Int
        var since: EventTime
        var from: Int
        var kind: GestureKind
        var decision: Decision
        var gesture: InFlight
    }

    enum State: Sendable {
        case idle
        case undecided(Decision)
        case hold(Decision, InFlight)
        /// A pan; its gesture is nil when pan is not configured for this many fingers (a silent pan
        /// that can still be corrected to a pinch).
        case pan(Decision, InFlight?)
        case pinch(Decision, InFlight)
        case switchingFingers(Switching)
        /// A clickpad held down by a finger: fingers are counted, nothing is decided.
        case clickpadPressed

        var mode: RecognizerMode {
            switch self {
            case .idle: .idle
            case .undecided: .undecided
            case .hold: .hold
            case .pan: .pan
            case .pinch: .pinch
            case .switchingFingers: .switchingFingers
            case .clickpadPressed: .clickpadPressed
            }
        }
    }

    /// The named events of the machine, with what they carry.
    enum Input {
        case fingerCountChanged(to: Int)
        case allLifted
        case switchTimeout
        case holdTimeout
        case motion
        case fingersReplaced
        case fault(GestureDecision)
        case endOfStream
        case buttonPressed(GestureDecision)
        case buttonReleased

        var name: RecognizerInput {
            switch self {
            case .fingerCountChanged: .fingerCountChanged
            case .allLifted: .allLifted
            case .switchTimeout: .switchTimeout
            case .holdTimeout: .holdTimeout
            case .motion: .motion
            case .fingersReplaced: .fingersReplaced
            case .fault: .fault
            case .endOfStream: .endOfStream
            case .buttonPressed: .buttonPressed
            case .buttonReleased: .buttonReleased
            }
        }
    }

    /// One UIKit-style life cycle per kind, as if pinch, pan and hold were three recognizers watching
    /// the same touches: all are possible when fingers come down; the one that begins goes on to end
    /// or be cancelled, the other motion kind fails (pinch only once a pan can no longer be
    /// corrected into it); fingers that lift with nothing begun fail all. The next decision resets
    /// them.
    struct KindLifecycles: Sendable {
        var pinch = GestureLifecycle()
        var pan = GestureLifecycle()
        var hold = GestureLifecycle()
        subscript(kind: GestureKind) -> GestureLifecycle {
            get {
                switch kind {
                case .pinch: pinch
                case .pan: pan
                case .hold: hold
                }
            }
            set {
                switch kind {
                case .pinch: pinch = newValue
                case .pan: pan = newValue
                case .hold: hold = newValue
                }
            }
        }
    }

    var state = State.idle
    var touches = TrackedTouches()
    /// Fingers the machine is working with (thumbs left out).
    var committedFingerCount = 0
    /// The fingers down when a clickpad was released clicked, they did not hold: no hold begins
    /// for them (libinput starts its hold timer only when fingers land), until the count changes.
    var holdSpentOnClick = false
    var lifecycles = KindLifecycles()
    /// A one-finger edge scroll in flight, beside the machine (`TouchGestureRecognizer+EdgeScroll`).
    var edgeScrollPan: EdgeScrollPan?
    var lastFrameTime: EventTime?
    var translationVelocity: VelocityTracker
    var scaleVelocity: VelocityTracker
    /// (state, input) pairs the machine did not expect since it was made.
    public private(set) var bugCount = 0
    /// Tests that provoke a bug on purpose (to see it counted) turn the debug assertion off.
    var assertsOnBug = true
    /// The state changes of the last `process`, `advance` or `finish` call (set here and by the
    /// edge scroll beside the machine).
    public internal(set) var stateChanges = RecognizerStateChanges()

    public init(configuration: GestureRecognizerConfiguration = .default) {
        self.configuration = configuration.sanitized
        translationVelocity = VelocityTracker(configuration: self.configuration.velocity)
        scaleVelocity = VelocityTracker(configuration: self.configuration.velocity)
    }

    /// The gesture between its `began` and its `ended`/`cancelled`, if any.
    public var gestureInFlight: GestureKind? {
        if edgeScrollPan != nil { return .pan }
        return switch state {
        case .idle, .undecided, .clickpadPressed: nil
        case .hold: .hold
        case .pan(_, let g): g == nil ? nil : .pan
        case .pinch: .pinch
        case .switchingFingers(let s): s.kind
        }
    }

    /// The machine's state, without its data.
    public var mode: RecognizerMode { state.mode }

    /// Where each kind's recognizer is in its life cycle: `possible` while the fingers are being
    /// judged, `failed` when they turned out to be something else (or a tap, or nothing).
    public func state(of kind: GestureKind) -> RecognizerState { lifecycles[kind].state }

    // MARK: Input

    /// Consumes one frame and returns what it recognised (often nothing).
    public mutating func process(_ frame: TouchFrame) -> GestureEvents {
        var out = GestureEvents()
        stateChanges.removeAll()
        var now = frame.time
        var fault: GestureDecision? = frame.isResync ? GestureDecision(.resync) : nil
        var dt = 0.0
        if let last = lastFrameTime {
            if now < last {
                var e = GestureEvidence()
                e.waitedMS = now.milliseconds(since: last)
                fault = GestureDecision(.badNumbers, e)
                // The recognizer's clock never goes back: what this frame decides is stamped with
                // the latest time seen, and later frames still behind it are faults too, so no
                // gesture begins before the end of one already reported.
                now = last
            } else {
                dt = now.milliseconds(since: last) / 1_000
            }
        }
        lastFrameTime = now
        // Timers that ran out before this frame, judged on the touches as they were then.
        runTimers(until: now, includingNow: false, into: &out)

        let margin = configuration.useFuzzHysteresis ? configuration.device.fuzzMM : 0
        let touchFault = touches.update(from: frame, hysteresisMM: margin, secondsSincePrevious: dt,
                                        jumps: configuration.jumpDetection)
        switch touchFault {
        case .none: break
        case let .jump(id, mm, previous):
            var e = GestureEvidence()
            e.touch = id
            e.jumpMM = mm
            e.previousStepMM = previous
            e.moveLimitMM = configuration.jumpDistanceMM
            e.increaseLimitMM = configuration.jumpIncreaseMM
            if fault == nil { fault = GestureDecision(.touchJump, e) }
        case .invalidPosition:
            if fault == nil { fault = GestureDecision(.badNumbers) }
        }

        followEdgeScroll(frame, fault: fault, at: now, into: &out)
        let fingers = max(touches.fingerCount, frame.fingerCount - touches.leftOutCount, 0)
        if let fault {
            handle(.fault(fault), at: now, into: &out)
            committedFingerCount = fingers
        }
        if configuration.device.isClickpad == true {
            if case .clickpadPressed = state {
                if frame.buttons.isEmpty { handle(.buttonReleased, at: now, into: &out) }
            } else if !frame.buttons.isEmpty, let pressed = clickpadPressedByFinger(fingers: fingers) {
                handle(.buttonPressed(pressed), at: now, into: &out)
            }
        }
        if fingers != committedFingerCount {
            holdSpentOnClick = false
            handle(fingers == 0 ? .allLifted : .fingerCountChanged(to: fingers), at: now, into: &out)
        } else if case .switchingFingers(let s) = state {
            // The count came back within the debounce: the gesture goes on.
            let resumed: State = switch s.kind {
            case .pinch: .pinch(s.decision, s.gesture)
            case .pan: .pan(s.decision, s.gesture)
            case .hold: .hold(s.decision, s.gesture)
            }
            enter(resumed, on: .fingerCountChanged, at: now)
        }
        if case .switchingFingers = state { return out }

        if case .idle = state, committedFingerCount > 0 {
            startDecision(at: now, on: .fingerCountChanged)
        } else if let signature = decisionSignature, touches.fingerSignature != signature {
            handle(.fingersReplaced, at: now, into: &out)
        }
        handle(.motion, at: now, into: &out)
        // A hold due exactly now is judged after the frame's motion (which may have decided).
        if case .undecided = state { runTimers(until: now, includingNow: true, into: &out) }
        return out
    }

    /// Lets time pass without a frame (a touchpad sends none while fingers rest), so that a pending
    /// finger-count change can time out and a hold can begin.
    public mutating func advance(to time: EventTime) -> GestureEvents {
        var out = GestureEvents()
        stateChanges.removeAll()
        runTimers(until: time, includingNow: true, into: &out)
        return out
    }

    /// Ends the stream (end of file, device removed): cancels a gesture in flight and forgets every
    /// touch. The recognizer is then as new.
    public mutating func finish(at time: EventTime) -> GestureEvents {
        var out = GestureEvents()
        stateChanges.removeAll()
        // As in process(_:), the clock never goes back: an end before the latest frame is at it.
        endEdgeScroll(.cancelled, GestureDecision(.endOfStream), on: .endOfStream, at: max(time, lastFrameTime ?? time), into: &out)
        handle(.endOfStream, at: max(time, lastFrameTime ?? time), into: &out)
        touches.removeAll()
        committedFingerCount = 0
        holdSpentOnClick = false
        lastFrameTime = nil
        return out
    }

    /// The timeouts due by `now`, each at its own time (libinput's timers): the finger-count
    /// debounce, the hold.
    private mutating func runTimers(until now: EventTime, includingNow: Bool, into out: inout GestureEvents) {
        switch state {
        case .switchingFingers(let s):
            if now.milliseconds(since: s.since) >= configuration.fingerCountDebounceMS {
                handle(.switchTimeout, at: s.since.adding(milliseconds: configuration.fingerCountDebounceMS), into: &out)
            }
        case .undecided(let d):
            let timeout = holdSpentOnClick ? .infinity : holdTimeoutMS(fingers: committedFingerCount)
            let waited = now.milliseconds(since: d.since)
            if timeout.isFinite, waited > timeout || (includingNow && waited == timeout) {
                handle(.holdTimeout, at: d.since.adding(milliseconds: timeout), into: &out)
            }
        default:
            break
        }
    }

    // MARK: The machine

    /// The one dispatch: every input goes to its state's handler.
    private mutating func handle(_ input: Input, at now: EventTime, into out: inout GestureEvents) {
        switch (state, input) {
        // Inputs every state takes the same way.
        case (_, .fault(let why)):
            cancelInFlight(why, at: now, into: &out)
            enter(.idle, on: input.name, at: now, because: why)
        case (.idle, .endOfStream):
            failWhatIsPossible()
        case (_, .endOfStream):
            cancelInFlight(GestureDecision(.endOfStream), at: now, into: &out)
            failWhatIsPossible()
            enter(.idle, on: input.name, at: now, because: GestureDecision(.endOfStream))
        // A clickpad held down: fingers are counted, nothing else happens until the release.
        case (.clickpadPressed, .allLifted):
            committedFingerCount = 0
        case (.clickpadPressed, .fingerCountChanged(let n)):
            committedFingerCount = n
        case (.clickpadPressed, .motion):
            break
        case (.clickpadPressed, .buttonReleased):
            // The fingers still down are judged afresh from the next step of `process` (they may
            // still scroll or pinch), but they clicked: they do not hold.
            holdSpentOnClick = true
            enter(.idle, on: input.name, at: now)
        case (_, .buttonPressed(let why)):
            cancelInFlight(why, at: now, into: &out)
            failWhatIsPossible()
            enter(.clickpadPressed, on: input.name, at: now, because: why)
        case (.idle, .allLifted):
            // Thumbs lifted (the count was already 0) or fingers that never made a decision.
            failWhatIsPossible()
            committedFingerCount = 0
        case (_, .allLifted):
            var e = GestureEvidence()
            e.fingersBefore = committedFingerCount
            finishInFlight(.ended, GestureDecision(.allLifted, e), at: now, into: &out)
            failWhatIsPossible()
            committedFingerCount = 0
            enter(.idle, on: input.name, at: now, because: GestureDecision(.allLifted, e))

        // Finger count changes.
        case (.idle, .fingerCountChanged(let n)), (.undecided, .fingerCountChanged(let n)),
             (.pan(_, .none), .fingerCountChanged(let n)):
            // Nothing to protect: switch at once and judge the new set of fingers afresh.
            committedFingerCount = n
            enter(.idle, on: input.name, at: now)
        case (.hold(let d, let g), .fingerCountChanged(let n)):
            enter(.switchingFingers(Switching(count: n, since: now, from: committedFingerCount, kind: .hold,
                                              decision: d, gesture: g)), on: input.name, at: now)
        case (.pan(let d, let g?), .fingerCountChanged(let n)):
            enter(.switchingFingers(Switching(count: n, since: now, from: committedFingerCount, kind: .pan,
                                              decision: d, gesture: g)), on: input.name, at: now)
        case (.pinch(let d, let g), .fingerCountChanged(let n)):
            enter(.switchingFingers(Switching(count: n, since: now, from: committedFingerCount, kind: .pinch,
                                              decision: d, gesture: g)), on: input.name, at: now)
        case (.switchingFingers(var s), .fingerCountChanged(let n)):
            // Changed again: the debounce starts over from this count.
            if s.count != n {
                s.count = n
                s.since = now
                enter(.switchingFingers(s), on: input.name, at: now)  // same state, new data: nothing traced
            }
        case (.switchingFingers(let s), .switchTimeout):
            let why = fingerCountChange(from: s.from, to: s.count, waitedMS: configuration.fingerCountDebounceMS)
            finishGesture(s.gesture, .cancelled, why, at: now, into: &out)
            committedFingerCount = s.count
            enter(.idle, on: input.name, at: now, because: why)

        // Same count, different touches.
        case (.undecided, .fingersReplaced):
            // A finger replaced within a frame, or one that had no good position when the decision
            // started: judge the touches that are there now, from where they are.
            startDecision(at: now, on: input.name, because: GestureDecision(.fingersReplaced))
        case (.hold, .fingersReplaced), (.pan, .fingersReplaced), (.pinch, .fingersReplaced):
            let why = GestureDecision(.fingersReplaced)
            cancelInFlight(why, at: now, into: &out)
            startDecision(at: now, on: input.name, because: why)

        // Holds.
        case (.undecided(let d), .holdTimeout):
            beginHoldIfStill(d, at: now, into: &out)

        // Motion: the state's own handler.
        case (.idle, .motion), (.switchingFingers, .motion):
            break
        case (.undecided(let d), .motion):
            decide(d, hold: nil, at: now, into: &out)
        case (.hold(let d, let h), .motion):
            decide(d, hold: h, at: now, into: &out)
        case (.pan(let d, let g), .motion):
            updatePan(d, g, at: now, into: &out)
        case (.pinch(let d, let g), .motion):
            updatePinch(d, g, at: now, into: &out)

        default:
            recordBug(input.name, at: now)
        }
    }

    /// Tests feed the machine an input directly (to provoke a pair it does not expect).
    mutating func handleForTesting(_ input: Input, at now: EventTime, into out: inout GestureEvents) {
        handle(input, at: now, into: &out)
    }

    /// The one place the state changes; records the change for `--trace`.
    mutating func enter(_ next: State, on input: RecognizerInput, at now: EventTime,
                        because decision: GestureDecision? = nil) {
        let from = state.mode
        state = next
        if from != next.mode || decision != nil {
            // Switching: the count it is switching to (the committed one waits for the debounce).
            var fingers = committedFingerCount
            if case .switchingFingers(let s) = next { fingers = s.count }
            stateChanges.append(RecognizerStateChange(time: now, from: from, to: next.mode, input: input,
                                                      fingers: fingers, decision: decision))
        }
    }

    /// A (state, input) pair the machine does not expect: counted, traced, and asserted in debug.
    mutating func recordBug(_ input: RecognizerInput, at now: EventTime) {
        bugCount += 1
        stateChanges.append(RecognizerStateChange(time: now, from: state.mode, to: state.mode, input: input,
                                                  fingers: committedFingerCount, isBug: true))
        if assertsOnBug {
            assertionFailure("recognizer bug: \(input.rawValue) in state \(state.mode.rawValue)")
        }
    }


    private var decisionSignature: TouchSignature? {
        switch state {
        case .undecided(let d), .hold(let d, _), .pan(let d, _), .pinch(let d, _): d.signature
        case .idle, .switchingFingers, .clickpadPressed: nil
        }
    }

    private func fingerCountChange(from: Int, to: Int, waitedMS: Double?) -> GestureDecision {
        var e = GestureEvidence()
        e.fingersBefore = from
        e.fingersAfter = to
        e.waitedMS = waitedMS
        e.timeoutMS = waitedMS == nil ? nil : configuration.fingerCountDebounceMS
        return GestureDecision(.fingerCountChange, e)
    }

    // MARK: Deciding

    mutating func startDecision(at now: EventTime, on input: RecognizerInput, because decision: GestureDecision? = nil) {
        // Refused for a kind still in flight, so a began is never dropped without its end.
        _ = lifecycles.pinch.reset()
        _ = lifecycles.pan.reset()
        _ = lifecycles.hold.reset()
        touches.rebaseline()
        let pair = committedFingerCount >= 2 ? touches.topAndBottom : nil
        var d = Decision(since: now, pair: pair, bandThumb: nil, signature: touches.fingerSignature)
        d.bandThumb = committedFingerCount >= 3 ? restingThumbInBand(pair) : nil
        enter(.undecided(d), on: input, at: now, because: decision)
    }

    /// The hold timeout for `n` fingers, infinite when `n` fingers do not hold. A touchpad that
    /// cannot track each finger holds nothing (libinput enables holds with its gestures).
    func holdTimeoutMS(fingers n: Int) -> Double {
        guard n >= 1, configuration.holdMinimumFingerCount <= n, n <= configuration.holdMaximumFingerCount,
              configuration.device.fingerPositionsTracked != false else {
            return .infinity
        }
        return n <= configuration.quickHoldMaximumFingerCount ? configuration.quickHoldTimeoutMS : configuration.holdTimeoutMS
    }

    /// The hold timeout ran out: the fingers hold if none moved past `holdMaxMoveMM`.
    private mutating func beginHoldIfStill(_ d: Decision, at now: EventTime, into out: inout GestureEvents) {
        let moved = touches.largestFingerMoveMM
        guard moved < configuration.holdMaxMoveMM, let centroid = touches.fingerCentroid,
              lifecycles.hold.begin() != nil else { return }
        var e = GestureEvidence()
        e.waitedMS = now.milliseconds(since: d.since)
        e.timeoutMS = holdTimeoutMS(fingers: committedFingerCount)
        e.movedMM = moved
        e.moveLimitMM = configuration.holdMaxMoveMM
        let why = GestureDecision(.holdTimeout, e)
        let event = GestureEvent(kind: .hold, state: .began, time: now, fingerCount: committedFingerCount,
                                 centerMM: centroid, decision: why)
        out.append(event)
        enter(.hold(d, InFlight(last: event, initialCenter: centroid)), on: .holdTimeout, at: now, because: why)
    }

    /// Cancels a hold because its fingers moved: the decision goes on.
    mutating func endHoldByMotion(_ d: Decision, _ h: InFlight, _ e: GestureEvidence, at now: EventTime,
                                  into out: inout GestureEvents) {
        let why = GestureDecision(.motionEndsHold, e)
        finishGesture(h, .cancelled, why, at: now, into: &out)
        enter(.undecided(d), on: .motion, at: now, because: why)
    }

    // MARK: Emitting

    /// Begins a pan or pinch from the undecided (or hold) state.
    mutating func begin(_ event: GestureEvent, center: PointMM, decision d: Decision, into out: inout GestureEvents) -> InFlight? {
        guard lifecycles[event.kind].begin() != nil else { return nil }
        _ = lifecycles.hold.fail()
        let other: GestureKind = event.kind == .pinch ? .pan : .pinch
        // A pinch may still take over from a two-finger pan (the correction window).
        if !(event.kind == .pan && event.fingerCount == 2 && allows(.pinch, fingers: 2)) { _ = lifecycles[other].fail() }
        out.append(event)
        return InFlight(last: event, initialCenter: center)
    }

    /// Fingers lifted (or the stream ended) with nothing begun for a kind: it failed.
    mutating func failWhatIsPossible() {
        _ = lifecycles.pinch.fail()
        _ = lifecycles.pan.fail()
        _ = lifecycles.hold.fail()
    }

    mutating func emitChange(_ g: inout InFlight, at now: EventTime, into out: inout GestureEvents) {
        guard let state = lifecycles[g.last.kind].change() else { return }
        g.last.state = state
        g.last.time = now
        g.last.decision = nil
        out.append(g.last)
    }

    /// Cancels (or ends) whatever gesture the state has in flight.
    private mutating func cancelInFlight(_ why: GestureDecision, at now: EventTime, into out: inout GestureEvents) {
        finishInFlight(.cancelled, why, at: now, into: &out)
    }

    private mutating func finishInFlight(_ how: GestureState, _ why: GestureDecision, at now: EventTime,
                                         into out: inout GestureEvents) {
        switch state {
        case .hold(_, let g), .pan(_, let g?), .pinch(_, let g):
            finishGesture(g, how, why, at: now, into: &out)
        case .switchingFingers(let s):
            finishGesture(s.gesture, how, why, at: now, into: &out)
        case .idle, .undecided, .pan(_, .none), .clickpadPressed:
            break
        }
    }

    /// Ends a gesture with its last values and the velocity at `time` (zero if the fingers had
    /// stopped). The caller moves the state on.
    mutating func finishGesture(_ gesture: InFlight, _ how: GestureState, _ why: GestureDecision, at time: EventTime,
                                into out: inout GestureEvents) {
        var g = gesture
        let state = how == .ended ? lifecycles[g.last.kind].end() : lifecycles[g.last.kind].cancel()
        guard let state else { return }
        g.last.state = state
        g.last.time = max(time, g.last.time)
        g.last.decision = why
        if g.last.kind != .hold {
            g.last.velocityMMPerSecond = translationVelocity.velocity(at: g.last.time)
        }
        if g.last.kind == .pinch { g.last.scaleVelocity = scaleVelocity.velocity(at: g.last.time).x }
        out.append(g.last)
    }
}
