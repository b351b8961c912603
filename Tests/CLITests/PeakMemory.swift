import Foundation
import Testing

/// Runs pinchlab under GNU time and reads its peak resident memory as it exits (`%M`: `wait4`'s
/// `ru_maxrss` for that child alone). Not `wait4` from here: a child spawned by this process
/// (`posix_spawn`, `Process`: vfork) is charged at its `exec` with this process's own peak, the
/// test runner's, and `getrusage(RUSAGE_CHILDREN)` is the largest of every child run so far.
enum PeakMemory {
    static let gnuTime = "/usr/bin/time"

    struct Run {
        var result: CLI.Result
        /// The child's maximum resident set size, in bytes.
        var peakBytes: Int
        var status: Int32 { result.status }
        var stderr: String { result.stderr }
        var peakMiB: Double { Double(peakBytes) / 1_048_576 }
    }

    /// `pinchlab ARGUMENTS`; past `timeout` it is stopped and the test fails.
    static func run(_ arguments: [String], timeout: TimeInterval = 180) throws -> Run {
        let peakFile = try CLI.temporaryDirectory().appendingPathComponent("peak").path
        let r = try CLI.run(["-f", "%M", "-o", peakFile, CLI.binary.path] + arguments, timeout: timeout,
                            executable: URL(fileURLWithPath: gnuTime))
        // The last line: a status other than 0 is said on a line before it.
        let text = try String(contentsOfFile: peakFile, encoding: .utf8)
        let kibibytes = try #require(text.split(separator: "\n").last.flatMap { Int($0) }, "GNU time's %M: \(text)")
        return Run(result: r, peakBytes: kibibytes * 1024)
    }
}
