import Foundation
import Testing

/// Runs pinchlab under GNU time and reads its peak resident memory as it exits (`%M`: `wait4`'s
/// `ru_maxrss` for that child alone). Not `wait4` from here: a child spawned by this process
/// (`posix_spawn`, `Process`: vfork) is charged at its `exec` with this process's own peak, the
/// test runner's, and `getrusage(RUSAGE_CHILDREN)` is the largest of every child run so far.
enum PeakMemory {
    static let gnuTime = "/usr/bin/time"

    struct Run {
        var status: Int32
        /// The child's maximum resident set size.
        var peakMiB: Double
        var stderr: String
    }

    /// `pinchlab ARGUMENTS`; past `timeout` it is stopped and the test fails.
    static func run(_ arguments: [String], timeout: TimeInterval = 180) throws -> Run {
        let peakFile = try CLI.temporaryDirectory().appendingPathComponent("peak").path
        let r = try CLI.run(["-f", "%M", "-o", peakFile, CLI.binary.path] + arguments, timeout: timeout,
                            executable: URL(fileURLWithPath: gnuTime))
        let kibibytes = try String(contentsOfFile: peakFile, encoding: .utf8).split(separator: "\n").last.flatMap { Double($0) }
        return Run(status: r.status, peakMiB: try #require(kibibytes, "GNU time's %M") / 1024, stderr: r.stderr)
    }
}
