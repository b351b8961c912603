/// How a touchpad scrolls, as libinput's `LIBINPUT_CONFIG_SCROLL_*` (`libinput_device_config_scroll_set_method`).
/// Raw values are the names a settings file uses (`"scrollMethod": "edge"`).
public enum ScrollMethod: String, Sendable, Hashable, Codable, CaseIterable {
    /// As libinput chooses for the device (`tp_scroll_get_default_method`): two-finger scrolling
    /// where the touchpad can report two fingers (two slots, or `BTN_TOOL_DOUBLETAP`), edge
    /// scrolling otherwise.
    case deviceDefault = "default"
    /// `LIBINPUT_CONFIG_SCROLL_2FG`: two fingers moving together scroll (a two-finger pan).
    case twoFinger = "two-finger"
    /// `LIBINPUT_CONFIG_SCROLL_EDGE`: one finger moving along the right or bottom edge scrolls
    /// (rule `edge-scroll`); two fingers moving together do nothing.
    case edge
    /// `LIBINPUT_CONFIG_SCROLL_NO_SCROLL`: no scrolling; two fingers moving together do nothing.
    case none

    /// The method in effect on a device with these traits: never `deviceDefault`. Touchscreens have
    /// no scroll method (their fingers pan as configured): two-finger, which changes nothing.
    public func resolved(for device: GestureDeviceTraits) -> ScrollMethod {
        guard device.deviceClass == .touchpad else { return .twoFinger }
        guard self == .deviceDefault else { return self }
        // libinput: `tp->ntouches >= 2` offers 2fg, and 2fg is the default whenever offered.
        return (device.maximumFingerCount ?? 2) >= 2 ? .twoFinger : .edge
    }
}
