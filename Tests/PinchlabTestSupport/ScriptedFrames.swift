import GestureCore

// Fixture builders: TouchFrame sequences from parametric finger paths, for the recognizer tests.

/// A finger on the surface from `downMS` to `upMS` (milliseconds from the script's start), at
/// `path(t)` millimetres, t in seconds from the script's start.
public struct ScriptedFinger: Sendable {
    public var id: UInt64
    public var downMS: Int
    public var upMS: Int
    public var path: @Sendable (Double) -> PointMM

    public init(id: UInt64, downMS: Int = 0, upMS: Int, path: @escaping @Sendable (Double) -> PointMM) {
        self.id = id
        self.downMS = downMS
        self.upMS = upMS
        self.path = path
    }
}

/// The script's time origin: an arbitrary non-zero timestamp, as a real device would give.
public let scriptStart = EventTime(seconds: 1_000, microseconds: 0)

public func eventTime(ms: Double) -> EventTime {
    EventTime(totalMicroseconds: scriptStart.totalMicroseconds + Int64((ms * 1000).rounded()))
}

public func milliseconds(_ t: EventTime) -> Double {
    Double(t.totalMicroseconds - scriptStart.totalMicroseconds) / 1000
}

/// Frames every `stepMS` from the first finger down to the last finger up. A finger's first frame has
/// phase `began`, the frame at (or just after) its `upMS` has phase `ended` at its last position.
public func makeFrames(_ fingers: [ScriptedFinger], stepMS: Int = 10, jitterMM: Double = 0, seed: UInt64 = 1,
                       untilMS: Int? = nil) -> [TouchFrame] {
    var jitter = SeededRandom(seed: seed)
    let start = fingers.map(\.downMS).min() ?? 0
    let end = untilMS ?? (fingers.map(\.upMS).max() ?? 0)
    var frames: [TouchFrame] = []
    var last: [UInt64: PointMM] = [:]
    var ended: Set<UInt64> = []
    var ms = start
    while ms <= end + stepMS {
        var frame = TouchFrame(time: eventTime(ms: Double(ms)))
        var down = 0
        for (slot, f) in fingers.enumerated() where ms >= f.downMS && !ended.contains(f.id) {
            let p = f.path(Double(ms) / 1000)
            let jittered = PointMM(x: p.x + jitter.offset(jitterMM), y: p.y + jitter.offset(jitterMM))
            let phase: TouchPhase
            var position = jittered
            if ms >= f.upMS {
                phase = .ended
                position = last[f.id] ?? jittered
                ended.insert(f.id)
            } else if last[f.id] == nil {
                phase = .began
            } else {
                phase = last[f.id] == jittered ? .stationary : .moved
            }
            if phase != .ended { down += 1 }
            last[f.id] = position
            _ = frame.append(Touch(id: f.id, trackingID: Int32(f.id), slot: Int32(slot), phase: phase, position: position))
        }
        frame.fingerCount = down
        if frame.touches.isEmpty && ms > end { break }
        frames.append(frame)
        ms += stepMS
    }
    return frames
}

/// A finger moving in a straight line at constant velocity (mm/s) from `start` at time `fromS`.
public func linear(_ start: PointMM, _ velocity: PointMM, fromS: Double = 0) -> @Sendable (Double) -> PointMM {
    { t in start + velocity * max(0, t - fromS) }
}

public func still(_ p: PointMM) -> @Sendable (Double) -> PointMM { { _ in p } }

/// "kind.state" per event, runs of `changed` folded: ["pinch.began", "pinch.changed", "pinch.ended"].
public func states(_ events: [GestureEvent]) -> [String] {
    var out: [String] = []
    for e in events {
        let s = "\(e.kind.rawValue).\(e.state.rawValue)"
        if e.state == .changed, out.last == s { continue }
        out.append(s)
    }
    return out
}
