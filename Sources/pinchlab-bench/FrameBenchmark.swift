import GestureKit
import GestureLab
import InteractiveTransition

/// Per touch frame: the time and heap allocations of the recognizer and the transition driver, and
/// of the whole pipeline (assembler included), in steady state.
///
/// Events are read into memory first so no file I/O is measured. Each measurement runs the same
/// stream twice through one instance: the first pass warms it up (buffers reach their size), the
/// second, shifted later in time so the clock keeps moving forwards, is measured.
enum FrameBenchmark {
    /// Frames held in memory for the recognizer measurement (a frame is about 1 KiB: 16 touch slots inline).
    static let maximumFrames = 60_000
    static let transitionName = "pinch-dismiss"

    static func run(path: String) throws -> [String] {
        var source = try openRecording(path: path)
        let device = source.device
        var events: [InputEvent] = []
        var frames: [TouchFrame] = []
        var assembler = TouchFrameAssembler(device: device)
        while frames.count < maximumFrames, let event = try source.nextEvent() {
            events.append(event)
            if let frame = assembler.consume(event) { frames.append(frame) }
        }
        guard let first = events.first, let last = events.last else { return ["frames-empty"] }
        let passShiftMicroseconds = last.time.totalMicroseconds - first.time.totalMicroseconds + 1_000_000
        let counter = AllocationCounter()
        return [
            try recognizerAndDriver(frames: frames, device: device, shift: passShiftMicroseconds, counter: counter).line,
            try pipeline(events: events, frameCount: frames.count, device: device, shift: passShiftMicroseconds, counter: counter).line,
        ]
    }

    /// What the recognizer and driver emit is summed into `sink` so the work cannot be optimised away.
    struct Sink {
        var gestures = 0
        var transitions = 0
        var progressSum = 0.0
    }

    static func recognizerAndDriver(frames: [TouchFrame], device: DeviceDescription, shift: Int64,
                                    counter: AllocationCounter?) throws -> ResultLine {
        let settings = LabSettings.default
        var recognizer = TouchGestureRecognizer(configuration: settings.recognizerConfiguration(for: device))
        var driver = try GestureTransitionDriver(transitionName: transitionName, settings: settings)
        let origin = frames[0].time.totalMicroseconds
        var sink = Sink()

        func pass(_ offset: Int64) {
            for var frame in frames {
                frame.time = EventTime(totalMicroseconds: frame.time.totalMicroseconds + offset)
                let now = Double(frame.time.totalMicroseconds - origin) / 1_000_000
                driver.advance(to: now) { record in
                    sink.transitions += 1
                    sink.progressSum += record.progress
                }
                for gesture in recognizer.process(frame) {
                    sink.gestures += 1
                    driver.handle(gesture, at: now) { record in
                        sink.transitions += 1
                        sink.progressSum += record.progress
                    }
                }
            }
        }

        pass(0)
        var allocations: UInt64?
        var seconds = 0.0
        if let counter {
            allocations = counter.count { seconds = MonotonicClock.seconds { pass(shift) } }
        } else {
            seconds = MonotonicClock.seconds { pass(shift) }
        }
        return line("recognizer+driver", frames: frames.count, seconds: seconds, allocations: allocations,
                    gestures: sink.gestures / 2, trials: driver.trials.count, checksum: sink.progressSum)
    }

    static func pipeline(events: [InputEvent], frameCount: Int, device: DeviceDescription, shift: Int64,
                         counter: AllocationCounter?) throws -> ResultLine {
        var pipeline = try ReplayPipeline(device: device, transition: transitionName)
        var records = 0
        var progressSum = 0.0

        func pass(_ offset: Int64) {
            for var event in events {
                event.time = EventTime(totalMicroseconds: event.time.totalMicroseconds + offset)
                pipeline.consume(event) { record in
                    records += 1
                    if case .transition(let step) = record { progressSum += step.progress }
                }
            }
        }

        pass(0)
        var allocations: UInt64?
        var seconds = 0.0
        if let counter {
            allocations = counter.count { seconds = MonotonicClock.seconds { pass(shift) } }
        } else {
            seconds = MonotonicClock.seconds { pass(shift) }
        }
        return line("pipeline-in-memory", frames: frameCount, seconds: seconds, allocations: allocations,
                    gestures: pipeline.gestures.count / 2, trials: pipeline.driver.trials.count, checksum: progressSum)
    }

    static func line(_ name: String, frames: Int, seconds: Double, allocations: UInt64?, gestures: Int,
                     trials: Int, checksum: Double) -> ResultLine {
        var line = ResultLine("frames-" + name)
        line.add("frames", frames)
        line.add("ns_per_frame", seconds * 1e9 / Double(frames), decimals: 1)
        if let allocations {
            line.add("allocations", Int(allocations))
            line.add("allocations_per_frame", Double(allocations) / Double(frames), decimals: 4)
        } else {
            line.add("allocations", "n/a")
            line.add("allocations_per_frame", "n/a")
        }
        line.add("gestures_per_pass", gestures)
        line.add("trials_total", trials)
        line.add("checksum", checksum, decimals: 3)
        return line
    }
}
