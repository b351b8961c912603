import CEvdev
import GestureCore
/// The device's state as libevdev keeps it (each slot's values, the current slot, the other
/// axes, the keys down), followed event by event in storage allocated once: the flight recorder
/// applies the events it drops from its ring, so it always knows the state at the oldest event it
/// still holds, and a dump can begin there with the touches already down.
///
/// `stateEvents()` lists that state in the form and order of `EvdevDevice.currentStateEvents()`, so
/// a dump's first frame is what `record` writes for fingers down at open (`StateAtOpen`).
package struct EvdevStateTracker: Sendable {
    static let multitouchCodeCount = DeviceStateEvents.multitouchCodes.count
    static let absoluteCodeCount = DeviceStateEvents.absoluteCodeCount
    static let keyCodeCount = Int(KEY_CNT)

    private let device: DeviceDescription
    private let slotCount: Int
    private var slotValues: [Int32]
    private var absoluteValues: [Int32]
    private var keysDown: [Bool]
    private var currentSlot = 0
    /// The time of the last event applied.
    package private(set) var time: EventTime?

    package init(device: DeviceDescription) {
        self.device = device
        slotCount = device.slotCount > 0 ? device.firstSlot + device.slotCount : 0
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
        let index = Int(code.rawValue) - Int(DeviceStateEvents.multitouchCodes.lowerBound)
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

    /// The state as events, as `EvdevDevice.currentStateEvents()` lists libevdev's (`DeviceStateEvents`).
    package func stateEvents() -> [InputEvent] {
        DeviceStateEvents.list(
            device: device, slotCount: slotCount, currentSlot: Int32(currentSlot),
            slotValue: { slotValues[$0 * Self.multitouchCodeCount + Self.multitouchIndex($1)!] },
            value: { type, code in
                let index = Int(code.rawValue)
                if type == .abs { return index < Self.absoluteCodeCount ? absoluteValues[index] : 0 }
                return index < Self.keyCodeCount && keysDown[index] ? 1 : 0
            })
    }
}
