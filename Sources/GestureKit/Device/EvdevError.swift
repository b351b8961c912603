import CEvdev
#if canImport(Glibc)
import Glibc
#endif

/// Why a device could not be opened or read. Each case says what to do about it.
public enum EvdevError: Error, Equatable, CustomStringConvertible {
    /// `EACCES`/`EPERM` opening the node.
    case permissionDenied(path: String)
    /// `ENOENT`: nothing at that path.
    case noSuchDevice(path: String)
    /// The node opened but does not answer the evdev ioctls (`ENOTTY`, `EINVAL` from `EVIOCGBIT`).
    case notAnEvdevDevice(path: String, errno: Int32)
    /// `ENODEV`: the device went away (unplugged, driver unbound, virtual device removed).
    case deviceRemoved(path: String)
    /// No event arrived within the allowed time although the device was asked for one.
    case timedOut(path: String, milliseconds: Int)
    /// Any other system error, with the call that failed.
    case system(path: String, call: String, errno: Int32)

    public var description: String {
        switch self {
        case .permissionDenied(let path):
            return "\(path): permission denied. Input devices belong to root and the 'input' group: "
                + "add yourself with 'sudo usermod -aG input $USER' and log in again, or run with sudo, "
                + "or install a udev rule granting access (e.g. TAG+=\"uaccess\")."
        case .noSuchDevice(let path):
            return "\(path): no such device. List devices with 'pinchlab devices'."
        case .notAnEvdevDevice(let path, let errno):
            return "\(path): not an evdev device (the evdev ioctls failed: \(Self.errnoName(errno))). "
                + "Pass a node like /dev/input/eventN."
        case .deviceRemoved(let path):
            return "\(path): the device was removed."
        case .timedOut(let path, let milliseconds):
            return "\(path): no answer from the device within \(milliseconds) ms."
        case .system(let path, let call, let errno):
            return "\(path): \(call) failed: \(Self.errnoName(errno))"
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
        case ENOENT: return .noSuchDevice(path: path)
        case ENODEV, ENXIO: return .deviceRemoved(path: path)
        default: return .system(path: path, call: "open", errno: code)
        }
    }
}
