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
        let seconds = try Stopwatch.seconds {
            var source = try openRecording(path: path)
            let result = try ReplayRun.run(&source, name: path, transition: transitionName, emit: { _ in records += 1 })
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
