/// What decides touchegg's gestures (JoseExposito/touchegg 2.0.18, commit fc30d31): the client's
/// `action_execute_threshold` from touchegg.conf, and the daemon's start and finish thresholds,
/// which are not in any file but the positional arguments of `touchegg --daemon START FINISH`
/// (src/utils/args-parser.cpp `getDaemonThresholds`), or else computed from the device's size.
package struct ToucheggSettings: Sendable, Hashable {
    /// Percent, 0...100, a whole number (`Action::readThreshold`, src/actions/action.cpp: `stoi`,
    /// clamped): an animated action executes at the end when the percentage is at or above it.
    package var actionExecuteThreshold: Int = 20
    /// `touchegg --daemon START FINISH`: replaces the start threshold, and both finish thresholds,
    /// for every device, in that device's units (touchpad: libinput units; touchscreen: mm). nil:
    /// from the device's size (`LininputDeviceHandler::handleDeviceAdded`).
    package var daemonStartThreshold: Double?
    package var daemonFinishThreshold: Double?

    package init() {}

    package static let defaults = ToucheggSettings()

    /// The thresholds touchegg's daemon uses on `device` (src/gesture-gatherer/libinput-device-handler.cpp).
    package func thresholds(for device: ToolDevice) -> ToucheggThresholds {
        var t: ToucheggThresholds
        if device.widthMM > 0 && device.heightMM > 0 {
            switch device.kind {
            case .touchpad:
                // mm as 1000 dpi "dots" (`mmToDpi`: mm / 25.4 x 1000), 1 % / 9 % when touchegg is built
                // against libinput 1.18 or later (`LIBINPUT_FILTER_DELTAS`), 5 % / 40 % before.
                let (start, finish) = device.units.version < LibinputUnits.scaledSince ? (5.0, 40.0) : (1.0, 9.0)
                let dots = LibinputUnits.dotsPerMM
                t = ToucheggThresholds(start: min(device.widthMM, device.heightMM) * dots * start / 100,
                                       finishHorizontal: device.widthMM * dots * finish / 100,
                                       finishVertical: device.heightMM * dots * finish / 100)
            case .touchscreen:
                // `calculateTouchscreenThreshold`: 2 % / 16 % of the size, in mm.
                t = ToucheggThresholds(start: min(device.widthMM, device.heightMM) * 0.02,
                                       finishHorizontal: device.widthMM * 0.16, finishVertical: device.heightMM * 0.16)
            }
        } else {
            // `LibinputDeviceInfo`'s defaults when libinput knows no size (touchegg #415).
            t = ToucheggThresholds(start: 200, finishHorizontal: 2500, finishVertical: 2500)
        }
        if let daemonStartThreshold { t.start = daemonStartThreshold }
        if let daemonFinishThreshold { t.finishHorizontal = daemonFinishThreshold; t.finishVertical = daemonFinishThreshold }
        return t
    }
}

/// The daemon's thresholds for one device, in its units (touchpad: libinput units; touchscreen: mm).
package struct ToucheggThresholds: Sendable, Hashable {
    package var start: Double
    var finishHorizontal: Double
    package var finishVertical: Double
}
