import GestureCore

/// The last stretch of a device's raw events, in a ring of fixed-size event records allocated once
/// (`append` never allocates), with the device's state at the oldest event kept: what `live
/// --keep SECONDS` holds so that a dump can write the last SECONDS as a recording that starts at a
/// frame boundary with the touches down at that point.
///
/// How big: `capacity(seconds:device:)` events of 24 bytes, and room for a block more. When the device sends more events per
/// second than assumed there, the ring simply holds fewer seconds than asked (the oldest frames go
/// first, memory stays the same); `window()` says how many seconds it holds, and a dump says so.
package final class EventRing {
    /// The events the ring holds at least, once that many came (at most `capacity + dropBlock`).
    package let capacity: Int
    /// How many of the oldest events go at once when the ring is full: the state at the oldest
    /// event follows them in one pass over contiguous memory instead of one call per event, which
    /// was most of the ring's cost per event. Storage has room for this many beyond `capacity`.
    @usableFromInline let dropBlock: Int
    @usableFromInline let storageCount: Int
    @usableFromInline let storage: UnsafeMutablePointer<InputEvent>
    // Unchecked: only the reading thread appends and takes windows (a dump is written from a
    // copy), and a dynamic exclusivity check on each of these per event was most of the ring's cost.
    /// Where the next event goes.
    @usableFromInline @exclusivity(unchecked) var next = 0
    @usableFromInline @exclusivity(unchecked) var held = 0
    /// Every event appended, dropped ones included.
    @usableFromInline @exclusivity(unchecked) var appended = 0
    /// The state at the oldest event held: the state at open with every dropped event applied.
    @exclusivity(unchecked) private var stateBeforeOldest: EvdevStateTracker
    /// Whether the last dropped event ended a frame (the oldest held one begins a frame).
    @exclusivity(unchecked) private var droppedAtFrameEnd = true

    /// The events held now.
    package var count: Int { held }
    /// Every event appended, dropped ones included.
    var appendedCount: Int { appended }

    /// Frames per second assumed when sizing the ring: touchpads report 80 to 150 frames a second
    /// while touched, touchscreens up to 240.
    package static let assumedFramesPerSecond = 250
    /// The most events a ring holds (a 3600 s ring of a busy touchscreen: 24 bytes each, 384 MiB).
    static let capacityMax = 16 << 20
    /// The most events dropped at once (96 KiB of events; a 60 s touchpad ring drops about 2% of
    /// itself at a time).
    static let dropBlockMax = 4096

    /// Events for `seconds` of `device`: `assumedFramesPerSecond` frames of `eventsPerFrame(device)`
    /// events each, so a touchpad with two fingers moving fits; at 0 seconds, none.
    package static func capacity(seconds: Double, device: DeviceDescription) -> Int {
        guard seconds > 0 else { return 0 }
        let events = seconds * Double(assumedFramesPerSecond * eventsPerFrame(device))
        return Int(min(events.rounded(.up), Double(capacityMax)))
    }

    /// The events of a frame with two fingers moving: per finger its slot, x, y and the pressure
    /// and touch size the device reports, the single-touch axes, `MSC_TIMESTAMP` and `SYN_REPORT`.
    package static func eventsPerFrame(_ device: DeviceDescription) -> Int {
        let perFinger = [EventCode.absMTSlot, .absMTPositionX, .absMTPositionY, .absMTPressure, .absMTTouchMajor]
            .count { device.has(.abs, $0) }
        let singleTouch = [EventCode.absX, .absY, .absPressure].count { device.has(.abs, $0) }
        let timestamp = device.has(.msc, EventCode(rawValue: 0x05)) ? 1 : 0  // MSC_TIMESTAMP
        return 2 * max(perFinger, 2) + singleTouch + timestamp + 1  // and the SYN_REPORT
    }

    /// - Parameters:
    ///   - capacity: events held at least (`capacity(seconds:device:)`).
    ///   - device: the device the events come from (its axes and slots make the state kept).
    ///   - stateAtOpen: `EvdevDevice.currentStateEvents()` when reading began.
    package init(capacity: Int, device: DeviceDescription, stateAtOpen: [InputEvent]) {
        self.capacity = max(0, capacity)
        dropBlock = self.capacity == 0 ? 0 : min(Self.dropBlockMax, max(1, self.capacity / 32))
        storageCount = self.capacity + dropBlock
        // Allocated and left untouched: its pages cost memory only once events fill them.
        storage = .allocate(capacity: max(1, storageCount))
        stateBeforeOldest = EvdevStateTracker(device: device)
        stateBeforeOldest.seed(with: stateAtOpen)
    }

    deinit { storage.deallocate() }

    /// Keeps `event`, dropping the oldest block when full. No allocation, no copy beyond the event;
    /// inlined into the reading loop (a call across the module boundary cost as much as the rest).
    @inlinable @inline(__always)
    package func append(_ event: InputEvent) {
        // The rare full ring is a tail call, so the common path saves no registers for a call.
        if held == storageCount { return appendWhenFull(event) }
        storage[next] = event
        next = next &+ 1 == storageCount ? 0 : next &+ 1
        held &+= 1
        appended &+= 1
    }

    /// `append` when the ring is full: forgets the oldest `dropBlock` events (fewer where they
    /// reach the end of storage), applying them to the state at the oldest event, then keeps the
    /// event. Full, so the oldest is at `next`.
    @usableFromInline @inline(never)
    func appendWhenFull(_ event: InputEvent) {
        guard storageCount > 0 else { return }
        let dropped = UnsafeBufferPointer(start: storage + next, count: min(dropBlock, storageCount - next))
        stateBeforeOldest.apply(dropped)
        droppedAtFrameEnd = dropped[dropped.count - 1].isSynReport
        held -= dropped.count
        append(event)
    }

    /// The ring's whole frames of the last `seconds` (all it holds when nil): from the first frame
    /// boundary, with the state there, to the last `SYN_REPORT` (a frame still coming is left
    /// out). A copy, made in one pass over the ring.
    package func window(seconds: Double? = nil) -> EventWindow {
        var state = stateBeforeOldest
        var events: [InputEvent] = []
        events.reserveCapacity(count)
        let slots = max(storageCount, 1)
        let oldest = (next - held + slots) % slots
        func event(at offset: Int) -> InputEvent { storage[(oldest + offset) % slots] }
        // Frames that end before this time are older than asked for.
        var notBefore = Int64.min
        if let seconds, let lastEnd = (0..<count).reversed().first(where: { event(at: $0).isSynReport }) {
            notBefore = event(at: lastEnd).time.totalMicroseconds - Int64((seconds * 1_000_000).rounded())
        }
        var skipping = !droppedAtFrameEnd
        var skipped = 0
        var frameStart = 0
        for offset in 0..<count {
            let event = event(at: offset)
            if skipping {
                // The oldest frame lost its beginning, or is older than asked for: its events only
                // move the state on.
                state.apply(event)
                skipped += 1
                if event.isSynReport { skipping = false }
                continue
            }
            if frameStart == events.count && event.time.totalMicroseconds < notBefore {
                skipping = true
                state.apply(event)
                skipped += 1
                if event.isSynReport { skipping = false }
                continue
            }
            events.append(event)
            if event.isSynReport { frameStart = events.count }
        }
        if let lastEnd = events.lastIndex(where: \.isSynReport) {
            events.removeSubrange((lastEnd + 1)...)
        } else {
            events.removeAll()
        }
        let firstIndex = appendedCount - count + skipped
        return EventWindow(stateEvents: state.stateEvents(), stateTime: state.time,
                           events: events, firstEventIndex: firstIndex, isWhole: skipped == 0 && appendedCount == count)
    }
}

/// What an `EventRing` held when asked: whole frames and the device's state just before them.
package struct EventWindow: Sendable {
    /// The state before the first event, as `EvdevDevice.currentStateEvents()` lists it (time 0).
    package var stateEvents: [InputEvent]
    /// When the state was reached (the last event before the window), nil when it is the state at open.
    package var stateTime: EventTime?
    /// Whole frames, with their original times.
    package var events: [InputEvent]
    /// How many events the device sent before the window's first one.
    package var firstEventIndex: Int
    /// Nothing was dropped: the window begins with the first event read.
    package var isWhole: Bool

    /// The comment before the first frame of a dump that begins with touches down.
    static let stateComment = "state at the window's start: touches and keys down before the first event kept, not events the device sent then"

    /// Seconds from the first event to the last.
    package var seconds: Double {
        guard let first = events.first, let last = events.last else { return 0 }
        return last.time.seconds(since: first.time)
    }

    /// The state as a first frame for a recording of the window: at the time it was reached (or,
    /// for the state at open, the first event's), after a comment saying what it is.
    package var stateAtStart: StateAtOpen {
        StateAtOpen(stateEvents, at: stateTime ?? events.first?.time ?? .zero, comment: EventWindow.stateComment)
    }
}
