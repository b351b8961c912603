/// What decides InputActions' touchpad gestures (InputActions/core 0.9.0, commit 3b0fb63; paths
/// under src/libinputactions/): the device properties (`motion_threshold`s, `swipe.angle_tolerance`),
/// the handler's speed thresholds, and the user's triggers with their `threshold`s.
package struct InputActionsSettings: Sendable, Hashable {
    /// The direction window's length for one-finger motion, libinput's unaccelerated units
    /// (input/devices/InputDeviceProperties.cpp `motionThreshold`: 10 for a touchpad).
    package var motionThreshold = 10.0
    /// Two fingers (`touchpadMotionThreshold2`, 10).
    package var motionThreshold2 = 10.0
    /// Three and more (`touchpadMotionThreshold3`, 10): the one libinput's swipes use.
    package var motionThreshold3 = 10.0
    /// Degrees either side of up, down, left and right (triggers/core/SwipeTriggerCore.h
    /// `DEFAULT_SWIPE_ANGLE_TOLERANGE`, 20; 0...45); the diagonals get what is left.
    package var angleTolerance = 20.0
    /// `touchpad: speed:` (handlers/MotionTriggerHandler.cpp, its constructor and `determineSpeed`).
    package var speed = Speed()
    /// `click_timeout`, ms: a hold is activated this long (at least 200 ms, `TAP_TIMEOUT`) after its
    /// begin when a click or tap trigger exists (handlers/TouchpadTriggerHandler.cpp).
    var clickTimeoutMS = 200.0
    /// A click or tap trigger is configured (not emulated; it delays the holds).
    package var hasClickOrTapTrigger = false
    /// `touchpad: gestures:`, in order.
    package var triggers: [InputActionsTrigger] = InputActionsTrigger.everyGesture

    package init() {}
    package static let defaults = InputActionsSettings()

    /// A device property of `device_rules:` by its name there (`swipe.angle_tolerance` for the
    /// nested one): the ones `tune --for inputactions` moves and writes. nil for any other name.
    package subscript(deviceProperty name: String) -> Double? {
        get {
            switch name {
            case "motion_threshold": motionThreshold
            case "motion_threshold_2": motionThreshold2
            case "motion_threshold_3": motionThreshold3
            case "swipe.angle_tolerance": angleTolerance
            default: nil
            }
        }
        set {
            guard let newValue else { return }
            switch name {
            case "motion_threshold": motionThreshold = newValue
            case "motion_threshold_2": motionThreshold2 = newValue
            case "motion_threshold_3": motionThreshold3 = newValue
            case "swipe.angle_tolerance": angleTolerance = newValue
            default: break
            }
        }
    }

    /// The motion threshold for a libinput finger count (`TouchpadTriggerHandler::currentMotionThreshold`).
    package func motionThreshold(fingers: Int) -> (value: Double, key: String) {
        switch fingers {
        case ...1: (motionThreshold, "motion_threshold")
        case 2: (motionThreshold2, "motion_threshold_2")
        default: (motionThreshold3, "motion_threshold_3")
        }
    }

    /// `touchpad: speed:`: how the first `events` events of a gesture decide fast or slow, when a
    /// trigger asks for a speed: their mean delta against these, per event.
    package struct Speed: Sendable, Hashable {
        package var events = 3
        /// Unaccelerated units per event.
        package var swipeThreshold = 20.0
        /// Scale change per event.
        var pinchInThreshold = 0.04
        var pinchOutThreshold = 0.08
        /// Degrees per event.
        var rotateThreshold = 5.0
        package init() {}
    }

    /// `MultiTouchMotionTriggerHandler::handlePinch`: a pinch turned this many degrees in all
    /// (sum of |angle delta|) is a rotation; it is tested first.
    static let rotateDecision = 10.0
    /// ... else one whose scale is this far from 1 is a pinch.
    static let pinchDecision = 0.2
    /// Timed triggers (hold) are updated every 5 ms with a delta of 5 (handlers/TriggerHandler.h
    /// `m_timedTriggerUpdateDelta`).
    static let tickMS = 5.0
    /// `TAP_TIMEOUT`, ms.
    static let tapTimeoutMS = 200.0
}

/// One of `touchpad: gestures:` (config/parsers/triggers.cpp).
package struct InputActionsTrigger: Sendable, Hashable {
    package enum Kind: String, Sendable, Hashable {
        case swipe, pinch, rotate, hold
    }

    package struct AngleRange: Sendable, Hashable {
        package var from: Double
        package var to: Double
        package init(from: Double, to: Double) { self.from = from; self.to = to }
    }

    package enum Speed: String, Sendable, Hashable {
        case any, fast, slow
    }

    package var kind: Kind
    /// `fingers: N` or `fingers: A-B`; nil: any.
    package var fingers: ClosedRange<Int>?
    /// The direction as the file names it: a swipe's `left`...`right_down`, `left_right`, `up_down`,
    /// `left_up_right_down`, `left_down_right_up`, `any`; a pinch's `in`, `out`, `any`; a rotation's
    /// `clockwise`, `counterclockwise`, `any`; nil for a hold or a swipe given by `angle`.
    package var direction: String?
    /// A swipe's `angle: A-B` (degrees, 0 right, 90 up; A above B wraps through 0), with `bidirectional`.
    package var angle: AngleRange?
    package var bidirectional = false
    /// `threshold: X` (minimum) or `threshold: A-B`: swipe path length (units), pinch sum of
    /// |scale change|, rotation degrees, hold ms, counted from the trigger's activation.
    package var thresholdMin: Double?
    package var thresholdMax: Double?
    package var speed: Speed = .any
    /// An action on `begin`, `update` or `tick` (conflicting): the trigger acts as it starts and then
    /// cancels every other active trigger (`TriggerHandler::updateTriggers`).
    package var actsOnBegin = false
    /// An action on `end` or `end_cancel` (the default `on`), conflicting: at the end, the first
    /// such trigger that can end cancels the others (`TriggerHandler::doEndTriggers`).
    package var actsOnEnd = true
    /// The line in the file; 0 for a default trigger.
    package var line = 0

    package init(kind: Kind, fingers: ClosedRange<Int>? = nil, direction: String? = nil, thresholdMin: Double? = nil,
                thresholdMax: Double? = nil, speed: Speed = .any, actsOnBegin: Bool = false, line: Int = 0) {
        self.kind = kind
        self.fingers = fingers
        self.direction = direction
        self.thresholdMin = thresholdMin
        self.thresholdMax = thresholdMax
        self.speed = speed
        self.actsOnBegin = actsOnBegin
        self.line = line
    }

    /// Every gesture bound, each with an action on `end` (the default `on`): the eight swipe
    /// directions, pinch in and out, both rotations and a hold, any finger count, no threshold.
    package static let everyGesture: [InputActionsTrigger] =
        InputActionsTrigger.swipeDirections.map { InputActionsTrigger(kind: .swipe, direction: $0) }
        + ["in", "out"].map { InputActionsTrigger(kind: .pinch, direction: $0) }
        + ["clockwise", "counterclockwise"].map { InputActionsTrigger(kind: .rotate, direction: $0) }
        + [InputActionsTrigger(kind: .hold)]

    /// The single swipe directions (`SwipeTriggerCore::angleRange`).
    static let swipeDirections = ["right", "right_up", "up", "left_up", "left", "left_down", "down", "right_down"]
    /// The bidirectional ones, each as its primary direction and the opposite (a negative delta).
    static let bidirectionalSwipes = ["left_right": "right", "up_down": "down", "left_up_right_down": "right_down",
                                             "left_down_right_up": "right_up"]

    /// The swipe's angle range for a tolerance t (inclusive; min > max wraps through 0) and
    /// whether the opposite range (180 degrees away) also matches.
    func swipeRange(tolerance t: Double) -> (range: (min: Double, max: Double), bidirectional: Bool)? {
        if let angle { return ((angle.from, angle.to), bidirectional) }
        guard let direction else { return nil }
        if direction == "any" { return ((0, 360), false) }
        if let primary = Self.bidirectionalSwipes[direction] { return (Self.range(primary, t), true) }
        return (Self.range(direction, t), false)
    }

    static func range(_ direction: String, _ t: Double) -> (min: Double, max: Double) {
        switch direction {
        case "right": (360 - t, t)
        case "right_up": (t, 90 - t)
        case "up": (90 - t, 90 + t)
        case "left_up": (90 + t, 180 - t)
        case "left": (180 - t, 180 + t)
        case "left_down": (180 + t, 270 - t)
        case "down": (270 - t, 270 + t)
        default: (270 + t, 360 - t)  // right_down
        }
    }

    /// `matchesAngleRange`: inclusive; a range whose min is above its max wraps through 0.
    static func matches(_ angle: Double, _ range: (min: Double, max: Double)) -> Bool {
        range.min > range.max ? (angle >= range.min || angle <= range.max) : (angle >= range.min && angle <= range.max)
    }

    /// `matchesOppositeAngleRange`: the range turned 180 degrees.
    static func matchesOpposite(_ angle: Double, _ range: (min: Double, max: Double)) -> Bool {
        func wrap(_ a: Double) -> Double { a < 0 ? a + 360 : a }
        return matches(angle, (wrap(range.min - 180), wrap(range.max - 180)))
    }
}
