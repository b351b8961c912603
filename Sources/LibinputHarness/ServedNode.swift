import Foundation
import GestureCore
import GestureKit
import VirtualEvdev

/// A recording's device served on a FUSE node in a fresh folder, for a child program that opens it
/// through libinput's path backend (`libinput debug-events --device`, `lisgd -d`): the preload
/// library answers libudev's lookup of the node, which has no udev device behind it. `close`
/// stops the node and removes the folder.
struct ServedNode {
    let directory: String
    let device: VirtualEvdevDevice
    /// Its slot in `RemovedOnStop`: a stop signal unmounts and removes the folder too.
    private let stopSlot: Int?

    /// `$TMPDIR` when set (and not empty), else /tmp.
    static var defaultParent: String {
        let given = ProcessInfo.processInfo.environment["TMPDIR"] ?? ""
        return given.isEmpty ? "/tmp" : (given.hasSuffix("/") && given.count > 1 ? String(given.dropLast()) : given)
    }

    /// `name` names the folder (`pinchlab-NAME-XXXXXX`) in `temporaryDirectory`.
    init(_ description: DeviceDescription, name: String, in temporaryDirectory: String) throws(LibinputBridgeError) {
        var template = Array("\(temporaryDirectory)/pinchlab-\(name)-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw .virtualDeviceUnavailable("cannot make a directory in \(temporaryDirectory): \(String(cString: strerror(errno)))")
        }
        directory = String(cString: made)
        do {
            device = try VirtualEvdevDevice(description: description, directory: directory + "/dev",
                                            options: VirtualEvdevOptions(timestamps: .readerClock))
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw .virtualDeviceUnavailable("\(error)")
        }
        stopSlot = RemovedOnStop.noteMountedFolder(directory, mountPoint: directory + "/dev")
    }

    /// This process's environment with the preload library told about the node. `endsWithParent`:
    /// the child ends when this process does, by the preload library's parent check (every process
    /// that loads the library checks it, so a child whose own children must live, lisgd's shells,
    /// asks the kernel itself).
    func environment(preloadLibrary: String, deviceClass: DeviceClass, endsWithParent: Bool) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["LD_PRELOAD"] = [preloadLibrary, environment["LD_PRELOAD"]].compactMap { $0 }.joined(separator: ":")
        environment["PINCHLAB_UDEV_DEVNODE"] = device.path
        environment["PINCHLAB_UDEV_SYSNAME"] = device.nodeName
        environment["PINCHLAB_UDEV_CLASS"] = deviceClass == .touchscreen ? "touchscreen" : "touchpad"
        environment["PINCHLAB_PARENT_PID"] = endsWithParent ? String(getpid()) : nil
        return environment
    }

    /// Waits until the node's events are all read (or `timeoutSeconds` pass): true; false when a
    /// stop was asked for first (`StopRequest`, set for a command told of stops), checked every 0.1 s.
    func waitUntilDrainedUnlessStopped(timeoutSeconds: Double) -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int64(timeoutSeconds * 1000))
        while !StopRequest.isRequested {
            if device.waitUntilDrained(timeoutSeconds: 0.1) || ContinuousClock.now >= deadline { return true }
        }
        return false
    }

    func close() {
        device.stop()
        try? FileManager.default.removeItem(atPath: directory)
        RemovedOnStop.forgetFolder(stopSlot)
    }
}
