import CEvdev
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// Why a device could not be opened or read. The description says what happened; what to do about
/// it is the CLI's to add (pinchlab's `ErrorAdvice`).
public enum EvdevError: Error, Equatable, CustomStringConvertible {
    /// `EACCES`/`EPERM` opening the node.
    case permissionDenied(path: String)
    /// Nothing at that path: `ENOENT`, or a path that cannot lead to a node (`ENOTDIR`: a
    /// component is a file; `ELOOP`: a symlink loop; `ENAMETOOLONG`).
    case noSuchDevice(path: String)
    /// The node opened but does not answer the evdev ioctls (`ENOTTY`, `EINVAL` from `EVIOCGBIT`).
    case notAnEvdevDevice(path: String, errno: Errno)
    /// `ENODEV`: the device went away (unplugged, driver unbound, virtual device removed).
    case deviceRemoved(path: String)
    /// Any other system error, with the call that failed.
    case system(path: String, call: String, errno: Errno)

    /// What failed, on which node, and what to do about it.
    public var description: String {
        switch self {
        case .permissionDenied(let path):
            return "\(path): permission denied."
        case .noSuchDevice(let path):
            return "\(path): no such device."
        case .notAnEvdevDevice(let path, let errno):
            return "\(path): not an evdev device (the evdev ioctls failed: \(errno))."
        case .deviceRemoved(let path):
            return "\(path): the device was removed."
        case .system(let path, let call, let errno):
            return "\(path): \(call) failed: \(errno)"
        }
    }

    /// The error in a few words, without the path or advice (for a table row that shows the path).
    public var reason: String {
        switch self {
        case .permissionDenied: return "permission denied"
        case .noSuchDevice: return "no such device"
        case .notAnEvdevDevice(_, let errno): return "not an evdev device (\(errno))"
        case .deviceRemoved: return "the device was removed"
        case .system(_, let call, let errno): return "\(call) failed: \(errno)"
        }
    }

    /// The error for an `open(2)` of `path` that failed with `errno`, by its kind.
    public static func opening(_ path: String, errno: Errno) -> EvdevError {
        switch errno.kind {
        case .permissionDenied: return .permissionDenied(path: path)
        case .notFound: return .noSuchDevice(path: path)
        case .noDevice: return .deviceRemoved(path: path)
        default: return .system(path: path, call: "open", errno: errno)
        }
    }
}
