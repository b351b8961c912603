import GestureKit

/// What a recording's owner set in their desktop's touchpad settings that changes what libinput
/// makes of the touches: a manifest entry's `deviceConfiguration`. Only libinput's own device
/// settings belong here (a scroll method is a switch in GNOME's and KDE's touchpad panels), never
/// a threshold: a threshold fitted to one file would make the label prove nothing.
public struct OwnerDeviceConfiguration: Codable, Sendable, Hashable {
    /// libinput's scroll method (`libinput_device_config_scroll_set_method`); nil: its default.
    public var scrollMethod: ScrollMethod?

    public init(scrollMethod: ScrollMethod? = nil) {
        self.scrollMethod = scrollMethod
    }
}

extension LabSettings {
    /// These settings with the owner's device configuration applied to the touchpad recognizer.
    public func configured(by owner: OwnerDeviceConfiguration?) -> LabSettings {
        guard let method = owner?.scrollMethod else { return self }
        var settings = self
        var touchpad = touchpadRecognizer ?? .default
        touchpad.scrollMethod = method
        settings.touchpadRecognizer = touchpad
        return settings
    }
}
