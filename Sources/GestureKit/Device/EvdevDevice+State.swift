import CEvdev
import GestureCore

extension EvdevDevice {
    /// The touch state libevdev holds for the device now, written as the events that lead there
    /// from a device fresh from its description: every slot with a contact (`ABS_MT_SLOT`, its
    /// `ABS_MT_TRACKING_ID` and its other multitouch values, from `libevdev_get_slot_value`), the
    /// current slot, the values of the other absolute axes and the keys held down (`BTN_TOUCH`,
    /// `BTN_TOOL_*`, ...; `libevdev_get_event_value`). No `SYN_REPORT`, and times are zero: this is
    /// a state, not a frame.
    ///
    /// Right after `init` it is the state the device was in when it was opened: libevdev read it
    /// with `EVIOCGMTSLOTS`, `EVIOCGABS` and `EVIOCGKEY`, and moves it on only with each event
    /// read. Hand it to `TouchFrameAssembler.seed(withState:)` so that fingers already down are
    /// seen, as libinput's touchpad code syncs its touches from libevdev when a device is added.
    /// After a `SYN_DROPPED` nothing is needed: libevdev's resync delta is read as events.
    public func currentStateEvents() -> [InputEvent] {
        DeviceStateEvents.list(
            device: device, slotCount: Int(max(0, libevdev_get_num_slots(handle))),  // -1: no slots
            currentSlot: libevdev_get_current_slot(handle),
            slotValue: { libevdev_get_slot_value(handle, UInt32($0), UInt32($1.rawValue)) },
            value: { libevdev_get_event_value(handle, UInt32($0.rawValue), UInt32($1.rawValue)) })
    }
}

/// A device's state written as events, in one order for every holder of a state: libevdev's
/// (`EvdevDevice.currentStateEvents()`) and the flight recorder's (`EvdevStateTracker`), so a
/// dump's first frame is what `record` writes for the same fingers down at open.
enum DeviceStateEvents {
    /// Absolute axes the kernel has: no other can hold a value.
    static let absoluteCodeCount = Int(ABS_CNT)
    /// The kernel's per-slot axes (`input_is_mt_value`): `ABS_MT_TOUCH_MAJOR` ... `ABS_MT_TOOL_Y`.
    static let multitouchCodes = EventCode.absMTTouchMajor.rawValue...UInt16(ABS_MT_TOOL_Y)

    /// Each slot with a contact (its slot, tracking id and other multitouch values), the current
    /// slot again when any was said, the other absolute axes, the keys down; at time 0.
    ///
    /// - Parameters:
    ///   - device: the device's axes and keys (listed in ascending order).
    ///   - slotCount: slots 0 ..< `slotCount` are listed (0: the device has none).
    ///   - currentSlot: the slot the next multitouch value is for.
    ///   - slotValue: a slot's value of a multitouch axis.
    ///   - value: an axis's value, or a key's (non-zero: down).
    package static func list(device: DeviceDescription, slotCount: Int, currentSlot: Int32,
                             slotValue: (_ slot: Int, _ code: EventCode) -> Int32,
                             value: (_ type: EventType, _ code: EventCode) -> Int32) -> [InputEvent] {
        var events: [InputEvent] = []
        func add(_ type: EventType, _ code: EventCode, _ value: Int32) {
            events.append(InputEvent(time: .zero, type: type, code: code, value: value))
        }
        let absCodes = (device.codes[.abs] ?? []).sorted().filter { Int($0.rawValue) < absoluteCodeCount }
        let contactValues = absCodes.filter { multitouchCodes.contains($0.rawValue) && $0 != .absMTTrackingID }
        var slotSaid = false
        for slot in 0..<slotCount {
            let trackingID = slotValue(slot, .absMTTrackingID)
            guard trackingID >= 0 else { continue }
            add(.abs, .absMTSlot, Int32(slot))
            add(.abs, .absMTTrackingID, trackingID)
            for code in contactValues { add(.abs, code, slotValue(slot, code)) }
            slotSaid = true
        }
        if slotSaid { add(.abs, .absMTSlot, currentSlot) }
        for code in absCodes where code != .absMTSlot && !multitouchCodes.contains(code.rawValue) {
            add(.abs, code, value(.abs, code))
        }
        for code in (device.codes[.key] ?? []).sorted() where value(.key, code) != 0 { add(.key, code, 1) }
        return events
    }
}
