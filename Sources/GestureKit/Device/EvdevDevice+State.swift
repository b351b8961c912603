import CEvdev

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
        var events: [InputEvent] = []
        func add(_ type: EventType, _ code: EventCode, _ value: Int32) {
            events.append(InputEvent(time: .zero, type: type, code: code, value: value))
        }
        let absCodes = (device.codes[.abs] ?? []).sorted()
        let slotCount = Int(libevdev_get_num_slots(handle))  // -1: no slots
        if slotCount > 0 {
            let contactValues = absCodes.filter { Self.isMultitouchValue($0) && $0 != .absMTTrackingID }
            var slotSaid = false
            for slot in 0..<slotCount {
                let trackingID = libevdev_get_slot_value(handle, UInt32(slot), UInt32(EventCode.absMTTrackingID.rawValue))
                guard trackingID >= 0 else { continue }
                add(.abs, .absMTSlot, Int32(slot))
                add(.abs, .absMTTrackingID, trackingID)
                for code in contactValues {
                    add(.abs, code, libevdev_get_slot_value(handle, UInt32(slot), UInt32(code.rawValue)))
                }
                slotSaid = true
            }
            if slotSaid { add(.abs, .absMTSlot, libevdev_get_current_slot(handle)) }
        }
        for code in absCodes where code != .absMTSlot && !Self.isMultitouchValue(code) {
            add(.abs, code, libevdev_get_event_value(handle, UInt32(EV_ABS), UInt32(code.rawValue)))
        }
        for code in (device.codes[.key] ?? []).sorted()
        where libevdev_get_event_value(handle, UInt32(EV_KEY), UInt32(code.rawValue)) != 0 {
            add(.key, code, 1)
        }
        return events
    }

    /// The kernel's per-slot axes (`input_is_mt_value`): `ABS_MT_TOUCH_MAJOR` ... `ABS_MT_TOOL_Y`.
    private static func isMultitouchValue(_ code: EventCode) -> Bool {
        code.rawValue >= UInt16(ABS_MT_TOUCH_MAJOR) && code.rawValue <= UInt16(ABS_MT_TOOL_Y)
    }
}
