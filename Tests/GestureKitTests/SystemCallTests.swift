import Foundation
import Glibc
import Synchronization
import SystemPackage
import Testing
@testable import GestureCore
@testable import GestureKit

/// How many SIGUSR1s the test handler has seen.
private let signalsHandled = Atomic<Int>(0)

/// The typed system-call layer: errno kinds from real failing calls, and `EINTR` retried where
/// the layer promises it (a read) and not where it promises not to (poll).
@Suite(.serialized) struct SystemCallTests {
    @Test func realFailuresHaveTheirKind() throws {
        #expect(throws: Errno(rawValue: ENOENT)) { try FileDescriptor.openCloseOnExec("/nonexistent-pinchlab/x", .readOnly) }
        #expect(Errno(rawValue: ENOENT).kind == .notFound)
        #expect(throws: Errno(rawValue: EISDIR)) { try FileDescriptor.openCloseOnExec("/", .writeOnly) }
        #expect(Errno(rawValue: EISDIR).kind == .isDirectory)
        // /dev/full answers every write with ENOSPC: a full disk without filling one.
        let full = try FileDescriptor.openCloseOnExec("/dev/full", .writeOnly)
        defer { try? full.close() }
        let bytes = [UInt8](repeating: 0x41, count: 10)
        do {
            try bytes.withUnsafeBytes { try full.writeAll(from: $0) }
            Issue.record("a write to /dev/full succeeded")
        } catch let error as Errno {
            #expect(error.kind == .noSpace)
            #expect(error.description == String(cString: strerror(ENOSPC)))
        }
        #expect(Errno(rawValue: EACCES).kind == .permissionDenied && Errno(rawValue: EPERM).kind == .permissionDenied)
        #expect(Errno(rawValue: ENODEV).kind == .noDevice && Errno(rawValue: EAGAIN).kind == .wouldBlock)
        #expect(Errno(rawValue: EINTR).kind == .interrupted && Errno(rawValue: EDOM).kind == .other)
    }

    /// Paths reach the system as given: swift-system's `FilePath` would drop a trailing slash, and
    /// `file/` (ENOTDIR) would then open or stat `file`.
    @Test func pathsKeepATrailingSlash() throws {
        let (temporary, path) = try FileDescriptor.openTemporary(template: NSTemporaryDirectory() + "/pinchlab-syscall-XXXXXX")
        defer { unlink(path); try? temporary.close() }
        #expect(throws: Errno.notDirectory) { try FileDescriptor.openCloseOnExec(path + "/", .readOnly) }
        #expect(throws: Errno.notDirectory) { try Stat(atPath: path + "/") }
        #expect(try Stat(atPath: path).type == .regular)
        #expect(try Stat(atPath: path).inodeNumber == (try temporary.stat()).inodeNumber)
    }

    @Test func descriptorsAreCloseOnExec() throws {
        let fd = try FileDescriptor.openCloseOnExec("/dev/null", .readOnly)
        defer { try? fd.close() }
        #expect(fcntl(fd.rawValue, F_GETFD) & FD_CLOEXEC != 0)
        let copy = try fd.duplicateCloseOnExec()
        defer { try? copy.close() }
        #expect(fcntl(copy.rawValue, F_GETFD) & FD_CLOEXEC != 0)
        let (temporary, path) = try FileDescriptor.openTemporary(template: NSTemporaryDirectory() + "/pinchlab-syscall-XXXXXX")
        unlink(path)
        defer { try? temporary.close() }
        #expect(fcntl(temporary.rawValue, F_GETFD) & FD_CLOEXEC != 0)
    }

    /// A read waiting on an empty pipe (in ppoll, `readUnlessStopping`'s wait), hit by a signal
    /// whose handler was installed without `SA_RESTART` (as pinchlab's stop handler is): the
    /// kernel fails the wait with `EINTR`, and the layer must wait again, returning the byte
    /// written after the signal instead of an error.
    @Test func aReadInterruptedByASignalIsRetried() throws {
        try withInterruptingSignal { reading, writing, reader in
            let outcome = Outcome<Result<[UInt8], Errno>>()
            let finished = DispatchSemaphore(value: 0)
            let thread = Thread {
                reader.enter()
                let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1, alignment: 1)
                defer { buffer.deallocate() }
                let result = Result { () throws(Errno) -> [UInt8] in
                    let count = try reading.readUnlessStopping(into: buffer)
                    return Array(buffer.prefix(count))
                }
                outcome.value.withLock { $0 = result }
                finished.signal()
            }
            thread.start()
            let signalled = try reader.interruptWhileBlocked(inSystemCall: SystemCallNumber.ppoll)
            #expect(signalled, "the reader was interrupted in ppoll(2)")
            // The retry waits in ppoll again: only then is the byte written.
            #expect(reader.waitUntilBlocked(inSystemCall: SystemCallNumber.ppoll), "the reader waited again after EINTR")
            try [UInt8(ascii: "x")].withUnsafeBytes { try writing.writeAll(from: $0) }
            #expect(finished.wait(timeout: .now() + 10) == .success)
            #expect(try outcome.value.withLock { $0 }?.get() == [UInt8(ascii: "x")])
        }
    }

    /// poll is the call the layer does not retry: the stop handler's signal must end the wait.
    @Test func aPollInterruptedByASignalSaysSo() throws {
        try withInterruptingSignal { reading, writing, reader in
            let outcome = Outcome<Result<FileDescriptor.PollEvents, Errno>>()
            let finished = DispatchSemaphore(value: 0)
            let thread = Thread {
                reader.enter()
                let result = Result { () throws(Errno) in try reading.poll(for: .readable, timeoutMS: 20_000) }
                outcome.value.withLock { $0 = result }
                finished.signal()
            }
            thread.start()
            let signalled = try reader.interruptWhileBlocked(inSystemCall: SystemCallNumber.poll)
            #expect(signalled, "the poller was interrupted in poll(2)")
            #expect(finished.wait(timeout: .now() + 10) == .success)
            let result = outcome.value.withLock { $0 }
            #expect(throws: Errno(rawValue: EINTR)) { try result?.get() }
            _ = writing
        }
    }

    /// Installs a SIGUSR1 handler without `SA_RESTART` for `body`, with a pipe and a handle on the
    /// thread to interrupt.
    private func withInterruptingSignal(
        _ body: (FileDescriptor, FileDescriptor, BlockedThread) throws -> Void
    ) throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        let reading = FileDescriptor(rawValue: ends[0]), writing = FileDescriptor(rawValue: ends[1])
        defer { try? reading.close(); try? writing.close() }
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in signalsHandled.add(1, ordering: .relaxed) }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        var previous = sigaction()
        sigaction(SIGUSR1, &action, &previous)
        defer { sigaction(SIGUSR1, &previous, nil) }
        signalsHandled.store(0, ordering: .relaxed)
        try body(reading, writing, BlockedThread())
    }
}

/// What the interrupted thread's call returned.
final class Outcome<T: Sendable>: Sendable {
    let value = Mutex<T?>(nil)
}

/// System call numbers as `/proc/<pid>/task/<tid>/syscall` shows them (x86_64, aarch64).
enum SystemCallNumber {
    #if arch(x86_64)
    static let read = 0
    static let poll = 7
    static let ppoll = 271
    #elseif arch(arm64)
    static let read = 63
    static let poll = 73  // ppoll: aarch64 has no poll(2); glibc's poll calls ppoll
    static let ppoll = 73
    #endif
}

/// The thread a test interrupts: who it is, and which system call it is blocked in.
final class BlockedThread: @unchecked Sendable {
    // @unchecked: written once by the thread itself before `ready` is signalled.
    private var thread = pthread_t()
    private var tid: pid_t = 0
    private let ready = DispatchSemaphore(value: 0)

    /// Called on the thread itself, first: records it and lets SIGUSR1 through.
    func enter() {
        thread = pthread_self()
        // "/proc/thread-self" links to "<pid>/task/<tid>" (Swift does not see glibc's gettid).
        let link = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? ""
        tid = pid_t(link.split(separator: "/").last.flatMap { Int32($0) } ?? 0)
        var usr1 = sigset_t()
        sigemptyset(&usr1)
        sigaddset(&usr1, SIGUSR1)
        pthread_sigmask(SIG_UNBLOCK, &usr1, nil)
        ready.signal()
    }

    /// Waits (up to 10 s) until the thread sleeps in system call `number`.
    func waitUntilBlocked(inSystemCall number: Int) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if let text = try? String(contentsOfFile: "/proc/self/task/\(tid)/syscall", encoding: .utf8),
               text.split(separator: " ").first.flatMap({ Int($0) }) == number {
                return true
            }
            usleep(2_000)
        }
        return false
    }

    /// Sends SIGUSR1 once the thread is blocked in `number`; true when the handler ran.
    func interruptWhileBlocked(inSystemCall number: Int) throws -> Bool {
        guard ready.wait(timeout: .now() + 10) == .success, waitUntilBlocked(inSystemCall: number) else { return false }
        try #require(pthread_kill(thread, SIGUSR1) == 0)
        let deadline = Date().addingTimeInterval(10)
        while signalsHandled.load(ordering: .relaxed) == 0 && Date() < deadline { usleep(1_000) }
        return signalsHandled.load(ordering: .relaxed) == 1
    }
}
