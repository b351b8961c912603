import GestureCore
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// One entry of a device listing: the node and either its description or why it could not be read.
package struct DiscoveredDevice: Sendable {
    package var path: String
    package var result: Result<DeviceDescription, EvdevError>

    package var description: DeviceDescription? { try? result.get() }
    var isTouchDevice: Bool {
        guard let class_ = description?.deviceClass else { return false }
        return class_ == .touchpad || class_ == .touchscreen
    }
}

/// Finds evdev nodes (`eventN`) in a directory, `/dev/input` by default.
package enum DeviceDiscovery {
    package static let defaultDirectory = "/dev/input"

    /// Every `eventN` node in `directory` (N decimal digits, as the kernel names them; `event-foo`
    /// or `event3.bak` are not nodes), in numeric order (event2 before event10), each opened once to
    /// read its description. Throws only when the directory itself cannot be read.
    package static func scan(directory: String = defaultDirectory) throws -> [DiscoveredDevice] {
        guard let dir = opendir(directory) else {
            let error = Errno.current
            if error.kind == .permissionDenied { throw DiscoveryError.permissionDenied(directory: directory) }
            throw DiscoveryError.cannotReadDirectory(directory: directory, errno: error)
        }
        defer { closedir(dir) }
        var nodes: [(name: String, number: Int)] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if let number = eventNodeNumber(name) { nodes.append((name, number)) }
        }
        // Equal numbers ("event2", "event02") by name, so the order never depends on readdir's.
        nodes.sort { $0.number != $1.number ? $0.number < $1.number : $0.name < $1.name }
        let base = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        return nodes.map { node in
            let path = base + "/" + node.name
            do {
                let device = try EvdevDevice(path: path)
                return DiscoveredDevice(path: path, result: .success(device.device))
            } catch let error as EvdevError {
                return DiscoveredDevice(path: path, result: .failure(error))
            } catch {
                return DiscoveredDevice(path: path, result: .failure(.system(path: path, call: "open", errno: .ioError)))
            }
        }
    }

    /// N for a name `eventN` (decimal digits only), nil for anything else.
    static func eventNodeNumber(_ name: String) -> Int? {
        let prefix = "event"
        guard name.hasPrefix(prefix) else { return nil }
        let digits = name.utf8.dropFirst(prefix.utf8.count)
        guard !digits.isEmpty, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return Int(String(decoding: digits, as: UTF8.self)) ?? Int.max  // absurdly long: last
    }

    /// The first touchpad or touchscreen in `directory`, or an error that says what was found instead.
    package static func defaultTouchDevice(directory: String = defaultDirectory) throws -> String {
        let found = try scan(directory: directory)
        if let touch = found.first(where: { $0.isTouchDevice }) { return touch.path }
        if found.isEmpty { throw DiscoveryError.noDevices(directory: directory) }
        if found.allSatisfy({ if case .failure(.permissionDenied) = $0.result { return true } else { return false } }) {
            throw DiscoveryError.permissionDenied(directory: directory)
        }
        throw DiscoveryError.noTouchDevice(directory: directory, count: found.count)
    }
}

package enum DiscoveryError: Error, Equatable, CustomStringConvertible {
    case noDevices(directory: String)
    case noTouchDevice(directory: String, count: Int)
    case permissionDenied(directory: String)
    case cannotReadDirectory(directory: String, errno: Errno)

    package var description: String {
        switch self {
        case .noDevices(let directory):
            return "no input devices in \(directory)."
        case .noTouchDevice(let directory, let count):
            return "\(count) input device(s) in \(directory), but none is a touchpad or touchscreen."
        case .permissionDenied(let directory):
            return "cannot open the devices in \(directory): permission denied."
        case .cannotReadDirectory(let directory, let errno):
            return "cannot read \(directory): \(errno)."
        }
    }
}
