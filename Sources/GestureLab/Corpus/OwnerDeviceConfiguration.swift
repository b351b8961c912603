import GestureCore
import SettingsTable

/// What a recording's owner set in their desktop's touchpad settings that changes what libinput
/// makes of the touches: a manifest entry's `deviceConfiguration`. Only libinput's own device
/// settings belong here (a scroll method is a switch in GNOME's and KDE's touchpad panels), never
/// a threshold: a threshold fitted to one file would make the label prove nothing.
package struct OwnerDeviceConfiguration: Codable, Sendable, Hashable {
    /// libinput's scroll method (`libinput_device_config_scroll_set_method`); nil: its default.
    package var scrollMethod: ScrollMethod?

    package init(scrollMethod: ScrollMethod? = nil) {
        self.scrollMethod = scrollMethod
    }
}

extension OwnerDeviceConfiguration {
    /// The touchpad recognizer's settings that are libinput device settings: the only keys a
    /// `deviceConfiguration` may hold, read with the recognizer's own table entries (their names,
    /// choices and sources), so a manifest and a settings file accept and refuse the same values.
    package static let settings = SettingsTable<GestureRecognizerConfiguration>(
        [GestureRecognizerConfiguration.settings.setting(for: \.scrollMethod)])

    /// The configuration a manifest entry's `deviceConfiguration` object holds, read through
    /// `settings`; `section` is where it is, for the problem's message.
    package init(settings json: JSONValue, at section: [String]) throws(SettingsProblem) {
        let read = try Self.settings.decode(json, over: .default, at: section)
        let scrollMethodKey = Self.settings.setting(for: \.scrollMethod).key
        self.init(scrollMethod: json.object?[scrollMethodKey] == nil ? nil : read.scrollMethod)
    }
}

extension LabSettings {
    /// These settings with the owner's device configuration applied to the touchpad recognizer.
    package func configured(by owner: OwnerDeviceConfiguration?) -> LabSettings {
        guard let method = owner?.scrollMethod else { return self }
        var settings = self
        var touchpad = touchpadRecognizer ?? .default
        touchpad.scrollMethod = method
        settings.touchpadRecognizer = touchpad
        return settings
    }
}
