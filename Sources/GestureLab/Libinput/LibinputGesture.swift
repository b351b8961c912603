import GestureTools

/// One gesture as libinput reported it (`libinput debug-events`), in pinchlab's time: seconds
/// since the recording's first event.
public struct LibinputGesture: Sendable, Hashable, Encodable {
    public enum Kind: String, Sendable, Hashable, Encodable {
        case pinch, swipe, scroll, hold, motion
    }
    public var kind: Kind
    /// Fingers libinput counted; for a finger scroll libinput does not say (two-finger or edge
    /// scrolling): nil. Pointer motion is one finger.
    public var fingers: Int?
    public var begin: Double
    public var end: Double
    /// libinput ended it with `cancelled` (a finger-count change, a hold that became a motion).
    public var cancelled: Bool
    /// Pinch: the last scale (1.0 at the begin).
    public var scale: Double?
    /// Pinch: the sum of the angle deltas, degrees.
    public var angle: Double?
    /// Pinch, swipe, motion: the sum of the unaccelerated deltas; scroll: of the scroll values.
    public var dx: Double?
    public var dy: Double?

    private enum CodingKeys: String, CodingKey { case kind, fingers, begin, end, cancelled, scale, angle, dx, dy }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kind, forKey: .kind)
        try c.encode(fingers, forKey: .fingers)
        try c.encode(rounded(begin), forKey: .begin)
        try c.encode(rounded(end), forKey: .end)
        try c.encode(cancelled, forKey: .cancelled)
        try c.encodeIfPresent(scale.map(rounded), forKey: .scale)
        try c.encodeIfPresent(angle.map(rounded), forKey: .angle)
        try c.encodeIfPresent(dx.map(rounded), forKey: .dx)
        try c.encodeIfPresent(dy.map(rounded), forKey: .dy)
    }
}

/// What libinput made of a recording: summary key `"libinput"`.
public struct LibinputVerdict: Sendable, Encodable {
    /// `libinput --version`.
    public var version: String
    public var gestures: [LibinputGesture]
    /// Why there are no gestures to compare although the file has touches (a touchscreen: libinput
    /// has no touchscreen gestures); nil otherwise.
    public var note: Note?
    /// How late libinput read the recording's events (its timers run on the wall clock).
    public var timing: Timing?
    /// libinput's events as a gesture tool reads them (not printed): gesture events on a touchpad,
    /// touch events on a touchscreen when the bridge was asked to run one.
    public var steps: [ToolEvent]
    /// Idle gaps played shorter than recorded (`ShortenedGaps`); nil when none was.
    public var shortenedGaps: [ShortenedGaps.Cut]?

    public init(version: String, gestures: [LibinputGesture], note: Note?, timing: Timing?, steps: [ToolEvent] = []) {
        self.version = version
        self.gestures = gestures
        self.note = note
        self.timing = timing
        self.steps = steps
    }

    private enum CodingKeys: String, CodingKey { case version, gestures, note, timing, shortenedGaps }

    public enum Note: String, Sendable, Encodable {
        case touchscreen = "libinput has no touchscreen gestures: it reports touch points only, so there is nothing to compare"
    }

    public struct Timing: Sendable, Hashable, Encodable {
        /// The largest delay between an event's timestamp and libinput reading it, ms.
        public var maximumLateMS: Double
        /// Events read more than `lateThresholdMS` late.
        public var lateEvents: Int
        public var events: Int
        public var lateThresholdMS: Double
        /// Runs made: a run with late events is made again once.
        public var runs: Int
        /// The kept run still had late events: libinput's timers may have decided differently
        /// than on a real device.
        public var late: Bool

        public init(maximumLateMS: Double, lateEvents: Int, events: Int, lateThresholdMS: Double, runs: Int, late: Bool) {
            self.maximumLateMS = maximumLateMS
            self.lateEvents = lateEvents
            self.events = events
            self.lateThresholdMS = lateThresholdMS
            self.runs = runs
            self.late = late
        }
    }
}
