import Testing
@testable import GestureKit

#if canImport(Glibc)
import Glibc
#endif

// Test support for the recognizer tests: builds TouchFrame sequences from parametric finger paths.

/// A finger on the surface from `downMS` to `upMS` (milliseconds from the script's start), at
/// `path(t)` millimetres, t in seconds from the script's start.
struct ScriptedFinger {
    var id: UInt64
    var downMS: Int = 0
    var upMS: Int
    var path: @Sendable (Double) -> PointMM
}

/// Deterministic jitter (SplitMix64).
struct SeededJitter {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// Uniform in [-amplitude, amplitude].
    mutating func offset(_ amplitude: Double) -> Double {
        guard amplitude > 0 else { return 0 }
        return (Double(next() >> 11) / Double(1 << 53) * 2 - 1) * amplitude
    }
}

/// The script's time origin: an arbitrary non-zero timestamp, as a real device would give.
let scriptStart = EventTime(seconds: 1_000, microseconds: 0)

func eventTime(ms: Double) -> EventTime {
    EventTime(totalMicroseconds: scriptStart.totalMicroseconds + Int64((ms * 1000).rounded()))
}

func milliseconds(_ t: EventTime) -> Double {
    Double(t.totalMicroseconds - scriptStart.totalMicroseconds) / 1000
}

/// Frames every `stepMS` from the first finger down to the last finger up. A finger's first frame has
/// phase `began`, the frame at (or just after) its `upMS` has phase `ended` at its last position.
func makeFrames(_ fingers: [ScriptedFinger], stepMS: Int = 10, jitterMM: Double = 0, seed: UInt64 = 1,
                untilMS: Int? = nil) -> [TouchFrame] {
    var jitter = SeededJitter(state: seed)
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
            frame.append(Touch(id: f.id, trackingID: Int32(f.id), slot: Int32(slot), phase: phase, position: position))
        }
        frame.fingerCount = down
        if frame.touches.isEmpty && ms > end { break }
        frames.append(frame)
        ms += stepMS
    }
    return frames
}

/// A finger moving in a straight line at constant velocity (mm/s) from `start` at time `fromS`.
func linear(_ start: PointMM, _ velocity: PointMM, fromS: Double = 0) -> @Sendable (Double) -> PointMM {
    { t in start + velocity * max(0, t - fromS) }
}

func still(_ p: PointMM) -> @Sendable (Double) -> PointMM { { _ in p } }

/// Runs frames through a recognizer, then finishes the stream after the last frame, and checks the
/// invariants every event stream must keep.
/// Holds are off unless `holds` (most tests are about pinch and pan; `RecognizerHoldTests` turn them on).
func recognize(_ frames: [TouchFrame], configuration: GestureRecognizerConfiguration = .default, holds: Bool = false,
               finish: Bool = true, sourceLocation: SourceLocation = #_sourceLocation) -> [GestureEvent] {
    var recognizer = TouchGestureRecognizer(configuration: holds ? configuration : configuration.withoutHolds)
    var events: [GestureEvent] = []
    for f in frames { events.append(contentsOf: recognizer.process(f)) }
    if finish, let last = frames.last {
        events.append(contentsOf: recognizer.finish(at: last.time.adding(milliseconds: 1)))
    }
    checkInvariants(events, sourceLocation: sourceLocation)
    return events
}

/// began -> changed* -> (ended | cancelled), one gesture at a time, time never going back, every
/// number finite, pinch began at scale 1, pan began at zero translation.
func checkInvariants(_ events: [GestureEvent], sourceLocation: SourceLocation = #_sourceLocation) {
    var current: GestureKind?
    var lastTime = EventTime(totalMicroseconds: 0)
    for e in events {
        #expect(e.time >= lastTime, "time went back at \(e)", sourceLocation: sourceLocation)
        lastTime = e.time
        let numbers = [e.scale, e.rotationDegrees, e.centerMM.x, e.centerMM.y, e.scaleVelocity,
                       e.translationMM.x, e.translationMM.y, e.velocityMMPerSecond.x, e.velocityMMPerSecond.y]
        let allFinite = numbers.allSatisfy { $0.isFinite }
        #expect(allFinite, "non-finite value in \(e)", sourceLocation: sourceLocation)
        #expect((e.decision == nil) == (e.state == .changed), "began/ended/cancelled name their rule, changed does not: \(e)",
                sourceLocation: sourceLocation)
        switch e.state {
        case .began:
            #expect(current == nil, "began while \(String(describing: current)) in flight", sourceLocation: sourceLocation)
            #expect(e.scale == 1 && e.rotationDegrees == 0 && e.translationMM == .zero, sourceLocation: sourceLocation)
            current = e.kind
        case .changed:
            #expect(current == e.kind, "changed without began: \(e)", sourceLocation: sourceLocation)
        case .ended, .cancelled:
            #expect(current == e.kind, "end without began: \(e)", sourceLocation: sourceLocation)
            current = nil
        }
    }
    #expect(current == nil, "a gesture was left open", sourceLocation: sourceLocation)
}

extension GestureRecognizerConfiguration {
    /// The same with holds turned off (minimum above maximum).
    var withoutHolds: GestureRecognizerConfiguration {
        var c = self
        c.holdMinimumFingerCount = 99
        c.holdMaximumFingerCount = 0
        return c
    }
}

func states(_ events: [GestureEvent]) -> [String] {
    var out: [String] = []
    for e in events {
        let s = "\(e.kind.rawValue).\(e.state.rawValue)"
        if e.state == .changed, out.last == s { continue }  // collapse runs of changed
        out.append(s)
    }
    return out
}

@Suite struct RecognizerHarnessTests {
    @Test func framesCarryPhasesAndCounts() {
        let frames = makeFrames([
            ScriptedFinger(id: 1, upMS: 30, path: linear(PointMM(x: 10, y: 10), PointMM(x: 100, y: 0))),
            ScriptedFinger(id: 2, downMS: 10, upMS: 20, path: still(PointMM(x: 30, y: 10))),
        ])
        #expect(frames.map { milliseconds($0.time) } == [0, 10, 20, 30])
        #expect(frames.map(\.fingerCount) == [1, 2, 1, 0])
        #expect(frames[0].touches[0].phase == .began)
        #expect(frames[1].touches[0].phase == .moved)
        #expect(frames[1].touches[1].phase == .began)
        #expect(frames[2].touches[1].phase == .ended)
        #expect(frames[3].touches[0].phase == .ended)
        // 100 mm/s for 20 ms: 2 mm; the lift repeats the last position.
        #expect(abs(frames[3].touches[0].position.x - 12) < 1e-9)
    }

    @Test func jitterIsSeededAndBounded() {
        var a = SeededJitter(state: 7), b = SeededJitter(state: 7)
        for _ in 0..<100 {
            let x = a.offset(0.2)
            #expect(x == b.offset(0.2))
            #expect(abs(x) <= 0.2)
        }
    }
}
