import SettingsTable

/// What the recognizer needs to know about the device.
public struct GestureDeviceTraits: Sendable, Hashable, Codable {
    /// Touchpad or touchscreen: which of libinput's rules apply.
    public var deviceClass: DeviceClass = .touchpad
    /// The kernel's position fuzz in millimetres (`input_absinfo.fuzz` / resolution), 0 when unset.
    /// Used as the hysteresis margin against jitter, as libinput does.
    public var fuzzMM: Double = 0
    /// Height of the surface in millimetres, nil when unknown; positions grow downwards from 0, so
    /// the bottom edge (where a thumb rests on a clickpad) is at this value.
    public var heightMM: Double?
    /// false for a touchpad that cannot report where each finger is: semi-MT (`INPUT_PROP_SEMI_MT`,
    /// a bounding box) or a single slot. libinput allows such a touchpad two-finger scrolling only
    /// (`tp_gesture_are_gestures_enabled`): no pinch, no swipe. nil: it can (or nothing says).
    public var fingerPositionsTracked: Bool?
    /// true for a clickpad: a touchpad whose whole surface is its button (`INPUT_PROP_BUTTONPAD`),
    /// where pressing it cancels gestures (`clickpad-pressed`). nil: not one, or nothing says.
    public var isClickpad: Bool?
    /// Width of the surface in millimetres, nil when unknown; the right edge (edge scrolling) is at
    /// this value.
    public var widthMM: Double?
    /// The most fingers the device can count (slots, or `BTN_TOOL_*` up to `BTN_TOOL_QUINTTAP`):
    /// libinput's `ntouches`, which picks the default scroll method. nil: unknown (taken as 2 or more).
    public var maximumFingerCount: Int?
}

// Outside the type's body, so that Swift still makes the init with every default (each property's
// initial value: a touchpad with no fuzz, nothing else known) that `touchscreen` and the tests
// describe devices with.
extension GestureDeviceTraits {
    /// Class, height, and the larger of the x/y fuzz of the position axes (MT axes preferred).
    public init(device: DeviceDescription) {
        deviceClass = device.deviceClass
        heightMM = device.geometry.flatMap { $0.heightMM.isFinite && $0.heightMM > 0 ? $0.heightMM : nil }
        widthMM = device.geometry.flatMap { $0.widthMM.isFinite && $0.widthMM > 0 ? $0.widthMM : nil }
        maximumFingerCount = device.maxFingerCount
        var fuzz = 0.0
        if let geometry = device.geometry {
            let xAxis = device.absInfo[.absMTPositionX] ?? device.absInfo[.absX]
            let yAxis = device.absInfo[.absMTPositionY] ?? device.absInfo[.absY]
            if let xAxis { fuzz = max(fuzz, geometry.x.millimetres(delta: xAxis.fuzz)) }
            if let yAxis { fuzz = max(fuzz, geometry.y.millimetres(delta: yAxis.fuzz)) }
        }
        fuzzMM = fuzz.isFinite ? max(0, fuzz) : 0
        fingerPositionsTracked = device.deviceClass == .touchpad && !device.supportsMultitouchGestures ? false : nil
        isClickpad = device.deviceClass == .touchpad && device.properties.contains(.buttonpad) ? true : nil
    }
}

/// Every threshold of `TouchGestureRecognizer`, with its unit in its name. Defaults follow libinput's
/// touchpad gesture code (`src/evdev-mt-touchpad-gestures.c`) where it has a figure. Each default is
/// its property's initial value; the key, range, tuning grid and source are its row in `settings`
/// (RecognizerThresholds.swift). The recognizer reads the stored properties at each event, never
/// the table (a decision's margin reads its row, when an output asks for it).
public struct GestureRecognizerConfiguration: Sendable, Hashable, Codable {
    /// What the device can do that the rules depend on (clickpad, button areas, edge scrolling).
    public var device: GestureDeviceTraits = GestureDeviceTraits()
    /// Filter positions with a hysteresis margin of `device.fuzzMM` (libinput does so only when the
    /// kernel sets a fuzz).
    public var useFuzzHysteresis: Bool = true

    // MARK: Which gestures

    /// Fewest fingers that pan. 2 on touchpads (one finger moves the pointer, not a gesture);
    /// 1 on touchscreens.
    public var panMinimumFingerCount: Int = 2
    /// Most fingers that pan (2 = scroll, 3+ = swipe).
    public var panMaximumFingerCount: Int = 5
    /// Fewest fingers that pinch (never below 2).
    public var pinchMinimumFingerCount: Int = 2
    /// Most fingers that pinch; set below `pinchMinimumFingerCount` to turn pinch off.
    public var pinchMaximumFingerCount: Int = 5
    /// How a touchpad scrolls (libinput's scroll method): two fingers, one along an edge, or not
    /// at all. The default is libinput's choice for the device (`ScrollMethod.resolved(for:)`).
    public var scrollMethod: ScrollMethod = .deviceDefault

    // MARK: Edge scrolling (libinput's evdev-mt-touchpad-edge-scroll.c)

    /// A touch landing this close to the right edge, or to the bottom edge, is an edge touch
    /// (libinput: 7 mm).
    public var edgeScrollWidthMM: Double = 7
    /// An edge touch scrolls once it moved this far along its edge since it landed (libinput's
    /// `DEFAULT_SCROLL_THRESHOLD`, 3 mm) ...
    public var edgeScrollMinMoveMM: Double = 3
    /// ... or, after resting in the edge this long, with any movement along it (libinput's
    /// `DEFAULT_SCROLL_LOCK_TIMEOUT`, 300 ms; not on a clickpad, where libinput's default click
    /// method, software button areas, turns it off: a finger resting there is about to click).
    public var edgeScrollLockTimeoutMS: Double = 300
    /// A touchpad shorter than this has no bottom scroll edge, unless it is a clickpad (libinput:
    /// "Touchpads smaller than 40mm are not tall enough to have a horizontal scroll area").
    public var edgeScrollBottomMinimumHeightMM: Double = 40

    // MARK: Deciding what the fingers do (libinput's UNKNOWN state)

    /// A pan with fewer than two tracked touches begins once their centroid moved this far.
    public var panSlopMM: Double = 3.0
    /// While both tracked touches moved less than this since they came down, nothing is decided.
    public var undecidedMoveMM: Double = 1.0
    /// A touch counts as moving once past this (libinput `min_move`, 1.5 mm).
    public var minMoveMM: Double = 1.5
    /// A touch past this while the other is below `minMoveMM` decides alone (libinput `max_move`, 4 mm).
    public var maxMoveMM: Double = 4.0
    /// Added to `minMoveMM` per finger beyond two (libinput: 0.5 mm).
    public var minMoveExtraPerFingerMM: Double = 0.5
    /// Added to `maxMoveMM` per finger beyond two (libinput: 2 mm).
    public var maxMoveExtraPerFingerMM: Double = 2.0
    /// After this long undecided, fingers lying side by side (see the two spreads below) are taken
    /// for a scroll/swipe (libinput `DEFAULT_GESTURE_SWIPE_TIMEOUT`, 150 ms).
    public var scrollDecisionTimeoutMS: Double = 150
    /// Side by side means horizontally closer than this (libinput: 40 mm) ...
    public var scrollMaxHorizontalSpreadMM: Double = 40
    /// ... and vertically closer than this (libinput: 7 mm).
    public var scrollMaxVerticalSpreadMM: Double = 7
    /// A movement direction within this fraction of an eighth of a turn from a compass point counts as
    /// that point only; otherwise as both neighbouring points (libinput uses 0.1).
    public var directionSnapEighths: Double = 0.1
    /// When one touch moves past `maxMoveMM` while the lower one stays below `minMoveMM`, the lower
    /// one is a resting thumb: ignore it for the rest of its life (libinput thumb suppression).
    /// Touchpads only by default: a touchscreen has no palm rest, and libinput detects thumbs on
    /// touchpads only.
    public var suppressRestingThumb: Bool = true
    /// A still touch this close to the bottom edge is a resting thumb whatever the other finger does
    /// (libinput and macOS keep a thumb band along the bottom; macOS's is about 20 mm on a 76 mm pad).
    /// Anywhere else, or when the height is unknown, see `oneSidedPinchMaximumAngleDegrees`.
    public var restingThumbAreaMM: Double = 15
    /// With two or more fingers above it, the lowest touch lying in the thumb band is a resting thumb
    /// from the start: the fingers are judged without it, so it delays no gesture (libinput jails a
    /// touch in its thumb area). It stays left out while it has moved less than this since the
    /// fingers came down; past it, it is a finger after all (a thumb pinching up at the fingers).
    public var restingThumbMaxMoveMM: Double = 0.5
    /// Outside the thumb area, a touch heading within this angle of the line to the still one is a
    /// one-sided pinch (the fingers close in on, or open from, the still finger), not a finger
    /// moving the pointer beside a resting thumb: that one heads anywhere, a pinching one at the
    /// thumb. Applies on touchscreens too, where nothing is a thumb. 0 turns one-sided pinches off.
    public var oneSidedPinchMaximumAngleDegrees: Double = 30

    // MARK: Pinch

    /// A pan of two fingers that, this soon after the fingers came down, turns out to move them in
    /// different directions is cancelled and a pinch begins (libinput `DEFAULT_GESTURE_PINCH_TIMEOUT`).
    public var pinchCorrectionWindowMS: Double = 300
    /// Both touches must have moved this far for such a correction
    /// (libinput `PINCH_DISAMBIGUATION_MOVE_THRESHOLD`, 1.5 mm).
    public var pinchCorrectionMinMoveMM: Double = 1.5
    /// Fingers heading in clearly opposite directions (see `pinchOpposingMinimumAngleDegrees`)
    /// pinch once both moved this far, before `minMoveMM`: no scroll moves its fingers apart, and
    /// deciding at 1 mm keeps the begin within 2 mm of movement per finger even when a fast pinch
    /// covers most of a millimetre between two frames.
    public var pinchOpposingMinMoveMM: Double = 1.0
    /// Clearly opposite: the two fingers' movements at least this far apart in direction.
    public var pinchOpposingMinimumAngleDegrees: Double = 135
    /// A pinch needs its touches at least this far apart when it begins, so the scale's denominator
    /// is a real distance (two fingertips cannot be closer than about a fingertip's width).
    public var pinchMinimumSpanMM: Double = 5.0
    /// Intent: the span must have changed by this much since the fingers came down ...
    public var pinchSpanSlopMM: Double = 1.0
    /// ... or the fingers travelled this far around each other (the turn's arc at half the span),
    /// before a pinch begins. An arc rather than an angle, so a wide pinch needs no more finger
    /// movement than a narrow one.
    public var pinchRotationSlopMM: Double = 1.0
    /// Below this span the angle between the touches is noise: rotation is held.
    public var rotationMinimumSpanMM: Double = 2.0

    // MARK: Finger-count changes and faults

    /// A finger-count change during a gesture must last this long before the gesture is cancelled;
    /// meanwhile nothing is emitted (libinput `DEFAULT_GESTURE_SWITCH_TIMEOUT`, 100 ms).
    public var fingerCountDebounceMS: Double = 100
    /// On touchpads, a touch moving farther than this in one frame (normalized to a 12 ms frame) ...
    public var jumpDistanceMM: Double = 20
    /// ... or this much farther than in the frame before, is a jump (libinput `tp_detect_jumps`:
    /// 20 mm, 7 mm): the gesture is cancelled and the touch restarts where it landed.
    public var jumpIncreaseMM: Double = 7

    // MARK: Hold (libinput's HOLD state)

    /// Fingers down this long, still undecided, begin a hold (libinput `DEFAULT_GESTURE_HOLD_TIMEOUT`,
    /// 180 ms; with tap-to-click libinput waits for its tap timeout, also 180 ms) ...
    public var holdTimeoutMS: Double = 180
    /// ... or this long with up to `quickHoldMaximumFingerCount` fingers (libinput's quick hold,
    /// `QUICK_GESTURE_HOLD_TIMEOUT` 40 ms, tap-to-click on or off: "always use the timer if it is a
    /// quick hold", so that a touch stops kinetic scrolling at once; a two-finger tap is also a hold).
    public var quickHoldTimeoutMS: Double = 40
    /// The most fingers that hold after `quickHoldTimeoutMS` (libinput `tp_gesture_is_quick_hold`:
    /// one or two). 0 on touchscreens, where a hold is a long press.
    public var quickHoldMaximumFingerCount: Int = 2
    /// Fewest and most fingers that hold (libinput: 1-4). Set the minimum above the maximum to turn
    /// holds off.
    public var holdMinimumFingerCount: Int = 1
    /// The most fingers a hold may have.
    public var holdMaximumFingerCount: Int = 4
    /// A finger moving this far since the fingers came down ends a hold (cancelled), or keeps it
    /// from beginning.
    public var holdMaxMoveMM: Double = 1.0

    // MARK: Velocity

    /// How gesture velocities are measured.
    public var velocity: VelocityTrackerConfiguration = .default

    /// Touchpad defaults: one finger is pointer motion, not a gesture.
    public static let `default` = GestureRecognizerConfiguration()

    /// Touchscreen defaults: one finger pans; no resting thumbs; a hold is UIKit's long press
    /// (`UILongPressGestureRecognizer.minimumPressDuration`, 0.5 s), since a tap on a screen is no
    /// request to stop scrolling. (libinput has no touchscreen gestures.)
    public static let touchscreen = GestureRecognizerConfiguration(
        device: GestureDeviceTraits(deviceClass: .touchscreen), panMinimumFingerCount: 1, suppressRestingThumb: false,
        holdTimeoutMS: 500, quickHoldMaximumFingerCount: 0)

    /// Jump detection as the touches use it: touchpads only, as in libinput.
    var jumpDetection: JumpDetection {
        JumpDetection(enabled: device.deviceClass == .touchpad && jumpDistanceMM > 0,
                      distanceMM: jumpDistanceMM, increaseMM: jumpIncreaseMM)
    }
}

// Outside the type's body, so that Swift still makes the init with every default (each property's
// initial value, the one place a default is declared) that `default` and `touchscreen` are made with.
extension GestureRecognizerConfiguration {
    /// The defaults for this device's class, with its fuzz.
    public init(device: DeviceDescription) {
        let traits = GestureDeviceTraits(device: device)
        self = traits.deviceClass == .touchscreen ? .touchscreen : .default
        self.device = traits
    }
}

// A settings file may name only the thresholds it changes, and files written before a threshold
// existed keep loading: every key is optional and falls back to the defaults. The keys, their types
// and their valid ranges come from `settings` (RecognizerThresholds.swift).
extension GestureRecognizerConfiguration {
    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ s: String) { stringValue = s }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Decodes from the table, over the defaults of the class the section names
    /// (`device.deviceClass`), else touchpad's.
    public init(from decoder: any Decoder) throws {
        self = try SettingsDecoding.read(from: decoder) { json throws(SettingsProblem) in
            let deviceClassPath = Self.settings.setting(for: \.device.deviceClass).key.split(separator: ".").map(String.init)
            let touchscreen = json[path: deviceClassPath] == .string(DeviceClass.touchscreen.rawValue)
            return try Self.settings.decode(json, over: touchscreen ? .touchscreen : .default)
        }
    }

    /// Writes every setting under its settings-file key.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(device, forKey: Key("device"))
        for setting in Self.settings.settings where !setting.key.contains(".") {
            switch setting.value(in: self) {
            case .number(let v) where setting.kind == .count: try c.encode(Int(v), forKey: Key(setting.key))
            case .number(let v): try c.encode(v, forKey: Key(setting.key))
            case .flag(let on): try c.encode(on, forKey: Key(setting.key))
            case .name(let name): try c.encode(name, forKey: Key(setting.key))
            case .off: try c.encodeNil(forKey: Key(setting.key))
            }
        }
        try c.encode(velocity, forKey: Key("velocity"))
    }
}

extension GestureDeviceTraits {
    /// The traits a settings section may carry. `recognizerConfiguration(for:)` replaces them with
    /// the replayed device's own, so they matter only to a configuration read on its own.
    public static let settings = SettingsTable<GestureDeviceTraits>([
        .choice("deviceClass", \.deviceClass, [DeviceClass.touchpad, .touchscreen, .other],
                source: "the device's class: which defaults a section read on its own starts from"),
        .number("fuzzMM", \.fuzzMM, "mm", SettingRange(0...100), source: "libinput absinfo fuzz, the hysteresis margin"),
        .optionalNumber("heightMM", \.heightMM, "mm", SettingRange(0, 10_000, lowerIsOpen: true),
                        source: "the surface's height; null when unknown; a surface beyond 10 m is no touch device"),
        .optionalNumber("widthMM", \.widthMM, "mm", SettingRange(0, 10_000, lowerIsOpen: true),
                        source: "the surface's width, where the right scroll edge is; null when unknown"),
        .optionalCount("maximumFingerCount", \.maximumFingerCount, "fingers", 0...1_000,
                       source: "libinput ntouches (slots or BTN_TOOL_*), which picks the default scroll method; null when unknown"),
    ])
}
