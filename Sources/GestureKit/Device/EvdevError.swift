import CEvdev
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
    case notAnEvdevDevice(path: String, errno: Int32)
    /// `ENODEV`: the device went away (unplugged, driver unbound, virtual device removed).
    case deviceRemoved(path: String)
    /// Any other system error, with the call that failed.
    case system(path: String, call: String, errno: Int32)

    public var description: String {
        switch self {
        case .permissionDenied(let path):
            return "\(path): permission denied."
        case .noSuchDevice(let path):
            return "\(path): no such device."
        case .notAnEvdevDevice(let path, let errno):
            return "\(path): not an evdev device (the evdev ioctls failed: \(Self.errnoName(errno)))."
        case .deviceRemoved(let path):
            return "\(path): the device was removed."
        case .system(let path, let call, let errno):
            return "\(path): \(call) failed: \(Self.errnoName(errno))"
        }
    }

    /// The error in a few words, without the path or advice (for a table row that shows the path).
    public var reason: String {
        switch self {
        case .permissionDenied: return "permission denied"
        case .noSuchDevice: return "no such device"
        case .notAnEvdevDevice(_, let errno): return "not an evdev device (\(Self.errnoName(errno)))"
        case .deviceRemoved: return "the device was removed"
        case .system(_, let call, let errno): return "\(call) failed: \(Self.errnoName(errno))"
        }
    }

    static func errnoName(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "errno \(code)" }
        return String(cString: text)
    }

    /// The error for an `open(2)` of `path` that failed with `code`.
    public static func opening(_ path: String, errno code: Int32) -> EvdevError {
        switch code {
        case EACCES, EPERM: return .permissionDenied(path: path)
        case ENOENT, ENOTDIR, ELOOP, ENAMETOOLONG: return .noSuchDevice(path: path)
        case ENODEV, ENXIO: return .deviceRemoved(path: path)
        default: return .system(path: path, call: "open", errno: code)
        }
    }
}
