// Frozen and inlinable: the readers (GestureKit) build and test these per event, and a call across
// the module boundary for each constant cost the parse about 55 instructions an event.
// The numbers of `<linux/input-event-codes.h>`, the kernel's stable ABI, written out so that the
// recognition core needs no C module; their names and ranges come from libevdev, in GestureKit
// (EventCodes+Names.swift), and `EventCodeValueTests` checks every number here against libevdev's.

/// An evdev event type (`EV_*` in `<linux/input-event-codes.h>`).
@frozen public struct EventType: RawRepresentable, Hashable, Sendable, Comparable {
    /// The kernel's number for the type (`EV_ABS` is 3).
    public var rawValue: UInt16
    /// The type with this kernel number.
    @inlinable public init(rawValue: UInt16) { self.rawValue = rawValue }
    package init(_ value: Int32) { self.rawValue = UInt16(value) }

    /// `EV_SYN`
    @inlinable public static var syn: EventType { EventType(rawValue: 0) }
    /// `EV_KEY`
    @inlinable public static var key: EventType { EventType(rawValue: 1) }
    /// `EV_REL`
    @inlinable public static var rel: EventType { EventType(rawValue: 2) }
    /// `EV_ABS`
    @inlinable public static var abs: EventType { EventType(rawValue: 3) }
    /// `EV_MSC`
    @inlinable public static var msc: EventType { EventType(rawValue: 4) }
    /// `EV_SW`
    @inlinable public static var sw: EventType { EventType(rawValue: 5) }
    /// `EV_LED`
    @inlinable public static var led: EventType { EventType(rawValue: 0x11) }
    /// `EV_SND`
    @inlinable public static var snd: EventType { EventType(rawValue: 0x12) }
    /// `EV_REP`
    @inlinable public static var rep: EventType { EventType(rawValue: 0x14) }
    /// `EV_FF`
    @inlinable public static var ff: EventType { EventType(rawValue: 0x15) }
    /// `EV_PWR`
    @inlinable public static var pwr: EventType { EventType(rawValue: 0x16) }
    /// `EV_FF_STATUS`
    @inlinable public static var ffStatus: EventType { EventType(rawValue: 0x17) }
    /// `EV_MAX`: the largest type number the kernel defines.
    @inlinable public static var max: EventType { EventType(rawValue: 0x1f) }

    /// Orders types by their kernel number.
    @inlinable public static func < (a: EventType, b: EventType) -> Bool { a.rawValue < b.rawValue }
}

/// An evdev event code; what it means depends on the event type it goes with.
@frozen public struct EventCode: RawRepresentable, Hashable, Sendable, Comparable {
    /// The kernel's number for the code, within its type.
    public var rawValue: UInt16
    /// The code with this kernel number.
    @inlinable public init(rawValue: UInt16) { self.rawValue = rawValue }
    package init(_ value: Int32) { self.rawValue = UInt16(value) }

    // MARK: EV_SYN
    /// `SYN_REPORT`: ends a frame of events.
    @inlinable public static var synReport: EventCode { EventCode(rawValue: 0) }
    /// `SYN_CONFIG`
    @inlinable public static var synConfig: EventCode { EventCode(rawValue: 1) }
    /// `SYN_MT_REPORT`: ends one contact in multitouch protocol A.
    @inlinable public static var synMTReport: EventCode { EventCode(rawValue: 2) }
    /// `SYN_DROPPED`: the kernel's buffer overflowed; state must be re-read.
    @inlinable public static var synDropped: EventCode { EventCode(rawValue: 3) }

    // MARK: EV_ABS
    /// `ABS_X`
    @inlinable public static var absX: EventCode { EventCode(rawValue: 0) }
    /// `ABS_Y`
    @inlinable public static var absY: EventCode { EventCode(rawValue: 1) }
    /// `ABS_PRESSURE`
    @inlinable public static var absPressure: EventCode { EventCode(rawValue: 0x18) }
    /// `ABS_TOOL_WIDTH`
    @inlinable public static var absToolWidth: EventCode { EventCode(rawValue: 0x1c) }
    /// `ABS_MT_SLOT`
    @inlinable public static var absMTSlot: EventCode { EventCode(rawValue: 0x2f) }
    /// `ABS_MT_TOUCH_MAJOR`
    @inlinable public static var absMTTouchMajor: EventCode { EventCode(rawValue: 0x30) }
    /// `ABS_MT_TOUCH_MINOR`
    @inlinable public static var absMTTouchMinor: EventCode { EventCode(rawValue: 0x31) }
    /// `ABS_MT_WIDTH_MAJOR`
    @inlinable public static var absMTWidthMajor: EventCode { EventCode(rawValue: 0x32) }
    /// `ABS_MT_WIDTH_MINOR`
    @inlinable public static var absMTWidthMinor: EventCode { EventCode(rawValue: 0x33) }
    /// `ABS_MT_ORIENTATION`
    @inlinable public static var absMTOrientation: EventCode { EventCode(rawValue: 0x34) }
    /// `ABS_MT_POSITION_X`
    @inlinable public static var absMTPositionX: EventCode { EventCode(rawValue: 0x35) }
    /// `ABS_MT_POSITION_Y`
    @inlinable public static var absMTPositionY: EventCode { EventCode(rawValue: 0x36) }
    /// `ABS_MT_TOOL_TYPE`
    @inlinable public static var absMTToolType: EventCode { EventCode(rawValue: 0x37) }
    /// `ABS_MT_TRACKING_ID`: -1 ends the contact in its slot.
    @inlinable public static var absMTTrackingID: EventCode { EventCode(rawValue: 0x39) }
    /// `ABS_MT_PRESSURE`
    @inlinable public static var absMTPressure: EventCode { EventCode(rawValue: 0x3a) }
    /// `ABS_MT_DISTANCE`
    @inlinable public static var absMTDistance: EventCode { EventCode(rawValue: 0x3b) }
    /// `ABS_MAX`
    @inlinable public static var absMax: EventCode { EventCode(rawValue: 0x3f) }

    // MARK: EV_KEY (the touch-related buttons)
    /// `BTN_LEFT`
    @inlinable public static var btnLeft: EventCode { EventCode(rawValue: 0x110) }
    /// `BTN_RIGHT`
    @inlinable public static var btnRight: EventCode { EventCode(rawValue: 0x111) }
    /// `BTN_MIDDLE`
    @inlinable public static var btnMiddle: EventCode { EventCode(rawValue: 0x112) }
    /// `BTN_TOOL_PEN`
    @inlinable public static var btnToolPen: EventCode { EventCode(rawValue: 0x140) }
    /// `BTN_TOOL_FINGER`: one finger.
    @inlinable public static var btnToolFinger: EventCode { EventCode(rawValue: 0x145) }
    /// `BTN_TOOL_DOUBLETAP`: two fingers.
    @inlinable public static var btnToolDoubleTap: EventCode { EventCode(rawValue: 0x14d) }
    /// `BTN_TOOL_TRIPLETAP`: three fingers.
    @inlinable public static var btnToolTripleTap: EventCode { EventCode(rawValue: 0x14e) }
    /// `BTN_TOOL_QUADTAP`: four fingers.
    @inlinable public static var btnToolQuadTap: EventCode { EventCode(rawValue: 0x14f) }
    /// `BTN_TOOL_QUINTTAP`: five fingers.
    @inlinable public static var btnToolQuintTap: EventCode { EventCode(rawValue: 0x148) }
    /// `BTN_TOUCH`
    @inlinable public static var btnTouch: EventCode { EventCode(rawValue: 0x14a) }
    /// `BTN_MISC` (0x100): key codes below this are keyboard keys, masked in recordings.
    @inlinable public static var btnMisc: EventCode { EventCode(rawValue: 0x100) }
    /// `KEY_MAX`
    @inlinable public static var keyMax: EventCode { EventCode(rawValue: 0x2ff) }

    /// `BTN_TOOL_FINGER` ... `BTN_TOOL_QUINTTAP` with the finger count each stands for.
    public static let fingerCountTools: [(code: EventCode, fingers: Int)] = [
        (.btnToolFinger, 1), (.btnToolDoubleTap, 2), (.btnToolTripleTap, 3),
        (.btnToolQuadTap, 4), (.btnToolQuintTap, 5),
    ]


    /// Orders codes by their kernel number.
    @inlinable public static func < (a: EventCode, b: EventCode) -> Bool { a.rawValue < b.rawValue }
}

/// An input property (`INPUT_PROP_*`).
@frozen public struct InputProperty: RawRepresentable, Hashable, Sendable, Comparable {
    /// The kernel's number for the property (`INPUT_PROP_BUTTONPAD` is 2).
    public var rawValue: UInt16
    /// The property with this kernel number.
    @inlinable public init(rawValue: UInt16) { self.rawValue = rawValue }
    package init(_ value: Int32) { self.rawValue = UInt16(value) }

    /// `INPUT_PROP_POINTER`: needs a pointer (touchpads).
    @inlinable public static var pointer: InputProperty { InputProperty(rawValue: 0) }
    /// `INPUT_PROP_DIRECT`: direct input (touchscreens, tablets).
    @inlinable public static var direct: InputProperty { InputProperty(rawValue: 1) }
    /// `INPUT_PROP_BUTTONPAD`: the whole pad is a button (clickpads).
    @inlinable public static var buttonpad: InputProperty { InputProperty(rawValue: 2) }
    /// `INPUT_PROP_SEMI_MT`: reports a bounding box, not real touch positions.
    @inlinable public static var semiMT: InputProperty { InputProperty(rawValue: 3) }
    /// `INPUT_PROP_TOPBUTTONPAD`
    @inlinable public static var topButtonpad: InputProperty { InputProperty(rawValue: 4) }
    /// `INPUT_PROP_POINTING_STICK`
    @inlinable public static var pointingStick: InputProperty { InputProperty(rawValue: 5) }
    /// `INPUT_PROP_ACCELEROMETER`
    @inlinable public static var accelerometer: InputProperty { InputProperty(rawValue: 6) }
    /// `INPUT_PROP_MAX`
    @inlinable public static var max: InputProperty { InputProperty(rawValue: 0x1f) }

    /// Orders properties by their kernel number.
    @inlinable public static func < (a: InputProperty, b: InputProperty) -> Bool { a.rawValue < b.rawValue }
}

/// Bus types (`BUS_*` in `<linux/input.h>`).
package enum BusType {
    /// `BUS_USB`
    package static let usb = UInt16(0x3)
    /// `BUS_I2C`
    package static let i2c = UInt16(0x18)
    /// `BUS_I8042`: the PS/2 controller most laptop touchpads sit on.
    package static let i8042 = UInt16(0x11)
    /// `BUS_VIRTUAL`
    package static let virtual = UInt16(0x6)
}
