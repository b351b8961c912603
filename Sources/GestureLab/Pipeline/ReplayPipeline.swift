import GestureCore
import InteractiveTransition

/// The whole flow for one device: events -> touch frames -> recognizer -> transition driver ->
/// records. The same pipeline serves a recording and a live device; time comes only from the event
/// timestamps (and, for a live device at rest, from `advance(to:)` with an injected clock), so a
/// replay is bit-for-bit repeatable.
///
/// Times in records are seconds since the first event. Per frame, nothing is allocated: frames,
/// gesture events and records are values passed to a non-escaping closure. (With margins measured,
/// a gesture's begin and its release allocate: the presets' trackers, the release's flips.)
///
/// This is the per-event engine. To run a whole source (a file, a pipe, events in memory) with
/// pinchlab's one behaviour on bad data and on interruption, use `ReplayRun`.
package struct ReplayPipeline: Sendable {
    package let device: DeviceDescription
    package let settings: LabSettings
    package private(set) var driver: GestureTransitionDriver
    private var assembler: TouchFrameAssembler
    private var recognizer: TouchGestureRecognizer
    /// What the recognizer decided on the latest frame or timeout, kept from frame to frame.
    private var recognized = GestureEvents()
    /// The session's first event (or the position's origin it continues): records' times count from it.
    package private(set) var origin: EventTime?
    private var lastTime: EventTime?
    package private(set) var eventCount = 0
    package private(set) var frameCount = 0
    /// The first `LabSummary.maximumListed` gestures; `gestureCount` counts them all.
    package private(set) var gestures: [LabSummary.Gesture] = []
    package private(set) var gestureCount = 0
    /// Gestures that ended or were cancelled, by kind (all of them), for the summary's hint.
    private(set) var pinchCount = 0
    private(set) var panCount = 0
    private var openGesture: (kind: GestureKind, fingers: Int, begin: Double, fingersDown: Double?,
                                 decision: GestureDecision?)?
    /// When the first finger touched, seconds from the first event (for begin latency).
    private(set) var firstTouchTime: Double?
    /// Contacts, the most fingers at once, and the seconds touched so far (`touchingSince` opens
    /// the stretch in progress).
    private var touches = LabSummary.Touches()
    private var touchingSince: Double?
    /// The last frame with fingers down, while they are (each later frame ends a frame interval).
    private var lastTouchingFrame: Double?
    /// The buttons the device lists (an event for another is ignored, as libevdev discards it),
    /// and those down: a record is made when one changes.
    private let describedButtons: PhysicalButtons
    private var buttonsDown: PhysicalButtons = []
    /// Buttons that changed in the frame being read, recorded once the frame is: after what the
    /// recognizer's timers decided before it, so records stay in time order.
    private var buttonsChanged: PhysicalButtons = []
    private var buttonsChangedAt = EventTime.zero
    /// Presses so far, for the summary.
    private(set) var buttonPressCount = 0

    /// Frame records cost a copy of each frame; only views that draw fingers (plots, the live view)
    /// ask for them.
    package let recordsFrames: Bool
    /// Emit the recognizer's state changes (`LabRecord.stateChange`, for `--trace`).
    package var recordsStateChanges = false
    /// Measure every release's margins: the summary's trials carry them (`TrialSummary.flip`,
    /// `margins`) and a `LabRecord.releaseMargins` follows each release. Costs a little per
    /// update (the presets' trackers), so only outputs that show margins ask.
    package var measuresMargins: Bool {
        get { driver.measuresMargins }
        set { driver.measuresMargins = newValue }
    }

    /// The thresholds the recognizer decides with (the settings' for this device, repaired where a
    /// value would break the arithmetic): what a decision's margin is measured against.
    package var recognizerConfiguration: GestureRecognizerConfiguration { recognizer.configuration }

    /// Where the events sit in the live session they were cut from (a flight recorder's dump): the
    /// records count time from the session's first event and number gestures and attempts as the
    /// session did, so they read as the session's own lines. Nil: the events are a whole recording.
    package let position: SessionPosition?
    private let firstTrial: Int

    package init(device: DeviceDescription, transition: TransitionName, settings: LabSettings = .default,
                recordsFrames: Bool = false, position: SessionPosition? = nil) throws {
        self.device = device
        self.position = position
        origin = position?.origin
        firstTrial = position?.firstTrial ?? 0
        self.settings = settings
        self.recordsFrames = recordsFrames
        self.driver = try GestureTransitionDriver(transition: transition, settings: settings,
                                                  input: CompletionInput(device.deviceClass))
        self.assembler = TouchFrameAssembler(device: device)
        self.recognizer = TouchGestureRecognizer(configuration: settings.recognizerConfiguration(for: device))
        describedButtons = PhysicalButtons(describedBy: device)
    }

    /// Seconds from the first event to `time`.
    package func seconds(_ time: EventTime) -> Double {
        guard let origin else { return 0 }
        return time.seconds(since: origin)
    }

    /// Per event, only the counts, a button and the assembler; the frame's work is out of line
    /// (`frameEnded`), so that the seven events of a frame in eight do not pay for its set-up (the
    /// registers a function that large saves and restores cost about 20 instructions an event).
    package mutating func consume(_ event: InputEvent, emit: (LabRecord) -> Void) {
        if origin == nil { origin = event.time }
        lastTime = event.time
        eventCount += 1
        if event.type == .key, let button = PhysicalButtons(code: event.code), describedButtons.contains(button) {
            noteButton(button, down: event.value != 0, at: event.time)
        }
        // The frame stays in the assembler and is read in place: no 1 KiB copy per frame.
        guard assembler.ingest(event) else { return }
        frameEnded(emit: emit)
    }

    /// A `SYN_REPORT` completed `assembler.frame`: recognize it and drive the transition.
    @inline(never)
    private mutating func frameEnded(emit: (LabRecord) -> Void) {
        frameCount += 1
        let now = seconds(assembler.frame.time)
        // A loop over the frame's touches: counted once a frame.
        let touching = assembler.frame.activeTouchCount > 0
        if firstTouchTime == nil && touching { firstTouchTime = now }
        countTouches(at: now, touching: touching)
        let firstTrial = self.firstTrial
        driver.advance(to: now) { Self.emitTransition($0, firstTrial: firstTrial, emit) }
        if recordsFrames { emit(.frame(assembler.frame, time: now)) }
        recognizer.process(assembler.frame, into: &recognized)
        guard !buttonsChanged.isEmpty else {
            emitStateChanges(emit)
            handleRecognized(emit: emit)
            return
        }
        // What the recognizer's timers decided before the button changed comes first, then the
        // button, then what the frame decided.
        let split = buttonsChangedAt
        emitStateChanges(emit) { $0 < split }
        handleRecognized(emit: emit) { $0 < split }
        emitButtonChanges(emit)
        emitStateChanges(emit) { $0 >= split }
        handleRecognized(emit: emit) { $0 >= split }
    }

    /// The gesture events the recognizer just put in `recognized`, by index: a `for` over the
    /// buffer would copy all of it (about 1 KiB) before the first.
    @inline(__always)
    private mutating func handleRecognized(emit: (LabRecord) -> Void, at included: (EventTime) -> Bool = { _ in true }) {
        var index = 0
        while index < recognized.count {
            let gesture = recognized.event(at: index)
            if included(gesture.time) { handle(gesture, emit: emit) }
            index += 1
        }
    }

    /// A transition record, its attempt numbered as the session numbered it (`position`).
    /// (A static function of a local copy: the driver is being changed while it emits.)
    @inline(__always)
    private static func emitTransition(_ record: TransitionRecord, firstTrial: Int, _ emit: (LabRecord) -> Void) {
        guard firstTrial != 0 else { return emit(.transition(record)) }
        var record = record
        record.trial += firstTrial
        emit(.transition(record))
    }

    /// A press or a release (a key's autorepeat, value 2, is neither), recorded with its frame.
    private mutating func noteButton(_ button: PhysicalButtons, down: Bool, at time: EventTime) {
        guard buttonsDown.contains(button) != down else { return }
        if down {
            buttonsDown.insert(button)
            buttonPressCount += 1
        } else {
            buttonsDown.remove(button)
        }
        // Pressed and released within one frame: nothing changed at its end.
        buttonsChanged.formSymmetricDifference(button)
        buttonsChangedAt = time
    }

    private mutating func emitButtonChanges(_ emit: (LabRecord) -> Void) {
        guard !buttonsChanged.isEmpty else { return }
        for button in [PhysicalButtons.left, .right, .middle] where buttonsChanged.contains(button) {
            let state: ButtonRecord.State = buttonsDown.contains(button) ? .pressed : .released
            emit(.button(ButtonRecord(button: button, state: state, time: seconds(buttonsChangedAt))))
        }
        buttonsChanged = []
    }

    /// Read from the assembler's frame in place, by index: no copy of the frame per frame.
    private mutating func countTouches(at now: Double, touching: Bool) {
        for i in 0..<assembler.frame.touches.count where assembler.frame.touches[i].phase == .began { touches.count += 1 }
        touches.maxFingers = max(touches.maxFingers, assembler.frame.fingerCount)
        if let previous = lastTouchingFrame, now > previous { touches.frameIntervals += 1 }
        lastTouchingFrame = touching ? now : nil
        if touching {
            if touchingSince == nil { touchingSince = now }
        } else if let since = touchingSince {
            touches.seconds += now - since
            touchingSince = nil
        }
    }

    /// Mutating although it changes nothing: called as a non-mutating method from `consume`, it was
    /// handed a copy of the whole pipeline (about 9.7 KB) every frame.
    private mutating func emitStateChanges(_ emit: (LabRecord) -> Void, at times: (EventTime) -> Bool = { _ in true }) {
        guard recordsStateChanges else { return }
        for change in recognizer.stateChanges where times(change.time) { emit(.stateChange(change, time: seconds(change.time))) }
    }

    /// Starts from the state a live device was in when it was opened
    /// (`EvdevDevice.currentStateEvents()`): fingers already down begin in the first frame. The
    /// state counts as no events; call before the first `consume`.
    package mutating func seed(withState state: [InputEvent]) {
        assembler.seed(withState: state)
    }

    /// Lets time pass without events (a live device at rest): a pending finger-count change may time
    /// out and the completion animation moves on.
    package mutating func advance(to time: EventTime, emit: (LabRecord) -> Void) {
        guard origin != nil else { return }
        recognizer.advance(to: time, into: &recognized)
        emitStateChanges(emit)
        handleRecognized(emit: emit)
        let firstTrial = self.firstTrial
        driver.advance(to: seconds(time)) { Self.emitTransition($0, firstTrial: firstTrial, emit) }
    }

    /// End of the stream: a gesture in flight is cancelled (a recording that stops mid-gesture, a
    /// device that went away, Ctrl-C): nobody lifted those fingers, so it did not end and the
    /// policy must not be asked. Touches still down are then lifted, and the completion
    /// animation plays to its end.
    package mutating func finish(source: String? = nil, emit: (LabRecord) -> Void) -> LabSummary {
        emitButtonChanges(emit)
        if let lastTime {
            let events = recognizer.finish(at: lastTime)
            emitStateChanges(emit)
            for gesture in events { handle(gesture, emit: emit) }
            // The recognizer is as new; the lifting frame only closes the touch tracks.
            // It is not counted in `frames`: that is the recording's frames, as `stats` counts them.
            if let frame = assembler.finish(at: lastTime) {
                countTouches(at: seconds(frame.time), touching: assembler.frame.activeTouchCount > 0)
                if recordsFrames { emit(.frame(frame, time: seconds(frame.time))) }
            }
        }
        let firstTrial = self.firstTrial
        driver.finish { Self.emitTransition($0, firstTrial: firstTrial, emit) }
        return summary(source: source)
    }

    /// The touch counts, with the stretch still touching counted up to the last event.
    private var touchesSoFar: LabSummary.Touches {
        var t = touches
        if let since = touchingSince, let lastTime { t.seconds += max(0, seconds(lastTime) - since) }
        return t
    }

    package func summary(source: String?) -> LabSummary {
        let geometry = device.geometry
        let first = driver.trials.first
        var summary = LabSummary(
            source: source,
            device: LabSummary.Device(
                name: device.name, class: device.deviceClass.rawValue,
                widthMM: geometry.map { rounded($0.widthMM) }, heightMM: geometry.map { rounded($0.heightMM) },
                resolutionEstimated: geometry?.isEstimated ?? true, slots: device.slotCount),
            transition: driver.binding.name,
            outcome: first?.outcome ?? .none,
            reason: first?.reason,
            decision: first?.decision,
            gestures: gestures,
            gestureCount: gestureCount,
            trials: driver.trials,
            trialCount: driver.trialCount,
            outcomes: LabSummary.Outcomes(finished: driver.finishedCount, cancelled: driver.cancelledCount),
            hint: TransitionHint.make(chosen: driver.binding.name, trialCount: driver.trialCount,
                                      pinches: pinchCount, pans: panCount),
            events: eventCount,
            frames: frameCount,
            duration: lastTime.map(seconds) ?? 0,
            firstTouch: firstTouchTime,
            touches: touchesSoFar,
            policy: settings.policy,
            recognizerBugs: recognizer.bugCount)
        summary.recognizer = recognizer.configuration
        return summary
    }

    private mutating func handle(_ gesture: GestureEvent, emit: (LabRecord) -> Void) {
        let time = seconds(gesture.time)
        // One gesture at a time: the one in flight is the next to be counted.
        emit(.gesture(GestureRecord(event: gesture, time: time, gesture: gestureCount + (position?.firstGesture ?? 0))))
        switch gesture.state {
        case .began:
            // A hold began when its timer ran out: the evidence says how long the fingers had waited.
            let waitedMS = gesture.kind == .hold ? gesture.decision?.evidence.waitedMS : nil
            openGesture = (gesture.kind, gesture.fingerCount, time, waitedMS.map { time - $0 / 1000 },
                           gesture.decision)
        case .ended, .cancelled:
            let begin = openGesture?.begin ?? time
            gestureCount += 1
            if gesture.kind == .pinch { pinchCount += 1 } else if gesture.kind == .pan { panCount += 1 }
            guard gestures.count < LabSummary.maximumListed else { break }
            gestures.append(LabSummary.Gesture(
                kind: gesture.kind, fingers: openGesture?.fingers ?? gesture.fingerCount, begin: begin, end: time,
                ended: gesture.state,
                scale: gesture.kind == .pinch ? gesture.scale : nil,
                rotation: gesture.kind == .pinch ? gesture.rotationDegrees : nil,
                translation: gesture.kind == .pan ? gesture.translationMM : nil,
                rule: gesture.decision?.rule, fingersDown: openGesture?.fingersDown,
                beganDecision: openGesture?.decision))
            openGesture = nil
        case .changed:
            break
        }
        // One gesture at a time, so the index a gesture will have among those ended is the count so far.
        let index = gesture.state == .began ? gestureCount : nil
        let firstTrial = self.firstTrial
        driver.handle(gesture, at: time, gestureIndex: index) { Self.emitTransition($0, firstTrial: firstTrial, emit) }
        if gesture.state == .ended, let margins = driver.takeReleaseMargins() {
            emit(.releaseMargins(ReleaseMarginsRecord(transition: driver.binding.name, trial: driver.trialCount - 1 + firstTrial, time: time, margins: margins)))
        }
    }
}


/// Where a stretch of events sits in the live session it was cut from (`pinchlab live --keep`'s
/// dumps): the session's first event, which its times count from, and the numbers its next
/// gesture and next attempt at the transition had when the stretch began.
public struct SessionPosition: Sendable, Hashable {
    /// The session's first event, which times count from.
    public var origin: EventTime
    /// The number the stretch's first gesture gets.
    public var firstGesture: Int
    /// The number the stretch's first trial gets.
    public var firstTrial: Int

    /// A position from its origin and first numbers.
    public init(origin: EventTime, firstGesture: Int, firstTrial: Int) {
        self.origin = origin
        self.firstGesture = firstGesture
        self.firstTrial = firstTrial
    }
}
