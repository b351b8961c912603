import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// Every system call pinchlab makes on a file descriptor, over swift-system's `FileDescriptor`:
/// its calls where it has them (open, read, write, close, `stat`, `seek`, `resize(to:)`), and here
/// only what it lacks (`poll`, `ioctl`, `mkstemp`, `fchmod`, `flock`, `F_DUPFD_CLOEXEC`, `O_NONBLOCK` changes) or what
/// pinchlab means differently. Each throws a typed `Errno`.
///
/// `EINTR` is retried by swift-system (`retryOnInterrupt`), by the calls that may simply start
/// again (open, write, ftruncate). Three are pinchlab's own: `close` never retries (Linux releases
/// the descriptor even when it reports `EINTR`, and a second close could close a descriptor
/// another thread has just been given; swift-system does the same), `poll` never retries (its
/// `.interrupted` is how a SIGINT/SIGTERM handler installed without `SA_RESTART` stops a loop that
/// waits on a device), and a read of user input retries unless a stop was asked for
/// (`readUnlessStopping`). Every descriptor opened here is close-on-exec, so none leaks into a
/// child process (`libinput debug-events`, `fusermount3`).
///
/// A value: whoever opened it closes it, once.
extension FileDescriptor {
    /// `0o644`: what a created file gets (less the umask).
    static let newFilePermissions: FilePermissions = [.ownerReadWrite, .groupRead, .otherRead]

    /// Opens `path`, close-on-exec. `permissions` apply to a file `.create` makes (less the umask).
    package static func openCloseOnExec(
        _ path: String, _ mode: AccessMode, options: OpenOptions = [], permissions: FilePermissions = newFilePermissions
    ) throws(Errno) -> FileDescriptor {
        // The C string as given, not a `FilePath`: that would normalize it (drop a trailing slash),
        // and `out/` must still fail as a directory rather than create `out`.
        try Errno.catching {
            try path.withCString {
                try FileDescriptor.open($0, mode, options: options.union(.closeOnExec), permissions: permissions)
            }
        }
    }

    /// `flock(LOCK_EX | LOCK_NB)`: takes the exclusive advisory lock of the open file (released
    /// when this descriptor closes, or the process ends however it ends); false when another open
    /// file holds it. `EINTR` retried (a non-blocking call cannot wait on a signal).
    func tryLockExclusive() throws(Errno) -> Bool {
        while true {
            if flock(rawValue, LOCK_EX | LOCK_NB) == 0 { return true }
            let error = Errno.current
            if error == .interrupted { continue }
            if error == .wouldBlock { return false }
            throw error
        }
    }

    /// `tryLockExclusive` again every 20 ms until it holds the lock, `timeoutSeconds` pass, or a
    /// stop is asked for (`StopRequest`); whether it holds it.
    package func lockExclusive(timeoutSeconds: Double) throws(Errno) -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int64(timeoutSeconds * 1000))
        while true {
            if try tryLockExclusive() { return true }
            if StopRequest.isRequested || ContinuousClock.now >= deadline { return false }
            usleep(20_000)
        }
    }

    /// Creates and opens a new file from `template` (ending in `XXXXXX`, replaced to make the name
    /// unused), close-on-exec (set just after: Swift does not see glibc's `mkostemp`). Returns the
    /// descriptor and the name made.
    package static func openTemporary(template: String) throws(Errno) -> (FileDescriptor, path: String) {
        var bytes = Array(template.utf8CString)
        let fd = bytes.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw Errno.current }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        let path = bytes.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return (FileDescriptor(rawValue: fd), path)
    }

    /// Opens `path` for reading as an input a user named (a recording, a settings file), so that
    /// SIGINT/SIGTERM can end the wait for it. A FIFO's `open` blocks until a writer comes, and is
    /// restarted after a signal; so it is opened without blocking and its writer waited for with
    /// `poll`, which a stop (`StopRequest`) ends with `.interrupted`. Reads then block as usual.
    static func openInput(_ path: String) throws(Errno) -> FileDescriptor {
        let fd = try openCloseOnExec(path, .readOnly, options: .nonBlocking)
        do throws(Errno) {
            if try fd.stat().type == .fifo { try fd.waitForWriter() }
            try fd.setNonBlocking(false)
        } catch {
            try? fd.close()
            throw error
        }
        return fd
    }

    /// Waits until the FIFO opened here (without blocking) has had a writer: Linux reports neither
    /// data nor a hang-up on a FIFO that no writer has opened yet, so the wait lasts until one
    /// comes, or until a stop (`waitUntilReadableUnlessStopping`).
    private func waitForWriter() throws(Errno) {
        try waitUntilReadableUnlessStopping()
    }

    /// Sets or clears `O_NONBLOCK`.
    func setNonBlocking(_ nonBlocking: Bool) throws(Errno) {
        let flags = fcntl(rawValue, F_GETFL)
        guard flags >= 0 else { throw Errno.current }
        let wanted = nonBlocking ? flags | O_NONBLOCK : flags & ~O_NONBLOCK
        guard wanted == flags || fcntl(rawValue, F_SETFL, wanted) == 0 else { throw Errno.current }
    }

    /// The start of a file a user named as input (`openInput`), at most `limit + 1` bytes, so a
    /// caller tells a file over its limit by the count and no file (`/dev/zero`, a huge one) is
    /// read whole; `EISDIR` for a directory.
    package static func contents(ofFile path: String, limit: Int) throws(Errno) -> [UInt8] {
        let fd = try openInput(path)
        defer { try? fd.close() }
        if try fd.stat().type == .directory { throw Errno.isDirectory }
        var contents: [UInt8] = []
        try fd.readToEnd(appendingTo: &contents, limit: limit + 1)
        return contents
    }

    /// Reads until the end of the file (or of a pipe), or until `bytes` holds `limit` bytes,
    /// appending to `bytes`; what came before a failed read stays in `bytes`.
    package func readToEnd(appendingTo bytes: inout [UInt8], limit: Int = .max) throws(Errno) {
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)
        defer { chunk.deallocate() }
        while bytes.count < limit {
            let wanted = Swift.min(chunk.count, limit - bytes.count)
            let count = try readUnlessStopping(into: UnsafeMutableRawBufferPointer(rebasing: chunk[..<wanted]))
            if count == 0 { return }
            bytes.append(contentsOf: chunk.prefix(count))
        }
    }

    /// Reads up to `buffer.count` bytes; 0 at the end of the file. A signal restarts the read
    /// unless it asked to stop (`StopRequest`): then `.interrupted`, so a stalled pipe cannot hold
    /// a command the user stopped. The read begins once `waitUntilReadableUnlessStopping` says
    /// there is something to read, so it never blocks.
    package func readUnlessStopping(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        while true {
            try waitUntilReadableUnlessStopping()
            do throws(Errno) {
                return try Errno.catching { try read(into: buffer, retryOnInterrupt: false) }
            } catch where error.kind == .interrupted && !StopRequest.isRequested {
                continue
            }
        }
    }

    /// Waits until a read would not block (data, the end, a hang-up or an error), or throws
    /// `.interrupted` once a stop was asked for. The stop signals are held back from the look at
    /// `StopRequest` until `ppoll` lets them in, atomically, as it begins to wait: one that comes
    /// between the look and the wait ends the wait, where with `poll` (or `read`) it would be
    /// handled before the wait began and the wait would go on for ever. A thread that holds the
    /// stop signals back (`startSignalFreeThread`) waits with them held back still.
    private func waitUntilReadableUnlessStopping() throws(Errno) {
        var stops = StopRequest.signalSet, callerMask = sigset_t()
        pthread_sigmask(SIG_BLOCK, &stops, &callerMask)
        defer { pthread_sigmask(SIG_SETMASK, &callerMask, nil) }
        while true {
            if StopRequest.isRequested { throw Errno.interrupted }
            var entry = pollfd(fd: rawValue, events: Int16(POLLIN), revents: 0)
            if pollLettingIn(&entry, 1, nil, &callerMask) >= 0 { return }
            let error = Errno.current
            guard error.kind == .interrupted else { throw error }
        }
    }

    /// Writes all of `buffer`, continuing after short writes (swift-system's `write`, `EINTR`
    /// retried). On failure, `written` bytes of it had gone out (`onPartialFailure` is told before
    /// the error is thrown): swift-system's `writeAll` does not say how many.
    package func writeAll(from buffer: UnsafeRawBufferPointer, onPartialFailure: (_ written: Int) -> Void = { _ in }) throws(Errno) {
        var offset = 0
        while offset < buffer.count {
            do throws(Errno) {
                offset += try Errno.catching { try write(UnsafeRawBufferPointer(rebasing: buffer[offset...])) }
            } catch {
                onPartialFailure(offset)
                throw error
            }
        }
    }

    /// Writes all of `bytes` (`writeAll(from:)`), its error still an `Errno`. The closure hands its
    /// error out as a `Result` rather than rethrowing it: a typed `throws(Errno)` rethrown through
    /// `withUnsafeBytes` (an untyped `rethrows`) crashes Swift 6.3's optimizer.
    package func writeAll(_ bytes: ArraySlice<UInt8>) throws(Errno) {
        try bytes.withUnsafeBytes { buffer in Result { () throws(Errno) in try writeAll(from: buffer) } }.get()
    }

    /// Closes the descriptor (swift-system's `close`, never retried). An error means data may not
    /// have reached the file (NFS, a full disk), but the descriptor is gone either way.
    func closeReportingErrno() throws(Errno) {
        try Errno.catching { try close() }
    }

    /// A new descriptor for the same open file, close-on-exec (`F_DUPFD_CLOEXEC`; swift-system's
    /// `duplicate()` is a plain `dup`, which a child process would inherit).
    package func duplicateCloseOnExec() throws(Errno) -> FileDescriptor {
        let fd = fcntl(rawValue, F_DUPFD_CLOEXEC, 0)
        guard fd >= 0 else { throw Errno.current }
        return FileDescriptor(rawValue: fd)
    }

    /// `fchmod`.
    func setPermissions(_ permissions: FilePermissions) throws(Errno) {
        guard fchmod(rawValue, permissions.rawValue) == 0 else { throw Errno.current }
    }

    /// `ioctl(fd, request, argument)`; returns its non-negative result.
    @discardableResult
    package func control(_ request: UInt, _ argument: UnsafeMutableRawPointer) throws(Errno) -> Int32 {
        let result = ioctl(rawValue, request, argument)
        guard result >= 0 else { throw Errno.current }
        return result
    }

    /// The `poll(2)` event bits.
    package struct PollEvents: OptionSet, Sendable {
        package let rawValue: Int16
        package init(rawValue: Int16) { self.rawValue = rawValue }

        package static let readable = PollEvents(rawValue: Int16(POLLIN))
        package static let error = PollEvents(rawValue: Int16(POLLERR))
        static let hangUp = PollEvents(rawValue: Int16(POLLHUP))
        package static let invalid = PollEvents(rawValue: Int16(POLLNVAL))
    }

    /// Waits up to `timeoutMS` (negative: forever) for `events`; returns what happened (empty: the
    /// time ran out). A signal ends the wait with `.interrupted`, never retried: see the type.
    package func poll(for events: PollEvents, timeoutMS: Int32) throws(Errno) -> PollEvents {
        var entry = pollfd(fd: rawValue, events: events.rawValue, revents: 0)
        guard Glibc.poll(&entry, 1, timeoutMS) >= 0 else { throw Errno.current }
        return PollEvents(rawValue: entry.revents)
    }
}

extension Stat {
    /// What `stat` (or, with `followingLinks: false`, `lstat`) says about `path`, the path exactly
    /// as given (see `openCloseOnExec`: a `FilePath` would drop a trailing slash).
    package init(atPath path: String, followingLinks: Bool = true) throws(Errno) {
        self = try Errno.catching { try path.withCString { try Stat($0, followTargetSymlink: followingLinks) } }
    }

    /// `(st_dev, st_ino)` as plain numbers.
    var deviceNumber: UInt64 { UInt64(deviceID.rawValue) }
    package var inodeNumber: UInt64 { UInt64(inode.rawValue) }
}

/// glibc's `ppoll`, which Swift's Glibc module leaves out (it is a GNU extension): `poll` with the
/// thread's signal mask set to `mask` for the wait only, atomically.
@_silgen_name("ppoll")
private func pollLettingIn(_ entries: UnsafeMutablePointer<pollfd>, _ count: nfds_t, _ timeout: UnsafePointer<timespec>?,
                           _ mask: UnsafePointer<sigset_t>?) -> Int32
