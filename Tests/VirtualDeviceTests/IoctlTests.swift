import CEvdev
import Foundation
import GestureCore
import Testing
import VirtualEvdev
import PinchlabTestSupport

/// Sizes, truncation and return values as evdev_do_ioctl() defines them.
@Suite(.blocking, .needs(.fuse)) struct IoctlTests {
    @Test func stringAndBitIoctlsReturnBytesCopiedAndTruncate() throws {
        let device = try Fixtures.device(test: "ioctl-sizes")
        defer { device.stop() }
        let fd = open(device.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        try #require(fd >= 0)
        defer { close(fd) }

        // str_to_user: strlen + 1, truncated to the caller's size without a NUL.
        var name = [UInt8](repeating: 0xff, count: 64)
        #expect(ioctl(fd, EvdevIoctl.name(length: 64), &name) == Int32(Fixtures.clickpad.name.utf8.count + 1))
        var short = [UInt8](repeating: 0xff, count: 8)
        #expect(ioctl(fd, EvdevIoctl.name(length: 4), &short) == 4)
        #expect(Array(short.prefix(5)) == Array("pinc".utf8) + [0xff])
        // No uniq: ENOENT like a uinput device.
        #expect(ioctl(fd, EvdevIoctl.unique(length: 64), &name) == -1 && errno == ENOENT)

        // bits_to_user: BITS_TO_LONGS(KEY_MAX) longs = 96 bytes, or the caller's size if smaller.
        var bits = [UInt8](repeating: 0, count: 256)
        let keyBytes = (Int(KEY_MAX) + 63) / 64 * 8
        #expect(ioctl(fd, EvdevIoctl.bits(type: .key, length: 256), &bits) == Int32(keyBytes))
        #expect(ioctl(fd, EvdevIoctl.bits(type: .key, length: 3), &bits) == 3)
        let btnLeft = Int(EventCode.btnLeft.rawValue)
        #expect(ioctl(fd, EvdevIoctl.bits(type: .key, length: 256), &bits) > 0)
        #expect(bits[btnLeft / 8] & (1 << (btnLeft % 8)) != 0)
        // EVIOCGBIT for EV_REP is not a bit set the kernel answers.
        #expect(ioctl(fd, EvdevIoctl.bits(type: .rep, length: 8), &bits) == -1 && errno == EINVAL)
        // An unknown 'E' ioctl.
        #expect(ioctl(fd, EvdevIoctl.command(direction: EvdevIoctl.read, number: 0x9f, size: 4), &bits) == -1 && errno == EINVAL)
    }

    /// EVIOCGRAB passes its argument as the pointer itself; for a FUSE file (not CUSE) the kernel
    /// sizes the transfer from the command and copies 4 bytes from that "address" before the server
    /// sees the request, so it fails with EFAULT. evemu-record refuses the node because of this
    /// ("this device is grabbed"); if a kernel ever lets it through, the README can say evemu-record
    /// works.
    @Test func grabCannotReachAFUSEFile() throws {
        let device = try Fixtures.device(test: "ioctl-grab")
        defer { device.stop() }
        let fd = open(device.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        try #require(fd >= 0)
        defer { close(fd) }
        let grab = EvdevIoctl.command(direction: EvdevIoctl.write, number: 0x90, size: MemoryLayout<Int32>.size)
        #expect(ioctl(fd, grab, 1) == -1 && errno == EFAULT)
    }

    @Test func stateIoctlsFollowTheGeneratedEvents() throws {
        let device = try Fixtures.device(test: "ioctl-state")
        defer { device.stop() }
        let reader = try EvdevReader(path: device.path)
        // Everything up to the second frame: both fingers down, x at 480 and 720.
        let frames = Fixtures.frames(of: Fixtures.twoFingerSpread())
        let firstTwoFrames = frames[0] + frames[1]
        device.enqueue(firstTwoFrames)
        #expect(reader.read(count: firstTwoFrames.count, timeoutSeconds: 5).count == firstTwoFrames.count)

        // EVIOCGMTSLOTS: the requested code in, one value per slot out.
        var request = [Int32](repeating: 0x5a5a, count: 1 + 4)
        request[0] = Int32(EventCode.absMTPositionX.rawValue)
        #expect(ioctl(reader.fd, EvdevIoctl.mtSlots(length: request.count * 4), &request) == 0)
        #expect(request == [Int32(EventCode.absMTPositionX.rawValue), 480, 720, 0x5a5a, 0x5a5a])
        request = [Int32(EventCode.absMTTrackingID.rawValue), 0, 0]
        #expect(ioctl(reader.fd, EvdevIoctl.mtSlots(length: request.count * 4), &request) == 0)
        #expect(request == [Int32(EventCode.absMTTrackingID.rawValue), 100, 101])
        request = [Int32(EventCode.absMTSlot.rawValue), 0, 0]
        #expect(ioctl(reader.fd, EvdevIoctl.mtSlots(length: request.count * 4), &request) == -1 && errno == EINVAL)

        // EVIOCGABS carries the current value: ABS_X moved to 480, the last slot selected is 1.
        var info = input_absinfo()
        #expect(ioctl(reader.fd, EvdevIoctl.absInfo(.absX), &info) == 0)
        #expect(info.value == 480 && info.maximum == 1216 && info.resolution == 12)
        #expect(ioctl(reader.fd, EvdevIoctl.absInfo(.absMTSlot), &info) == 0)
        #expect(info.value == 1)

        // EVIOCGKEY: BTN_TOUCH and BTN_TOOL_DOUBLETAP are down.
        var keys = [UInt8](repeating: 0, count: (Int(KEY_MAX) + 7) / 8 + 1)
        #expect(ioctl(reader.fd, EvdevIoctl.keyState(length: keys.count), &keys) > 0)
        func isDown(_ code: EventCode) -> Bool { keys[Int(code.rawValue) / 8] & (1 << (Int(code.rawValue) % 8)) != 0 }
        #expect(isDown(.btnTouch) && isDown(.btnToolDoubleTap) && !isDown(.btnLeft))
    }
}
