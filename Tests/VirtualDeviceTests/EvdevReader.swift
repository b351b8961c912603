import CEvdev
import Foundation
import GestureCore

/// An evdev node opened the way the device layer opens /dev/input/eventN, read through libevdev.
/// Keeps the kernel's default clock (`CLOCK_REALTIME`) unless told otherwise, and collects what
/// libevdev reports as bugs (a "double tracking ID", ...) in `libevdevBugs`.
final class EvdevReader {
    let fd: Int32
    let evdev: OpaquePointer
    private let log = LogBox()

    struct OpenError: Error { let errno: Int32 }

    convenience init(path: String) throws {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw OpenError(errno: errno) }
        try self.init(openedFile: fd)
    }

    /// libevdev on a file already opened (and maybe already read from by someone else); takes it over.
    init(openedFile fd: Int32) throws {
        self.fd = fd
        guard let created = libevdev_new() else {
            close(fd)
            throw OpenError(errno: ENOMEM)
        }
        let rc = libevdev_set_fd(created, fd)
        guard rc == 0 else {
            libevdev_free(created)
            close(fd)
            throw OpenError(errno: -rc)
        }
        // After libevdev_set_fd: it resets the device and forgets the log handler's data.
        libevdev_set_device_log_function(created, { _, _, data, _, _, _, format, arguments in
            guard let data, let format, let arguments else { return }
            var text = [CChar](repeating: 0, count: 512)
            _ = vsnprintf(&text, text.count, format, arguments)
            Unmanaged<LogBox>.fromOpaque(data).takeUnretainedValue().append(String(cString: text))
        }, LIBEVDEV_LOG_ERROR, Unmanaged.passUnretained(log).toOpaque())
        evdev = created
    }

    deinit {
        libevdev_free(evdev)
        close(fd)
    }

    /// The bugs libevdev logged for this device (e.g. "double tracking ID"), in order.
    var libevdevBugs: [String] { log.messages }

    /// `EVIOCSCLOCKID`: the clock this file's events are stamped in from now on.
    func useClock(_ clock: Int32) -> Bool {
        var id = clock
        return ioctl(fd, EvdevIoctl.setClock, &id) == 0
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

private final class LogBox: @unchecked Sendable {
    // @unchecked: `lock` guards `stored`.
    private let lock = NSLock()
    private var stored: [String] = []
    func append(_ message: String) { lock.lock(); stored.append(message); lock.unlock() }
    var messages: [String] { lock.lock(); defer { lock.unlock() }; return stored }
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
    static let setClock = command(direction: write, number: 0xa0, size: MemoryLayout<Int32>.size)
}
