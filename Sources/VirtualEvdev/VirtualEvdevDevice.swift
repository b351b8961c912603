import CVirtualEvdev
import GestureCore
import GestureKit
import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// A FUSE file that libevdev, `libinput record` and `evemu-describe` open like a kernel evdev node.
///
/// The node answers the evdev ioctls (`EVIOCGNAME`, `EVIOCGBIT`, `EVIOCGABS`, `EVIOCGMTSLOTS`, ...)
/// from `description` and from the device state the events it generated left behind, serves
/// `struct input_event` records from `read()`, and wakes `poll()`. See `README.md` next to this
/// file for how it works.
///
/// ```swift
/// let device = try VirtualEvdevDevice(description: touchpad, directory: "/tmp/pinchlab-dev")
/// defer { device.stop() }
/// device.enqueue(events)           // readable as fast as the reader reads
/// // open(device.path, O_RDONLY | O_NONBLOCK) and use libevdev as with /dev/input/eventN
/// ```
///
/// All methods are thread-safe. The mount goes away on `stop()`, on deinit and at process exit (and
/// the directory with it, if `init` created it). A dead mount left behind by a crashed run is
/// detached by the next `init` on the same directory; anything else mounted there is refused.
package final class VirtualEvdevDevice: @unchecked Sendable {
    // @unchecked: the only state is the C device, which serialises every call with its own mutex.
    private let handle: OpaquePointer

    /// The device the node describes.
    package let description: DeviceDescription
    /// The mounted directory.
    package let directory: String
    /// The node's file name inside `directory`.
    package let nodeName: String
    /// Full path of the node, to hand to `open(2)`, libevdev or `libinput record`.
    package var path: String { directory.hasSuffix("/") ? directory + nodeName : directory + "/" + nodeName }

    /// Mounts `directory` (created if missing, one level) with one node named `nodeName`.
    ///
    /// - Throws: `VirtualEvdevError.fuseUnavailable` when `/dev/fuse` is missing,
    ///   `.directoryInUse` when something other than a dead mount of ours is mounted on `directory`
    ///   (it is left alone), `.mountFailed` when the mount itself fails, `.invalidDescription` for
    ///   codes the kernel does not define.
    package init(
        description: DeviceDescription,
        directory: String,
        nodeName: String = "event0",
        options: VirtualEvdevOptions = VirtualEvdevOptions()
    ) throws {
        // Fully set up before `self` owns it: a class whose init throws after all stored
        // properties are set still runs deinit, which would free the handle twice.
        self.handle = try Self.mount(description, directory: directory, nodeName: nodeName, options: options)
        self.description = description
        self.directory = directory
        self.nodeName = nodeName
    }

    private static func mount(
        _ description: DeviceDescription, directory: String, nodeName: String, options: VirtualEvdevOptions
    ) throws -> OpaquePointer {
        guard let handle = vevdev_new(description.name) else { throw VirtualEvdevError.outOfMemory }
        do {
            try describe(description, options: options, to: handle)
        } catch {
            vevdev_free(handle)
            throw error
        }
        var message = [CChar](repeating: 0, count: errorMessageCapacity)
        var errorNumber: Int32 = 0
        let result = vevdev_mount(handle, directory, nodeName, &message, message.count, &errorNumber)
        guard result == 0 else {
            vevdev_free(handle)
            // The message is only for printing: the C side says what failed by its code.
            let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw VirtualEvdevError(mountFailure: vevdev_mount_failure(rawValue: UInt32(-result)), errno: Errno(rawValue: errorNumber),
                                    directory: directory, reason: reason)
        }
        return handle
    }

    deinit { vevdev_free(handle) }

    private static let errorMessageCapacity = 512
    /// The kernel's default auto-repeat (`input_enable_softrepeat`: 250 ms delay, 33 ms period).
    private static let kernelRepeatDelayMS: Int32 = 250
    private static let kernelRepeatPeriodMS: Int32 = 33

    private static func describe(_ d: DeviceDescription, options: VirtualEvdevOptions, to handle: OpaquePointer) throws {
        vevdev_set_id(handle, d.id.bustype, d.id.vendor, d.id.product, d.id.version)
        vevdev_set_phys(handle, options.physicalLocation)
        vevdev_set_unmount_after_crash(handle, options.unmountsAfterACrash)
        vevdev_set_uniq(handle, options.uniqueIdentifier)
        for property in d.properties where vevdev_enable_property(handle, UInt32(property.rawValue)) != 0 {
            throw VirtualEvdevError.invalidDescription("unknown property \(property)")
        }
        for (type, codes) in d.codes where type != .syn {
            if type == .rep {
                vevdev_set_repeat(handle, kernelRepeatDelayMS, kernelRepeatPeriodMS)
                continue
            }
            for code in codes where type != .abs {
                if vevdev_enable_code(handle, UInt32(type.rawValue), UInt32(code.rawValue)) != 0 {
                    throw VirtualEvdevError.invalidDescription("code \(code.rawValue) out of range for \(type)")
                }
            }
        }
        for code in d.codes[.abs] ?? [] where d.absInfo[code] == nil {
            throw VirtualEvdevError.invalidDescription("ABS code \(code.name(for: .abs) ?? String(code.rawValue)) has no AbsInfo")
        }
        for (code, info) in d.absInfo {
            let result = vevdev_set_abs(
                handle, UInt32(code.rawValue), info.value, info.minimum, info.maximum, info.fuzz, info.flat, info.resolution)
            if result != 0 { throw VirtualEvdevError.invalidDescription("ABS code \(code.rawValue) out of range") }
        }
        for (type, states) in [(EventType.led, d.ledStates), (EventType.sw, d.switchStates)] {
            for (code, value) in states where vevdev_set_initial_state(handle, UInt32(type.rawValue), UInt32(code.rawValue), value) != 0 {
                throw VirtualEvdevError.invalidDescription("\(type) code \(code.rawValue) out of range")
            }
        }
        vevdev_set_client_buffer_events(handle, UInt32(clamping: options.clientBufferEvents ?? 0))
        vevdev_set_timestamps(handle, options.timestamps.cValue)
    }

    // MARK: Feeding events

    /// How generated events are paced. Changing it keeps the events already queued.
    package func setTiming(_ timing: VirtualEvdevTiming) {
        switch timing {
        case .asFastAsRead:
            vevdev_set_timing(handle, VEVDEV_TIMING_AS_FAST_AS_READ, 1, false)
        case .realTime(let speed, let startOnFirstRead):
            vevdev_set_timing(handle, VEVDEV_TIMING_REAL_TIME, speed, startOnFirstRead)
        }
    }

    /// Appends events to the queue, paced by the current timing (`.asFastAsRead` unless changed):
    /// each reader sees them as soon as it reads. Readers only see events up to the last
    /// `SYN_REPORT`, as with the kernel.
    package func enqueue(_ events: some Sequence<InputEvent>) {
        var buffer = [vevdev_event]()
        buffer.reserveCapacity(events.underestimatedCount)
        for event in events { buffer.append(Self.cEvent(event)) }
        _ = buffer.withUnsafeBufferPointer { vevdev_enqueue(handle, $0.baseAddress, $0.count) }
    }

    /// Replaces whatever is queued and plays `events` in real time from their timestamps (one
    /// playback pass, or one per loop: see `VirtualEvdevTimestamps.readerClock`).
    ///
    /// `events` are a recording: each pass starts from slot 0 as the recording did (see
    /// `enqueueRecordingStart()`), so a loop of a recording that ends in another slot stays right.
    ///
    /// - Parameters:
    ///   - speed: 2 plays twice as fast. Values ≤ 0 or not finite mean 1.
    ///   - loop: start again whenever the events run out, shifted forward in time by their span
    ///     plus `loopPauseMicroseconds` so timestamps keep increasing.
    ///   - startOnFirstRead: wait until a reader is ready (its first `read()`/`poll()`, after
    ///     libevdev's initial ioctls) before the first event.
    package func play(
        _ events: [InputEvent], speed: Double = 1, loop: Bool = false, startOnFirstRead: Bool = false,
        loopPauseMicroseconds: Int64 = VirtualEvdevDevice.defaultLoopPauseMicroseconds
    ) {
        vevdev_clear_feed(handle)
        setTiming(.realTime(speed: speed.isFinite ? speed : 1, startOnFirstRead: startOnFirstRead))
        let cEvents = events.map(Self.cEvent)
        if loop {
            _ = cEvents.withUnsafeBufferPointer { vevdev_set_loop(handle, $0.baseAddress, $0.count, loopPauseMicroseconds) }
        } else {
            _ = vevdev_enqueue_recording_start(handle)
            _ = cEvents.withUnsafeBufferPointer { vevdev_enqueue(handle, $0.baseAddress, $0.count) }
        }
    }

    /// Pause between two passes of a looped `play`, so a replayed gesture does not start in the
    /// same instant the previous one ended.
    package static let defaultLoopPauseMicroseconds: Int64 = 500_000

    /// Feeds a sequence of any length lazily, blocking the caller: at most `maxPendingEvents`
    /// wait in memory at once. Use for `pinchlab serve` of a large recording.
    ///
    /// - Returns: `true` when every event was handed over, `false` when the device was removed
    ///   or stopped first.
    @discardableResult
    package func stream(
        _ events: some Sequence<InputEvent>, timing: VirtualEvdevTiming,
        maxPendingEvents: Int = VirtualEvdevDevice.defaultMaxPendingEvents
    ) -> Bool {
        var iterator = events.makeIterator()
        return stream(timing: timing, maxPendingEvents: maxPendingEvents) { iterator.next() }
    }

    /// `stream(_:timing:maxPendingEvents:)` for a recording reader, marked as a recording's start
    /// (`enqueueRecordingStart()`); rethrows the reader's errors.
    @discardableResult
    package func stream(
        from source: inout some InputEventSource, timing: VirtualEvdevTiming,
        maxPendingEvents: Int = VirtualEvdevDevice.defaultMaxPendingEvents
    ) throws -> Bool {
        enqueueRecordingStart()
        var failure: (any Error)?
        var reader = source
        defer { source = reader }
        let delivered = stream(timing: timing, maxPendingEvents: maxPendingEvents) {
            do { return try reader.nextEvent() } catch {
                failure = error
                return nil
            }
        }
        if let failure { throw failure }
        return delivered
    }

    /// Marks where a recording starts among the queued events. A recording is a list of changes
    /// from the state its device was in; its multitouch events before its first `ABS_MT_SLOT`
    /// belong to slot 0, where a new device starts, which the recording never says. If a previous
    /// recording left the device in another slot, the device generates `ABS_MT_SLOT 0` first, as
    /// the kernel's input core would have; otherwise nothing is added.
    package func enqueueRecordingStart() { _ = vevdev_enqueue_recording_start(handle) }

    /// Events handed to the C side per call while streaming.
    package static let defaultMaxPendingEvents = 4096

    private func stream(timing: VirtualEvdevTiming, maxPendingEvents: Int, next: () -> InputEvent?) -> Bool {
        setTiming(timing)
        let chunkSize = Swift.max(1, maxPendingEvents / 2)
        var chunk = [vevdev_event]()
        chunk.reserveCapacity(chunkSize)
        var finished = false
        while !finished {
            chunk.removeAll(keepingCapacity: true)
            while chunk.count < chunkSize, let event = next() { chunk.append(Self.cEvent(event)) }
            finished = chunk.count < chunkSize
            guard vevdev_wait_pending_at_most(handle, Swift.max(0, maxPendingEvents - chunk.count), -1) else { return false }
            _ = chunk.withUnsafeBufferPointer { vevdev_enqueue(handle, $0.baseAddress, $0.count) }
        }
        return true
    }

    /// Simulates an evdev buffer overflow: the pending queue and then `events` are generated at
    /// once, so the device state (key bits, ABS values, MT slots) follows every one of them, but
    /// each open client's queue ends up as `EV_SYN/SYN_DROPPED` plus the newest event, as the
    /// kernel's evdev buffer leaves it. Readers must then resync with ioctls.
    package func overflow(generating events: [InputEvent]) {
        let cEvents = events.map(Self.cEvent)
        _ = cEvents.withUnsafeBufferPointer { vevdev_overflow(handle, $0.baseAddress, $0.count) }
    }

    // MARK: Faults

    /// Unplugs the device: reads fail with `ENODEV`, `poll()` reports `POLLERR | POLLHUP`, ioctls and
    /// new opens fail with `ENODEV`. The mount stays until `stop()`.
    package func remove() { vevdev_remove(handle) }

    /// While stalled nothing is generated and nothing is readable: reads block (or `EAGAIN` with
    /// `O_NONBLOCK`), so a reader's timeout can be tested. Real-time playing resumes from "now".
    package func stall(_ stalled: Bool) { vevdev_stall(handle, stalled) }

    /// Unmounts and joins the FUSE threads. Open files then fail with `ENODEV`/`ENOTCONN`.
    /// Idempotent; deinit calls it too.
    package func stop() { vevdev_stop(handle) }

    // MARK: Observation

    /// Files currently open on the node.
    package var openCount: Int { Int(vevdev_open_count(handle)) }
    /// Opens since the mount.
    package var totalOpens: Int { Int(vevdev_total_opens(handle)) }
    /// Events queued but not generated yet.
    package var pendingEventCount: Int { vevdev_pending_count(handle) }
    /// Events generated so far (delivered to the clients open at the time).
    package var generatedEventCount: Int { Int(vevdev_generated_count(handle)) }

    /// Waits until the node was opened `times` times in total; `false` on timeout.
    package func waitUntilOpened(times: Int = 1, timeoutSeconds: Double) -> Bool {
        vevdev_wait_total_opens(handle, UInt64(Swift.max(0, times)), Self.milliseconds(timeoutSeconds))
    }

    /// Clients that have issued their first `read()` or `poll()` since the mount.
    package var readerCount: Int { Int(vevdev_total_readers(handle)) }

    /// Waits until `clients` readers are ready: each has issued its first `read()` or `poll()`,
    /// which a libevdev reader does only after reading the device's state with ioctls (answered
    /// with the state at its open, so state and queue never hold an event twice).
    package func waitUntilReading(clients: Int = 1, timeoutSeconds: Double) -> Bool {
        vevdev_wait_total_readers(handle, UInt64(Swift.max(0, clients)), Self.milliseconds(timeoutSeconds))
    }

    /// How late readers read their events: the reader's clock at each `read()` minus the
    /// timestamps of the events it got. A reader whose timers run on the wall clock (libinput)
    /// decides differently when events reach it late.
    package var readLateness: ReadLateness {
        var firstUS: Int64 = 0, maxUS: Int64 = 0
        var events: UInt64 = 0
        var late: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &late) { raw in
            vevdev_read_lateness(handle, &firstUS, &maxUS, &events, raw.baseAddress!.assumingMemoryBound(to: UInt64.self))
        }
        return ReadLateness(firstMicroseconds: firstUS, maximumMicroseconds: maxUS, events: Int(events),
                            lateCounts: [Int(late.0), Int(late.1), Int(late.2), Int(late.3), Int(late.4)])
    }

    /// Waits until every queued event was generated; `false` on timeout, removal or stop.
    package func waitUntilGenerated(timeoutSeconds: Double) -> Bool {
        vevdev_wait_pending_at_most(handle, 0, Self.milliseconds(timeoutSeconds))
    }

    /// Waits until nothing is left to read: every queued event was generated and every open file
    /// has read all the events it can (a partial frame after the last `SYN_REPORT` never becomes
    /// readable, as with the kernel). `false` on timeout, removal or stop. Call before `remove()`
    /// so readers get the last frame: the kernel fails reads with `ENODEV` once a device is gone,
    /// even with events queued.
    package func waitUntilDrained(timeoutSeconds: Double) -> Bool {
        vevdev_wait_drained(handle, Self.milliseconds(timeoutSeconds))
    }

    private static func milliseconds(_ seconds: Double) -> Int32 {
        guard seconds.isFinite, seconds >= 0 else { return -1 }
        return Int32(clamping: Int64((seconds * 1000).rounded(.up)))
    }

    private static func cEvent(_ event: InputEvent) -> vevdev_event {
        vevdev_event(
            sec: event.time.seconds, usec: Int64(event.time.microseconds),
            type: event.type.rawValue, code: event.code.rawValue, value: event.value)
    }
}

/// How late readers read the events they were given (`VirtualEvdevDevice.readLateness`).
package struct ReadLateness: Sendable, Hashable {
    /// The thresholds of `lateCounts`, microseconds.
    package static let thresholdsMicroseconds: [Int64] = [1_000, 5_000, 10_000, 20_000, 50_000]
    /// How late the first event was read.
    package var firstMicroseconds: Int64
    package var maximumMicroseconds: Int64
    /// Events read.
    package var events: Int
    /// Events read more than each of `thresholdsMicroseconds` late.
    package var lateCounts: [Int]

    /// Events read more than `milliseconds` late (one of 1, 5, 10, 20, 50).
    package func eventsLaterThan(milliseconds: Int) -> Int {
        guard let index = Self.thresholdsMicroseconds.firstIndex(of: Int64(milliseconds) * 1000) else { return 0 }
        return lateCounts[index]
    }
}

/// How generated events are paced.
package enum VirtualEvdevTiming: Sendable, Equatable {
    /// Events are generated lazily, as fast as readers read them (nothing is lost to overflow).
    case asFastAsRead
    /// A player thread generates each event at its recorded time divided by `speed`, measured
    /// from the first event (or from the first reader's first `read()`/`poll()` with
    /// `startOnFirstRead`). Events nobody reads overflow the client's bounded queue, as on real
    /// hardware.
    case realTime(speed: Double = 1, startOnFirstRead: Bool = false)
}

/// Settings of a virtual device beyond its `DeviceDescription`.
package struct VirtualEvdevOptions: Sendable, Equatable {
    /// `EVIOCGPHYS`; nil answers `ENOENT` like a uinput device.
    package var physicalLocation: String?
    /// `EVIOCGUNIQ`; nil answers `ENOENT`.
    package var uniqueIdentifier: String?
    /// Each client's queue in events (rounded up to a power of two); nil uses the kernel's
    /// estimate for the device (`evdev_compute_buffer_size`).
    package var clientBufferEvents: Int?
    /// How events are stamped: `.recorded` (byte for byte) unless changed.
    package var timestamps: VirtualEvdevTimestamps
    /// Whether the mount goes even when the process is killed (libfuse's auto_unmount: a
    /// fusermount3 beside the process for the mount's life). That fusermount3 keeps every
    /// descriptor the process had open, not close-on-exec, when it mounted: a process that mounts
    /// many devices while its other threads start children (a test run) turns it off, and a
    /// dead mount it leaves is replaced by the next mount there.
    package var unmountsAfterACrash: Bool

    package init(
        physicalLocation: String? = nil, uniqueIdentifier: String? = nil,
        clientBufferEvents: Int? = nil, timestamps: VirtualEvdevTimestamps = .recorded,
        unmountsAfterACrash: Bool = true
    ) {
        self.physicalLocation = physicalLocation
        self.uniqueIdentifier = uniqueIdentifier
        self.clientBufferEvents = clientBufferEvents
        self.timestamps = timestamps
        self.unmountsAfterACrash = unmountsAfterACrash
    }
}

/// The times readers see on the events a virtual device generates.
package enum VirtualEvdevTimestamps: Sendable, Equatable {
    /// The events' own times, byte for byte: what was served reads back unchanged.
    case recorded
    /// Like a kernel device: each reader gets times in its own clock (`CLOCK_REALTIME`, the
    /// kernel's default, unless it chose another with `EVIOCSCLOCKID`, as libinput and pinchlab do
    /// for `CLOCK_MONOTONIC`), and the recorded intervals are kept exactly: every playback pass
    /// (`play`, each loop, each `stream(from:)`, each `enqueueRecordingStart()`) is shifted by one
    /// constant, chosen when its first event is generated, which is then stamped "now". A pass
    /// played faster than recorded runs ahead of the clock; the next one then starts after it, so
    /// times never go backwards.
    case readerClock
    /// Each frame is stamped when it is generated, in the reader's clock: intervals follow the
    /// playback, not the recording (the latency benchmark measures from these stamps).
    case generationTime

    var cValue: vevdev_timestamps {
        switch self {
        case .recorded: VEVDEV_TIMESTAMPS_RECORDED
        case .readerClock: VEVDEV_TIMESTAMPS_READER_CLOCK
        case .generationTime: VEVDEV_TIMESTAMPS_GENERATION_TIME
        }
    }
}

/// Why a virtual device could not be created.
package enum VirtualEvdevError: Error, Equatable, CustomStringConvertible {
    /// `/dev/fuse` is missing or not accessible (no FUSE in this machine or container).
    case fuseUnavailable(reason: String)
    /// Something is already mounted on the directory (another file system, or a virtual device
    /// still being served); it is left alone.
    case directoryInUse(directory: String, reason: String)
    /// The directory (or a missing parent) cannot be made, or is not a directory; `errno` says why
    /// (`EACCES`, `ENOENT` under /proc, `ENOTDIR`, ...).
    case directoryUnusable(directory: String, reason: String, errno: Errno)
    /// The FUSE mount failed (not root and no setuid `fusermount3`, ...).
    case mountFailed(directory: String, reason: String)
    /// The description names a code the kernel does not define, or an ABS code without `AbsInfo`.
    case invalidDescription(String)
    case outOfMemory

    /// The error for a failed `vevdev_mount`, by the code it returned.
    init(mountFailure failure: vevdev_mount_failure, errno: Errno, directory: String, reason: String) {
        switch failure {
        case VEVDEV_MOUNT_NO_FUSE: self = .fuseUnavailable(reason: reason)
        case VEVDEV_MOUNT_ALREADY_MOUNTED, VEVDEV_MOUNT_DIRECTORY_IN_USE:
            self = .directoryInUse(directory: directory, reason: reason)
        case VEVDEV_MOUNT_DIRECTORY_UNUSABLE: self = .directoryUnusable(directory: directory, reason: reason, errno: errno)
        default: self = .mountFailed(directory: directory, reason: reason)  // the stale mount, session, mount, threads
        }
    }

    package var description: String {
        switch self {
        case .fuseUnavailable(let reason): return "FUSE is unavailable: \(reason)"
        case .directoryInUse(_, let reason): return reason
        case .directoryUnusable(let directory, let reason, _): return "\(directory): \(reason)"
        case .mountFailed(let directory, let reason): return "cannot mount a virtual evdev device at \(directory): \(reason)"
        case .invalidDescription(let reason): return "invalid device description: \(reason)"
        case .outOfMemory: return "out of memory"
        }
    }
}
