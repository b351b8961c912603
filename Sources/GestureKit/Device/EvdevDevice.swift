import CEvdev
import GestureCore
import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// An open evdev device node, read through libevdev.
///
/// Opens the node non-blocking and close-on-exec on a real file descriptor, asks for
/// `CLOCK_MONOTONIC` timestamps (`EVIOCSCLOCKID`, as libinput does: the kernel's default,
/// `CLOCK_REALTIME`, jumps when NTP or the user sets the clock), reads the device description
/// through libevdev's ioctls, and hands out events. A `SYN_DROPPED` from the kernel is handed out
/// too and is followed by the state delta libevdev computes in `LIBEVDEV_READ_FLAG_SYNC` mode,
/// ending in a `SYN_REPORT`, so touch state is right again afterwards. Fingers already down when
/// the device is opened are in `currentStateEvents()`.
public final class EvdevDevice: InputEventSource {
    /// The device node, e.g. `/dev/input/event5`.
    public let path: String
    /// What the device declared when it was opened: name, id, properties, codes and axes.
    public let device: DeviceDescription
    private let fd: FileDescriptor
    let handle: OpaquePointer
    private var syncing = false

    /// What a non-blocking read found.
    public enum ReadResult: Equatable, Sendable {
        /// An event was read.
        case event(InputEvent)
        /// Nothing to read now (`EAGAIN`).
        case wouldBlock
    }

    /// Opens the device node for non-blocking reads through libevdev; throws `EvdevError`.
    public init(path: String) throws {
        self.path = path
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.openCloseOnExec(path, .readOnly, options: .nonBlocking)
        } catch {
            throw EvdevError.opening(path, errno: error)
        }
        // Before libevdev's ioctls: a clock change flushes the events queued so far.
        let clockResult = cevdev_use_monotonic_clock(fd.rawValue)
        var handle: OpaquePointer?
        // libevdev's calls return a negative errno.
        let rc = libevdev_new_from_fd(fd.rawValue, &handle)
        guard rc == 0, let handle else {
            try? fd.close()
            let error = Errno(rawValue: -rc)
            switch error.kind {
            case .noDevice: throw EvdevError.deviceRemoved(path: path)
            case .permissionDenied: throw EvdevError.permissionDenied(path: path)
            default: throw EvdevError.notAnEvdevDevice(path: path, errno: error)
            }
        }
        guard clockResult == 0 else {
            // Every kernel evdev node accepts it (Linux 3.4+); times in a clock that can jump
            // would break live and record silently, so say so instead.
            libevdev_free(handle)
            try? fd.close()
            let error = Errno(rawValue: -clockResult)
            if error.kind == .noDevice { throw EvdevError.deviceRemoved(path: path) }
            throw EvdevError.system(path: path, call: "EVIOCSCLOCKID(CLOCK_MONOTONIC)", errno: error)
        }
        self.fd = fd
        self.handle = handle
        self.device = Self.describe(handle)
    }

    deinit {
        libevdev_free(handle)
        try? fd.close()
    }

    /// The file descriptor, for `poll(2)` in an event loop.
    public var fileDescriptor: FileDescriptor { fd }

    /// Reads the next event without blocking.
    public func readEvent() throws -> ReadResult {
        var raw = input_event()
        let flags = syncing ? LIBEVDEV_READ_FLAG_SYNC.rawValue : LIBEVDEV_READ_FLAG_NORMAL.rawValue
        let rc = libevdev_next_event(handle, flags, &raw)
        if rc < 0 && Errno(rawValue: -rc).kind == .wouldBlock {
            if syncing {
                // The delta is exhausted; libevdev leaves normal reading to us.
                syncing = false
                return try readEvent()
            }
            return .wouldBlock
        }
        if rc < 0 {
            let error = Errno(rawValue: -rc)
            if error.kind == .noDevice { throw EvdevError.deviceRemoved(path: path) }
            throw EvdevError.system(path: path, call: "libevdev_next_event", errno: error)
        }
        if rc == LIBEVDEV_READ_STATUS_SYNC.rawValue && !syncing {
            syncing = true  // `raw` is the SYN_DROPPED itself; the delta follows
        }
        return .event(Self.event(from: raw))
    }

    /// Waits up to `timeoutMS` (negative: forever) for the device to become readable.
    /// Returns false on timeout; throws when the device is gone (`poll` reports `POLLERR`/`POLLHUP`
    /// with nothing to read).
    public func waitReadable(timeoutMS: Int32) throws -> Bool {
        // A first look without waiting, before asking libevdev: libevdev_has_event_pending() counts
        // a hang-up as "pending", and a removed device must be said to be removed.
        var timeout: Int32 = 0
        while true {
            let happened: FileDescriptor.PollEvents
            do {
                happened = try fd.poll(for: .readable, timeoutMS: timeout)
            } catch {
                // A stop signal (installed without SA_RESTART): the caller looks at why.
                if error.kind == .interrupted { return false }
                throw EvdevError.system(path: path, call: "poll", errno: error)
            }
            if happened.contains(.readable) { return true }
            if !happened.isDisjoint(with: [.error, .hangUp, .invalid]) { throw EvdevError.deviceRemoved(path: path) }
            if timeout == 0 {
                // Events libevdev already read from the file but has not handed out yet.
                if libevdev_has_event_pending(handle) > 0 { return true }
                if timeoutMS == 0 { return false }
                timeout = timeoutMS
                continue
            }
            return false
        }
    }

    /// Blocks until an event arrives. Never returns nil: a live device ends by being removed (throws).
    public func nextEvent() throws -> InputEvent? {
        while true {
            if case .event(let event) = try readEvent() { return event }
            _ = try waitReadable(timeoutMS: -1)
        }
    }

    /// The value libevdev holds for `code` in `slot` right now (`libevdev_get_slot_value`).
    public func slotValue(slot: Int, code: EventCode) -> Int32 {
        libevdev_get_slot_value(handle, UInt32(slot), UInt32(code.rawValue))
    }

    /// The current value of a key or axis as libevdev tracks it (`libevdev_get_event_value`).
    public func value(_ type: EventType, _ code: EventCode) -> Int32 {
        libevdev_get_event_value(handle, UInt32(type.rawValue), UInt32(code.rawValue))
    }

    static func event(from raw: input_event) -> InputEvent {
        var raw = raw
        return InputEvent(
            time: time(seconds: Int64(cevdev_event_sec(&raw)), microseconds: Int64(cevdev_event_usec(&raw))),
            type: EventType(rawValue: raw.type),
            code: EventCode(rawValue: raw.code),
            value: raw.value)
    }

    /// An event's `timeval` as an `EventTime`. The kernel keeps microseconds in 0..<1_000_000, but
    /// a device is a file anyone can serve (FUSE, CUSE): out-of-range microseconds are carried into
    /// the seconds, and a time beyond `EventTime`'s range is clamped, never a crash.
    static func time(seconds: Int64, microseconds: Int64) -> EventTime {
        let (whole, wholeOverflows) = seconds.multipliedReportingOverflow(by: 1_000_000)
        if wholeOverflows { return EventTime(totalMicroseconds: seconds < 0 ? .min : .max) }
        let (total, totalOverflows) = whole.addingReportingOverflow(microseconds)
        if totalOverflows { return EventTime(totalMicroseconds: microseconds < 0 ? .min : .max) }
        return EventTime(totalMicroseconds: total)
    }

    private static func describe(_ handle: OpaquePointer) -> DeviceDescription {
        let name = libevdev_get_name(handle).map { String(cString: $0) } ?? ""
        let id = InputID(
            bustype: UInt16(truncatingIfNeeded: libevdev_get_id_bustype(handle)),
            vendor: UInt16(truncatingIfNeeded: libevdev_get_id_vendor(handle)),
            product: UInt16(truncatingIfNeeded: libevdev_get_id_product(handle)),
            version: UInt16(truncatingIfNeeded: libevdev_get_id_version(handle)))
        var properties = Set<InputProperty>()
        for raw in 0...InputProperty.max.rawValue where libevdev_has_property(handle, UInt32(raw)) != 0 {
            properties.insert(InputProperty(rawValue: raw))
        }
        var codes: [EventType: Set<EventCode>] = [:]
        var absInfo: [EventCode: AbsInfo] = [:]
        var leds: [EventCode: Int32] = [:]
        var switches: [EventCode: Int32] = [:]
        for typeRaw in 1...EventType.max.rawValue where libevdev_has_event_type(handle, UInt32(typeRaw)) != 0 {
            let type = EventType(rawValue: typeRaw)
            guard let maxCode = type.maxCode else { continue }
            var set = Set<EventCode>()
            for codeRaw in 0...maxCode where libevdev_has_event_code(handle, UInt32(typeRaw), UInt32(codeRaw)) != 0 {
                let code = EventCode(rawValue: codeRaw)
                set.insert(code)
                if type == .abs, let info = libevdev_get_abs_info(handle, UInt32(codeRaw)) {
                    absInfo[code] = AbsInfo(value: info.pointee.value, minimum: info.pointee.minimum,
                                            maximum: info.pointee.maximum, fuzz: info.pointee.fuzz,
                                            flat: info.pointee.flat, resolution: info.pointee.resolution)
                }
                if type == .led { leds[code] = libevdev_get_event_value(handle, UInt32(typeRaw), UInt32(codeRaw)) }
                if type == .sw { switches[code] = libevdev_get_event_value(handle, UInt32(typeRaw), UInt32(codeRaw)) }
            }
            codes[type] = set
        }
        return DeviceDescription(name: name, id: id, properties: properties, codes: codes, absInfo: absInfo,
                                 ledStates: leds, switchStates: switches)
    }
}
