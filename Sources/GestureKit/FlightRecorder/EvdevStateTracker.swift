/// The device's state as libevdev keeps it (each slot's values, the current slot, the other
/// axes, the keys down), followed event by event in storage allocated once: the flight recorder
/// applies the events it drops from its ring, so it always knows the state at the oldest event it
/// still holds, and a dump can begin there with the touches already down.
///
/// `stateEvents()` lists that state in the form and order of `EvdevDevice.currentStateEvents()`, so
/// a dump's first frame is what `record` writes for fingers down at open (`StateAtOpen`).
package struct EvdevStateTracker: Sendable {
    /// The per-slot axes, `ABS_MT_TOUCH_MAJOR` ... `ABS_MT_TOOL_Y` (the kernel's `input_is_mt_value`).
    static let firstMultitouchCode = EventCode.absMTTouchMajor.rawValue
    static let multitouchCodeCount = 0x3d - Int(EventCode.absMTTouchMajor.rawValue) + 1  // through ABS_MT_TOOL_Y
    static let absoluteCodeCount = 0x40  // ABS_CNT
    static let keyCodeCount = 0x300  // KEY_CNT

    private let slotCount: Int
    /// The device's absolute axes and keys in ascending order: the ones listed.
    private let absoluteCodes: [EventCode]
    private let keyCodes: [EventCode]
    private let multitouchCodes: [EventCode]
    private var slotValues: [Int32]
    private var absoluteValues: [Int32]
    private var keysDown: [Bool]
    private var currentSlot = 0
    /// The time of the last event applied.
    package private(set) var time: EventTime?

    package init(device: DeviceDescription) {
        slotCount = device.slotCount > 0 ? device.firstSlot + device.slotCount : 0
        absoluteCodes = (device.codes[.abs] ?? []).sorted()
        keyCodes = (device.codes[.key] ?? []).sorted().filter { Int($0.rawValue) < Self.keyCodeCount }
        multitouchCodes = absoluteCodes.filter { Self.multitouchIndex($0) != nil && $0 != .absMTTrackingID }
        slotValues = [Int32](repeating: 0, count: slotCount * Self.multitouchCodeCount)
        absoluteValues = [Int32](repeating: 0, count: Self.absoluteCodeCount)
        keysDown = [Bool](repeating: false, count: Self.keyCodeCount)
        for slot in 0..<slotCount { slotValues[slot * Self.multitouchCodeCount + Self.trackingIDIndex] = -1 }
        for (code, axis) in device.absInfo where Int(code.rawValue) < Self.absoluteCodeCount {
            absoluteValues[Int(code.rawValue)] = axis.value
        }
    }

    private static let trackingIDIndex = multitouchIndex(.absMTTrackingID)!

    @inline(__always)
    private static func multitouchIndex(_ code: EventCode) -> Int? {
        let index = Int(code.rawValue) - Int(firstMultitouchCode)
        return index >= 0 && index < multitouchCodeCount ? index : nil
    }

    /// Applies `state` (`EvdevDevice.currentStateEvents()`, at time 0) as the state before any event.
    package mutating func seed(with state: [InputEvent]) {
        for event in state { apply(event) }
        time = nil
    }

    /// Applies one event as libevdev would: a slot change, a slot's value, an axis, a key.
    package mutating func apply(_ event: InputEvent) {
        withUnsafePointer(to: event) { apply(UnsafeBufferPointer(start: $0, count: 1)) }
    }

    /// Applies `events` in order as libevdev would (a slot change, a slot's value, an axis, a key):
    /// the arrays' storage is made unique once for the whole run instead of once per event (the
    /// ring drops events in blocks).
    package mutating func apply(_ events: UnsafeBufferPointer<InputEvent>) {
        guard let last = events.last else { return }
        let slots = slotCount
        var slot = currentSlot
        slotValues.withUnsafeMutableBufferPointer { slotValues in
            absoluteValues.withUnsafeMutableBufferPointer { absoluteValues in
                keysDown.withUnsafeMutableBufferPointer { keysDown in
                    for event in events {
                        if event.type == .abs {
                            if event.code == .absMTSlot {
                                slot = Int(event.value)
                            } else if slots > 0, let index = Self.multitouchIndex(event.code) {
                                guard slot >= 0 && slot < slots else { continue }
                                slotValues[slot * Self.multitouchCodeCount + index] = event.value
                            } else if Int(event.code.rawValue) < Self.absoluteCodeCount {
                                absoluteValues[Int(event.code.rawValue)] = event.value
                            }
                        } else if event.type == .key, Int(event.code.rawValue) < Self.keyCodeCount {
                            // Autorepeat (2) keeps a key down.
                            keysDown[Int(event.code.rawValue)] = event.value != 0
                        }
                    }
                }
            }
        }
        currentSlot = slot
        time = last.time
    }

    /// The state as events, in `EvdevDevice.currentStateEvents()`'s order and at time 0: each slot
    /// with a contact (slot, tracking id, its values), the current slot again, the other axes, the
    /// keys down.
    package func stateEvents() -> [InputEvent] {
        var events: [InputEvent] = []
        func add(_ type: EventType, _ code: EventCode, _ value: Int32) {
            events.append(InputEvent(time: .zero, type: type, code: code, value: value))
        }
        var slotSaid = false
        for slot in 0..<slotCount {
            let base = slot * Self.multitouchCodeCount
            let trackingID = slotValues[base + Self.trackingIDIndex]
            guard trackingID >= 0 else { continue }
            add(.abs, .absMTSlot, Int32(slot))
            add(.abs, .absMTTrackingID, trackingID)
            for code in multitouchCodes { add(.abs, code, slotValues[base + Self.multitouchIndex(code)!]) }
            slotSaid = true
        }
        if slotSaid { add(.abs, .absMTSlot, Int32(currentSlot)) }
        for code in absoluteCodes where code != .absMTSlot && Self.multitouchIndex(code) == nil
        && Int(code.rawValue) < Self.absoluteCodeCount {
            add(.abs, code, absoluteValues[Int(code.rawValue)])
        }
        for code in keyCodes where keysDown[Int(code.rawValue)] { add(.key, code, 1) }
        return events
    }
}
