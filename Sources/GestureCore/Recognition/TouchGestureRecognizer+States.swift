// The machine's handlers, one per state, as libinput's `tp_gesture_handle_event_on_state_*`: each
// lists every input, so a new input or state does not compile until each state says what it does
// with it. A pair that cannot happen is named a bug (`recordBug`), not left to a `default`.
extension TouchGestureRecognizer {
    /// The one dispatch: every input goes to its state's handler.
    mutating func handle(_ input: Input, at now: EventTime, into out: inout GestureEvents) {
        // The handlers read the stage's data from `state` (decision, gesture, switching), where
        // it stays: handing it over would copy it.
        switch state.mode {
        case .idle: handleIdle(state.fingers, input, at: now, into: &out)
        case .undecided: handleUndecided(input, at: now, into: &out)
        case .hold: handleHold(input, at: now, into: &out)
        case .pan: handlePan(input, at: now, into: &out)
        case .pinch: handlePinch(input, at: now, into: &out)
        case .switchingFingers: handleSwitchingFingers(input, at: now, into: &out)
        case .clickpadPressed: handleClickpadPressed(state.fingers, input, at: now, into: &out)
        }
    }

    private mutating func handleIdle(_ fingers: Fingers, _ input: Input, at now: EventTime,
                                     into out: inout GestureEvents) {
        switch input {
        case .fingerCountChanged(let n):
            // Counted; the next step of `process` judges them (`fingersDetected`).
            enter(.idle, fingers: Fingers(count: n), on: input.name, at: now)
        case .fingersDetected:
            startDecision(fingers, at: now, on: input.name)
        case .allLifted:
            // Thumbs lifted (the count was already 0) or fingers that never made a decision.
            lifecycles.failWhatIsPossible()
            enter(.idle, fingers: Fingers(count: 0), on: input.name, at: now)
        case .motion:
            break  // no fingers to judge
        case .fault(let why, let n):
            cancelOnFault(why, fingers: n, at: now, into: &out)
        case .endOfStream:
            lifecycles.failWhatIsPossible()
            enter(.idle, fingers: Fingers(count: 0), on: input.name, at: now)
        case .buttonPressed(let why):
            pressClickpad(why, at: now, into: &out)
        case .switchTimeout, .holdTimeout, .fingersReplaced, .buttonReleased:
            // No timer runs and no decision holds touches; the button is up.
            recordBug(input.name, at: now)
        }
    }

    private mutating func handleUndecided(_ input: Input, at now: EventTime,
                                          into out: inout GestureEvents) {
        switch input {
        case .fingerCountChanged(let n):
            // Nothing begun to protect: switch at once and judge the new set of fingers afresh.
            enter(.idle, fingers: Fingers(count: n), on: input.name, at: now)
        case .allLifted:
            liftAll(at: now, into: &out)
        case .holdTimeout:
            beginHoldIfStill(at: now, into: &out)
        case .motion:
            decide(holding: false, at: now, into: &out)
        case .fingersReplaced:
            // A finger replaced within a frame, or one that had no good position when the decision
            // started: judge the touches that are there now, from where they are.
            startDecision(state.fingers, at: now, on: input.name, because: GestureDecision(.fingersReplaced))
        case .fault(let why, let n):
            cancelOnFault(why, fingers: n, at: now, into: &out)
        case .endOfStream:
            endStream(at: now, into: &out)
        case .buttonPressed(let why):
            pressClickpad(why, at: now, into: &out)
        case .fingersDetected, .switchTimeout, .buttonReleased:
            // Detected fingers are idle's; no debounce runs; the button is up.
            recordBug(input.name, at: now)
        }
    }

    private mutating func handleHold(_ input: Input, at now: EventTime,
                                     into out: inout GestureEvents) {
        switch input {
        case .fingerCountChanged(let n):
            switchFingers(to: n, .hold, at: now)
        case .allLifted:
            liftAll(at: now, into: &out)
        case .motion:
            decide(holding: true, at: now, into: &out)
        case .fingersReplaced:
            replaceFingers(at: now, into: &out)
        case .fault(let why, let n):
            cancelOnFault(why, fingers: n, at: now, into: &out)
        case .endOfStream:
            endStream(at: now, into: &out)
        case .buttonPressed(let why):
            pressClickpad(why, at: now, into: &out)
        case .fingersDetected, .switchTimeout, .holdTimeout, .buttonReleased:
            // The hold timer ran out already; no debounce runs; the button is up.
            recordBug(input.name, at: now)
        }
    }

    private mutating func handlePan(_ input: Input, at now: EventTime,
                                    into out: inout GestureEvents) {
        switch input {
        case .fingerCountChanged(let n):
            if state.gesture != nil {
                switchFingers(to: n, .pan, at: now)
            } else {
                // A silent pan has nothing to protect: switch at once, as undecided fingers do.
                enter(.idle, fingers: Fingers(count: n), on: input.name, at: now)
            }
        case .allLifted:
            liftAll(at: now, into: &out)
        case .motion:
            updatePan(at: now, into: &out)
        case .fingersReplaced:
            replaceFingers(at: now, into: &out)
        case .fault(let why, let n):
            cancelOnFault(why, fingers: n, at: now, into: &out)
        case .endOfStream:
            endStream(at: now, into: &out)
        case .buttonPressed(let why):
            pressClickpad(why, at: now, into: &out)
        case .fingersDetected, .switchTimeout, .holdTimeout, .buttonReleased:
            recordBug(input.name, at: now)
        }
    }

    private mutating func handlePinch(_ input: Input, at now: EventTime,
                                      into out: inout GestureEvents) {
        switch input {
        case .fingerCountChanged(let n):
            switchFingers(to: n, .pinch, at: now)
        case .allLifted:
            liftAll(at: now, into: &out)
        case .motion:
            updatePinch(at: now, into: &out)
        case .fingersReplaced:
            replaceFingers(at: now, into: &out)
        case .fault(let why, let n):
            cancelOnFault(why, fingers: n, at: now, into: &out)
        case .endOfStream:
            endStream(at: now, into: &out)
        case .buttonPressed(let why):
            pressClickpad(why, at: now, into: &out)
        case .fingersDetected, .switchTimeout, .holdTimeout, .buttonReleased:
            recordBug(input.name, at: now)
        }
    }

    private mutating func handleSwitchingFingers(_ input: Input, at now: EventTime,
                                                 into out: inout GestureEvents) {
        switch input {
        case .fingerCountChanged(let n) where n == state.fingers.count:
            // The count came back within the debounce: the gesture goes on.
            enter(.resuming, on: input.name, at: now)
        case .fingerCountChanged(let n):
            // Changed again: the debounce starts over from this count (same state, new data:
            // nothing traced).
            guard n != state.switching.count else { return }
            var restarted = state.switching
            restarted.count = n
            restarted.since = now
            enter(.switchingFingers(restarted), on: input.name, at: now)
        case .allLifted:
            liftAll(at: now, into: &out)
        case .switchTimeout:
            let count = state.switching.count
            let why = fingerCountChange(from: state.fingers.count, to: count,
                                        waitedMS: configuration.fingerCountDebounceMS)
            cancelInFlight(why, at: now, into: &out)
            enter(.idle, fingers: Fingers(count: count), on: input.name, at: now, because: why)
        case .fault(let why, let n):
            cancelOnFault(why, fingers: n, at: now, into: &out)
        case .endOfStream:
            endStream(at: now, into: &out)
        case .buttonPressed(let why):
            pressClickpad(why, at: now, into: &out)
        case .fingersDetected, .holdTimeout, .motion, .fingersReplaced, .buttonReleased:
            // `process` judges no motion while the count settles, and no decision holds touches.
            recordBug(input.name, at: now)
        }
    }

    private mutating func handleClickpadPressed(_ fingers: Fingers, _ input: Input, at now: EventTime,
                                                into out: inout GestureEvents) {
        switch input {
        case .fingerCountChanged(let n):
            // Fingers are counted, nothing else happens until the release.
            enter(.clickpadPressed, fingers: Fingers(count: n), on: input.name, at: now)
        case .allLifted:
            enter(.clickpadPressed, fingers: Fingers(count: 0), on: input.name, at: now)
        case .motion:
            break  // libinput: pointer motion only
        case .buttonReleased:
            // The fingers still down are judged afresh from the next step of `process` (they may
            // still scroll or pinch), but they clicked: they do not hold.
            enter(.idle, fingers: Fingers(count: fingers.count, clicked: true), on: input.name, at: now)
        case .fault(let why, let n):
            cancelOnFault(why, fingers: n, at: now, into: &out)
        case .endOfStream:
            endStream(at: now, into: &out)
        case .fingersDetected, .switchTimeout, .holdTimeout, .fingersReplaced, .buttonPressed:
            // Nothing is decided while pressed, no timer runs, and the button is down already.
            recordBug(input.name, at: now)
        }
    }

    // MARK: What several states do alike

    /// Positions cannot be trusted: the gesture in flight is cancelled and the frame's `n` fingers
    /// are judged afresh, from where they are. A fault is no finger-count change: a click stays
    /// remembered.
    private mutating func cancelOnFault(_ why: GestureDecision, fingers n: Int, at now: EventTime,
                                        into out: inout GestureEvents) {
        let before = state.fingers
        cancelInFlight(why, at: now, into: &out)
        enter(.idle, fingers: Fingers(count: n, clicked: before.clicked), on: .fault, at: now, because: why,
              tracing: before.count)
    }

    /// End of the stream with fingers down: what is in flight is cancelled, what never began failed.
    private mutating func endStream(at now: EventTime, into out: inout GestureEvents) {
        let why = GestureDecision(.endOfStream)
        let before = state.fingers.count
        cancelInFlight(why, at: now, into: &out)
        lifecycles.failWhatIsPossible()
        enter(.idle, fingers: Fingers(count: 0), on: .endOfStream, at: now, because: why, tracing: before)
    }

    /// A clickpad pressed by a finger: the gesture in flight is cancelled and nothing begins until
    /// the release (libinput's `tp_gesture_post_events`).
    private mutating func pressClickpad(_ why: GestureDecision, at now: EventTime, into out: inout GestureEvents) {
        cancelInFlight(why, at: now, into: &out)
        lifecycles.failWhatIsPossible()
        enter(.clickpadPressed, on: .buttonPressed, at: now, because: why)
    }

    /// Every finger lifted: the gesture in flight ends (not cancelled), at once.
    private mutating func liftAll(at now: EventTime, into out: inout GestureEvents) {
        var e = GestureEvidence()
        e.fingersBefore = state.fingers.count
        let why = GestureDecision(.allLifted, e)
        finishInFlight(.ended, why, at: now, into: &out)
        lifecycles.failWhatIsPossible()
        enter(.idle, fingers: Fingers(count: 0), on: .allLifted, at: now, because: why)
    }

    /// A finger added or lifted during a gesture: nothing is emitted until the count comes back or
    /// the debounce runs out. The fingers it switches from clicked no more: the count changed.
    private mutating func switchFingers(to n: Int, _ kind: GestureKind, at now: EventTime) {
        enter(.switchingFingers(Switching(count: n, since: now, kind: kind)),
              fingers: Fingers(count: state.fingers.count), on: .fingerCountChanged, at: now)
    }

    /// Same count, different touches during a gesture: it is cancelled and a fresh decision starts.
    private mutating func replaceFingers(at now: EventTime, into out: inout GestureEvents) {
        let why = GestureDecision(.fingersReplaced)
        cancelInFlight(why, at: now, into: &out)
        startDecision(state.fingers, at: now, on: .fingersReplaced, because: why)
    }
}
