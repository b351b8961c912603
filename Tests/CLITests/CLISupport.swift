import Foundation
import PinchlabTestSupport
import VirtualEvdev
import Testing

/// Runs the built `pinchlab` binary (built with the tests: the test target depends on it).
struct CLI {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let binary: URL = {
        let here = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var dir = here.deletingLastPathComponent()
        // The XCTest/Testing bundle may be a directory (…/pinchlabPackageTests.xctest/…); walk up to the build dir.
        for _ in 0..<4 where !FileManager.default.fileExists(atPath: dir.appendingPathComponent("pinchlab").path) {
            dir = dir.deletingLastPathComponent()
        }
        return dir.appendingPathComponent("pinchlab")
    }()

    /// The environment every process the tests start gets, `environment` over it. Every pinchlab the
    /// tests start runs libinput afresh: a run kept by an earlier test would make a test of timing
    /// or interruption finish before it could be timed or interrupted (LibinputCacheCLITests turns
    /// the cache on for its own runs).
    static func environment(_ environment: [String: String]?) -> [String: String] {
        ProcessInfo.processInfo.environment.merging(["PINCHLAB_NO_CACHE": "1"]) { $1 }.merging(environment ?? [:]) { $1 }
    }

    /// Whether a run of pinchlab keeps time with the wall clock: it serves, reads or records a
    /// device, or runs libinput or lisgd beside it, which read the events at the times they were
    /// made (a late event is a wrong answer there, and a libinput run with late events is not kept).
    /// A device served `--fast` keeps no time: it computes as fast as it can.
    static func keepsRealTime(_ arguments: [String]) -> Bool {
        guard let command = arguments.first, !arguments.contains("--fast") else { return false }
        if ["serve", "live", "record", "libinput", "devices"].contains(command) { return true }
        if command == "report" { return !arguments.contains("--no-libinput") }
        return arguments.contains { ["--with-libinput", "--with-lisgd", "--speed"].contains($0) }
    }

    /// How `process` starts pinchlab with `arguments`. Tests run many children at once on a machine
    /// of two cores, and those that keep real time must not fall behind it: every other run starts
    /// at the lowest priority (`nice -n 19`, which needs no privilege), so that a replay computing as
    /// fast as it can yields the processor to a served device, libinput or lisgd that has an event
    /// due. (A browser, which must load a live page in time too, is started as it is.)
    ///
    /// `PINCHLAB_TEST_CPU_LOG=FILE` (a diagnostic of the suite's own speed) appends each run's
    /// processor seconds, wall seconds and command line to FILE (through GNU time, /usr/bin/time).
    /// The tests that signal a child then signal GNU time instead, and fail: for measuring only.
    static func launch(_ process: Process, pinchlab arguments: [String]) {
        let command = keepsRealTime(arguments) ? [binary.path] : ["/usr/bin/nice", "-n", "19", binary.path]
        let measured = cpuLog.map { ["/usr/bin/time", "-a", "-o", $0, "-f", "%U %S %e %C"] } ?? []
        let line = measured + command + arguments
        process.executableURL = URL(fileURLWithPath: line[0])
        process.arguments = Array(line.dropFirst())
    }

    private static let cpuLog = ProcessInfo.processInfo.environment["PINCHLAB_TEST_CPU_LOG"]

    static func fixture(_ relative: String) -> String {
        packageRoot.appendingPathComponent("Fixtures").appendingPathComponent(relative).path
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var lines: [String] { stdout.split(separator: "\n").map(String.init) }

        func json(line index: Int) throws -> [String: Any] {
            let data = Data(lines[index < 0 ? lines.count + index : index].utf8)
            return try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        }
    }

    /// `standardOutput`: where the process's stdout goes instead of a file the result reads back
    /// (`/dev/full` to make every write fail). `standardInput`: a `FileHandle` or `Pipe` for the
    /// process's stdin (default: the test's). `executable` and `directory`: another program (git,
    /// /bin/sh), run the same way, and where it runs.
    @discardableResult
    static func run(_ arguments: [String], timeout: TimeInterval = 120, standardOutput: String? = nil,
                    environment: [String: String]? = nil, standardInput: Any? = nil,
                    executable: URL = binary, directory: URL = packageRoot) throws -> Result {
        let process = Process()
        if executable == binary {
            launch(process, pinchlab: arguments)
        } else {
            process.executableURL = executable
            process.arguments = arguments
        }
        if let standardInput { process.standardInput = standardInput }
        process.environment = CLI.environment(environment)
        process.currentDirectoryURL = directory
        let output = try ProcessOutputFiles(of: process, standardOutput: standardOutput.map { URL(fileURLWithPath: $0) })
        defer { try? FileManager.default.removeItem(at: output.directory) }
        try process.start()
        if !CLI.waitForExit(process, timeout: timeout) {
            Issue.record("pinchlab \(arguments.joined(separator: " ")) did not finish within \(timeout) s")
        }
        return try output.result(of: process)
    }

    /// A pinchlab process running in the background; `finish()` waits and collects its output.
    final class Running {
        let process = Process()
        let arguments: [String]
        let output: ProcessOutputFiles

        init(_ arguments: [String], standardInput: Any? = nil, environment: [String: String]? = nil) throws {
            self.arguments = arguments
            if let standardInput { process.standardInput = standardInput }
            process.environment = CLI.environment(environment)
            output = try ProcessOutputFiles(of: process)
            CLI.launch(process, pinchlab: arguments)
            process.currentDirectoryURL = CLI.packageRoot
            try process.start()
        }

        var stderrSoFar: String { (try? String(contentsOf: output.stderr, encoding: .utf8)) ?? "" }
        var stdoutSoFar: String { (try? String(contentsOf: output.stdout, encoding: .utf8)) ?? "" }

        func finish(timeout: TimeInterval = 60) throws -> Result {
            if !CLI.waitForExit(process, timeout: timeout) {
                Issue.record("pinchlab \(arguments.joined(separator: " ")) did not finish within \(timeout) s")
            }
            return try output.result(of: process)
        }

        /// A test that ends early (a failed #require) still stops the process the way a user would,
        /// so a `serve` unmounts; SIGKILL only if it does not stop.
        deinit {
            guard process.isRunning else { return }
            process.interrupt()
            if !CLI.waitFor(5, { !process.isRunning }) { kill(process.processIdentifier, SIGKILL) }
        }
    }

    /// Waits for `process` to exit; past `timeout` it is sent SIGTERM, then SIGKILL, so a stuck
    /// child can fail a test but never hang the suite. Returns whether it exited by itself.
    static func waitForExit(_ process: Process, timeout: TimeInterval) -> Bool {
        if waitFor(timeout, { !process.isRunning }) { process.waitUntilExit(); return true }
        process.terminate()
        if !waitFor(5, { !process.isRunning }) { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return false
    }

    /// `value` as JSON text with sorted keys: dictionaries compare regardless of their order.
    static func canonicalJSON(_ value: Any?) -> String {
        guard let value, let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]) else {
            return "nil"
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Waits until `condition` holds or `timeout` passes.
    @discardableResult
    static func waitFor(_ timeout: TimeInterval, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            if Date() > deadline { return false }
            usleep(10_000)
        }
        return true
    }

    /// Waits until `process` has `path` open (a FIFO it waits on, a file it writes): the moment
    /// a test of what happens then can act, where a fixed sleep guesses at it and a loaded machine
    /// starts the process later than the guess.
    @discardableResult
    static func waitUntil(_ process: Process, hasOpen path: String, timeout: TimeInterval = 20) -> Bool {
        let descriptors = "/proc/\(process.processIdentifier)/fd"
        return waitFor(timeout) {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: descriptors)) ?? []
            return entries.contains { (try? FileManager.default.destinationOfSymbolicLink(atPath: descriptors + "/" + $0)) == path }
        }
    }

    /// Waits until a thread of `process` is blocked reading an empty pipe (`pipe_read` in its
    /// `/proc/.../wchan`): it has taken everything written to it so far.
    @discardableResult
    static func waitUntilReadingAPipe(_ process: Process, timeout: TimeInterval = 60) -> Bool {
        // An input is waited for in ppoll before it is read (`readUnlessStopping`).
        waitUntil(process, timeout: timeout) { $0.hasSuffix("pipe_read") || $0.hasPrefix("poll_schedule_timeout") }
    }

    /// Waits until a thread of `process` is blocked writing to a full pipe (`pipe_write`).
    @discardableResult
    static func waitUntilWritingAFullPipe(_ process: Process, timeout: TimeInterval = 60) -> Bool {
        waitUntil(process, isWaitingIn: "pipe_write", timeout: timeout)
    }

    /// Waits until a thread of `process` sleeps in the kernel function ending in `function`.
    private static func waitUntil(_ process: Process, isWaitingIn function: String, timeout: TimeInterval) -> Bool {
        waitUntil(process, timeout: timeout) { $0.hasSuffix(function) }
    }

    /// Waits until a thread of `process` sleeps in a kernel function `isAwaited` accepts.
    private static func waitUntil(_ process: Process, timeout: TimeInterval, _ isAwaited: (String) -> Bool) -> Bool {
        let tasks = "/proc/\(process.processIdentifier)/task"
        return waitFor(timeout) {
            let threads = (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []
            return threads.contains { isAwaited((try? String(contentsOfFile: tasks + "/" + $0 + "/wchan", encoding: .utf8)) ?? "") }
        }
    }

    /// `pinchlab` with `arguments`, as the user `nobody` when the tests run as root.
    static func runAsUnprivilegedUser(_ arguments: [String]) throws -> CLI.Result {
        guard geteuid() == 0 else { return try CLI.run(arguments) }
        let setpriv = "/usr/bin/setpriv"
        try #require(FileManager.default.isExecutableFile(atPath: setpriv), "setpriv (util-linux) drops root for this test")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: setpriv)
        process.arguments = ["--reuid=nobody", "--regid=nogroup", "--clear-groups", CLI.binary.path] + arguments
        process.environment = CLI.environment(nil)
        process.currentDirectoryURL = CLI.packageRoot
        let output = try ProcessOutputFiles(of: process)
        try process.start()
        _ = CLI.waitForExit(process, timeout: 60)
        return try output.result(of: process)
    }

    /// A new directory under the system's temporary directory, removed when the test process exits
    /// (tests read their outputs back before that, and a failed test's files would not help a CI log).
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("pinchlab-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        TemporaryDirectories.shared.add(url)
        return url
    }
}

/// The directories `CLI.temporaryDirectory()` made, removed at exit.
final class TemporaryDirectories: @unchecked Sendable {
    static let shared: TemporaryDirectories = {
        atexit { TemporaryDirectories.shared.removeAll() }
        return TemporaryDirectories()
    }()
    private var urls: [URL] = []
    private let lock = NSLock()

    func add(_ url: URL) { lock.lock(); urls.append(url); lock.unlock() }

    func removeAll() {
        lock.lock()
        defer { lock.unlock() }
        for url in urls { try? FileManager.default.removeItem(at: url) }
        urls = []
    }
}

extension VirtualEvdevOptions {
    /// The options of the devices the tests mount in their own process: no crash watcher. Its
    /// fusermount3 would keep whatever descriptors the test process had open when it mounted (the
    /// pipes of a child another test is reading, another device's socket) for the device's life,
    /// and tests mount while others start children.
    static var inTests: VirtualEvdevOptions { VirtualEvdevOptions(unmountsAfterACrash: false) }
}
