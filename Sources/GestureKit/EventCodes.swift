import CEvdev

/// An evdev event type (`EV_*` in `<linux/input-event-codes.h>`).
public struct EventType: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    init(_ value: Int32) { self.rawValue = UInt16(value) }

    /// `EV_SYN`
    public static let syn = EventType(EV_SYN)
    /// `EV_KEY`
    public static let key = EventType(EV_KEY)
    /// `EV_REL`
    public static let rel = EventType(EV_REL)
    /// `EV_ABS`
    public static let abs = EventType(EV_ABS)
    /// `EV_MSC`
    public static let msc = EventType(EV_MSC)
    /// `EV_SW`
    public static let sw = EventType(EV_SW)
    /// `EV_LED`
    public static let led = EventType(EV_LED)
    /// `EV_SND`
    public static let snd = EventType(EV_SND)
    /// `EV_REP`
    public static let rep = EventType(EV_REP)
    /// `EV_FF`
    public static let ff = EventType(EV_FF)
    /// `EV_PWR`
    public static let pwr = EventType(EV_PWR)
    /// `EV_FF_STATUS`
    public static let ffStatus = EventType(EV_FF_STATUS)
    /// `EV_MAX`: the largest type number the kernel defines.
    public static let max = EventType(EV_MAX)

    /// The largest code number defined for this type (`ABS_MAX`, `KEY_MAX`, ...), from libevdev.
    public var maxCode: UInt16? {
        let value = libevdev_event_type_get_max(UInt32(rawValue))
        return value < 0 ? nil : UInt16(value)
    }

    /// The kernel's name, e.g. `EV_ABS`, or nil for a number the kernel does not define.
    public var name: String? {
        guard let cName = libevdev_event_type_get_name(UInt32(rawValue)) else { return nil }
        return String(cString: cName)
    }

    public var description: String { name ?? "EV_\(rawValue)" }
    public static func < (a: EventType, b: EventType) -> Bool { a.rawValue < b.rawValue }
}

/// An evdev event code; what it means depends on the event type it goes with.
public struct EventCode: RawRepresentable, Hashable, Sendable, Comparable {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    init(_ value: Int32) { self.rawValue = UInt16(value) }

    // MARK: EV_SYN
    /// `SYN_REPORT`: ends a frame of events.
    public static let synReport = EventCode(SYN_REPORT)
    /// `SYN_CONFIG`
    public static let synConfig = EventCode(SYN_CONFIG)
    /// `SYN_MT_REPORT`: ends one contact in multitouch protocol A.
    public static let synMTReport = EventCode(SYN_MT_REPORT)
    /// `SYN_DROPPED`: the kernel's buffer overflowed; state must be re-read.
    public static let synDropped = EventCode(SYN_DROPPED)

    // MARK: EV_ABS
    /// `ABS_X`
    public static let absX = EventCode(ABS_X)
    /// `ABS_Y`
    public static let absY = EventCode(ABS_Y)
    /// `ABS_PRESSURE`
    public static let absPressure = EventCode(ABS_PRESSURE)
    /// `ABS_TOOL_WIDTH`
    public static let absToolWidth = EventCode(ABS_TOOL_WIDTH)
    /// `ABS_MT_SLOT`
    public static let absMTSlot = EventCode(ABS_MT_SLOT)
    /// `ABS_MT_TOUCH_MAJOR`
    public static let absMTTouchMajor = EventCode(ABS_MT_TOUCH_MAJOR)
    /// `ABS_MT_TOUCH_MINOR`
    public static let absMTTouchMinor = EventCode(ABS_MT_TOUCH_MINOR)
    /// `ABS_MT_WIDTH_MAJOR`
    public static let absMTWidthMajor = EventCode(ABS_MT_WIDTH_MAJOR)
    /// `ABS_MT_WIDTH_MINOR`
    public static let absMTWidthMinor = EventCode(ABS_MT_WIDTH_MINOR)
    /// `ABS_MT_ORIENTATION`
    public static let absMTOrientation = EventCode(ABS_MT_ORIENTATION)
    /// `ABS_MT_POSITION_X`
    public static let absMTPositionX = EventCode(ABS_MT_POSITION_X)
    /// `ABS_MT_POSITION_Y`
    public static let absMTPositionY = EventCode(ABS_MT_POSITION_Y)
    /// `ABS_MT_TOOL_TYPE`
    public static let absMTToolType = EventCode(ABS_MT_TOOL_TYPE)
    /// `ABS_MT_TRACKING_ID`: -1 ends the contact in its slot.
    public static let absMTTrackingID = EventCode(ABS_MT_TRACKING_ID)
    /// `ABS_MT_PRESSURE`
    public static let absMTPressure = EventCode(ABS_MT_PRESSURE)
    /// `ABS_MT_DISTANCE`
    public static let absMTDistance = EventCode(ABS_MT_DISTANCE)
    /// `ABS_MAX`
    public static let absMax = EventCode(ABS_MAX)

    // MARK: EV_KEY (the touch-related buttons)
    /// `BTN_LEFT`
    public static let btnLeft = EventCode(BTN_LEFT)
    /// `BTN_RIGHT`
    public static let btnRight = EventCode(BTN_RIGHT)
    /// `BTN_MIDDLE`
    public static let btnMiddle = EventCode(BTN_MIDDLE)
    /// `BTN_TOOL_PEN`
    public static let btnToolPen = EventCode(BTN_TOOL_PEN)
    /// `BTN_TOOL_FINGER`: one finger.
    public static let btnToolFinger = EventCode(BTN_TOOL_FINGER)
    /// `BTN_TOOL_DOUBLETAP`: two fingers.
    public static let btnToolDoubleTap = EventCode(BTN_TOOL_DOUBLETAP)
    /// `BTN_TOOL_TRIPLETAP`: three fingers.
    public static let btnToolTripleTap = EventCode(BTN_TOOL_TRIPLETAP)
    /// `BTN_TOOL_QUADTAP`: four fingers.
    public static let btnToolQuadTap = EventCode(BTN_TOOL_QUADTAP)
    /// `BTN_TOOL_QUINTTAP`: five fingers.
    public static let btnToolQuintTap = EventCode(BTN_TOOL_QUINTTAP)
    /// `BTN_TOUCH`
    public static let btnTouch = EventCode(BTN_TOUCH)
    /// `BTN_MISC` (0x100): key codes below this are keyboard keys, masked in recordings.
    public static let btnMisc = EventCode(BTN_MISC)
    /// `KEY_MAX`
    public static let keyMax = EventCode(KEY_MAX)

    /// `BTN_TOOL_FINGER` ... `BTN_TOOL_QUINTTAP` with the finger count each stands for.
    public static let fingerCountTools: [(code: EventCode, fingers: Int)] = [
        (.btnToolFinger, 1), (.btnToolDoubleTap, 2), (.btnToolTripleTap, 3),
        (.btnToolQuadTap, 4), (.btnToolQuintTap, 5),
    ]

    /// The kernel's name for this code under `type`, e.g. `ABS_MT_SLOT`, from libevdev.
    public func name(for type: EventType) -> String? {
        guard let cName = libevdev_event_code_get_name(UInt32(type.rawValue), UInt32(rawValue)) else { return nil }
        return String(cString: cName)
    }

    public static func < (a: EventCode, b: EventCode) -> Bool { a.rawValue < b.rawValue }
}

/// An input property (`INPUT_PROP_*`).
public struct InputProperty: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    init(_ value: Int32) { self.rawValue = UInt16(value) }

    /// `INPUT_PROP_POINTER`: needs a pointer (touchpads).
    public static let pointer = InputProperty(INPUT_PROP_POINTER)
    /// `INPUT_PROP_DIRECT`: direct input (touchscreens, tablets).
    public static let direct = InputProperty(INPUT_PROP_DIRECT)
    /// `INPUT_PROP_BUTTONPAD`: the whole pad is a button (clickpads).
    public static let buttonpad = InputProperty(INPUT_PROP_BUTTONPAD)
    /// `INPUT_PROP_SEMI_MT`: reports a bounding box, not real touch positions.
    public static let semiMT = InputProperty(INPUT_PROP_SEMI_MT)
    /// `INPUT_PROP_TOPBUTTONPAD`
    public static let topButtonpad = InputProperty(INPUT_PROP_TOPBUTTONPAD)
    /// `INPUT_PROP_POINTING_STICK`
    public static let pointingStick = InputProperty(INPUT_PROP_POINTING_STICK)
    /// `INPUT_PROP_ACCELEROMETER`
    public static let accelerometer = InputProperty(INPUT_PROP_ACCELEROMETER)
    /// `INPUT_PROP_MAX`
    public static let max = InputProperty(INPUT_PROP_MAX)

    public var name: String? {
        guard let cName = libevdev_property_get_name(UInt32(rawValue)) else { return nil }
        return String(cString: cName)
    }
    public var description: String { name ?? "INPUT_PROP_\(rawValue)" }
    public static func < (a: InputProperty, b: InputProperty) -> Bool { a.rawValue < b.rawValue }
}

/// Bus types (`BUS_*` in `<linux/input.h>`).
public enum BusType {
    /// `BUS_USB`
    public static let usb = UInt16(BUS_USB)
    /// `BUS_I2C`
    public static let i2c = UInt16(BUS_I2C)
    /// `BUS_I8042`: the PS/2 controller most laptop touchpads sit on.
    public static let i8042 = UInt16(BUS_I8042)
    /// `BUS_VIRTUAL`
    public static let virtual = UInt16(BUS_VIRTUAL)
}
