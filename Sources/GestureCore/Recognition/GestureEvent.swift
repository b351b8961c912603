/// Which gesture an event belongs to. Raw values are the names printed in JSON lines.
public enum GestureKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// Two or more fingers moving apart, together or around each other (`UIPinchGestureRecognizer`,
    /// libinput's `LIBINPUT_EVENT_GESTURE_PINCH_*`).
    case pinch
    /// Fingers moving together the same way: a one-finger pan on a touchscreen, a two-finger scroll or
    /// a three-or-more-finger swipe (`UIPanGestureRecognizer`, libinput's scroll and swipe).
    case pan
    /// Fingers down and still past the hold timeout (libinput's `LIBINPUT_EVENT_GESTURE_HOLD_*`,
    /// UIKit's `UILongPressGestureRecognizer`). Drives no transition.
    case hold
}

/// Where a recognised gesture is in its life, as carried by an event. A gesture emits exactly one
/// `began`, any number of `changed`, and exactly one `ended` or `cancelled`.
public enum GestureState: String, Sendable, Hashable, Codable, CaseIterable {
    /// The gesture was recognized and starts here.
    case began
    /// The gesture goes on and moved.
    case changed
    /// The fingers lifted: the gesture finished as the user meant it.
    case ended
    /// The gesture could not continue (finger count change, resync, a jump, the device went away, or
    /// an early guess was corrected): whoever follows it should roll back.
    case cancelled

    /// True for `ended` and `cancelled`, after which the gesture emits nothing more.
    public var isFinal: Bool { self == .ended || self == .cancelled }
}

/// One report of a recognised gesture. Every number is finite.
///
/// Pinch events fill `scale`, `rotationDegrees`, `scaleVelocity` and also report the movement of the
/// pinch centre in `translationMM` / `velocityMMPerSecond`. Pan events keep `scale` at 1 and
/// `rotationDegrees` at 0; their `centerMM` is the centroid of the fingers.
public struct GestureEvent: Sendable, Hashable {
    /// Which gesture: pinch, pan or hold.
    public var kind: GestureKind
    /// Where the gesture is in its life: began, changed, ended or cancelled.
    public var state: GestureState
    /// The timestamp of the frame (or timeout) that produced the event.
    public var time: EventTime
    /// Fingers taking part, as counted when the gesture began.
    public var fingerCount: Int
    /// Current span / span when the pinch began: 1.0 at `began`, absolute (never a per-event delta).
    public var scale: Double
    /// Rotation since the pinch began, in degrees, wrapped to ±180° (a full turn reads 0, as the
    /// fingers' positions do). Accumulated from per-frame angle changes, so it never jumps by the
    /// atan2 seam.
    public var rotationDegrees: Double
    /// Midpoint of the pinching touches, or centroid of the panning touches, in surface millimetres.
    public var centerMM: PointMM
    /// Rate of change of `scale`, per second.
    public var scaleVelocity: Double
    /// Displacement since the gesture began (pan: finger centroid; pinch: pinch centre).
    public var translationMM: PointMM
    /// Velocity of `translationMM`, in millimetres per second.
    public var velocityMMPerSecond: PointMM
    /// Why the gesture began, ended, was cancelled: set on those events, nil on `changed`.
    public var decision: GestureDecision?

    /// An event from its values, as the recognizer makes them (tests and synthesized input make them too).
    public init(kind: GestureKind, state: GestureState, time: EventTime, fingerCount: Int,
                scale: Double = 1, rotationDegrees: Double = 0, centerMM: PointMM = .zero,
                scaleVelocity: Double = 0, translationMM: PointMM = .zero,
                velocityMMPerSecond: PointMM = .zero, decision: GestureDecision? = nil) {
        self.kind = kind
        self.state = state
        self.time = time
        self.fingerCount = fingerCount
        self.scale = scale.finiteOr(1)
        self.rotationDegrees = rotationDegrees.finiteOr(0)
        self.centerMM = centerMM.finiteOrZero
        self.scaleVelocity = scaleVelocity.finiteOr(0)
        self.translationMM = translationMM.finiteOrZero
        self.velocityMMPerSecond = velocityMMPerSecond.finiteOrZero
        self.decision = decision
    }

    static let placeholder = GestureEvent(kind: .pan, state: .cancelled, time: .zero, fingerCount: 0)
}

extension GestureEvent: Codable {
    private enum CodingKeys: String, CodingKey {
        case kind, state, time, fingerCount, scale, rotationDegrees, centerMM, scaleVelocity,
             translationMM, velocityMMPerSecond, rule
    }

    private enum PointKeys: String, CodingKey { case x, y }

    /// `time` is written as seconds with six decimals' worth of precision (a Double holds any
    /// `sec.usec` up to year 2255 exactly enough to round-trip the microseconds); points as `{x, y}`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kind, forKey: .kind)
        try c.encode(state, forKey: .state)
        try c.encode(time.timeInterval, forKey: .time)
        try c.encode(fingerCount, forKey: .fingerCount)
        try c.encode(scale, forKey: .scale)
        try c.encode(rotationDegrees, forKey: .rotationDegrees)
        try Self.encode(centerMM, in: &c, forKey: .centerMM)
        try c.encode(scaleVelocity, forKey: .scaleVelocity)
        try Self.encode(translationMM, in: &c, forKey: .translationMM)
        try Self.encode(velocityMMPerSecond, in: &c, forKey: .velocityMMPerSecond)
        try c.encodeIfPresent(decision?.rule, forKey: .rule)
    }

    /// Reads an event from its JSON form.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let seconds = try c.decode(Double.self, forKey: .time)
        guard seconds.isFinite, abs(seconds) < 9e12 else {
            throw DecodingError.dataCorruptedError(forKey: .time, in: c, debugDescription: "time out of range")
        }
        self.init(
            kind: try c.decode(GestureKind.self, forKey: .kind),
            state: try c.decode(GestureState.self, forKey: .state),
            time: EventTime(totalMicroseconds: Int64((seconds * 1_000_000).rounded())),
            fingerCount: try c.decode(Int.self, forKey: .fingerCount),
            scale: try c.decode(Double.self, forKey: .scale),
            rotationDegrees: try c.decode(Double.self, forKey: .rotationDegrees),
            centerMM: try Self.decodePoint(c, forKey: .centerMM),
            scaleVelocity: try c.decode(Double.self, forKey: .scaleVelocity),
            translationMM: try Self.decodePoint(c, forKey: .translationMM),
            velocityMMPerSecond: try Self.decodePoint(c, forKey: .velocityMMPerSecond),
            decision: try c.decodeIfPresent(GestureRule.self, forKey: .rule).map { GestureDecision($0) })
    }

    private static func encode(_ p: PointMM, in c: inout KeyedEncodingContainer<CodingKeys>,
                               forKey key: CodingKeys) throws {
        var nested = c.nestedContainer(keyedBy: PointKeys.self, forKey: key)
        try nested.encode(p.x, forKey: .x)
        try nested.encode(p.y, forKey: .y)
    }

    private static func decodePoint(_ c: KeyedDecodingContainer<CodingKeys>, forKey key: CodingKeys) throws -> PointMM {
        let nested = try c.nestedContainer(keyedBy: PointKeys.self, forKey: key)
        return PointMM(x: try nested.decode(Double.self, forKey: .x), y: try nested.decode(Double.self, forKey: .y))
    }
}

extension Double {
    @inline(__always) func finiteOr(_ fallback: Double) -> Double { isFinite ? self : fallback }
}

extension PointMM {
    @inline(__always) var isFinite: Bool { x.isFinite && y.isFinite }
    @inline(__always) var finiteOrZero: PointMM { isFinite ? self : .zero }
}

extension EventTime {
    /// Milliseconds from `earlier` to `self` (negative when `earlier` is later).
    @inline(__always) func milliseconds(since earlier: EventTime) -> Double {
        Double(totalMicroseconds &- earlier.totalMicroseconds) / 1_000
    }

    /// Seconds from `earlier` to `self` (negative when `earlier` is later): a session's times, in
    /// its records and its flight recorder's dumps alike, are this since its first event.
    @inlinable @inline(__always) package func seconds(since earlier: EventTime) -> Double {
        Double(totalMicroseconds &- earlier.totalMicroseconds) / 1_000_000
    }

    @inline(__always) func adding(milliseconds ms: Double) -> EventTime {
        EventTime(totalMicroseconds: totalMicroseconds &+ Int64((ms * 1_000).rounded()))
    }
}
