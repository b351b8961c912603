/// The recognizer's state, without the data each state carries (what `--trace` prints).
/// See `TouchGestureRecognizer` and the state diagram in `docs/recognizer-states.md`.
public enum RecognizerMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// No fingers, or fingers waiting for the next frame to start a decision (libinput NONE).
    case idle
    /// Fingers down, watching how they move (libinput UNKNOWN).
    case undecided
    /// Fingers down and still past the hold timeout; the decision goes on (libinput HOLD).
    case hold
    /// A pan in flight (or a silent one, for a finger count that does not pan).
    case pan
    /// A pinch in flight.
    case pinch
    /// The finger count changed during a gesture; nothing is emitted until it comes back or the
    /// debounce runs out.
    case switchingFingers = "switching-fingers"
    /// A clickpad pressed by a finger: no gesture until the button is released (libinput: pointer
    /// motion only).
    case clickpadPressed = "clickpad-pressed"
}

/// What happened to the recognizer: the named events of its state machine.
public enum RecognizerInput: String, Sendable, Hashable, Codable, CaseIterable {
    /// The committed finger count changed (fingers landed or lifted, not all).
    case fingerCountChanged = "finger-count-changed"
    /// The last finger lifted.
    case allLifted = "all-lifted"
    /// The finger-count debounce ran out.
    case switchTimeout = "switch-timeout"
    /// The hold timeout ran out.
    case holdTimeout = "hold-timeout"
    /// A frame moved the touches (the state's own handler decides).
    case motion
    /// Same finger count, different touches.
    case fingersReplaced = "fingers-replaced"
    /// Positions cannot be trusted: resync, a jump, bad numbers.
    case fault
    /// End of the stream.
    case endOfStream = "end-of-stream"
    /// A clickpad's button went down under a finger.
    case buttonPressed = "button-pressed"
    /// The clickpad's buttons are all up again.
    case buttonReleased = "button-released"
}

/// One state change, with the rule that caused it when one did.
public struct RecognizerStateChange: Sendable, Hashable {
    /// When the state changed.
    public var time: EventTime
    /// The state before.
    public var from: RecognizerMode
    /// The state after.
    public var to: RecognizerMode
    /// What made it change.
    public var input: RecognizerInput
    /// Fingers counted after the change.
    public var fingers: Int
    /// The rule and evidence of the decision, when one was made.
    public var decision: GestureDecision?
    /// True when (from, input) is a pair the machine does not expect: a recognizer bug, counted in
    /// `TouchGestureRecognizer.bugCount` and left in the state it was in.
    public var isBug: Bool
    /// Set when the change is the edge scroll's, which runs beside the machine (scroll method edge):
    /// the machine's own mode is then unchanged (`from == to`).
    public var edgeScroll: EdgeScrollChange?

    /// A change from its values, as the recognizer records them.
    public init(time: EventTime, from: RecognizerMode, to: RecognizerMode, input: RecognizerInput,
                fingers: Int, decision: GestureDecision? = nil, isBug: Bool = false, edgeScroll: EdgeScrollChange? = nil) {
        self.time = time
        self.from = from
        self.to = to
        self.input = input
        self.fingers = fingers
        self.decision = decision
        self.isBug = isBug
        self.edgeScroll = edgeScroll
    }

    static let placeholder = RecognizerStateChange(time: .zero, from: .idle, to: .idle, input: .motion, fingers: 0)
}

/// What an edge scroll did: it began (its touch moved along the edge, or rested there past the
/// lock timeout, rule edge-scroll), or it stopped (its touch lifted, a fault, a clickpad press, the
/// end of the stream).
public enum EdgeScrollChange: String, Sendable, Hashable, Codable {
    /// The edge scroll began, or it stopped.
    case began, stopped
}

/// The state changes of one call to the recognizer, stored inline so that recording them never
/// allocates. Quiet frames change nothing and record nothing.
package struct RecognizerStateChanges: RandomAccessCollection, Sendable {
    package static let capacity = 12

    private var storage = InlineArray<12, RecognizerStateChange>(repeating: .placeholder)
    package private(set) var count = 0

    package init() {}

    package var startIndex: Int { 0 }
    package var endIndex: Int { count }
    package subscript(i: Int) -> RecognizerStateChange {
        precondition(i >= 0 && i < count, "state change index out of range")
        return storage[i]
    }

    mutating func append(_ change: RecognizerStateChange) {
        guard count < Self.capacity else { return }
        storage[count] = change
        count += 1
    }

    mutating func removeAll() { count = 0 }
}
