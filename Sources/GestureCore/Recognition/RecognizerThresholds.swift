import SettingsTable

/// Every setting of `GestureRecognizerConfiguration` once: its key in a settings file, the property
/// it sets, its unit, the values it may take, the values the tuner tries, and where its figure comes
/// from (libinput's `evdev-mt-touchpad-gestures.c` where it has one); its default is the property's
/// initial value. Decoding, range errors, `sanitized`, encoding, `tune`'s search and differences and
/// the reference page are all made from this table, so a threshold is its stored property and its
/// row, nothing else (`RecognizerThresholdTableTests` fails when a row sets another property than
/// its key names or a stored property has no row).
extension GestureRecognizerConfiguration {
    /// Every threshold's settings-file key, default, unit, range and source.
    public static let settings = SettingsTable<GestureRecognizerConfiguration>([
        .flag("useFuzzHysteresis", \.useFuzzHysteresis, source: "libinput tp_motion_hysteresis: only when the kernel sets a fuzz"),
        .count("panMinimumFingerCount", \.panMinimumFingerCount, "fingers", 1...10,
               source: "one finger moves the pointer on a touchpad; 10 fingers is two hands"),
        .count("panMaximumFingerCount", \.panMaximumFingerCount, "fingers", 0...10, source: "below the minimum turns pans off"),
        .count("pinchMinimumFingerCount", \.pinchMinimumFingerCount, "fingers", 2...10, source: "a pinch needs two touches"),
        .count("pinchMaximumFingerCount", \.pinchMaximumFingerCount, "fingers", 0...10, source: "below the minimum turns pinches off"),
        .choice("scrollMethod", \.scrollMethod, ScrollMethod.allCases,
                source: "libinput LIBINPUT_CONFIG_SCROLL_*; default as tp_scroll_get_default_method: two-finger when ntouches >= 2, else edge"),
        .number("edgeScrollWidthMM", \.edgeScrollWidthMM, "mm", SettingRange(0...100), source: "libinput tp_edge_scroll_init 7 mm"),
        .number("edgeScrollMinMoveMM", \.edgeScrollMinMoveMM, "mm", SettingRange(0...50), source: "libinput DEFAULT_SCROLL_THRESHOLD 3 mm"),
        .number("edgeScrollLockTimeoutMS", \.edgeScrollLockTimeoutMS, "ms", SettingRange(0...10_000),
                source: "libinput DEFAULT_SCROLL_LOCK_TIMEOUT 300 ms (none on a clickpad)"),
        .number("edgeScrollBottomMinimumHeightMM", \.edgeScrollBottomMinimumHeightMM, "mm", SettingRange(0...1000),
                source: "libinput tp_edge_scroll_init: no bottom edge under 40 mm, unless a clickpad"),
        .number("panSlopMM", \.panSlopMM, "mm", SettingRange(0...50), tune: [2.0, 3.0, 4.0],
                source: "a one-finger pan's slop; 50 mm is most of a touchpad"),
        .number("undecidedMoveMM", \.undecidedMoveMM, "mm", SettingRange(0...50), tune: [0.5, 1.0],
                source: "libinput tp_gesture_detect_motion_gestures: both < 1 mm"),
        .number("minMoveMM", \.minMoveMM, "mm", SettingRange(0...50), tune: [1.0, 1.25, 1.5, 2.0], source: "libinput min_move 1.5 mm"),
        .number("maxMoveMM", \.maxMoveMM, "mm", SettingRange(0...100), tune: [3.0, 4.0, 5.0, 6.0], source: "libinput max_move 4 mm"),
        .number("minMoveExtraPerFingerMM", \.minMoveExtraPerFingerMM, "mm", SettingRange(0...20), source: "libinput +0.5 mm per finger"),
        .number("maxMoveExtraPerFingerMM", \.maxMoveExtraPerFingerMM, "mm", SettingRange(0...20), source: "libinput +2 mm per finger"),
        .number("scrollDecisionTimeoutMS", \.scrollDecisionTimeoutMS, "ms", SettingRange(0...5000), tune: [100, 150, 200],
                source: "libinput DEFAULT_GESTURE_SWIPE_TIMEOUT 150 ms"),
        .number("scrollMaxHorizontalSpreadMM", \.scrollMaxHorizontalSpreadMM, "mm", SettingRange(0...1000), source: "libinput 40 mm"),
        .number("scrollMaxVerticalSpreadMM", \.scrollMaxVerticalSpreadMM, "mm", SettingRange(0...1000), source: "libinput 7 mm"),
        .number("directionSnapEighths", \.directionSnapEighths, "eighths of a turn", SettingRange(0...0.5),
                source: "libinput 0.1; half an eighth reaches the neighbouring point"),
        .flag("suppressRestingThumb", \.suppressRestingThumb, source: "libinput tp_thumb_suppress (touchpads only)"),
        .number("restingThumbAreaMM", \.restingThumbAreaMM, "mm", SettingRange(0...1000),
                source: "libinput's thumb area; macOS's band is about 20 mm of 76"),
        .number("restingThumbMaxMoveMM", \.restingThumbMaxMoveMM, "mm", SettingRange(0...50), source: "a still thumb moves less than a finger's slop"),
        .number("oneSidedPinchMaximumAngleDegrees", \.oneSidedPinchMaximumAngleDegrees, "degrees", SettingRange(0...90),
                tune: [20, 30, 40], source: "heading at the still finger; past 90 degrees it heads away"),
        .number("pinchCorrectionWindowMS", \.pinchCorrectionWindowMS, "ms", SettingRange(0...5000), tune: [200, 300, 400],
                source: "libinput DEFAULT_GESTURE_PINCH_TIMEOUT 300 ms"),
        .number("pinchCorrectionMinMoveMM", \.pinchCorrectionMinMoveMM, "mm", SettingRange(0...50),
                source: "libinput PINCH_DISAMBIGUATION_MOVE_THRESHOLD 1.5 mm"),
        .number("pinchOpposingMinMoveMM", \.pinchOpposingMinMoveMM, "mm", SettingRange(0...50), tune: [0.75, 1.0, 1.25],
                source: "below min_move: no scroll moves its fingers apart"),
        .number("pinchOpposingMinimumAngleDegrees", \.pinchOpposingMinimumAngleDegrees, "degrees", SettingRange(0...180),
                source: "directions at most 180 degrees apart"),
        .number("pinchMinimumSpanMM", \.pinchMinimumSpanMM, "mm", SettingRange(0.1...1000),
                source: "the scale's denominator: above 0, about a fingertip's width"),
        .number("pinchSpanSlopMM", \.pinchSpanSlopMM, "mm", SettingRange(0...100), tune: [0.5, 1.0, 1.5, 2.0],
                source: "pinch intent, about libinput's 1 mm of movement"),
        .number("pinchRotationSlopMM", \.pinchRotationSlopMM, "mm", SettingRange(0...100), source: "an arc, so wide and narrow pinches need the same movement"),
        .number("rotationMinimumSpanMM", \.rotationMinimumSpanMM, "mm", SettingRange(0...1000), source: "below it the angle is noise"),
        .number("fingerCountDebounceMS", \.fingerCountDebounceMS, "ms", SettingRange(0...5000),
                source: "libinput DEFAULT_GESTURE_SWITCH_TIMEOUT 100 ms"),
        .number("jumpDistanceMM", \.jumpDistanceMM, "mm", SettingRange(0...1000), source: "libinput tp_detect_jumps 20 mm per 12 ms"),
        .number("jumpIncreaseMM", \.jumpIncreaseMM, "mm", SettingRange(0...1000), source: "libinput tp_detect_jumps +7 mm"),
        .number("holdTimeoutMS", \.holdTimeoutMS, "ms", SettingRange(0...10_000),
                source: "libinput DEFAULT_GESTURE_HOLD_TIMEOUT 180 ms; UIKit's long press 0.5 s on touchscreens"),
        .number("quickHoldTimeoutMS", \.quickHoldTimeoutMS, "ms", SettingRange(0...10_000), source: "libinput QUICK_GESTURE_HOLD_TIMEOUT 40 ms"),
        .count("quickHoldMaximumFingerCount", \.quickHoldMaximumFingerCount, "fingers", 0...10,
               source: "libinput tp_gesture_is_quick_hold 1-2 fingers"),
        .count("holdMinimumFingerCount", \.holdMinimumFingerCount, "fingers", 0...99, source: "above the maximum turns holds off"),
        .count("holdMaximumFingerCount", \.holdMaximumFingerCount, "fingers", 0...10, source: "libinput 1-4 fingers"),
        .number("holdMaxMoveMM", \.holdMaxMoveMM, "mm", SettingRange(0...50), source: "a hold is still: about libinput's 1 mm"),
    ] + VelocityTrackerConfiguration.settings.settings.map { $0.nested(in: \.velocity, prefix: "velocity") }
      + GestureDeviceTraits.settings.settings.map { $0.nested(in: \.device, prefix: "device") })

    /// The same configuration with every value that would break the arithmetic repaired from the
    /// table: a number that is not finite or below its range becomes its default, one above its range
    /// its upper bound; a count is clamped into its range (the device's height is its own).
    public var sanitized: GestureRecognizerConfiguration {
        Self.settings.sanitized(self, defaults: .default)
    }
}
