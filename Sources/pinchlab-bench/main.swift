import Glibc
import SystemPackage

/// `pinchlab-bench`: the in-process half of `Benchmarks/run.sh`.
///
///   pinchlab-bench generate FILE EVENTS [touchpad|touchscreen]
///       writes an evemu recording of EVENTS events: the standard corpus's gestures, re-synthesized
///       with several seeds and repeated back to back.
///   pinchlab-bench parse FILE       reads FILE with EvemuReader; prints events/s and a checksum
///                                   computed like Benchmarks/evemu_reference.c
///   pinchlab-bench pipeline FILE    replays FILE through ReplayPipeline (pinch-dismiss)
///   pinchlab-bench frames FILE      ns and heap allocations per touch frame, recognizer + driver
///                                   (and the whole pipeline), from events held in memory
///   pinchlab-bench latency FILE SAMPLES SPEED DIR
///                                   serves FILE (looped, SPEED x real time) as a virtual evdev device
///                                   mounted at DIR and reads it live: readable-to-transition-update
///                                   latency over SAMPLES frames
///
/// Every command prints one line of `key=value` pairs for the script to pick up.
let arguments = Array(CommandLine.arguments.dropFirst())

func printError(_ message: String) {
    try? Array((message + "\n").utf8).withUnsafeBytes { try FileDescriptor.standardError.writeAll(from: $0) }
}

func usage() -> Never {
    printError("usage: pinchlab-bench generate FILE EVENTS [touchpad|touchscreen] | parse FILE | pipeline FILE | frames FILE | latency FILE SAMPLES SPEED DIR")
    exit(64)
}

do {
    switch (arguments.first, arguments.count) {
    case ("generate", 3), ("generate", 4):
        guard let count = Int(arguments[2]), count > 0 else { usage() }
        let device = arguments.count == 4 ? CorpusDevice(rawValue: arguments[3]) : .touchpad
        guard let device else { usage() }
        let written = try BenchmarkFile.generate(path: arguments[1], eventCount: count, device: device)
        print("generated events=\(written) path=\(arguments[1])")
    case ("parse", 2):
        print(try ParseBenchmark.run(path: arguments[1]).line)
    case ("pipeline", 2):
        print(try PipelineBenchmark.run(path: arguments[1]).line)
    case ("frames", 2):
        for line in try FrameBenchmark.run(path: arguments[1]) { print(line) }
    case ("latency", 5):
        guard let samples = Int(arguments[2]), samples > 0, let speed = Double(arguments[3]), speed > 0 else { usage() }
        print(try LatencyBenchmark.run(recording: arguments[1], samples: samples, speed: speed, mountDirectory: arguments[4]).line)
    default:
        usage()
    }
} catch {
    printError("pinchlab-bench: \(error)")
    exit(1)
}
