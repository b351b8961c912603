#if canImport(Glibc)
import Glibc
#endif

/// One entry of a device listing: the node and either its description or why it could not be read.
public struct DiscoveredDevice: Sendable {
    public var path: String
    public var result: Result<DeviceDescription, EvdevError>

    public var description: DeviceDescription? { try? result.get() }
    public var isTouchDevice: Bool {
        guard let class_ = description?.deviceClass else { return false }
        return class_ == .touchpad || class_ == .touchscreen
    }
}

/// Finds evdev nodes (`eventN`) in a directory, `/dev/input` by default.
public enum DeviceDiscovery {
    public static let defaultDirectory = "/dev/input"

    /// Every `event*` node in `directory`, in numeric order (event2 before event10), each opened once
    /// to read its description. Throws only when the directory itself cannot be read.
    public static func scan(directory: String = defaultDirectory) throws -> [DiscoveredDevice] {
        guard let dir = opendir(directory) else {
            let code = errno
            if code == EACCES || code == EPERM { throw DiscoveryError.permissionDenied(directory: directory) }
            throw DiscoveryError.cannotReadDirectory(directory: directory, errno: code)
        }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name.hasPrefix("event") { names.append(name) }
        }
        names.sort { lhs, rhs in
            let l = Int(lhs.dropFirst(5)) ?? Int.max, r = Int(rhs.dropFirst(5)) ?? Int.max
            return l != r ? l < r : lhs < rhs
        }
        let base = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        return names.map { name in
            let path = base + "/" + name
            do {
                let device = try EvdevDevice(path: path)
                return DiscoveredDevice(path: path, result: .success(device.device))
            } catch let error as EvdevError {
                return DiscoveredDevice(path: path, result: .failure(error))
            } catch {
                return DiscoveredDevice(path: path, result: .failure(.system(path: path, call: "open", errno: EIO)))
            }
        }
    }

    /// The first touchpad or touchscreen in `directory`, or an error that says what was found instead.
    public static func defaultTouchDevice(directory: String = defaultDirectory) throws -> String {
        let found = try scan(directory: directory)
        if let touch = found.first(where: { $0.isTouchDevice }) { return touch.path }
        if found.isEmpty { throw DiscoveryError.noDevices(directory: directory) }
        if found.allSatisfy({ if case .failure(.permissionDenied) = $0.result { return true } else { return false } }) {
            throw DiscoveryError.permissionDenied(directory: directory)
        }
        throw DiscoveryError.noTouchDevice(directory: directory, count: found.count)
    }
}

public enum DiscoveryError: Error, Equatable, CustomStringConvertible {
    case noDevices(directory: String)
    case noTouchDevice(directory: String, count: Int)
    case permissionDenied(directory: String)
    case cannotReadDirectory(directory: String, errno: Int32)

    public var description: String {
        switch self {
        case .noDevices(let directory):
            return "no input devices in \(directory). On a machine without a touchpad, expose a recording "
                + "with 'pinchlab serve FILE --at DIR' and pass DIR/event0."
        case .noTouchDevice(let directory, let count):
            return "\(count) input device(s) in \(directory), but none is a touchpad or touchscreen."
        case .permissionDenied(let directory):
            return "cannot open the devices in \(directory): permission denied. Add yourself to the 'input' "
                + "group ('sudo usermod -aG input $USER', then log in again) or run with sudo."
        case .cannotReadDirectory(let directory, let code):
            return "cannot read \(directory): \(EvdevError.errnoName(code)). A machine without input devices "
                + "has no /dev/input; 'pinchlab serve FILE --at DIR' makes a virtual one."
        }
    }
}
