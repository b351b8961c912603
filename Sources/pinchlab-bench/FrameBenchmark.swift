import GestureCore
import GestureKit
import GestureLab
import InteractiveTransition

/// Per touch frame: the time and heap allocations of the recognizer and the transition driver, and
/// of the whole pipeline (assembler included), in steady state.
///
/// Events are read into memory first so no file I/O is measured. Each measurement runs the same
/// stream three times through one instance, shifted later in time each pass so the clock keeps
/// moving forwards: the first pass warms it up (buffers reach their size), the second is timed, the
/// third counts allocations frame by frame (reading the counter costs a little, so it is not timed).
///
/// A "quiet" frame is one where no gesture began, ended or was cancelled and no transition was
/// released or completed: the frames of a gesture in progress, and of fingers resting. Allocations
/// there are what the zero-allocation goal is about; a gesture's begin and release may allocate
/// (a new trial, the decision's reason text, the summary's growing lists).
enum FrameBenchmark {
    /// Frames held in memory for the recognizer measurement (a frame is about 1 KiB: 16 touch slots inline).
    static let maximumFrames = 60_000
    static let transitionName = TransitionName.pinchDismiss

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
            try pipeline(events: events, frameCount: frames.count, device: device, shift: passShiftMicroseconds,
                         counter: counter).line,
        ]
    }

    /// What a pass saw: sums of the output (so the work cannot be optimised away) and allocations.
    struct PassResult {
        var gestureEvents = 0
        var gesturesEnded = 0
        var transitions = 0
        var progressSum = 0.0
        var frames = 0
        var quietFrames = 0
        var allocationsInQuietFrames: UInt64 = 0
        var allocations: UInt64 = 0
    }

    static func recognizerAndDriver(frames: [TouchFrame], device: DeviceDescription, shift: Int64,
                                    counter: AllocationCounter?) throws -> ResultLine {
        let settings = LabSettings.default
        var recognizer = TouchGestureRecognizer(configuration: settings.recognizerConfiguration(for: device))
        var driver = try GestureTransitionDriver(transition: transitionName, settings: settings)
        let origin = frames[0].time.totalMicroseconds

        func pass(_ offset: Int64, counter: AllocationCounter?) -> PassResult {
            var result = PassResult()
            // One buffer kept from frame to frame, as the replay pipeline keeps it.
            var recognized = GestureEvents()
            for var frame in frames {
                let before = counter?.total ?? 0
                var quiet = true
                frame.time = EventTime(totalMicroseconds: frame.time.totalMicroseconds + offset)
                let now = Double(frame.time.totalMicroseconds - origin) / 1_000_000
                driver.advance(to: now) { record in
                    result.transitions += 1
                    result.progressSum += record.progress
                    if record.state.isTerminal || record.reason != nil { quiet = false }
                }
                recognizer.process(frame, into: &recognized)
                for index in 0..<recognized.count {
                    let gesture = recognized.event(at: index)  // in place, as ReplayPipeline reads it
                    result.gestureEvents += 1
                    if gesture.state != .changed { quiet = false }
                    if gesture.state.isFinal { result.gesturesEnded += 1 }
                    driver.handle(gesture, at: now) { record in
                        result.transitions += 1
                        result.progressSum += record.progress
                        if record.state.isTerminal || record.reason != nil { quiet = false }
                    }
                }
                result.frames += 1
                if let counter {
                    let made = counter.total - before
                    result.allocations += made
                    if quiet { result.quietFrames += 1; result.allocationsInQuietFrames += made }
                }
            }
            return result
        }

        return measure(name: "recognizer+driver", counter: counter) { pass(0, counter: nil) } timed: {
            pass(shift, counter: nil)
        } counted: { counter in
            pass(2 * shift, counter: counter)
        }
    }

    static func pipeline(events: [InputEvent], frameCount: Int, device: DeviceDescription, shift: Int64,
                         counter: AllocationCounter?) throws -> ResultLine {
        var pipeline = try ReplayPipeline(device: device, transition: transitionName)

        func pass(_ offset: Int64, counter: AllocationCounter?) -> PassResult {
            var result = PassResult()
            var quiet = true
            var before = counter?.total ?? 0
            for var event in events {
                event.time = EventTime(totalMicroseconds: event.time.totalMicroseconds + offset)
                let framesBefore = pipeline.frameCount
                pipeline.consume(event) { record in
                    switch record {
                    case .frame:
                        break
                    case .gesture(let gesture):
                        result.gestureEvents += 1
                        if gesture.event.state != .changed { quiet = false }
                        if gesture.event.state.isFinal { result.gesturesEnded += 1 }
                    case .transition(let step):
                        result.transitions += 1
                        result.progressSum += step.progress
                        if step.state.isTerminal || step.reason != nil { quiet = false }
                    case .stateChange, .button, .releaseMargins:
                        quiet = false
                    }
                }
                // A frame's records come from the event that completes it (its SYN_REPORT). Frame
                // records are off (as in `replay`), so the pipeline's count tells.
                guard pipeline.frameCount != framesBefore else { continue }
                result.frames += 1
                if let counter {
                    let now = counter.total
                    result.allocations += now - before
                    if quiet { result.quietFrames += 1; result.allocationsInQuietFrames += now - before }
                    before = now
                }
                quiet = true
            }
            return result
        }

        return measure(name: "pipeline-in-memory", counter: counter) { pass(0, counter: nil) } timed: {
            pass(shift, counter: nil)
        } counted: { counter in
            pass(2 * shift, counter: counter)
        }
    }

    static func measure(name: String, counter: AllocationCounter?, warm: () -> PassResult, timed: () -> PassResult,
                        counted: (AllocationCounter) -> PassResult) -> ResultLine {
        _ = warm()
        var result = PassResult()
        let seconds = Stopwatch.seconds { result = timed() }
        var line = ResultLine("frames-" + name)
        line.add("frames", result.frames)
        line.add("ns_per_frame", seconds * 1e9 / Double(max(result.frames, 1)), decimals: 1)
        line.add("gesture_events", result.gestureEvents)
        line.add("gestures_ended", result.gesturesEnded)
        line.add("checksum", result.progressSum, decimals: 3)
        if let counter {
            var counting = PassResult()
            counter.counting { counting = counted(counter) }
            line.add("quiet_frames", counting.quietFrames)
            line.add("allocations_quiet_frames", Int(counting.allocationsInQuietFrames))
            line.add("allocations", Int(counting.allocations))
            line.add("allocations_per_frame", Double(counting.allocations) / Double(max(counting.frames, 1)), decimals: 4)
            line.add("allocations_per_gesture", Double(counting.allocations) / Double(max(counting.gesturesEnded, 1)), decimals: 2)
        } else {
            for key in ["quiet_frames", "allocations_quiet_frames", "allocations", "allocations_per_frame", "allocations_per_gesture"] {
                line.add(key, "n/a")
            }
        }
        return line
    }
}
