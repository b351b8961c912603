import SettingsTable

/// What decides fusuma's gestures (iberianpig/fusuma v3.11.1, commit e00d664; the rules unchanged
/// since v3.0.0): each detector's base figure times a multiplier from config.yml, and the
/// executor's interval.
///
/// The base figures are the detectors' `BASE_THRESHOLD`s (lib/fusuma/plugin/detectors/):
/// swipe 25 (accelerated units per 10 ms, `swipe_detector.rb`), pinch 1.3 (a ratio of scales,
/// `pinch_detector.rb`), rotate 0.5 (degrees per 10 ms, `rotate_detector.rb`), hold 0.7 s
/// (`hold_detector.rb`). The multiplier is the value under the gesture's own index
/// (`swipe: 3: left: threshold:`; `pinch: [2:] in: threshold:`; `rotate: [2:] clockwise:
/// threshold:`; `hold: 4: threshold:`), else `threshold: <gesture>:`, else 1. Intervals likewise
/// multiply the executor's `BASE_ONESHOT_INTERVAL` 0.3 s (lib/fusuma/plugin/executors/executor.rb).
package struct FusumaSettings: Sendable, Hashable {
    package enum Gesture: String, Sendable, Hashable, CaseIterable {
        case swipe, pinch, rotate, hold
    }

    /// `threshold: <gesture>:` multipliers; a gesture not named is 1.
    package var threshold: [Gesture: Double] = [:]
    /// `interval: <gesture>:` multipliers; a gesture not named is 1.
    package var interval: [Gesture: Double] = [:]
    /// A multiplier under a gesture's own index, keyed by the index as the file nests it, dotted:
    /// `swipe.3.left`, `pinch.in`, `pinch.2.in`, `rotate.clockwise`, `hold.4`.
    package var indexThreshold: [String: Double] = [:]
    package var indexInterval: [String: Double] = [:]

    package init() {}

    /// fusuma with no config.yml of the user's: the bundled lib/fusuma/config.yml, whose
    /// `threshold: swipe: 0.3, pinch: 0.1` and `interval: swipe: 1, pinch: 1` apply (every
    /// gesture is judged as if bound, not only the bundled file's eight swipes and four pinches).
    package static let defaults: FusumaSettings = {
        var s = FusumaSettings()
        s.threshold = [.swipe: 0.3, .pinch: 0.1]
        s.interval = [.swipe: 1, .pinch: 1]
        return s
    }()

    /// `SwipeDetector::BASE_THRESHOLD`, accelerated units per 10 ms.
    static let swipeBase = 25.0
    /// `PinchDetector::BASE_THRESHOLD`, a ratio of scales.
    static let pinchBase = 1.3
    /// `RotateDetector::BASE_THRESHOLD`, degrees per 10 ms.
    static let rotateBase = 0.5
    /// `HoldDetector::BASE_THRESHOLD`, seconds.
    package static let holdBase = 0.7
    /// `Executor::BASE_ONESHOT_INTERVAL`, seconds.
    static let oneshotInterval = 0.3
    /// `HoldDetector`'s `EPSILON_TIME`: the timer wakes this long after the hold's threshold.
    package static let holdWakeEpsilon = 0.02
    /// The detectors' moving window: the last 10 updates (`GestureBuffer#sum_last10_attrs`).
    package static let window = 10
    /// `SwipeDetector#moved?`: an update moving no more than this (accelerated, either axis) is skipped.
    static let swipeMinimumMove = 0.3
    /// `PinchDetector#moved?`: scale change per 10 ms above which an update counts.
    static let pinchMinimumRate = 0.01
    /// `RotateDetector#moved?`: degrees an update must turn, more than.
    static let rotateMinimumAngle = 0.2

    /// A base figure as the doc comments write it (25, 1.3, 0.5, 0.7).
    static func figure(_ value: Double) -> String { SettingRange.text(value) }

    /// The indexes fusuma searches for a gesture's setting, most specific first (the finger key is
    /// skippable for pinch and rotate, not for swipe and hold).
    static func indexes(_ gesture: Gesture, fingers: Int, direction: String?) -> [String] {
        switch gesture {
        case .swipe: ["swipe.\(fingers).\(direction ?? "")"]
        case .pinch, .rotate: ["\(gesture.rawValue).\(fingers).\(direction ?? "")", "\(gesture.rawValue).\(direction ?? "")"]
        case .hold: ["hold.\(fingers)"]
        }
    }

    /// The multiplier of a gesture's threshold and the key it came from, as the file spells it.
    package func thresholdFactor(_ gesture: Gesture, fingers: Int, direction: String?) -> (factor: Double, key: String) {
        for index in Self.indexes(gesture, fingers: fingers, direction: direction) {
            if let k = indexThreshold[index] { return (k, index + ".threshold") }
        }
        return (threshold[gesture] ?? 1, "threshold.\(gesture.rawValue)")
    }

    /// The seconds a fired oneshot of this gesture keeps every other from running.
    package func intervalSeconds(_ gesture: Gesture, fingers: Int, direction: String?) -> Double {
        for index in Self.indexes(gesture, fingers: fingers, direction: direction) {
            if let k = indexInterval[index] { return k * Self.oneshotInterval }
        }
        return (interval[gesture] ?? 1) * Self.oneshotInterval
    }
}
