import Foundation
import GestureKit
import GestureLab
import InteractiveTransition

/// Reads a whole evemu file, as the libevemu reference does, with the same checksum.
enum ParseBenchmark {
    static func run(path: String) throws -> ResultLine {
        var count = 0
        var checksum: Int64 = 0
        let seconds = try Stopwatch.seconds {
            let reader = try EvemuReader(path: path)
            while let event = try reader.nextEvent() {
                count += 1
                checksum &+= Int64(event.value) &+ Int64(event.code.rawValue) &+ Int64(event.type.rawValue)
            }
        }
        var line = ResultLine("pinchlab-parse")
        line.add("events", count)
        line.add("seconds", seconds, decimals: 6)
        line.add("events_per_second", (Double(count) / seconds).rounded(), decimals: 0)
        line.add("checksum", String(checksum))
        return line
    }
}

/// Replays a whole file through the pipeline in process (the same work as `pinchlab replay --summary`,
/// without printing).
enum PipelineBenchmark {
    static let transitionName = TransitionName.pinchDismiss

    static func run(path: String) throws -> ResultLine {
        var records = 0
        var events = 0
        var frames = 0
        var gestures = 0
        // `live --keep SECONDS`' flight recorder on the path, as live feeds it (PINCHLAB_BENCH_KEEP,
        // default 0: none): under callgrind, keep 0 against keep 60 is the ring's cost per event.
        let keep = ProcessInfo.processInfo.environment["PINCHLAB_BENCH_KEEP"].flatMap(Double.init) ?? 0
        let seconds = try Stopwatch.seconds {
            var source = try openRecording(path: path)
            let flight = FlightRecorder(seconds: keep, device: source.device, stateAtOpen: [])
            var run = try ReplayRun(device: source.device, transition: transitionName)
            let result = run.run(&source, name: path, afterEvent: { if keep > 0 { flight.note($0) } }, emit: { record in
                records += 1
                if keep > 0 { flight.note(record) }
            })
            if let error = result.error { throw error }
            let summary = result.summary
            events = summary.events
            frames = summary.frames
            gestures = summary.gestureCount   // the summary lists only the first LabSummary.maximumListed
        }
        var line = ResultLine("pinchlab-pipeline")
        line.add("events", events)
        line.add("frames", frames)
        line.add("gestures", gestures)
        line.add("records", records)
        line.add("seconds", seconds, decimals: 6)
        line.add("events_per_second", (Double(events) / seconds).rounded(), decimals: 0)
        return line
    }
}
