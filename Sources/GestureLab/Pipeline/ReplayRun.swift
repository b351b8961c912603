import GestureCore
import InteractiveTransition

/// The one way pinchlab runs an event source through recognizers and a transition to its end:
/// `replay`, `plot`, `tune`, `check`, the viewer and the libinput comparison all call it, so they
/// agree on every file, including one that turns bad part-way.
///
/// It opens nothing: the caller opens the source (`openRecording`, an `EventList` in memory) and
/// decides what to print. What it guarantees:
/// - **Bad data mid-file** (the source throws): the run stops there as if the recording ended,
///   the gesture in flight is cancelled (nobody lifted those fingers, the policy is not asked),
///   the completion animation plays out, and the summary covers everything read before the bad
///   line, with the typed error in `LabSummary.error` and in `Result.stop` for the caller's exit
///   status (65 for a `RecordingError`).
/// - **Interrupt** (`shouldStop` returns true, checked before every event): the same ending, with
///   `Result.stop == .interrupted`.
///
///     var source = try openRecording(path: path)
///     var run = try ReplayRun(device: source.device, transition: .panDismiss)
///     let result = run.run(&source, name: path) { record in ... }
///     print(result.summary.outcomes)
///
/// Per event nothing is allocated: records go to the non-escaping `emit` as values.
public struct ReplayRun: Sendable {
    /// Why the run ended.
    public enum Stop: Sendable {
        /// The source had no more events.
        case endOfInput
        /// `shouldStop` asked for it (Ctrl-C, SIGTERM, a caller that has enough).
        case interrupted
        /// The source threw part-way (a bad line, a read error); the error is also the summary's.
        case failed(any Error)
    }

    /// What a run produced: the summary (its last line of output) and why it ended.
    public struct Result: Sendable {
        /// The run's summary (its last line of output).
        public var summary: LabSummary
        /// Why the run ended.
        public var stop: Stop

        /// The error that stopped the run early, if one did.
        public var error: (any Error)? {
            if case .failed(let error) = stop { return error }
            return nil
        }
        /// Whether `shouldStop` ended the run.
        public var wasInterrupted: Bool {
            if case .interrupted = stop { return true }
            return false
        }
    }

    /// The per-event engine; read it after a run for counts and the driver's trials.
    package private(set) var pipeline: ReplayPipeline

    /// Measure every release's margins (`ReplayPipeline.measuresMargins`): set before `run`.
    package var measuresMargins: Bool {
        get { pipeline.measuresMargins }
        set { pipeline.measuresMargins = newValue }
    }

    /// - Parameters:
    ///   - device: the device the events come from (`source.device`).
    ///   - transition: the transition the gestures drive.
    ///   - settings: recognizer thresholds, policy and mappings.
    ///   - recordsFrames: also emit `.frame` records (plots and live views draw fingers from them).
    ///   - recordsStateChanges: also emit the recognizer's `.stateChange` records (`--explain`, `--trace`).
    ///   - position: where the events sit in a live session (a dump of `live --keep`), nil for a recording.
    public init(device: DeviceDescription, transition: TransitionName = .pinchDismiss,
                settings: LabSettings = .default, recordsFrames: Bool = false,
                recordsStateChanges: Bool = false, position: SessionPosition? = nil) throws {
        pipeline = try ReplayPipeline(device: device, transition: transition, settings: settings,
                                      recordsFrames: recordsFrames, position: position)
        pipeline.recordsStateChanges = recordsStateChanges
    }

    /// Reads `source` to its end (or to a bad event, or until `shouldStop`), then finishes the
    /// pipeline and returns the summary. Never throws: a failing source ends the run like the end
    /// of the input, and the error is in the result.
    ///
    /// - Parameters:
    ///   - source: the events, read to their end or until the run stops.
    ///   - name: the source as the summary names it (`source` in JSON), e.g. the file's display name.
    ///   - pacer: plays events at their recorded pace (scaled); nil runs as fast as possible.
    ///   - shouldStop: checked before every event.
    ///   - afterEvent: called with each event after the pipeline consumed it (a second pipeline
    ///     fed the same events, as `--compare` does; benchmarks).
    ///   - emit: every record in time order, including those of the ending.
    public mutating func run<Source: InputEventSource>(
        _ source: inout Source, name: String?, pacer: RealTimePacer? = nil,
        shouldStop: () -> Bool = { false }, afterEvent: (InputEvent) -> Void = { _ in },
        emit: (LabRecord) -> Void
    ) -> Result {
        var pacer = pacer
        var stop = Stop.endOfInput
        do {
            // A batch at a time (`nextEvents`): a call per event through the source's witness
            // table cost about 30 instructions an event, with the loop around it.
            while let goesOn = try source.nextEvents({ events in
                for index in events.indices {
                    let event = events[index]
                    pacer?.wait(until: event.time, unless: shouldStop)
                    if shouldStop() { return false }
                    pipeline.consume(event, emit: emit)
                    afterEvent(event)
                }
                return true
            }) {
                if !goesOn {
                    stop = .interrupted
                    break
                }
            }
        } catch {
            // A read that a stop request ended (a stalled pipe) is the interruption, not bad input.
            stop = shouldStop() ? .interrupted : .failed(error)
        }
        var summary = pipeline.finish(source: name, emit: emit)
        if case .failed(let error) = stop { summary.error = error }
        return Result(summary: summary, stop: stop)
    }

    /// A whole run in one call: `ReplayRun(device: source.device, ...)` then `run`.
    public static func run<Source: InputEventSource>(
        _ source: inout Source, name: String?, transition: TransitionName = .pinchDismiss,
        settings: LabSettings = .default, recordsFrames: Bool = false,
        shouldStop: () -> Bool = { false }, emit: (LabRecord) -> Void = { _ in }
    ) throws -> Result {
        var run = try ReplayRun(device: source.device, transition: transition, settings: settings,
                                recordsFrames: recordsFrames)
        return run.run(&source, name: name, shouldStop: shouldStop, emit: emit)
    }
}

/// Events already in memory (a corpus file read once and replayed many times) as a source.
package struct EventList: InputEventSource, Sendable {
    package let device: DeviceDescription
    package let events: [InputEvent]
    private var next = 0

    package init(device: DeviceDescription, events: [InputEvent]) {
        self.device = device
        self.events = events
    }

    package mutating func nextEvent() -> InputEvent? {
        guard next < events.count else { return nil }
        defer { next += 1 }
        return events[next]
    }
}
