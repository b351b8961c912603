import Foundation

/// The kernel's table of this process's mounts (`/proc/self/mountinfo`), read to its end:
/// `String(contentsOfFile:)` takes a proc file's size, 0, for a hint and stops after the first
/// page, so a table over 4 KiB (a few dozen mounts) lost the mounts a test had just made.
public enum MountTable {
    public static func text(_ path: String = "/proc/self/mountinfo") -> String {
        guard let file = FileHandle(forReadingAtPath: path) else { return "" }
        defer { try? file.close() }
        return String(decoding: (try? file.readToEnd()) ?? Data(), as: UTF8.self)
    }
}
