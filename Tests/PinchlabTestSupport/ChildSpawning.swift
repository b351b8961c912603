import Foundation

/// Starting a child process and mounting a virtual device that keeps a crash watcher never happen
/// at once in the test process. libfuse makes its socket to the watcher (fusermount3) inheritable,
/// and the device marks it close-on-exec once the mount returns, only when it is the one socket
/// that appeared meanwhile. A child started inside that window inherits the socket (or makes a
/// second one, Foundation's socketpair, and the device leaves both alone): the watcher then lives
/// as long as that child, and a test that waits for it to exit (or for a killed server's mount to
/// go, whose own watcher inherited it in turn) waits for an unrelated test. Mounts without a watcher
/// (`.inTests`) and children of children are not concerned.
public enum ChildSpawning {
    private static let lock = NSLock()

    /// Runs `body` (a mount whose watcher a test then looks for) while no child starts.
    public static func whileNoChildStarts<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}

extension Process {
    /// `run()`, outside any mount that `ChildSpawning.whileNoChildStarts` guards. Every child a
    /// test starts with Foundation's Process goes through here.
    public func start() throws {
        try ChildSpawning.whileNoChildStarts { try run() }
    }
}
