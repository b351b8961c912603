import CEvdev
import Foundation
import GestureKit

/// An evdev node opened the way the device layer opens /dev/input/eventN, read through libevdev.
final class EvdevReader {
    let fd: Int32
    let evdev: OpaquePointer

    struct OpenError: Error { let errno: Int32 }

    init(path: String) throws {
        fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw OpenError(errno: errno) }
        var created: OpaquePointer?
        let rc = libevdev_new_from_fd(fd, &created)
        guard rc == 0, let created else {
            close(fd)
            throw OpenError(errno: -rc)
        }
        evdev = created
    }

    deinit {
        libevdev_free(evdev)
        close(fd)
    }

    /// libevdev_next_event: its status (0, LIBEVDEV_READ_STATUS_SYNC or -errno) and the event.
    func next(sync: Bool = false) -> (status: Int32, event: InputEvent?) {
        var raw = input_event()
        let flags = sync ? LIBEVDEV_READ_FLAG_SYNC.rawValue : LIBEVDEV_READ_FLAG_NORMAL.rawValue
        let status = libevdev_next_event(evdev, flags, &raw)
        guard status >= 0 else { return (status, nil) }
        return (status, Self.event(raw))
    }

    /// Every event readable right now (normal mode), stopping at the first non-success status.
    func drain() -> (events: [InputEvent], finalStatus: Int32) {
        var events: [InputEvent] = []
        while true {
            let (status, event) = next()
            guard status == LIBEVDEV_READ_STATUS_SUCCESS.rawValue, let event else { return (events, status) }
            events.append(event)
        }
    }

    /// Reads until `count` events arrived or `timeoutSeconds` passed, waiting with poll().
    func read(count: Int, timeoutSeconds: Double) -> [InputEvent] {
        var events: [InputEvent] = []
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while events.count < count, Date() < deadline {
            let (status, event) = next()
            if let event { events.append(event); continue }
            guard status == -EAGAIN else { break }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&pfd, 1, 50)
        }
        return events
    }

    static func event(_ raw: input_event) -> InputEvent {
        var copy = raw
        return InputEvent(
            time: EventTime(seconds: Int64(cevdev_event_sec(&copy)), microseconds: Int32(cevdev_event_usec(&copy))),
            type: EventType(rawValue: raw.type), code: EventCode(rawValue: raw.code), value: raw.value)
    }
}

/// Raw evdev ioctl numbers (`_IOC` from <asm-generic/ioctl.h>): the EVIOCG* macros take
/// arguments, so Swift cannot import them.
enum EvdevIoctl {
    static let read: UInt = 2
    static let write: UInt = 1

    static func command(direction: UInt, number: UInt, size: Int) -> UInt {
        (direction << 30) | (UInt(size) << 16) | (UInt(UInt8(ascii: "E")) << 8) | number
    }
    static func name(length: Int) -> UInt { command(direction: read, number: 0x06, size: length) }
    static func unique(length: Int) -> UInt { command(direction: read, number: 0x08, size: length) }
    static func mtSlots(length: Int) -> UInt { command(direction: read, number: 0x0a, size: length) }
    static func keyState(length: Int) -> UInt { command(direction: read, number: 0x18, size: length) }
    static func bits(type: EventType, length: Int) -> UInt { command(direction: read, number: 0x20 + UInt(type.rawValue), size: length) }
    static func absInfo(_ code: EventCode) -> UInt {
        command(direction: read, number: 0x40 + UInt(code.rawValue), size: MemoryLayout<input_absinfo>.size)
    }
    static let id = command(direction: read, number: 0x02, size: MemoryLayout<input_id>.size)
}
