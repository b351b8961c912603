import Foundation
import PinchlabTestSupport
import GestureCore
import VirtualEvdev

/// Devices and gestures the virtual-device tests serve.
enum Fixtures {
    /// A two-finger clickpad on the PS/2 bus: MT protocol B with 2 slots, 12 units/mm.
    static let clickpad = DeviceDescription(
        name: "pinchlab Test Clickpad",
        id: InputID(bustype: BusType.i8042, vendor: 0x0002, product: 0x0007, version: 0x01b1),
        properties: [.pointer, .buttonpad],
        codes: [.key: [.btnLeft, .btnToolFinger, .btnToolDoubleTap, .btnToolTripleTap, .btnTouch]],
        absInfo: [
            .absX: AbsInfo(minimum: 0, maximum: 1216, resolution: 12),
            .absY: AbsInfo(minimum: 0, maximum: 816, resolution: 12),
            .absPressure: AbsInfo(minimum: 0, maximum: 255),
            .absMTSlot: AbsInfo(minimum: 0, maximum: 1),
            .absMTPositionX: AbsInfo(minimum: 0, maximum: 1216, fuzz: 4, resolution: 12),
            .absMTPositionY: AbsInfo(minimum: 0, maximum: 816, fuzz: 4, resolution: 12),
            .absMTTrackingID: AbsInfo(minimum: 0, maximum: 65535),
            .absMTPressure: AbsInfo(minimum: 0, maximum: 255),
        ]
    )

    /// A ten-finger USB touchscreen (INPUT_PROP_DIRECT).
    static let touchscreen = DeviceDescription(
        name: "pinchlab Test Touchscreen",
        id: InputID(bustype: BusType.usb, vendor: 0x04f3, product: 0x2b7c, version: 0x0110),
        properties: [.direct],
        codes: [.key: [.btnTouch]],
        absInfo: [
            .absX: AbsInfo(minimum: 0, maximum: 4095, resolution: 16),
            .absY: AbsInfo(minimum: 0, maximum: 2303, resolution: 16),
            .absMTSlot: AbsInfo(minimum: 0, maximum: 9),
            .absMTPositionX: AbsInfo(minimum: 0, maximum: 4095, resolution: 16),
            .absMTPositionY: AbsInfo(minimum: 0, maximum: 2303, resolution: 16),
            .absMTTrackingID: AbsInfo(minimum: 0, maximum: 65535),
        ]
    )

    typealias Change = (type: EventType, code: EventCode, value: Int32)

    /// One evdev frame: the changes, then SYN_REPORT, all at `microseconds`.
    static func frame(_ microseconds: Int64, _ changes: [Change]) -> [InputEvent] {
        let time = EventTime(totalMicroseconds: microseconds)
        return (changes + [(.syn, .synReport, 0)]).map { InputEvent(time: time, type: $0.type, code: $0.code, value: $0.value) }
    }

    static let frameIntervalMicroseconds: Int64 = 7_000
    static let gestureStartMicroseconds: Int64 = 10_000_000

    /// Two fingers land, spread apart for two frames, and lift.
    static func twoFingerSpread(startingAt start: Int64 = gestureStartMicroseconds) -> [InputEvent] {
        let step = frameIntervalMicroseconds
        return frame(start, [
            (.abs, .absMTSlot, 0), (.abs, .absMTTrackingID, 100), (.abs, .absMTPositionX, 500), (.abs, .absMTPositionY, 400),
            (.abs, .absMTSlot, 1), (.abs, .absMTTrackingID, 101), (.abs, .absMTPositionX, 700), (.abs, .absMTPositionY, 400),
            (.key, .btnTouch, 1), (.key, .btnToolDoubleTap, 1), (.abs, .absX, 500), (.abs, .absY, 400),
        ]) + frame(start + step, [
            (.abs, .absMTSlot, 0), (.abs, .absMTPositionX, 480), (.abs, .absMTSlot, 1), (.abs, .absMTPositionX, 720),
            (.abs, .absX, 480),
        ]) + frame(start + 2 * step, [
            (.abs, .absMTSlot, 0), (.abs, .absMTPositionX, 460), (.abs, .absMTSlot, 1), (.abs, .absMTPositionX, 740),
            (.abs, .absX, 460),
        ]) + frame(start + 3 * step, [
            (.abs, .absMTSlot, 0), (.abs, .absMTTrackingID, -1), (.abs, .absMTSlot, 1), (.abs, .absMTTrackingID, -1),
            (.key, .btnTouch, 0), (.key, .btnToolDoubleTap, 0),
        ])
    }

    /// The events split after each SYN_REPORT.
    static func frames(of events: [InputEvent]) -> [[InputEvent]] {
        var frames: [[InputEvent]] = [[]]
        for event in events {
            frames[frames.count - 1].append(event)
            if event.isSynReport { frames.append([]) }
        }
        return frames.filter { !$0.isEmpty }
    }

    /// A fresh mount directory per test, so parallel tests never share a mount. The device creates
    /// it and removes it again when it stops; a test that puts a file here removes it itself.
    static func directory(_ test: String) -> String {
        let base = "/tmp/pinchlab-vevdev-tests"
        try? FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        return "\(base)/\(test)-\(getpid())"
    }

    /// A small tmpfs at `directory` (created) holding `file` with `contents`: someone else's mount,
    /// which a virtual device must never unmount. Undo with `unmount(_:)`.
    static func mountTmpfs(at directory: String, file: String, contents: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        guard mount("pinchlab-test-tmpfs", directory, "tmpfs", 0, "size=64k") == 0 else {
            throw MountError(call: "mount tmpfs", errno: errno)
        }
        try contents.write(toFile: directory + "/" + file, atomically: false, encoding: .utf8)
    }

    /// What a crashed server leaves behind: a mount of ours (source "pinchlab", type "fuse.vevdev")
    /// whose FUSE connection is gone, so every access fails with ENOTCONN.
    static func mountDeadVirtualDevice(at directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let fuse = open("/dev/fuse", O_RDWR | O_CLOEXEC)
        guard fuse >= 0 else { throw MountError(call: "open /dev/fuse", errno: errno) }
        let options = "fd=\(fuse),rootmode=40000,user_id=\(getuid()),group_id=\(getgid())"
        let mounted = mount("pinchlab", directory, "fuse.vevdev", UInt(MS_NOSUID | MS_NODEV), options)
        let code = errno
        close(fuse)  // the server "dies": the connection is aborted, the mount stays
        guard mounted == 0 else { throw MountError(call: "mount fuse.vevdev", errno: code) }
    }

    /// Detaches whatever a test mounted at `directory` and removes the directory.
    static func unmount(_ directory: String) {
        _ = umount2(directory, Int32(MNT_DETACH))
        _ = rmdir(directory)
    }

    /// The mounts at `directory` in /proc/self/mountinfo, as "type source", oldest first.
    static func mounts(at directory: String) -> [String] {
        let table = MountTable.text()
        return table.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count > 4, fields[4] == directory, let dash = fields.firstIndex(of: "-"), dash + 2 < fields.count else {
                return nil
            }
            return "\(fields[dash + 1]) \(fields[dash + 2])"
        }
    }

    struct MountError: Error, CustomStringConvertible {
        var call: String
        var errno: Int32
        var description: String { "\(call): \(String(cString: strerror(errno)))" }
    }

    /// A device mounted for `test`, without libfuse's crash watcher unless `options` asks for it
    /// (`VirtualEvdevOptions.inTests`).
    static func device(
        _ description: DeviceDescription = clickpad, test: String, options: VirtualEvdevOptions = .inTests
    ) throws -> VirtualEvdevDevice {
        try VirtualEvdevDevice(description: description, directory: directory(test), options: options)
    }
}

extension VirtualEvdevOptions {
    /// The options of the devices the tests mount in their own process: no crash watcher. Its
    /// fusermount3 would keep whatever descriptors the test process had open when it mounted (the
    /// pipes of a child another test is reading, another device's socket) for the device's life,
    /// and tests mount while others start children. The tests of the watcher ask for it.
    static var inTests: VirtualEvdevOptions { VirtualEvdevOptions(unmountsAfterACrash: false) }
}
