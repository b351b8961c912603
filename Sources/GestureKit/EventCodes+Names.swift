import CEvdev
import GestureCore

// The kernel's names and code ranges, from libevdev's static tables. The numbers themselves are in
// GestureCore, which needs no C module; a type's text form is its name, so the conformance lives
// here, beside libevdev.

extension EventType: CustomStringConvertible {
    /// The largest code number defined for this type (`ABS_MAX`, `KEY_MAX`, ...), from libevdev.
    package var maxCode: UInt16? {
        let value = libevdev_event_type_get_max(UInt32(rawValue))
        return value < 0 ? nil : UInt16(value)
    }

    /// The kernel's name, e.g. `EV_ABS`, or nil for a number the kernel does not define.
    package var name: String? {
        guard let cName = libevdev_event_type_get_name(UInt32(rawValue)) else { return nil }
        return String(cString: cName)
    }

    /// The kernel's name (`EV_ABS`), or `EV_` and the number for one it does not define.
    public var description: String { name ?? "EV_\(rawValue)" }
}

extension EventCode {
    /// The kernel's name for this code under `type`, e.g. `ABS_MT_SLOT`, from libevdev.
    package func name(for type: EventType) -> String? {
        guard let cName = libevdev_event_code_get_name(UInt32(type.rawValue), UInt32(rawValue)) else { return nil }
        return String(cString: cName)
    }
}

extension InputProperty: CustomStringConvertible {
    package var name: String? {
        guard let cName = libevdev_property_get_name(UInt32(rawValue)) else { return nil }
        return String(cString: cName)
    }

    /// The kernel's name (`INPUT_PROP_BUTTONPAD`), or `INPUT_PROP_` and the number for one it does not define.
    public var description: String { name ?? "INPUT_PROP_\(rawValue)" }
}
