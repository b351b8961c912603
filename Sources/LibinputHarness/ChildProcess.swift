import Foundation
import GestureKit
#if canImport(Glibc)
import Glibc
#endif

/// A child program with its stdout and stderr read to their ends on their own threads, started with
/// posix_spawn so that it gets default signal handling and an empty signal mask whatever its parent
/// blocks (a test runner or pinchlab's own signal thread block SIGTERM and SIGINT, and a child
/// inherits the mask across exec: it could then never be stopped but by SIGKILL).
final class ChildProcess: @unchecked Sendable {
    // @unchecked: `stdout`/`stderr` are written by their reader threads before `done` is signalled
    // and read only after; `pid` and `status` are used from the creating thread.
    let pid: pid_t
    private var stdout = Data(), stderr = Data()
    private let done = DispatchGroup()
    private var status: Int32?

    enum Failure: Error { case spawn(Errno), pipe(Errno) }

    init(path: String, arguments: [String], environment: [String: String]) throws {
        // Close-on-exec: not inherited by other children this process starts meanwhile (the dup2s
        // below make the child's own 1 and 2, which stay open across exec).
        let outPipe: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
        let errPipe: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
        do {
            outPipe = try FileDescriptor.pipe()
        } catch {
            throw Failure.pipe(error)
        }
        do {
            errPipe = try FileDescriptor.pipe()
        } catch {
            try? outPipe.readEnd.close(); try? outPipe.writeEnd.close()
            throw Failure.pipe(error)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe.writeEnd.rawValue, 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe.writeEnd.rawValue, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t(), defaults = sigset_t()
        sigemptyset(&empty)
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGPIPE, SIGHUP] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        let result = posix_spawn(&child, path, &actions, &attributes, argv, envp)
        try? outPipe.writeEnd.close()
        try? errPipe.writeEnd.close()
        guard result == 0 else {
            try? outPipe.readEnd.close(); try? errPipe.readEnd.close()
            throw Failure.spawn(Errno(result))  // posix_spawn returns the errno
        }
        pid = child
        let outRead = outPipe.readEnd, errRead = errPipe.readEnd
        done.enter()
        done.enter()
        Thread.detachNewThread { [self] in
            stdout = Self.readAll(outRead)
            done.leave()
        }
        Thread.detachNewThread { [self] in
            stderr = Self.readAll(errRead)
            done.leave()
        }
    }

    /// Everything until the end of the pipe (or until a read fails: what came so far).
    private static func readAll(_ fd: FileDescriptor) -> Data {
        defer { try? fd.close() }
        var bytes: [UInt8] = []
        try? fd.readToEnd(appendingTo: &bytes)
        return Data(bytes)
    }

    /// Whether it is still running (reaps it when it ended).
    var isRunning: Bool {
        guard status == nil else { return false }
        var raw: Int32 = 0
        let result = waitpid(pid, &raw, WNOHANG)
        if result == pid { status = raw; return false }
        return result == 0
    }

    /// Asks it to stop with `signal`; past `graceSeconds` kills it. Returns its output.
    func stop(signal: Int32 = SIGINT, graceSeconds: Double = 3) -> (stdout: String, stderr: String, exitStatus: Int32?) {
        if isRunning {
            kill(pid, signal)
            let deadline = Date().addingTimeInterval(graceSeconds)
            while isRunning && Date() < deadline { usleep(10_000) }
            if isRunning { kill(pid, SIGKILL) }
        }
        return wait()
    }

    /// Waits for it to end and for its output; `exitStatus` is nil when a signal ended it or its
    /// status is unknown.
    func wait() -> (stdout: String, stderr: String, exitStatus: Int32?) {
        if status == nil { status = try? waitForChild(pid) }
        done.wait()
        // A status waitpid could not give (the child already reaped) is unknown: nil, never "exited 0".
        let exitStatus = status.flatMap { raw in (raw & 0x7f) == 0 ? (raw >> 8) & 0xff : nil }
        return (String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self), exitStatus)
    }
}
