// The numbers of `<linux/input-event-codes.h>`, the kernel's stable ABI, written out so that the
// recognition core needs no C module; their names and ranges come from libevdev, in GestureKit
// (EventCodes+Names.swift), and `EventCodeValueTests` checks every number here against libevdev's.

/// An evdev event type (`EV_*` in `<linux/input-event-codes.h>`).
public struct EventType: RawRepresentable, Hashable, Sendable, Comparable {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    package init(_ value: Int32) { self.rawValue = UInt16(value) }

    /// `EV_SYN`
    public static let syn = EventType(rawValue: 0)
    /// `EV_KEY`
    public static let key = EventType(rawValue: 1)
    /// `EV_REL`
    public static let rel = EventType(rawValue: 2)
    /// `EV_ABS`
    public static let abs = EventType(rawValue: 3)
    /// `EV_MSC`
    public static let msc = EventType(rawValue: 4)
    /// `EV_SW`
    public static let sw = EventType(rawValue: 5)
    /// `EV_LED`
    public static let led = EventType(rawValue: 0x11)
    /// `EV_SND`
    public static let snd = EventType(rawValue: 0x12)
    /// `EV_REP`
    public static let rep = EventType(rawValue: 0x14)
    /// `EV_FF`
    public static let ff = EventType(rawValue: 0x15)
    /// `EV_PWR`
    public static let pwr = EventType(rawValue: 0x16)
    /// `EV_FF_STATUS`
    public static let ffStatus = EventType(rawValue: 0x17)
    /// `EV_MAX`: the largest type number the kernel defines.
    public static let max = EventType(rawValue: 0x1f)

    public static func < (a: EventType, b: EventType) -> Bool { a.rawValue < b.rawValue }
}

/// An evdev event code; what it means depends on the event type it goes with.
public struct EventCode: RawRepresentable, Hashable, Sendable, Comparable {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    package init(_ value: Int32) { self.rawValue = UInt16(value) }

    // MARK: EV_SYN
    /// `SYN_REPORT`: ends a frame of events.
    public static let synReport = EventCode(rawValue: 0)
    /// `SYN_CONFIG`
    public static let synConfig = EventCode(rawValue: 1)
    /// `SYN_MT_REPORT`: ends one contact in multitouch protocol A.
    public static let synMTReport = EventCode(rawValue: 2)
    /// `SYN_DROPPED`: the kernel's buffer overflowed; state must be re-read.
    public static let synDropped = EventCode(rawValue: 3)

    // MARK: EV_ABS
    /// `ABS_X`
    public static let absX = EventCode(rawValue: 0)
    /// `ABS_Y`
    public static let absY = EventCode(rawValue: 1)
    /// `ABS_PRESSURE`
    public static let absPressure = EventCode(rawValue: 0x18)
    /// `ABS_TOOL_WIDTH`
    public static let absToolWidth = EventCode(rawValue: 0x1c)
    /// `ABS_MT_SLOT`
    public static let absMTSlot = EventCode(rawValue: 0x2f)
    /// `ABS_MT_TOUCH_MAJOR`
    public static let absMTTouchMajor = EventCode(rawValue: 0x30)
    /// `ABS_MT_TOUCH_MINOR`
    public static let absMTTouchMinor = EventCode(rawValue: 0x31)
    /// `ABS_MT_WIDTH_MAJOR`
    public static let absMTWidthMajor = EventCode(rawValue: 0x32)
    /// `ABS_MT_WIDTH_MINOR`
    public static let absMTWidthMinor = EventCode(rawValue: 0x33)
    /// `ABS_MT_ORIENTATION`
    public static let absMTOrientation = EventCode(rawValue: 0x34)
    /// `ABS_MT_POSITION_X`
    public static let absMTPositionX = EventCode(rawValue: 0x35)
    /// `ABS_MT_POSITION_Y`
    public static let absMTPositionY = EventCode(rawValue: 0x36)
    /// `ABS_MT_TOOL_TYPE`
    public static let absMTToolType = EventCode(rawValue: 0x37)
    /// `ABS_MT_TRACKING_ID`: -1 ends the contact in its slot.
    public static let absMTTrackingID = EventCode(rawValue: 0x39)
    /// `ABS_MT_PRESSURE`
    public static let absMTPressure = EventCode(rawValue: 0x3a)
    /// `ABS_MT_DISTANCE`
    public static let absMTDistance = EventCode(rawValue: 0x3b)
    /// `ABS_MAX`
    public static let absMax = EventCode(rawValue: 0x3f)

    // MARK: EV_KEY (the touch-related buttons)
    /// `BTN_LEFT`
    public static let btnLeft = EventCode(rawValue: 0x110)
    /// `BTN_RIGHT`
    public static let btnRight = EventCode(rawValue: 0x111)
    /// `BTN_MIDDLE`
    public static let btnMiddle = EventCode(rawValue: 0x112)
    /// `BTN_TOOL_PEN`
    public static let btnToolPen = EventCode(rawValue: 0x140)
    /// `BTN_TOOL_FINGER`: one finger.
    public static let btnToolFinger = EventCode(rawValue: 0x145)
    /// `BTN_TOOL_DOUBLETAP`: two fingers.
    public static let btnToolDoubleTap = EventCode(rawValue: 0x14d)
    /// `BTN_TOOL_TRIPLETAP`: three fingers.
    public static let btnToolTripleTap = EventCode(rawValue: 0x14e)
    /// `BTN_TOOL_QUADTAP`: four fingers.
    public static let btnToolQuadTap = EventCode(rawValue: 0x14f)
    /// `BTN_TOOL_QUINTTAP`: five fingers.
    public static let btnToolQuintTap = EventCode(rawValue: 0x148)
    /// `BTN_TOUCH`
    public static let btnTouch = EventCode(rawValue: 0x14a)
    /// `BTN_MISC` (0x100): key codes below this are keyboard keys, masked in recordings.
    public static let btnMisc = EventCode(rawValue: 0x100)
    /// `KEY_MAX`
    public static let keyMax = EventCode(rawValue: 0x2ff)

    /// `BTN_TOOL_FINGER` ... `BTN_TOOL_QUINTTAP` with the finger count each stands for.
    public static let fingerCountTools: [(code: EventCode, fingers: Int)] = [
        (.btnToolFinger, 1), (.btnToolDoubleTap, 2), (.btnToolTripleTap, 3),
        (.btnToolQuadTap, 4), (.btnToolQuintTap, 5),
    ]


    public static func < (a: EventCode, b: EventCode) -> Bool { a.rawValue < b.rawValue }
}

/// An input property (`INPUT_PROP_*`).
public struct InputProperty: RawRepresentable, Hashable, Sendable, Comparable {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    package init(_ value: Int32) { self.rawValue = UInt16(value) }

    /// `INPUT_PROP_POINTER`: needs a pointer (touchpads).
    public static let pointer = InputProperty(rawValue: 0)
    /// `INPUT_PROP_DIRECT`: direct input (touchscreens, tablets).
    public static let direct = InputProperty(rawValue: 1)
    /// `INPUT_PROP_BUTTONPAD`: the whole pad is a button (clickpads).
    public static let buttonpad = InputProperty(rawValue: 2)
    /// `INPUT_PROP_SEMI_MT`: reports a bounding box, not real touch positions.
    public static let semiMT = InputProperty(rawValue: 3)
    /// `INPUT_PROP_TOPBUTTONPAD`
    public static let topButtonpad = InputProperty(rawValue: 4)
    /// `INPUT_PROP_POINTING_STICK`
    public static let pointingStick = InputProperty(rawValue: 5)
    /// `INPUT_PROP_ACCELEROMETER`
    public static let accelerometer = InputProperty(rawValue: 6)
    /// `INPUT_PROP_MAX`
    public static let max = InputProperty(rawValue: 0x1f)

    public static func < (a: InputProperty, b: InputProperty) -> Bool { a.rawValue < b.rawValue }
}

/// Bus types (`BUS_*` in `<linux/input.h>`).
public enum BusType {
    /// `BUS_USB`
    public static let usb = UInt16(0x3)
    /// `BUS_I2C`
    public static let i2c = UInt16(0x18)
    /// `BUS_I8042`: the PS/2 controller most laptop touchpads sit on.
    public static let i8042 = UInt16(0x11)
    /// `BUS_VIRTUAL`
    public static let virtual = UInt16(0x6)
}
