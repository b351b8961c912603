import Foundation
import GestureCore
import GestureKit
import GestureLab
import InteractiveTransition
import VirtualEvdev

/// Live latency: from the moment the virtual device makes a frame readable to the end of the
/// transition update that frame causes, through the same `LiveSession` loop `pinchlab live` runs
/// (poll, libevdev, frames, recognizer, driver, transition).
///
/// The virtual device stamps each packet with the time it generates it (`.generationTime`, in the
/// `CLOCK_MONOTONIC` that `EvdevDevice` asks for), which is when the packet becomes readable; after
/// the `SYN_REPORT` that closes a frame has gone through the pipeline, the sample is the monotonic
/// clock minus that stamp. Only frames that made at least one transition record count: those are
/// the updates a user waits for.
enum LatencyBenchmark {
    static let transitionName = TransitionName.pinchDismiss

    static func run(recording: String, samples wanted: Int, speed: Double, mountDirectory: String) throws -> ResultLine {
        var source = try openRecording(path: recording)
        var events: [InputEvent] = []
        while let event = try source.nextEvent() { events.append(event) }

        let device = try VirtualEvdevDevice(description: source.device, directory: mountDirectory,
                                            options: VirtualEvdevOptions(timestamps: .generationTime))
        defer { device.stop() }
        device.play(events, speed: speed, loop: true, startOnFirstRead: true, loopPauseMicroseconds: 100_000)
        let input = try EvdevDevice(path: device.path)
        var session = LiveSession(input: input, pipeline: try ReplayPipeline(device: input.device, transition: transitionName))
        // `live --keep SECONDS`' flight recorder on the same path (PINCHLAB_BENCH_KEEP, default 0: none),
        // noting every event and line as `live` does, to measure what it costs.
        let keep = ProcessInfo.processInfo.environment["PINCHLAB_BENCH_KEEP"].flatMap(Double.init) ?? 0
        let flight = FlightRecorder(seconds: keep, device: input.device, stateAtOpen: input.currentStateEvents())

        var samples: [Double] = []
        samples.reserveCapacity(wanted)
        var frames = 0
        var frameMadeUpdate = false
        let started = MonotonicClock.seconds()
        let stop = try session.run(
            shouldStop: { samples.count >= wanted || MonotonicClock.seconds() - started > 600 },
            emit: { record in
                if keep > 0 { flight.note(record) }
                if case .transition = record { frameMadeUpdate = true }
            },
            afterEvent: { event, _ in
                if keep > 0 { flight.note(event) }
                guard event.isSynReport else {
                    frameMadeUpdate = false   // a new frame begins; idle-time animation steps do not count
                    return
                }
                frames += 1
                if frameMadeUpdate {
                    samples.append(MonotonicClock.seconds() - Double(event.time.totalMicroseconds) / 1_000_000)
                }
                frameMadeUpdate = false
            })
        guard stop == .requested, samples.count >= wanted else {
            throw BenchmarkError("latency: only \(samples.count) of \(wanted) samples (stopped: \(stop))")
        }
        samples.sort()
        func percentile(_ p: Double) -> Double {
            samples[min(samples.count - 1, Int((p / 100 * Double(samples.count)).rounded(.up)) - 1)]
        }
        let micro = { (seconds: Double) in seconds * 1_000_000 }
        var line = ResultLine("pinchlab-latency")
        line.add("samples", samples.count)
        line.add("frames", frames)
        line.add("speed", speed, decimals: 2)
        line.add("keep_s", keep, decimals: 0)
        line.add("median_us", micro(percentile(50)), decimals: 1)
        line.add("p90_us", micro(percentile(90)), decimals: 1)
        line.add("p99_us", micro(percentile(99)), decimals: 1)
        line.add("max_us", micro(samples[samples.count - 1]), decimals: 1)
        line.add("min_us", micro(samples[0]), decimals: 1)
        return line
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
