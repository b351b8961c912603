import Foundation

/// Where a child process the tests start writes its standard output and error: two files in a
/// fresh temporary directory, so that a chatty process never blocks on a full pipe; the test reads
/// them back once it exits.
struct ProcessOutputFiles {
    /// The directory the two files are in (a browser keeps its profile there too).
    let directory: URL
    let stdout: URL
    let stderr: URL

    /// Makes the two files, empty, and points `process`'s standard error at one, its standard
    /// output at the other or at `standardOutput` (`/dev/full` to make every write fail).
    init(of process: Process, standardOutput: URL? = nil) throws {
        directory = try CLI.temporaryDirectory()
        stdout = directory.appendingPathComponent("stdout")
        stderr = directory.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: stdout.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stderr.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: standardOutput ?? stdout)
        process.standardError = try FileHandle(forWritingTo: stderr)
    }

    /// What the exited `process` wrote, with its status.
    func result(of process: Process) throws -> CLI.Result {
        CLI.Result(status: process.terminationStatus, stdout: String(decoding: try Data(contentsOf: stdout), as: UTF8.self),
                   stderr: String(decoding: try Data(contentsOf: stderr), as: UTF8.self))
    }
}
