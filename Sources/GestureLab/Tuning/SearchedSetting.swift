import GestureCore
import InteractiveTransition
import SettingsTable

/// A point of the tuner's search: the recognizer settings of each device class and the policy.
struct TuningPoint: Sendable, Hashable {
    var touchpad: GestureRecognizerConfiguration
    var touchscreen: GestureRecognizerConfiguration
    var policy: CompletionPolicy

    /// The shipped settings: where every search starts and what a tie keeps.
    static let defaults = TuningPoint(touchpad: .default, touchscreen: .touchscreen, policy: .default)

    /// As settings for a replay or a settings file: a part is set only when it differs from its
    /// defaults, so a file of unchanged settings is `{}`.
    var settings: LabSettings {
        var settings = LabSettings.default
        settings.policy = policy
        if touchpad != Self.defaults.touchpad { settings.touchpadRecognizer = touchpad }
        if touchscreen != Self.defaults.touchscreen { settings.touchscreenRecognizer = touchscreen }
        return settings
    }
}

/// One setting the search may move: a recognizer threshold of one device class, or one of the
/// policy's numbers, with the values it tries (its table's tuning values, `nil` for off where the
/// setting may be off). The list is made from the settings tables, so a setting given tuning
/// values there is searched without a second list.
struct SearchedSetting: Sendable {
    enum Part: String, Sendable, Hashable {
        case touchpad = "touchpadRecognizer"
        case touchscreen = "touchscreenRecognizer"
        case policy
    }

    let part: Part
    /// The key in its part's table (`minMoveMM`).
    let key: String
    /// The values tried, the default first and then the nearest to it first (in steps along the
    /// table's list), so that a tie between two moves keeps the one closer to the shipped settings.
    let values: [Double?]
    private let read: @Sendable (TuningPoint) -> Double?
    private let write: @Sendable (inout TuningPoint, Double?) -> Void

    /// The key as a settings file spells it (`touchpadRecognizer.minMoveMM`, `policy.progressThreshold`).
    var settingsKey: String { part.rawValue + "." + key }

    func value(in point: TuningPoint) -> Double? { read(point) }

    func moved(_ point: TuningPoint, to value: Double?) -> TuningPoint {
        var moved = point
        write(&moved, value)
        return moved
    }

    /// Every searched setting: each device class's recognizer thresholds that have tuning values,
    /// then the policy's.
    static let all: [SearchedSetting] = {
        func recognizer(_ part: Part, _ path: WritableKeyPath<TuningPoint, GestureRecognizerConfiguration> & Sendable)
            -> [SearchedSetting] {
            GestureRecognizerConfiguration.settings.settings.filter { !$0.tuningValues.isEmpty }.map { setting in
                let values = ordered(setting.tuningValues.map(Optional.some), around: setting.number(in: TuningPoint.defaults[keyPath: path]))
                return SearchedSetting(part: part, key: setting.key, values: values,
                                       read: { setting.number(in: $0[keyPath: path]) },
                                       write: { point, value in if let value { setting.set(value, in: &point[keyPath: path]) } })
            }
        }
        let policy = CompletionPolicy.settings.settings.filter { !$0.tuningValues.isEmpty }.map { setting in
            let home: Double? = {
                if case .number(let v) = setting.value(in: TuningPoint.defaults.policy) { return v }
                return nil
            }()
            let values = ordered((setting.tuningTriesOff ? [nil] : []) + setting.tuningValues.map(Optional.some), around: home)
            return SearchedSetting(part: .policy, key: setting.key, values: values,
                                   read: { point in
                                       if case .number(let v) = setting.value(in: point.policy) { return v }
                                       return nil
                                   },
                                   write: { point, value in setting.set(value.map(SettingValue.number) ?? .off, in: &point.policy) })
        }
        return recognizer(.touchpad, \.touchpad) + recognizer(.touchscreen, \.touchscreen) + policy
    }()

    /// `home` (the default), then `values` sorted by their distance in steps from it along the list
    /// (a stable sort: equal distances keep the list's order).
    private static func ordered(_ values: [Double?], around home: Double?) -> [Double?] {
        var list = values
        if !list.contains(home) {
            // A default between the tuning values takes its place in the list, off (nil) first.
            let position = list.firstIndex { ($0 ?? -.infinity) > (home ?? -.infinity) } ?? list.count
            list.insert(home, at: position)
        }
        let position = list.firstIndex(of: home)!
        return list.enumerated()
            .sorted { (abs($0.offset - position), $0.offset) < (abs($1.offset - position), $1.offset) }
            .map(\.element)
    }
}
