import CEvdev
import GestureCore

extension EventCode {
    /// `KEY_RESERVED` (0): not a key.
    static let keyReserved = EventCode(KEY_RESERVED)
    /// `KEY_A`: what masked keyboard keys become in a recording.
    package static let keyA = EventCode(KEY_A)
    /// `MSC_SCAN`: the hardware scancode of a key; masked with the key.
    package static let mscScan = EventCode(MSC_SCAN)
    /// `SYN_MAX`
    static let synMax = EventCode(SYN_MAX)
    /// `LED_MAX`
    static let ledMax = EventCode(LED_MAX)
    /// `SW_MAX`
    static let swMax = EventCode(SW_MAX)
}

extension EventType {
    /// `EV_CNT`: one past the largest type number.
    static let count = Int(EV_CNT)
}

extension InputProperty {
    /// `INPUT_PROP_CNT`: one past the largest property number.
    static let count = Int(INPUT_PROP_CNT)
}

/// Names and limits of evdev codes, from libevdev's own static tables: the readers and writers
/// consult them per event, where a lazily made Swift global would cost a `swift_once` check each
/// time and an allocation would not do at all.
enum EvdevTables {
    /// The largest code the kernel defines for `type` (`libevdev_event_type_get_max`), -1 when the
    /// type itself is undefined.
    @inline(__always)
    static func maxCode(type: UInt32) -> Int32 {
        type < UInt32(EventType.count) ? libevdev_event_type_get_max(type) : -1
    }

    /// True when the kernel defines `type` and `code` is within its range.
    @inline(__always)
    static func isKnown(type: UInt32, code: UInt32) -> Bool {
        let max = maxCode(type: type)
        return max >= 0 && code <= UInt32(max)
    }

    static func isKnown(type: UInt32) -> Bool { maxCode(type: type) >= 0 }

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
