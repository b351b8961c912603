import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The kernel's table of this process's mounts (`/proc/self/mountinfo`), read to its end:
/// `String(contentsOfFile:)` takes a proc file's size, 0, for a hint and stops after the first
/// page, so a table over 4 KiB (a few dozen mounts) lost the mounts a test had just made.
public enum MountTable {
    public static func text(_ path: String = "/proc/self/mountinfo") -> String {
        guard let file = FileHandle(forReadingAtPath: path) else { return "" }
        defer { try? file.close() }
        return String(decoding: (try? file.readToEnd()) ?? Data(), as: UTF8.self)
    }

    /// Waits until `condition` holds for the mount table, woken by the kernel when the table
    /// changes rather than on a clock: a mount table file signals POLLPRI once for every change
    /// made after it was opened (or last polled), so a change between a look and the wait that
    /// follows it is not lost. An unmount that fusermount3 makes after its server died arrives
    /// whenever the loaded machine schedules that helper; `timeoutSeconds` only bounds a mount
    /// that never goes. Returns whether the condition held.
    public static func waitUntil(timeoutSeconds: Double, _ condition: (String) -> Bool) -> Bool {
        let descriptor = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return condition(text()) }
        defer { close(descriptor) }
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while true {
            if condition(text()) { return true }
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { return false }
            var watched = pollfd(fd: descriptor, events: Int16(POLLPRI), revents: 0)
            let ready = poll(&watched, 1, Int32(min(left, 3600) * 1000) + 1)
            if ready < 0 && errno != EINTR { return condition(text()) }
        }
    }
}
