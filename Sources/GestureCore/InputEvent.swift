/// A point in time as evdev writes it: whole seconds plus microseconds (`struct timeval`).
///
/// Kept as the two integers the kernel and the recording formats use, so a time read from a file is
/// written back bit for bit.
@frozen public struct EventTime: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Whole seconds.
    public var seconds: Int64
    /// Microseconds past the whole seconds, 0..<1_000_000.
    public var microseconds: Int32

    /// A time from its seconds and microseconds, as `struct timeval` holds it.
    @inlinable public init(seconds: Int64, microseconds: Int32) {
        self.seconds = seconds
        self.microseconds = microseconds
    }

    /// A time from a count of microseconds.
    public init(totalMicroseconds: Int64) {
        self.seconds = totalMicroseconds / 1_000_000
        self.microseconds = Int32(totalMicroseconds % 1_000_000)
    }

    /// Time 0.
    public static let zero = EventTime(seconds: 0, microseconds: 0)

    /// The time in microseconds.
    @inlinable public var totalMicroseconds: Int64 { seconds &* 1_000_000 &+ Int64(microseconds) }
    /// Seconds as a Double, for arithmetic in recognizers and transitions.
    public var timeInterval: Double { Double(seconds) + Double(microseconds) / 1_000_000 }

    /// Orders times, earliest first.
    @inlinable public static func < (a: EventTime, b: EventTime) -> Bool {
        (a.seconds, a.microseconds) < (b.seconds, b.microseconds)
    }

    /// `sec.usec` with six digits, as evemu writes it.
    public var description: String {
        let usec = String(microseconds)
        return "\(seconds)." + String(repeating: "0", count: max(0, 6 - usec.count)) + usec
    }
}

/// One evdev event (`struct input_event`).
@frozen public struct InputEvent: Hashable, Sendable {
    /// When the kernel stamped the event.
    public var time: EventTime
    /// The event's type (`EV_ABS`, `EV_KEY`, `EV_SYN`, ...).
    public var type: EventType
    /// The event's code within its type (`ABS_MT_POSITION_X`, `BTN_TOUCH`, ...).
    public var code: EventCode
    /// The event's value (a position, 1 for pressed, ...).
    public var value: Int32

    /// An event from its four fields, as `struct input_event` holds them.
    @inlinable public init(time: EventTime, type: EventType, code: EventCode, value: Int32) {
        self.time = time
        self.type = type
        self.code = code
        self.value = value
    }

    /// Whether this is `SYN_REPORT`, the end of a frame.
    @inlinable public var isSynReport: Bool { type == .syn && code == .synReport }
    /// Whether this is `SYN_DROPPED`: the kernel's buffer overflowed and events were lost.
    @inlinable public var isSynDropped: Bool { type == .syn && code == .synDropped }
}

/// Where events come from: a live device or a recording. The same pipeline consumes both.
public protocol InputEventSource {
    /// The device the events belong to.
    var device: DeviceDescription { get }
    /// The next event, or nil at the end of the stream. Throws on bad input or a device error.
    mutating func nextEvent() throws -> InputEvent?
    /// The events ready now, each handed over once and in order, as `nextEvent()` would return them:
    /// a source that reads ahead (on a thread of its own) hands over a whole batch in one call, so
    /// that a loop over a million events makes a few hundred calls instead of a million. The
    /// default hands over the one event of `nextEvent()`.
    ///
    /// - Parameter body: reads the events; returns false to take no more (the rest of the batch is
    ///   taken all the same). It must not read from the source itself: the span may be the
    ///   source's own buffer, which the next read may hand back to the reader.
    /// - Returns: what `body` returned, or nil at the end of the stream.
    mutating func nextEvents(_ body: (Span<InputEvent>) -> Bool) throws -> Bool?
}

extension InputEventSource {
    /// The one event of `nextEvent()`, for a source that reads one at a time.
    ///
    /// - Parameter body: reads the event; returns false to take no more.
    /// - Returns: what `body` returned, or nil at the end of the stream.
    public mutating func nextEvents(_ body: (Span<InputEvent>) -> Bool) throws -> Bool? {
        guard let event = try nextEvent() else { return nil }
        let one = InlineArray<1, InputEvent>(repeating: event)
        return body(one.span)
    }
}
