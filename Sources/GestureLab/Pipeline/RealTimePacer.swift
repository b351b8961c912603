import GestureCore

#if canImport(Glibc)
import Glibc
#endif

/// Sleeps so that events come out at their recorded pace (divided by `speed`). Only the pacing uses
/// the wall clock; every time in the output is still the recorded one.
public struct RealTimePacer: Sendable {
    /// How many times faster than recorded events come out.
    public let speed: Double
    private var firstEvent: EventTime?
    private var start = 0.0

    /// - Parameter speed: 1 plays as recorded, 2 twice as fast; must be > 0 and finite.
    public init(speed: Double) { self.speed = speed }

    /// Sleeps until `time` is due, or until `stop` says to stop (checked at least every 50 ms).
    public mutating func wait(until time: EventTime, unless stop: () -> Bool) {
        let now = MonotonicClock.seconds()
        guard let firstEvent else {
            self.firstEvent = time
            start = now
            return
        }
        let due = start + Double(time.totalMicroseconds - firstEvent.totalMicroseconds) / 1_000_000 / speed
        while !stop() {
            let remaining = due - MonotonicClock.seconds()
            guard remaining > 0, remaining.isFinite else { return }
            Self.sleep(seconds: min(remaining, 0.05))
        }
    }

    /// Sleeps `seconds` (< 1), returning early on a signal.
    private static func sleep(seconds: Double) {
        var request = timespec(tv_sec: 0, tv_nsec: Int(seconds * 1e9))
        var remaining = timespec()
        _ = nanosleep(&request, &remaining)
    }
}
