import CEvdev

extension EventCode {
    /// `KEY_RESERVED` (0): not a key.
    public static let keyReserved = EventCode(KEY_RESERVED)
    /// `KEY_A`: what masked keyboard keys become in a recording.
    public static let keyA = EventCode(KEY_A)
    /// `MSC_SCAN`: the hardware scancode of a key; masked with the key.
    public static let mscScan = EventCode(MSC_SCAN)
    /// `SYN_MAX`
    public static let synMax = EventCode(SYN_MAX)
    /// `LED_MAX`
    public static let ledMax = EventCode(LED_MAX)
    /// `SW_MAX`
    public static let swMax = EventCode(SW_MAX)
}

extension EventType {
    /// `EV_CNT`: one past the largest type number.
    static let count = Int(EV_CNT)
}

extension InputProperty {
    /// `INPUT_PROP_CNT`: one past the largest property number.
    static let count = Int(INPUT_PROP_CNT)
}

/// Names and limits of evdev codes, looked up once: the readers and writers consult them per event
/// and must not allocate there.
enum EvdevTables {
    /// `libevdev_event_type_get_max` for every type below `EV_CNT`, -1 where the type is undefined.
    static let maxCodeByType: [Int32] = (0..<EventType.count).map { libevdev_event_type_get_max(UInt32($0)) }

    /// True when the kernel defines `type` and `code` is within its range.
    @inline(__always)
    static func isKnown(type: UInt32, code: UInt32) -> Bool {
        // libevdev's own table, straight: `maxCodeByType` is a lazily made global, and touching it
        // once per event costs a `swift_once` check on the parse's hottest path.
        guard type < UInt32(EventType.count) else { return false }
        let maxCode = libevdev_event_type_get_max(type)
        return maxCode >= 0 && code <= UInt32(maxCode)
    }

    static func isKnown(type: UInt32) -> Bool {
        type < UInt32(EventType.count) && maxCodeByType[Int(type)] >= 0
    }

    /// libevdev's static name for a type, or nil. The pointer is valid for the program's life.
    @inline(__always)
    static func typeName(_ type: UInt16) -> UnsafePointer<CChar>? { libevdev_event_type_get_name(UInt32(type)) }

    /// libevdev's static name for a code, or nil.
    @inline(__always)
    static func codeName(_ type: UInt16, _ code: UInt16) -> UnsafePointer<CChar>? {
        libevdev_event_code_get_name(UInt32(type), UInt32(code))
    }

    static func propertyName(_ property: UInt16) -> UnsafePointer<CChar>? { libevdev_property_get_name(UInt32(property)) }
}
