/// Recognises pinch, pan and hold from touch frames, deciding between them as libinput's touchpad
/// gesture code does, and reports them with UIKit's began / changed / ended / cancelled life cycle.
/// Every began, ended and cancelled event names the rule that decided it (`GestureDecision`).
///
/// An explicit state machine (`docs/recognizer-states.md` draws it), after libinput's
/// `evdev-mt-touchpad-gestures.c`: `State` holds all the data that changes with the machine (its
/// mode, the stage's data beside it, and the fingers counted), `Input` names what can
/// happen, `handle(_:at:into:)` sends each input to its stage's handler, which lists every input
/// (`+States.swift`), and `enter(_:fingers:on:at:because:tracing:)` is the one place the stage
/// changes, along an edge of `edges` (a moving gesture's values change in place, `stay(on:)`). A
/// pair of state and input the machine does not expect is a recognizer bug: an assertion in debug builds, counted in `bugCount` (and recorded in the trace)
/// in release, and the state is left alone.
///
/// Time comes only from the frames (and from `advance(to:)` / `finish(at:)`); the recognizer never
/// reads a clock. `process(_:)` does not allocate.
///
/// Decisions: every began, ended and cancelled event names its `GestureRule`, whose documentation
/// says when it applies, each tested in `Recognizer*Tests`. An undecided gesture's fingers are judged
/// by the motion rules (`MotionRule`, MotionRules.swift), asked in their order until one decides;
/// the rest are the life cycle around them: a hold after the hold timeout, a pan corrected to a
/// pinch, a finger-count change waited out for `fingerCountDebounceMS`, a thumb in the band left out
/// before anything is decided, faults and a clickpad press that cancel, the lift that ends and the
/// end of the stream that cancels. With 3+ fingers the topmost and bottommost touches are tracked
/// (libinput's choice: a pinching hand's thumb is lowest). Edge scrolling (`scrollMethod` edge)
/// runs beside the machine (`TouchGestureRecognizer+EdgeScroll`).
public struct TouchGestureRecognizer: Sendable {
    /// The thresholds it recognizes with.
    public let configuration: GestureRecognizerConfiguration
    /// The edges that scroll, nil unless the scroll method is `edge` on a device of known size:
    /// made once, as making them per frame copied the whole configuration.
    let edgeScrollZones: EdgeScrollZones?

    // MARK: States

    /// The fingers the machine works with (thumbs left out): what libinput calls the gesture's
    /// finger count, as opposed to the touches down.
    struct Fingers: Sendable, Equatable {
        var count: Int
        /// The fingers down when a clickpad was released clicked, they did not hold: no hold begins
        /// for them (libinput starts its hold timer only when fingers land), until the count changes.
        var clicked = false

        /// One fewer: a touch among them turned out to be a resting thumb or finger.
        var leavingOneOut: Fingers { Fingers(count: max(0, count - 1), clicked: clicked) }
    }

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

        /// The values set, the event is `state` at `now`, with no decision (a change names none).
        mutating func changed(_ state: GestureState, at now: EventTime) {
            last.state = state
            last.time = now
            last.decision = nil
        }
    }

    /// A pan, pinch or hold waiting out a finger-count change. The state's fingers are those it
    /// switches from (committed until the debounce runs out); its decision and gesture stay the
    /// state's, to go on with if the count comes back.
    struct Switching: Sendable {
        /// The count it is switching to.
        var count: Int
        var since: EventTime
        var kind: GestureKind
    }

    /// Where the machine is, and the data its stage works with, kept beside the stage as libinput
    /// keeps its gesture's data beside `gesture.state`: a pan or pinch changes its values in place on
    /// every frame. (A stage that carried them, an enum case's payload, was copied out and back in
    /// whole, 416 bytes, several times a frame: 18% of replay's recognition thread.) `enter` stays
    /// the one change of stage, and sets the stage's data with it from `Stage`, whose cases carry it.
    struct State: Sendable {
        /// The stage, without its data.
        private(set) var mode: RecognizerMode = .idle
        /// The fingers the machine works with; while switching, those it switches from.
        private(set) var fingers: Fingers
        /// The count a frame's fingers are compared with: while switching, the one it switches to
        /// (the same count again changes nothing; the old one is a change back).
        private(set) var watchedFingerCount: Int
        /// The decision of undecided, hold, pan and pinch, and of the gesture a switch waits out;
        /// the last one's, unused, in idle and clickpad-pressed.
        private(set) var decision = Decision(since: .zero, pair: nil, bandThumb: nil, signature: TouchSignature())
        /// The gesture in flight: hold, pan (nil for a silent pan), pinch, and the one a switch
        /// waits out; nil in every other stage. Which gesture it is changes only with `enter`; its
        /// values change in place as it moves (`changeGesture`), with the stage's mode unchanged.
        private(set) var gesture: InFlight?
        /// While switching fingers: the count it switches to, since when, and the gesture's kind.
        private(set) var switching = Switching(count: 0, since: .zero, kind: .pan)

        init(stage: Stage, fingers: Fingers) {
            self.fingers = fingers
            watchedFingerCount = fingers.count
            enter(stage, fingers: nil)
        }

        /// The touches the stage's decision judges, to notice one replaced by another; nil in a
        /// stage without a decision.
        var decisionSignature: TouchSignature? {
            switch mode {
            case .undecided, .hold, .pan, .pinch: decision.signature
            case .idle, .switchingFingers, .clickpadPressed: nil
            }
        }

        /// The one change of the stage (`TouchGestureRecognizer.enter`), with its data.
        mutating func enter(_ next: Stage, fingers newFingers: Fingers?) {
            if let newFingers { fingers = newFingers }
            watchedFingerCount = fingers.count
            switch next {
            case .idle, .clickpadPressed:
                gesture = nil
            case .undecided(let d):
                decision = d
                gesture = nil
            case .hold(let d, let g), .pinch(let d, let g):
                decision = d
                gesture = g
            case .pan(let d, let g):
                decision = d
                gesture = g
            case .switchingFingers(let s):
                // The decision and gesture are those of the stage it leaves, kept to go on with.
                switching = s
                watchedFingerCount = s.count
            case .resuming:
                // The decision and gesture kept through the switch: only a switch resumes.
                assert(mode == .switchingFingers && gesture != nil, "resuming from \(mode.rawValue)")
            }
            mode = next.mode(resuming: switching.kind)
        }

        /// The gesture in flight, its values set, is `changed` at `now` (`InFlight.changed`): its
        /// event. Not through `changeGesture` and `gesture?.last`, which copied the event once more
        /// (22,240 copies of 256 bytes in 300,000 events).
        mutating func gestureChanged(_ changed: GestureState, at now: EventTime) -> GestureEvent? {
            guard gesture != nil else { return nil }
            gesture!.changed(changed, at: now)
            return gesture!.last
        }

        /// Changes the values of the gesture in flight in place (as it moves); nil when there is
        /// none. Which gesture it is changes only with `enter`.
        @inline(__always)
        mutating func changeGesture<Result>(_ change: (inout InFlight) -> Result) -> Result? {
            guard gesture != nil else { return nil }
            return change(&gesture!)
        }
    }

    /// A stage with its data: what `enter` takes, so that a stage is never entered without it.
    enum Stage: Sendable {
        /// No decision: no fingers, or fingers counted that the next step of `process` judges.
        case idle
        case undecided(Decision)
        case hold(Decision, InFlight)
        /// A pan; its gesture is nil when pan is not configured for this many fingers (a silent pan
        /// that can still be corrected to a pinch).
        case pan(Decision, InFlight?)
        case pinch(Decision, InFlight)
        /// The stage's decision and gesture wait out a finger-count change.
        case switchingFingers(Switching)
        /// The count came back in time: the switched gesture goes on, with its decision and values.
        case resuming
        /// A clickpad held down by a finger: fingers are counted, nothing is decided.
        case clickpadPressed

        /// The mode it enters; `resuming` goes back to the switched gesture's `kind`.
        func mode(resuming kind: GestureKind) -> RecognizerMode {
            switch self {
            case .idle: .idle
            case .undecided: .undecided
            case .hold: .hold
            case .pan: .pan
            case .pinch: .pinch
            case .switchingFingers: .switchingFingers
            case .resuming:
                switch kind {
                case .hold: .hold
                case .pan: .pan
                case .pinch: .pinch
                }
            case .clickpadPressed: .clickpadPressed
            }
        }
    }

    /// The named events of the machine, with what they carry.
    enum Input {
        case fingerCountChanged(to: Int)
        /// Fingers counted while idle, to be judged (libinput's `GESTURE_EVENT_FINGER_DETECTED`);
        /// traced as a finger-count change, which is what brought them.
        case fingersDetected
        case allLifted
        case switchTimeout
        case holdTimeout
        case motion
        case fingersReplaced
        /// The frame's positions cannot be trusted; `fingers` are the fingers it has down.
        case fault(GestureDecision, fingers: Int)
        case endOfStream
        case buttonPressed(GestureDecision)
        case buttonReleased

        var name: RecognizerInput {
            switch self {
            case .fingerCountChanged, .fingersDetected: .fingerCountChanged
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
        /// Every kind possible again, for a fresh decision. False when a kind is still in flight:
        /// its reset is refused (a began is never dropped without its end), a recognizer bug.
        mutating func resetAll() -> Bool {
            let pinchReset = pinch.reset(), panReset = pan.reset(), holdReset = hold.reset()
            return pinchReset && panReset && holdReset
        }

        /// Fingers lifted (or the stream ended, or a clickpad clicked) with nothing begun for a
        /// kind: it failed. Kinds that began keep their ending.
        mutating func failWhatIsPossible() {
            pinch.failIfPossible()
            pan.failIfPossible()
            hold.failIfPossible()
        }

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

    /// Its stage changes only in `enter`; a moving gesture's values change in place (`changeGesture`).
    private(set) var state = State(stage: .idle, fingers: Fingers(count: 0))
    var touches = TrackedTouches()
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
    #if DEBUG
    /// Test-only: every edge `enter` or `stay` took while this is not nil (the state diagram test's coverage).
    var takenEdges: Set<RecognizerEdge>?
    #endif
    /// The state changes of the last `process`, `advance` or `finish` call (set here and by the
    /// edge scroll beside the machine).
    package internal(set) var stateChanges = RecognizerStateChanges()

    /// A recognizer with no fingers down, deciding with these thresholds.
    public init(configuration: GestureRecognizerConfiguration = .default) {
        self.configuration = configuration.sanitized
        edgeScrollZones = EdgeScrollZones(self.configuration)
        translationVelocity = VelocityTracker(configuration: self.configuration.velocity)
        scaleVelocity = VelocityTracker(configuration: self.configuration.velocity)
    }

    /// The gesture between its `began` and its `ended`/`cancelled`, if any.
    public var gestureInFlight: GestureKind? {
        if edgeScrollPan != nil { return .pan }
        return switch state.mode {
        case .idle, .undecided, .clickpadPressed: nil
        case .hold: .hold
        case .pan: state.gesture == nil ? nil : .pan
        case .pinch: .pinch
        case .switchingFingers: state.switching.kind
        }
    }

    /// The machine's state, without its data.
    public var mode: RecognizerMode { state.mode }

    /// Where each kind's recognizer is in its life cycle: `possible` while the fingers are being
    /// judged, `failed` when they turned out to be something else (or a tap, or nothing).
    package func state(of kind: GestureKind) -> RecognizerState { lifecycles[kind].state }

    // MARK: Input

    /// Consumes one frame and returns what it recognised (often nothing).
    public mutating func process(_ frame: TouchFrame) -> GestureEvents {
        var out = GestureEvents()
        process(frame, into: &out)
        return out
    }

    /// `process(_:)` into a buffer the caller keeps from frame to frame (emptied first): a new
    /// `GestureEvents` is four gesture events (about 1 KiB) written and copied out on every frame.
    package mutating func process(_ frame: TouchFrame, into out: inout GestureEvents) {
        out.removeAll()
        stateChanges.removeAll()
        var now = frame.time
        var fault: FrameFault? = frame.isResync ? .resync : nil
        var dt = 0.0
        if let last = lastFrameTime {
            if now < last {
                fault = .clockWentBack(waitedMS: now.milliseconds(since: last))
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
            if fault == nil { fault = .touchJump(id, mm, previous: previous) }
        case .invalidPosition:
            if fault == nil { fault = .badNumbers }
        }

        followEdgeScroll(frame, fault: fault, at: now, into: &out)
        let leftOut = touches.leftOutCount  // counted once: a loop over the touches
        let fingers = max(touches.count - leftOut, frame.fingerCount - leftOut, 0)
        if let fault {
            handle(.fault(decision(for: fault), fingers: fingers), at: now, into: &out)
        }
        if configuration.device.isClickpad == true {
            if state.mode == .clickpadPressed {
                if frame.buttons.isEmpty { handle(.buttonReleased, at: now, into: &out) }
            } else if !frame.buttons.isEmpty, let pressed = clickpadPressedByFinger(fingers: fingers) {
                handle(.buttonPressed(pressed), at: now, into: &out)
            }
        }
        if fingers != state.watchedFingerCount {
            handle(fingers == 0 ? .allLifted : .fingerCountChanged(to: fingers), at: now, into: &out)
        }
        if state.mode == .switchingFingers { return }

        if state.mode == .idle, state.fingers.count > 0 {
            handle(.fingersDetected, at: now, into: &out)
        } else if let signature = state.decisionSignature, touches.fingerSignature != signature {
            handle(.fingersReplaced, at: now, into: &out)
        }
        handle(.motion, at: now, into: &out)
        // A hold due exactly now is judged after the frame's motion (which may have decided).
        if state.mode == .undecided { runTimers(until: now, includingNow: true, into: &out) }
    }

    /// Lets time pass without a frame (a touchpad sends none while fingers rest), so that a pending
    /// finger-count change can time out and a hold can begin.
    public mutating func advance(to time: EventTime) -> GestureEvents {
        var out = GestureEvents()
        advance(to: time, into: &out)
        return out
    }

    /// `advance(to:)` into a buffer the caller keeps (emptied first), as `process(_:into:)`.
    package mutating func advance(to time: EventTime, into out: inout GestureEvents) {
        out.removeAll()
        stateChanges.removeAll()
        runTimers(until: time, includingNow: true, into: &out)
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
        lastFrameTime = nil
        return out
    }

    /// The timeouts due by `now`, each at its own time (libinput's timers): the finger-count
    /// debounce, the hold.
    private mutating func runTimers(until now: EventTime, includingNow: Bool, into out: inout GestureEvents) {
        switch state.mode {
        case .switchingFingers:
            let since = state.switching.since
            if now.milliseconds(since: since) >= configuration.fingerCountDebounceMS {
                handle(.switchTimeout, at: since.adding(milliseconds: configuration.fingerCountDebounceMS), into: &out)
            }
        case .undecided:
            let timeout = state.fingers.clicked ? .infinity : holdTimeoutMS(fingers: state.fingers.count)
            let since = state.decision.since
            let waited = now.milliseconds(since: since)
            if timeout.isFinite, waited > timeout || (includingNow && waited == timeout) {
                handle(.holdTimeout, at: since.adding(milliseconds: timeout), into: &out)
            }
        case .idle, .hold, .pan, .pinch, .clickpadPressed:
            break  // no timer runs
        }
    }

    // MARK: The machine (the handlers are in +States.swift)

    /// Tests feed the machine an input directly (to provoke a pair it does not expect).
    mutating func handleForTesting(_ input: Input, at now: EventTime, into out: inout GestureEvents) {
        handle(input, at: now, into: &out)
    }

    /// The one place the state changes, along an edge of `edges`; records the change for `--trace`.
    /// - Parameters:
    ///   - fingers: the fingers of the new state; nil: the same.
    ///   - tracedFingers: the count the trace shows, when not the new state's: a fault and the end
    ///     of the stream show the fingers of what they cancelled.
    mutating func enter(_ next: Stage, fingers: Fingers? = nil, on input: RecognizerInput, at now: EventTime,
                        because decision: GestureDecision? = nil, tracing tracedFingers: Int? = nil) {
        let from = state.mode
        state.enter(next, fingers: fingers)
        let to = state.mode
        takeEdge(RecognizerEdge(from, input, to, decision?.rule))
        if from != to || decision != nil {
            // Switching: the count it is switching to (the committed one waits for the debounce).
            stateChanges.append(RecognizerStateChange(time: now, from: from, to: to, input: input,
                                                      fingers: tracedFingers ?? state.watchedFingerCount,
                                                      decision: decision))
        }
    }

    /// The stage goes on, its data changed in place (a pan or pinch moving): the edge from the stage
    /// to itself, which nothing traces (`enter` with the same stage and no decision).
    mutating func stay(on input: RecognizerInput) {
        takeEdge(RecognizerEdge(state.mode, input, state.mode, nil))
    }

    /// Debug builds: the edge must be in the machine's table, and is counted as taken (the state
    /// diagram test's coverage). Nothing in release.
    @inline(__always) private mutating func takeEdge(_ edge: RecognizerEdge) {
        #if DEBUG
        assert(Self.edges.contains(edge), "an edge missing from TouchGestureRecognizer.edges: \(edge)")
        takenEdges?.insert(edge)
        #endif
    }

    /// A (state, input) pair the machine does not expect: counted, traced, and asserted in debug.
    mutating func recordBug(_ input: RecognizerInput, at now: EventTime) {
        bugCount += 1
        stateChanges.append(RecognizerStateChange(time: now, from: state.mode, to: state.mode, input: input,
                                                  fingers: state.fingers.count, isBug: true))
        if assertsOnBug {
            assertionFailure("recognizer bug: \(input.rawValue) in state \(state.mode.rawValue)")
        }
    }


    func fingerCountChange(from: Int, to: Int, waitedMS: Double?) -> GestureDecision {
        var e = GestureEvidence()
        e.fingersBefore = from
        e.fingersAfter = to
        e.waitedMS = waitedMS
        e.timeoutMS = waitedMS == nil ? nil : configuration.fingerCountDebounceMS
        return GestureDecision(.fingerCountChange, e)
    }

    // MARK: Deciding

    /// A fresh decision on `fingers`, from where the touches are now.
    mutating func startDecision(_ fingers: Fingers, at now: EventTime, on input: RecognizerInput,
                                because decision: GestureDecision? = nil) {
        // Every way here ended the gesture in flight first; a kind still in flight keeps it (and
        // is counted), so a began is never dropped without its end.
        if !lifecycles.resetAll() { recordBug(input, at: now) }
        touches.rebaseline()
        let pair = fingers.count >= 2 ? touches.topAndBottom : nil
        var d = Decision(since: now, pair: pair, bandThumb: nil, signature: touches.fingerSignature)
        d.bandThumb = fingers.count >= 3 ? restingThumbInBand(pair) : nil
        enter(.undecided(d), fingers: fingers, on: input, at: now, because: decision)
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
    mutating func beginHoldIfStill(at now: EventTime, into out: inout GestureEvents) {
        let d = state.decision
        let moved = touches.largestFingerMoveMM
        guard moved < configuration.holdMaxMoveMM, let centroid = touches.fingerCentroid,
              lifecycles.hold.begin() != nil else { return }
        var e = GestureEvidence()
        e.waitedMS = now.milliseconds(since: d.since)
        e.timeoutMS = holdTimeoutMS(fingers: state.fingers.count)
        e.movedMM = moved
        e.moveLimitMM = configuration.holdMaxMoveMM
        let why = GestureDecision(.holdTimeout, e)
        let event = GestureEvent(kind: .hold, state: .began, time: now, fingerCount: state.fingers.count,
                                 centerMM: centroid, decision: why)
        out.append(event)
        enter(.hold(d, InFlight(last: event, initialCenter: centroid)), on: .holdTimeout, at: now, because: why)
    }

    /// Cancels the hold because its fingers moved: the decision `d` goes on.
    mutating func endHoldByMotion(_ d: Decision, _ e: GestureEvidence, at now: EventTime,
                                  into out: inout GestureEvents) {
        let why = GestureDecision(.motionEndsHold, e)
        cancelInFlight(why, at: now, into: &out)
        enter(.undecided(d), on: .motion, at: now, because: why)
    }

    // MARK: Emitting

    /// Begins a pan or pinch from the undecided (or hold) state.
    mutating func begin(_ event: GestureEvent, center: PointMM, decision d: Decision, into out: inout GestureEvents) -> InFlight? {
        guard lifecycles[event.kind].begin() != nil else { return nil }
        lifecycles.hold.failIfPossible()
        let other: GestureKind = event.kind == .pinch ? .pan : .pinch
        // A pinch may still take over from a two-finger pan (the correction window).
        if !(event.kind == .pan && event.fingerCount == 2 && allows(.pinch, fingers: 2)) { lifecycles[other].failIfPossible() }
        out.append(event)
        return InFlight(last: event, initialCenter: center)
    }

    /// The state's gesture in flight, its values set in place, changed: emitted as `changed`.
    mutating func emitChangeInFlight(at now: EventTime, into out: inout GestureEvents) {
        guard let kind = state.gesture?.last.kind, let changed = lifecycles[kind].change() else { return }
        if let event = state.gestureChanged(changed, at: now) { out.append(event) }
    }

    /// A gesture beside the machine (an edge scroll), its values set, changed: emitted as `changed`.
    mutating func emitChange(_ g: inout InFlight, at now: EventTime, into out: inout GestureEvents) {
        guard let changed = lifecycles[g.last.kind].change() else { return }
        g.changed(changed, at: now)
        out.append(g.last)
    }

    /// Changes the values of the gesture in flight in place, as it moves; nil when there is none
    /// (`State.changeGesture`).
    @inline(__always) @discardableResult
    mutating func changeGesture<Result>(_ change: (inout InFlight) -> Result) -> Result? {
        state.changeGesture(change)
    }

    /// Cancels (or ends) whatever gesture the state has in flight.
    mutating func cancelInFlight(_ why: GestureDecision, at now: EventTime, into out: inout GestureEvents) {
        finishInFlight(.cancelled, why, at: now, into: &out)
    }

    mutating func finishInFlight(_ how: GestureState, _ why: GestureDecision, at now: EventTime,
                                         into out: inout GestureEvents) {
        switch state.mode {
        case .hold, .pan, .pinch, .switchingFingers:
            // None for a silent pan.
            if let g = state.gesture { finishGesture(g, how, why, at: now, into: &out) }
        case .idle, .undecided, .clickpadPressed:
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
            g.last.velocityMMPerSecond = translationVelocity.velocityInPlace(at: g.last.time)
        }
        if g.last.kind == .pinch { g.last.scaleVelocity = scaleVelocity.velocityInPlace(at: g.last.time).x }
        out.append(g.last)
    }
}
