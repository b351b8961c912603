import Foundation
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

    enum Failure: Error { case spawn(Int32), pipe(Int32) }

    init(path: String, arguments: [String], environment: [String: String]) throws {
        var outPipe: [Int32] = [0, 0], errPipe: [Int32] = [0, 0]
        guard pipe(&outPipe) == 0 else { throw Failure.pipe(errno) }
        guard pipe(&errPipe) == 0 else {
            let code = errno
            close(outPipe[0]); close(outPipe[1])
            throw Failure.pipe(code)
        }
        // Not inherited by other children this process starts meanwhile (the dup2s below make
        // the child's own 1 and 2, which stay open across exec).
        for fd in outPipe + errPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
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
        close(outPipe[1])
        close(errPipe[1])
        guard result == 0 else {
            close(outPipe[0]); close(errPipe[0])
            throw Failure.spawn(result)
        }
        pid = child
        let outRead = outPipe[0], errRead = errPipe[0]
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

    private static func readAll(_ fd: Int32) -> Data {
        defer { close(fd) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n > 0 { data.append(contentsOf: buffer[0..<n]) } else if n < 0 && errno == EINTR { continue } else { break }
        }
        return data
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

    /// Waits for it to end and for its output.
    func wait() -> (stdout: String, stderr: String, exitStatus: Int32?) {
        if status == nil {
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
            status = raw
        }
        done.wait()
        let raw = status ?? 0
        let exited = (raw & 0x7f) == 0
        return (String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self),
                exited ? (raw >> 8) & 0xff : nil)
    }
}
