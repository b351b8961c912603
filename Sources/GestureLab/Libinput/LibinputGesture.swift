import GestureTools

/// One gesture as libinput reported it (`libinput debug-events`), in pinchlab's time: seconds
/// since the recording's first event.
package struct LibinputGesture: Sendable, Hashable, Encodable {
    package enum Kind: String, Sendable, Hashable, Encodable {
        case pinch, swipe, scroll, hold, motion
    }
    package var kind: Kind
    /// Fingers libinput counted; for a finger scroll libinput does not say (two-finger or edge
    /// scrolling): nil. Pointer motion is one finger.
    package var fingers: Int?
    package var begin: Double
    package var end: Double
    /// libinput ended it with `cancelled` (a finger-count change, a hold that became a motion).
    package var cancelled: Bool
    /// Pinch: the last scale (1.0 at the begin).
    package var scale: Double?
    /// Pinch: the sum of the angle deltas, degrees.
    package var angle: Double?
    /// Pinch, swipe, motion: the sum of the unaccelerated deltas; scroll: of the scroll values.
    package var dx: Double?
    package var dy: Double?

    private enum CodingKeys: String, CodingKey { case kind, fingers, begin, end, cancelled, scale, angle, dx, dy }

    package func encode(to encoder: any Encoder) throws {
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
package struct LibinputVerdict: Sendable, Encodable {
    /// `libinput --version`.
    package var version: String
    package var gestures: [LibinputGesture]
    /// Why there are no gestures to compare although the file has touches (a touchscreen: libinput
    /// has no touchscreen gestures); nil otherwise.
    package var note: Note?
    /// How late libinput read the recording's events (its timers run on the wall clock).
    package var timing: Timing?
    /// libinput's events as a gesture tool reads them (not printed): gesture events on a touchpad,
    /// touch events on a touchscreen when the bridge was asked to run one.
    package var steps: [ToolEvent]
    /// Idle gaps played shorter than recorded (`ShortenedGaps`); nil when none was.
    package var shortenedGaps: [ShortenedGaps.Cut]?

    package init(version: String, gestures: [LibinputGesture], note: Note?, timing: Timing?, steps: [ToolEvent] = []) {
        self.version = version
        self.gestures = gestures
        self.note = note
        self.timing = timing
        self.steps = steps
    }

    private enum CodingKeys: String, CodingKey { case version, gestures, note, timing, shortenedGaps }

    package enum Note: String, Sendable, Encodable {
        case touchscreen = "libinput has no touchscreen gestures: it reports touch points only, so there is nothing to compare"
    }

    package struct Timing: Sendable, Hashable, Encodable {
        /// The largest delay between an event's timestamp and libinput reading it, ms.
        package var maximumLateMS: Double
        /// Events read more than `lateThresholdMS` late.
        package var lateEvents: Int
        package var events: Int
        package var lateThresholdMS: Double
        /// Runs made: a run with late events is made again once.
        package var runs: Int
        /// The kept run still had late events: libinput's timers may have decided differently
        /// than on a real device.
        package var late: Bool

        package init(maximumLateMS: Double, lateEvents: Int, events: Int, lateThresholdMS: Double, runs: Int, late: Bool) {
            self.maximumLateMS = maximumLateMS
            self.lateEvents = lateEvents
            self.events = events
            self.lateThresholdMS = lateThresholdMS
            self.runs = runs
            self.late = late
        }
    }
}
