import ArgumentParser
import GestureKit

struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List input devices with their class, size in millimetres, slots and properties.",
        discussion: """
        Every eventN node in DIR (default /dev/input) is opened once through libevdev. Touchpads and \
        touchscreens are the devices `pinchlab live` can use; the first of them is its default.

        Examples:
          pinchlab devices
          pinchlab devices /tmp/vdev --json   # the device of 'pinchlab serve'
        """
    )

    @Argument(help: "The directory holding the eventN nodes.", completion: .directory)
    var directory: String = DeviceDiscovery.defaultDirectory

    @Flag(help: "Print one JSON object instead of a table.")
    var json = false

    func run() throws {
        try reportingErrors {
            let found = try DeviceDiscovery.scan(directory: directory)
            let denied = found.filter { if case .failure(.permissionDenied) = $0.result { true } else { false } }
            // Nothing could be read, and for want of permission: say so in the status too.
            let allDenied = !denied.isEmpty && denied.count == found.count
            if json {
                try JSONLineWriter().write(DeviceListing(directory: directory, devices: found.map(DeviceListing.Entry.init)))
                if allDenied { throw ExitStatus.permissionDenied.exitCode }
                return
            }
            if found.isEmpty {
                try printLine("No input devices in \(directory).")
                try printLine("Without a touchpad, expose a recording as one: pinchlab serve FILE --at DIR, then pinchlab devices DIR.")
                return
            }
            for entry in found {
                try printLine(DeviceListing.Entry(entry).humanLine)
            }
            if !denied.isEmpty {
                try printLine("")
                try printLine((allDenied ? "No device" : "Some devices") + " could be opened: permission denied. Add yourself to the "
                          + "'input' group (sudo usermod -aG input $USER, then log in again), or run with sudo.")
            }
            if allDenied { throw ExitStatus.permissionDenied.exitCode }
        }
    }
}

/// The JSON shape of `pinchlab devices --json`.
struct DeviceListing: Encodable {
    var directory: String
    var devices: [Entry]

    struct Entry: Encodable {
        var path: String
        var name: String?
        var `class`: String?
        var widthMM: Double?
        var heightMM: Double?
        var resolutionEstimated: Bool?
        var slots: Int?
        var maxFingers: Int?
        var properties: [String]?
        var bus: Int?
        var vendor: Int?
        var product: Int?
        var error: String?
        /// The error in a few words, for the table (the advice is printed once below it).
        private var errorInBrief: String?

        private enum CodingKeys: String, CodingKey {
            case path, name, `class`, widthMM, heightMM, resolutionEstimated, slots, maxFingers, properties, bus, vendor,
                 product, error
        }

        init(_ found: DiscoveredDevice) {
            path = found.path
            switch found.result {
            case .success(let device):
                name = device.name
                `class` = device.deviceClass.rawValue
                if let geometry = device.geometry {
                    widthMM = (geometry.widthMM * 10).rounded() / 10
                    heightMM = (geometry.heightMM * 10).rounded() / 10
                    resolutionEstimated = geometry.isEstimated
                }
                slots = device.slotCount
                maxFingers = device.maxFingerCount
                properties = device.properties.sorted().map(\.description)
                bus = Int(device.id.bustype)
                vendor = Int(device.id.vendor)
                product = Int(device.id.product)
            case .failure(let error):
                self.error = messageWithAdvice(for: error)
                errorInBrief = error.reason
            }
        }

        var humanLine: String {
            if let error { return "\(path)\t\(errorInBrief ?? error)" }
            var parts = [path, "\(`class` ?? "?")", "\"\(name ?? "")\""]
            if let widthMM, let heightMM {
                parts.append("\(widthMM) x \(heightMM) mm" + (resolutionEstimated == true ? " (estimated: no resolution)" : ""))
            }
            parts.append("\(slots ?? 0) slots")
            if let properties, !properties.isEmpty { parts.append(properties.joined(separator: ",")) }
            return parts.joined(separator: "  ")
        }
    }
}
