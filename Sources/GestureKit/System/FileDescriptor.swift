#if canImport(Glibc)
import Glibc
#endif

/// An open file descriptor, and every system call pinchlab makes on one.
///
/// Each call throws a typed `Errno` instead of returning -1; `EINTR` is retried in exactly one
/// place (`retryingOnInterrupt`), by the calls that may simply start again (read, write, open,
/// ftruncate). Two never retry: `close` (Linux releases the descriptor even when it reports `EINTR`,
/// and a second close could close a descriptor another thread has just been given) and `poll`
/// (its `.interrupted` is how a SIGINT/SIGTERM handler installed without `SA_RESTART` stops a
/// loop that waits on a device). Every descriptor opened here is close-on-exec, so none leaks into
/// a child process (`libinput debug-events`, `fusermount3`).
///
/// A value, like swift-system's `FileDescriptor`: whoever opened it closes it, once.
public struct FileDescriptor: Hashable, Sendable {
    public let rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let standardInput = FileDescriptor(rawValue: STDIN_FILENO)
    public static let standardOutput = FileDescriptor(rawValue: STDOUT_FILENO)
    public static let standardError = FileDescriptor(rawValue: STDERR_FILENO)

    public enum AccessMode: Sendable {
        case readOnly, writeOnly, readWrite

        var flags: Int32 {
            switch self {
            case .readOnly: O_RDONLY
            case .writeOnly: O_WRONLY
            case .readWrite: O_RDWR
            }
        }
    }

    public struct OpenOptions: OptionSet, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }

        public static let nonBlocking = OpenOptions(rawValue: O_NONBLOCK)
        public static let create = OpenOptions(rawValue: O_CREAT)
        public static let truncate = OpenOptions(rawValue: O_TRUNC)
        /// With `.create`: fails with `EEXIST` when the file is there.
        public static let exclusiveCreate = OpenOptions(rawValue: O_EXCL)
    }

    /// Opens `path`, close-on-exec. `permissions` apply to a file `.create` makes (less the umask).
    public static func open(
        _ path: String, _ mode: AccessMode, options: OpenOptions = [], permissions: mode_t = 0o644
    ) throws(Errno) -> FileDescriptor {
        let flags = mode.flags | options.rawValue | O_CLOEXEC
        let fd = try retryingOnInterrupt { Glibc.open(path, flags, permissions) }
        return FileDescriptor(rawValue: fd)
    }

    /// Creates and opens a new file from `template` (ending in `XXXXXX`, replaced to make the name
    /// unused), close-on-exec (set just after: Swift does not see glibc's `mkostemp`). Returns the
    /// descriptor and the name made.
    public static func openTemporary(template: String) throws(Errno) -> (FileDescriptor, path: String) {
        var bytes = Array(template.utf8CString)
        let fd = bytes.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw Errno.current }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        let path = bytes.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return (FileDescriptor(rawValue: fd), path)
    }

    /// A new pipe, both ends close-on-exec (set just after: Swift does not see glibc's `pipe2`).
    public static func pipe() throws(Errno) -> (readEnd: FileDescriptor, writeEnd: FileDescriptor) {
        var ends: [Int32] = [-1, -1]
        guard Glibc.pipe(&ends) == 0 else { throw Errno.current }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return (FileDescriptor(rawValue: ends[0]), FileDescriptor(rawValue: ends[1]))
    }

    /// Opens `path` for reading as an input a user named (a recording, a settings file), so that
    /// SIGINT/SIGTERM can end the wait for it. A FIFO's `open` blocks until a writer comes, and is
    /// restarted after a signal; so it is opened without blocking and its writer waited for with
    /// `poll`, which a stop (`StopRequest`) ends with `.interrupted`. Reads then block as usual.
    public static func openInput(_ path: String) throws(Errno) -> FileDescriptor {
        let fd = try open(path, .readOnly, options: .nonBlocking)
        do throws(Errno) {
            if try fd.status().type == .fifo { try fd.waitForWriter() }
            try fd.setNonBlocking(false)
        } catch {
            try? fd.close()
            throw error
        }
        return fd
    }

    /// Waits until the FIFO opened here (without blocking) has had a writer: Linux reports neither
    /// data nor a hang-up on a FIFO that no writer has opened yet, so `poll` waits for one.
    private func waitForWriter() throws(Errno) {
        while true {
            do throws(Errno) {
                if try !poll(for: .readable, timeoutMS: -1).isEmpty { return }
            } catch where error.kind == .interrupted && !StopRequest.isRequested {
                continue
            }
        }
    }

    /// Sets or clears `O_NONBLOCK`.
    public func setNonBlocking(_ nonBlocking: Bool) throws(Errno) {
        let flags = fcntl(rawValue, F_GETFL)
        guard flags >= 0 else { throw Errno.current }
        let wanted = nonBlocking ? flags | O_NONBLOCK : flags & ~O_NONBLOCK
        guard wanted == flags || fcntl(rawValue, F_SETFL, wanted) == 0 else { throw Errno.current }
    }

    /// The start of a file a user named as input (`openInput`), at most `limit + 1` bytes, so a
    /// caller tells a file over its limit by the count and no file (`/dev/zero`, a huge one) is
    /// read whole; `EISDIR` for a directory.
    public static func contents(ofFile path: String, limit: Int) throws(Errno) -> [UInt8] {
        let fd = try openInput(path)
        defer { try? fd.close() }
        if try fd.status().type == .directory { throw Errno(EISDIR) }
        var contents: [UInt8] = []
        try fd.readToEnd(appendingTo: &contents, limit: limit + 1)
        return contents
    }

    /// Reads until the end of the file (or of a pipe), or until `bytes` holds `limit` bytes,
    /// appending to `bytes`; what came before a failed read stays in `bytes`.
    public func readToEnd(appendingTo bytes: inout [UInt8], limit: Int = .max) throws(Errno) {
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)
        defer { chunk.deallocate() }
        while bytes.count < limit {
            let wanted = Swift.min(chunk.count, limit - bytes.count)
            let count = try read(into: UnsafeMutableRawBufferPointer(rebasing: chunk[..<wanted]))
            if count == 0 { return }
            bytes.append(contentsOf: chunk.prefix(count))
        }
    }

    /// Reads up to `buffer.count` bytes; 0 at the end of the file. A signal restarts the read
    /// unless it asked to stop (`StopRequest`): then `.interrupted`, so a stalled pipe cannot hold
    /// a command the user stopped.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try retryingOnInterrupt(unlessStopping: true) { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// Writes some of `buffer` (a short count on a pipe or a nearly full disk); see `writeAll`.
    public func write(_ buffer: UnsafeRawBufferPointer) throws(Errno) -> Int {
        try retryingOnInterrupt { Glibc.write(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// Writes all of `buffer`, continuing after short writes. On failure, `written` bytes of it had
    /// gone out (`onPartialFailure` is told before the error is thrown).
    public func writeAll(_ buffer: UnsafeRawBufferPointer, onPartialFailure: (_ written: Int) -> Void = { _ in }) throws(Errno) {
        var offset = 0
        while offset < buffer.count {
            do {
                offset += try write(UnsafeRawBufferPointer(rebasing: buffer[offset...]))
            } catch {
                onPartialFailure(offset)
                throw error
            }
        }
    }

    /// Closes the descriptor. Never retried (see the type's comment); an error means data may not
    /// have reached the file (NFS, a full disk), but the descriptor is gone either way.
    public func close() throws(Errno) {
        guard Glibc.close(rawValue) == 0 else { throw Errno.current }
    }

    /// A new descriptor for the same open file, close-on-exec (`F_DUPFD_CLOEXEC`).
    public func duplicate() throws(Errno) -> FileDescriptor {
        let fd = fcntl(rawValue, F_DUPFD_CLOEXEC, 0)
        guard fd >= 0 else { throw Errno.current }
        return FileDescriptor(rawValue: fd)
    }

    /// Cuts or extends the file to `length` bytes (`ftruncate`).
    public func truncate(to length: Int64) throws(Errno) {
        _ = try retryingOnInterrupt { ftruncate(rawValue, off_t(length)) }
    }

    /// `fchmod`.
    public func setPermissions(_ mode: mode_t) throws(Errno) {
        guard fchmod(rawValue, mode) == 0 else { throw Errno.current }
    }

    public enum SeekOrigin: Sendable {
        case start, current, end

        var whence: Int32 {
            switch self {
            case .start: SEEK_SET
            case .current: SEEK_CUR
            case .end: SEEK_END
            }
        }
    }

    /// Moves the file offset; returns the new offset from the start. `ESPIPE` on a pipe.
    @discardableResult
    public func seek(offset: Int64, from origin: SeekOrigin) throws(Errno) -> Int64 {
        let result = lseek(rawValue, off_t(offset), origin.whence)
        guard result >= 0 else { throw Errno.current }
        return Int64(result)
    }

    /// `ioctl(fd, request, argument)`; returns its non-negative result.
    @discardableResult
    public func control(_ request: UInt, _ argument: UnsafeMutableRawPointer) throws(Errno) -> Int32 {
        let result = ioctl(rawValue, request, argument)
        guard result >= 0 else { throw Errno.current }
        return result
    }

    /// What `fstat` says about the open file.
    public func status() throws(Errno) -> FileStatus {
        var info = stat()
        guard fstat(rawValue, &info) == 0 else { throw Errno.current }
        return FileStatus(info)
    }

    /// The `poll(2)` event bits.
    public struct PollEvents: OptionSet, Sendable {
        public let rawValue: Int16
        public init(rawValue: Int16) { self.rawValue = rawValue }

        public static let readable = PollEvents(rawValue: Int16(POLLIN))
        public static let error = PollEvents(rawValue: Int16(POLLERR))
        public static let hangUp = PollEvents(rawValue: Int16(POLLHUP))
        public static let invalid = PollEvents(rawValue: Int16(POLLNVAL))
    }

    /// Waits up to `timeoutMS` (negative: forever) for `events`; returns what happened (empty: the
    /// time ran out). A signal ends the wait with `.interrupted`, never retried: see the type.
    public func poll(for events: PollEvents, timeoutMS: Int32) throws(Errno) -> PollEvents {
        var entry = pollfd(fd: rawValue, events: events.rawValue, revents: 0)
        guard Glibc.poll(&entry, 1, timeoutMS) >= 0 else { throw Errno.current }
        return PollEvents(rawValue: entry.revents)
    }
}

/// The few fields of `struct stat` pinchlab decides by.
public struct FileStatus: Hashable, Sendable {
    public enum FileType: Sendable {
        case regular, directory, characterDevice, blockDevice, fifo, socket, symbolicLink, unknown
    }

    public var type: FileType
    /// The permission bits (`st_mode & 07777`).
    public var permissions: mode_t
    public var device: UInt64
    public var inode: UInt64
    public var size: Int64

    init(_ info: stat) {
        switch info.st_mode & S_IFMT {
        case S_IFREG: type = .regular
        case S_IFDIR: type = .directory
        case S_IFCHR: type = .characterDevice
        case S_IFBLK: type = .blockDevice
        case S_IFIFO: type = .fifo
        case S_IFSOCK: type = .socket
        case S_IFLNK: type = .symbolicLink
        default: type = .unknown
        }
        permissions = info.st_mode & 0o7777
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
    }

    /// What `stat` (or, with `followingLinks: false`, `lstat`) says about `path`.
    public init(path: String, followingLinks: Bool = true) throws(Errno) {
        var info = stat()
        guard (followingLinks ? stat(path, &info) : lstat(path, &info)) == 0 else { throw Errno.current }
        self.init(info)
    }
}

/// Waits for the child `pid` to end (`waitpid`); returns its raw wait status.
public func waitForChild(_ pid: pid_t) throws(Errno) -> Int32 {
    var status: Int32 = 0
    _ = try retryingOnInterrupt { waitpid(pid, &status, 0) }
    return status
}

/// Runs `call` again while it fails with `EINTR`, and turns any other failure (-1) into the `Errno`
/// it left. The one place pinchlab retries an interrupted call. `unlessStopping`: not after
/// SIGINT/SIGTERM asked to stop (`StopRequest`), for waits on input that may never end.
@inline(__always)
func retryingOnInterrupt<Result: FixedWidthInteger>(unlessStopping: Bool = false, _ call: () -> Result) throws(Errno) -> Result {
    while true {
        let result = call()
        if result >= 0 { return result }
        let error = Errno.current
        if error.kind != .interrupted || (unlessStopping && StopRequest.isRequested) { throw error }
    }
}
