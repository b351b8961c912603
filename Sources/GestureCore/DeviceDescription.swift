/// The four ids of an input device (`struct input_id`).
public struct InputID: Hashable, Sendable {
    /// The bus the device is on (`BUS_USB`, `BUS_I2C`, ...).
    public var bustype: UInt16
    /// The vendor's USB or PCI id.
    public var vendor: UInt16
    /// The product id, per vendor.
    public var product: UInt16
    /// The product's version number.
    public var version: UInt16

    /// An id from its four numbers, as `EVIOCGID` returns them.
    public init(bustype: UInt16, vendor: UInt16, product: UInt16, version: UInt16) {
        self.bustype = bustype
        self.vendor = vendor
        self.product = product
        self.version = version
    }
}

/// One absolute axis (`struct input_absinfo`). `resolution` is in units per millimetre for
/// position axes (units per radian for `ABS_MT_ORIENTATION`); 0 means the device did not say.
public struct AbsInfo: Hashable, Sendable {
    /// The axis's current value.
    public var value: Int32
    /// The smallest value the axis reports.
    public var minimum: Int32
    /// The largest value the axis reports.
    public var maximum: Int32
    /// The noise the kernel filters out of the axis's values.
    public var fuzz: Int32
    /// The dead zone around the axis's centre.
    public var flat: Int32
    /// Units per millimetre (0 when the device does not say).
    public var resolution: Int32

    /// An axis's range and resolution, as `EVIOCGABS` returns them.
    public init(value: Int32 = 0, minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0, resolution: Int32 = 0) {
        self.value = value
        self.minimum = minimum
        self.maximum = maximum
        self.fuzz = fuzz
        self.flat = flat
        self.resolution = resolution
    }
}

/// What kind of touch device this is, decided the way libinput and udev's input_id do.
public enum DeviceClass: String, Sendable, Codable {
    /// Indirect touch: moves a pointer (`BTN_TOOL_FINGER`, no `INPUT_PROP_DIRECT`).
    case touchpad
    /// Direct touch: `INPUT_PROP_DIRECT`, or `BTN_TOUCH` with absolute axes and no finger tools.
    case touchscreen
    /// Anything else: keyboards, mice, pen tablets and pen displays (even when direct).
    case other
}

/// Everything pinchlab knows of a device before its first event: what `evemu-describe` prints and
/// what the `evdev:` section of a `libinput record` file holds.
public struct DeviceDescription: Hashable, Sendable {
    /// The device's name, as the kernel reports it.
    public var name: String
    /// The device's bus, vendor, product and version.
    public var id: InputID
    /// The input properties it declares (`INPUT_PROP_BUTTONPAD`, ...).
    public var properties: Set<InputProperty>
    /// The codes the device can send, by type (`EVIOCGBIT`). `EV_SYN` itself is implied.
    public var codes: [EventType: Set<EventCode>]
    /// Every absolute axis the device has (`EVIOCGABS`).
    public var absInfo: [EventCode: AbsInfo]
    /// State of LEDs and switches at description time (evemu's `L:` and `S:` lines).
    public var ledStates: [EventCode: Int32]
    /// The state of each switch at the time of the description.
    public var switchStates: [EventCode: Int32]

    /// A description from its parts, as a device or a recording gives them.
    public init(
        name: String,
        id: InputID,
        properties: Set<InputProperty> = [],
        codes: [EventType: Set<EventCode>] = [:],
        absInfo: [EventCode: AbsInfo] = [:],
        ledStates: [EventCode: Int32] = [:],
        switchStates: [EventCode: Int32] = [:]
    ) {
        self.name = name
        self.id = id
        self.properties = properties
        self.codes = codes
        self.absInfo = absInfo
        self.ledStates = ledStates
        self.switchStates = switchStates
        for code in absInfo.keys { self.codes[.abs, default: []].insert(code) }
    }

    /// Whether the device sends events of this type (`EV_SYN` always).
    public func has(_ type: EventType) -> Bool { type == .syn || !(codes[type]?.isEmpty ?? true) }
    /// Whether the device sends this code of this type.
    public func has(_ type: EventType, _ code: EventCode) -> Bool { codes[type]?.contains(code) ?? false }
    /// Whether the device declares this input property.
    public func has(_ property: InputProperty) -> Bool { properties.contains(property) }

    /// Number of multitouch slots (protocol B), 0 when the device has no `ABS_MT_SLOT`; never more
    /// than `DescriptionLimits.slotCountMax` (the readers refuse more), so no allocation sized by it
    /// depends on a header number beyond that.
    public var slotCount: Int {
        guard let slot = absInfo[.absMTSlot] else { return 0 }
        return Swift.min(DescriptionLimits.slotCountMax, Swift.max(0, Int(slot.maximum) - firstSlot + 1))
    }

    /// The `ABS_MT_SLOT` value of the first slot: the axis's minimum, but never below 0 (the kernel
    /// numbers slots from 0 and libevdev counts `maximum + 1` slots, so a negative minimum is
    /// read as 0; `DescriptionLimits` warns about it).
    public var firstSlot: Int { Swift.max(0, Int(absInfo[.absMTSlot]?.minimum ?? 0)) }

    /// Multitouch protocol B (slots and tracking ids), the main path.
    public var isMultitouchB: Bool { slotCount > 0 && absInfo[.absMTPositionX] != nil }
    /// Multitouch protocol A: MT positions with no slots, contacts end with `SYN_MT_REPORT`.
    public var isMultitouchA: Bool { slotCount == 0 && absInfo[.absMTPositionX] != nil }

    /// The most fingers the device can count, from its `BTN_TOOL_*` keys (at least its slot count).
    public var maxFingerCount: Int {
        var most = slotCount
        for (code, fingers) in EventCode.fingerCountTools where has(.key, code) { most = Swift.max(most, fingers) }
        return most
    }

    /// Whether it is a touchpad, a touchscreen or neither, from its properties and axes.
    public var deviceClass: DeviceClass {
        let hasPosition = absInfo[.absX] != nil || absInfo[.absMTPositionX] != nil
        guard hasPosition else { return .other }
        // Before the INPUT_PROP_DIRECT rule: a pen display is direct too, but its BTN_TOUCH is the
        // pen tip, not a finger (udev's input_id calls it a tablet).
        if isPenOnly { return .other }
        if has(.direct) { return .touchscreen }
        if has(.key, .btnToolFinger) || has(.pointer) { return .touchpad }
        if has(.key, .btnTouch) { return .touchscreen }
        return .other
    }

    /// A pen tablet or pen display: `BTN_TOOL_PEN` with no finger tool and no multitouch
    /// positions. A device that also tracks fingers on MT axes stays a touch device.
    var isPenOnly: Bool {
        has(.key, .btnToolPen) && !has(.key, .btnToolFinger) && absInfo[.absMTPositionX] == nil
    }

    /// Touchpad gestures need real positions of at least two touches (libinput refuses semi-mt and
    /// single-slot devices).
    public var supportsMultitouchGestures: Bool {
        !has(.semiMT) && (slotCount >= 2 || isMultitouchA)
    }
}
