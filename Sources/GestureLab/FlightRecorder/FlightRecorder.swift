import GestureCore
import GestureKit

/// `pinchlab live --keep SECONDS`: the last SECONDS of the device's raw events (an `EventRing`)
/// and of the lines the session printed, so that the gesture that went wrong can be written out
/// after it happened (`snapshot`, then `FlightDump.write` off the reading thread).
///
/// Memory is fixed when it is made: the event ring's records and the line ring's slots are
/// reserved once, and `note` only overwrites them (their pages are touched as they fill). Lines
/// are kept at most `linesMax`; past that the oldest go, and a dump's lines then begin later than
/// its events (it says so).
package final class FlightRecorder {
    package let seconds: Double
    package let device: DeviceDescription
    package let events: EventRing
    // Unchecked: noted and snapshot on the reading thread only (the dump thread gets a copy); a
    // dynamic exclusivity check on each access was a large part of the recorder's per-event cost.
    /// The kept lines' slots, allocated once: `lineCount` of them filled, the oldest at `nextLine`
    /// once all are.
    private let lines: UnsafeMutablePointer<KeptLine>
    @exclusivity(unchecked) private var lineCount = 0
    @exclusivity(unchecked) private var nextLine = 0
    private let lineCapacity: Int
    /// Lines dropped for room.
    @exclusivity(unchecked) private var lineCountDropped = 0
    /// The number the session's next gesture and next attempt will have.
    @exclusivity(unchecked) private var nextGesture = 0
    @exclusivity(unchecked) private var nextTrial = 0

    /// Lines per second assumed: a gesture line and a transition line per frame at 125 frames a
    /// second, and the completion's 60 steps a second.
    static let assumedLinesPerSecond = 310
    /// The most lines kept (about 300 bytes each).
    static let linesMax = 1 << 15
    /// `--keep`'s bounds, in seconds.
    package static let secondsRange: ClosedRange<Double> = 0...3600

    package init(seconds: Double, device: DeviceDescription, stateAtOpen: [InputEvent]) {
        self.seconds = seconds
        self.device = device
        events = EventRing(capacity: EventRing.capacity(seconds: seconds, device: device), device: device,
                           stateAtOpen: stateAtOpen)
        lineCapacity = seconds > 0 ? min(Self.linesMax, Int((seconds * Double(Self.assumedLinesPerSecond)).rounded(.up))) : 0
        lines = .allocate(capacity: max(1, lineCapacity))
    }

    deinit {
        lines.deinitialize(count: lineCount)
        lines.deallocate()
    }

    package var isOn: Bool { events.capacity > 0 }

    /// Keeps an event the session read (after the pipeline consumed it). Inlined into the reading
    /// loop, with the ring's `append`.
    @inlinable @inline(__always)
    package func note(_ event: InputEvent) {
        events.append(event)
    }

    /// Keeps a line the session printed (gestures, transition steps, buttons; frames are not lines).
    package func note(_ record: borrowing LabRecord) {
        guard lineCapacity > 0 else { return }
        // Each case writes its payload straight into its slot (POD: initializing over an old line
        // needs no deinitialization): one copy of the line, where building a `KeptLine` first and
        // storing it was five.
        let slot = lines + nextLine
        switch record {
        case .gesture(let g):
            if g.event.state.isFinal { nextGesture = g.gesture + 1 }
            slot.initialize(to: .gesture(g))
        case .transition(let t):
            nextTrial = t.trial + 1
            slot.initialize(to: .transition(t))
        case .button(let b): slot.initialize(to: .button(b))
        case .frame, .stateChange, .releaseMargins: return
        }
        if lineCount < lineCapacity { lineCount += 1 } else { lineCountDropped += 1 }
        nextLine += 1
        if nextLine == lineCapacity { nextLine = 0 }
    }

    /// The kept lines, oldest first.
    private var orderedLines: [LabRecord] {
        let oldest = lineCount < lineCapacity ? 0 : nextLine
        return (0..<lineCount).map { lines[(oldest + $0) % lineCapacity].record }
    }

    /// What the recorder holds now, copied for a dump written on another thread: the events' whole
    /// frames with the state at their start, the lines from the window's first event on, and the
    /// session's numbering there. Nil before the first whole frame.
    ///
    /// - Parameter origin: the session's first event (`ReplayPipeline.origin`), which the lines'
    ///   times count from: the window's times are counted from it the same way, so that a line and
    ///   an event at one moment have one time.
    package func snapshot(origin: EventTime) -> FlightSnapshot? {
        let window = events.window(seconds: seconds)
        guard let first = window.events.first, let last = window.events.last else { return nil }
        let start = (window.stateTime ?? first.time).seconds(since: origin)
        let end = last.time.seconds(since: origin)
        let ordered = orderedLines
        // Lines at the state's time belong to the frame before the window (equal Doubles: the same
        // two times through the same `seconds(since:)`).
        let kept = ordered.filter { (Self.time(of: $0) ?? -1) > start || (window.isWhole && Self.time(of: $0) == start) }
        let position = SessionPosition(origin: origin,
                                       firstGesture: Self.firstGesture(in: kept) ?? nextGesture,
                                       firstTrial: Self.firstTrial(in: kept) ?? nextTrial)
        let linesBegin = lineCountDropped > 0 && kept.count == ordered.count ? kept.first.flatMap(Self.time(of:)) : nil
        return FlightSnapshot(device: device, window: window, position: position, lines: kept,
                              linesBeginLate: linesBegin, windowStart: start, windowEnd: end, seconds: seconds)
    }

    static func time(of record: LabRecord) -> Double? {
        switch record {
        case .gesture(let g): g.time
        case .transition(let t): t.time
        case .button(let b): b.time
        case .frame(_, let time), .stateChange(_, let time): time
        case .releaseMargins(let m): m.time
        }
    }

    /// The number the window's first gesture has: that of the first gesture line in it (a gesture
    /// in flight at the start keeps its number, as a replay's continuation of it takes it).
    static func firstGesture(in lines: [LabRecord]) -> Int? {
        for case .gesture(let g) in lines { return g.gesture }
        return nil
    }

    /// The number the window's first attempt has: that of the first transition line, or the next
    /// one when that line is a completion already under way (a replay starts no attempt for it).
    static func firstTrial(in lines: [LabRecord]) -> Int? {
        for case .transition(let t) in lines {
            return t.state == .interactive ? t.trial : t.trial + 1
        }
        return nil
    }
}

/// A line a flight recorder keeps (frames and state changes are not lines), as a plain value: its
/// payloads hold no references, so keeping one is a copy of bytes, where a `LabRecord` (which can
/// hold a whole touch frame) was copied through its value witnesses (FlightRecorderTests checks
/// that it stays plain).
package enum KeptLine {
    case gesture(GestureRecord)
    case transition(TransitionRecord)
    case button(ButtonRecord)

    var record: LabRecord {
        switch self {
        case .gesture(let g): .gesture(g)
        case .transition(let t): .transition(t)
        case .button(let b): .button(b)
        }
    }
}

/// A flight recorder's contents at one moment, copied: what a dump writes.
package struct FlightSnapshot: Sendable {
    package var device: DeviceDescription
    package var window: EventWindow
    package var position: SessionPosition
    /// The session's lines from the window's start on (gestures, transition steps, buttons).
    package var lines: [LabRecord]
    /// When lines were dropped for room: the time of the first line kept (later than `windowStart`).
    package var linesBeginLate: Double?
    /// Session seconds of the window's start (its state) and of its last event.
    var windowStart: Double
    var windowEnd: Double
    /// The seconds asked for (`--keep`).
    package var seconds: Double

    /// The window holds less than asked although the session ran longer: the device sent more
    /// events per second than the ring was sized for.
    package var isShort: Bool { !window.isWhole && windowEnd - windowStart < seconds * 0.95 }
}
