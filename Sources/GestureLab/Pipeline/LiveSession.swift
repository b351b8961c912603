import GestureCore
import GestureKit

#if canImport(Glibc)
import Glibc
#endif

/// A live device through the pipeline: events are consumed as they become readable, and between
/// them time moves on by an injected clock, so a pending finger-count change can time out and the
/// completion animation plays while the fingers are off the device.
///
/// The clock only fills the gaps between events: the pipeline's time stays the device's event
/// time at the last event plus the clock's time since, so a live run decides exactly as a replay of
/// the same events does. `pinchlab live` and the latency benchmark both run this loop. The pipeline
/// starts from the device's state when the session is made, so fingers already down are seen.
package struct LiveSession {
    /// Why `run` returned.
    package enum StopReason: Equatable, Sendable {
        /// `shouldStop` said so (Ctrl-C, SIGTERM, a benchmark that has enough samples).
        case requested
        /// No event for `idleTimeoutSeconds`.
        case idle
        /// The device went away (`ENODEV`): a gesture in flight is cancelled by `finish`.
        case deviceRemoved
    }

    package let input: EvdevDevice
    package private(set) var pipeline: ReplayPipeline
    /// Seconds on a monotonic clock; only differences are used.
    package let clock: () -> Double
    /// Stop after this long without events (nil: never).
    package var idleTimeoutSeconds: Double?
    /// How long to wait for events before letting time move on (the completion animation's and the
    /// live view's refresh interval).
    package var idleStepMS: Int32

    /// When the session began, on `clock`.
    let startedAt: Double
    private var lastEvent: (time: EventTime, at: Double)?

    static let defaultIdleStepMS: Int32 = 16

    package init(input: EvdevDevice, pipeline: ReplayPipeline, clock: @escaping () -> Double = MonotonicClock.seconds,
                idleTimeoutSeconds: Double? = nil, idleStepMS: Int32 = LiveSession.defaultIdleStepMS) {
        self.input = input
        self.pipeline = pipeline
        self.pipeline.seed(withState: input.currentStateEvents())
        self.clock = clock
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.idleStepMS = idleStepMS
        self.startedAt = clock()
    }

    /// Reads until `shouldStop`, the idle timeout or the device's removal.
    ///
    /// - Parameters:
    ///   - shouldStop: checked between reads (Ctrl-C sets what it reads).
    ///   - emit: every record the pipeline makes.
    ///   - afterEvent: called after each event went through the pipeline (benchmarks time here),
    ///     with the session's first event, which records' times count from (a flight recorder's
    ///     dump places its window by it).
    ///   - whileIdle: called each time the device had nothing to read (a view refreshes here),
    ///     with the session's first event, nil before any.
    package mutating func run(
        shouldStop: () -> Bool,
        emit: (LabRecord) -> Void,
        afterEvent: (_ event: InputEvent, _ origin: EventTime) -> Void = { _, _ in },
        whileIdle: (_ origin: EventTime?) -> Void = { _ in }
    ) throws -> StopReason {
        while !shouldStop() {
            do {
                switch try input.readEvent() {
                case .event(let event):
                    lastEvent = (event.time, clock())
                    pipeline.consume(event, emit: emit)
                    afterEvent(event, pipeline.origin ?? event.time)
                case .wouldBlock:
                    let now = clock()
                    if let last = lastEvent {
                        let elapsed = now - last.at
                        if let idleTimeoutSeconds, elapsed >= idleTimeoutSeconds { return .idle }
                        let micros = Int64((elapsed * 1_000_000).rounded(.down))
                        pipeline.advance(to: EventTime(totalMicroseconds: last.time.totalMicroseconds + micros), emit: emit)
                    } else if let idleTimeoutSeconds, now - startedAt >= idleTimeoutSeconds {
                        return .idle
                    }
                    whileIdle(pipeline.origin)
                    _ = try input.waitReadable(timeoutMS: idleStepMS)
                }
            } catch EvdevError.deviceRemoved {
                return .deviceRemoved
            }
        }
        return .requested
    }

    /// Ends the run: a gesture in flight is cancelled, the completion animation plays to its end,
    /// and the summary is returned.
    package mutating func finish(source: String?, emit: (LabRecord) -> Void) -> LabSummary {
        pipeline.finish(source: source, emit: emit)
    }
}

/// `CLOCK_MONOTONIC` in seconds: for live runs' gaps between events, never for replays.
package enum MonotonicClock {
    package static func seconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
