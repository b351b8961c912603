import Foundation
import GestureKit
import InteractiveTransition

/// The values one number in a settings file may take, by its key path. The recognizer sections have
/// their own table (`GestureRecognizerConfiguration.thresholds`, checked by their decoder); this one
/// holds every other number, so that every number a file can hold has a range and a value outside it
/// is refused naming the key, the value and the range, as "minMoveMM: -3 mm is outside 0...50 mm".
public struct SettingRange: Sendable {
    /// Dot-separated key path from the top of the file: `completion.curve.p1x`.
    public let key: String
    /// "mm", "Hz", "progress/s", "" for a plain number.
    public let unit: String
    public let lower: Double
    public let upper: Double
    /// A lower bound the value must stay strictly above (a duration or a stiffness of 0 breaks the arithmetic).
    public let lowerIsOpen: Bool
    /// An upper bound the value must stay strictly below (a deceleration rate of 1 never stops).
    public let upperIsOpen: Bool

    init(_ key: String, _ unit: String, _ lower: Double, _ upper: Double, lowerIsOpen: Bool = false, upperIsOpen: Bool = false) {
        self.key = key
        self.unit = unit
        self.lower = lower
        self.upper = upper
        self.lowerIsOpen = lowerIsOpen
        self.upperIsOpen = upperIsOpen
    }

    public func contains(_ value: Double) -> Bool {
        value.isFinite && (lowerIsOpen ? value > lower : value >= lower) && (upperIsOpen ? value < upper : value <= upper)
    }

    /// "0...50", or with an open end in interval notation: "(0, 1)", "(0, 1000]".
    public var rangeText: String {
        let low = RecognizerThreshold.text(lower), high = RecognizerThreshold.text(upper)
        if !lowerIsOpen && !upperIsOpen { return "\(low)...\(high)" }
        return (lowerIsOpen ? "(" : "[") + "\(low), \(high)" + (upperIsOpen ? ")" : "]")
    }

    /// "0 mm is outside (0, 1000] mm", nil when `value` is inside.
    public func problem(with value: Double) -> String? {
        guard !contains(value) else { return nil }
        return RecognizerThreshold.outside(value, unit: unit, range: rangeText)
    }
}

extension LabSettings {
    /// Every number of a settings file outside the recognizer sections, with its range. The defaults
    /// and every preset lie inside (`LabSettingsRangeTests` checks that, and that every number the
    /// settings encode to has a range here or in the recognizer table).
    public static let ranges: [SettingRange] = {
        var ranges: [SettingRange] = [
            .init("panDismissDistanceMM", "mm", 0, 1000, lowerIsOpen: true),
            .init("zoomPresentScaleRange", "", 0, 100, lowerIsOpen: true),
            .init("animationFrameRateHz", "Hz", 1, 1000),
            // At 0.05 the longest curve completion (a whole 1 s zoom) takes 20 s: inside the 60 s the
            // driver lets an animation run, so it never cuts one short; a spring is checked with its
            // settle time (`combinedRanges`).
            .init("completionSpeed", "", 0.05, 1000),
            // pinchlab's own policy
            .init("policy.progressThreshold", "", 0, 1),
            .init("policy.decelerationRatePerMS", "per ms", 0, 1, lowerIsOpen: true, upperIsOpen: true),
            .init("policy.flickVelocity", "progress/s", 0, 1000, lowerIsOpen: true),
            // KWin
            .init("policy.threshold", "", 0, 1),
            // Hyprland
            .init("policy.distance", "units", 1, 100_000),
            .init("policy.cancelRatio", "", 0, 1),
            .init("policy.minSpeedToForce", "units per update", 0, 100_000),
            // Android back
            .init("policy.triggerDP", "dp", 0, 100_000),
            .init("policy.switchDP", "dp", 0, 100_000),
            .init("policy.pageDP", "dp", 0, 100_000, lowerIsOpen: true),
            // Completion curve: x must stay in 0...1 so that time runs forwards; y may overshoot.
            .init("completion.curve.p1x", "", 0, 1),
            .init("completion.curve.p1y", "", -10, 10),
            .init("completion.curve.p2x", "", 0, 1),
            .init("completion.curve.p2y", "", -10, 10),
            // Completion spring
            .init("completion.spring.parameters.mass", "", 0, 1000, lowerIsOpen: true),
            .init("completion.spring.parameters.stiffness", "", 0, 1_000_000, lowerIsOpen: true),
            .init("completion.spring.parameters.damping", "", 0, 100_000, lowerIsOpen: true),
            .init("completion.spring.normalizedInitialVelocity", "", -100, 100),
            .init("completion.spring.settleRule.settleDistance", "progress", 0, 1, lowerIsOpen: true),
            .init("completion.spring.settleRule.settleVelocity", "progress/s", 0, 100, lowerIsOpen: true),
        ]
        // GNOME, per input class
        for input in ["touchpad", "touchscreen"] {
            ranges += [
                .init("policy.\(input).velocityThreshold", "units/ms", 0, 100),
                .init("policy.\(input).deceleration", "per ms", 0, 1, lowerIsOpen: true, upperIsOpen: true),
                .init("policy.\(input).pageDistance", "units", 0, 100_000, lowerIsOpen: true),
            ]
        }
        // The surface size and finger count a recognizer section may carry (its fuzz is in the
        // recognizer table).
        for section in ["touchpadRecognizer", "touchscreenRecognizer"] {
            ranges.append(.init("\(section).device.heightMM", "mm", 0, 10_000, lowerIsOpen: true))
            ranges.append(.init("\(section).device.widthMM", "mm", 0, 10_000, lowerIsOpen: true))
            ranges.append(.init("\(section).device.maximumFingerCount", "fingers", 0, 1_000))
        }
        return ranges
    }()

    /// The figures that several numbers of one section make together, with their ranges: a spring's
    /// period and how long it takes to settle depend on its mass, stiffness and damping at once, so
    /// no range of each alone keeps them bounded (mass 1e-15 with stiffness 1 is a period of 0.2 us,
    /// and a settle search of billions of steps). The key is the section's.
    public static let combinedRanges: [CombinedSettingRange] = [
        CombinedSettingRange(
            SettingRange("completion.spring.parameters", "s", SpringParameters.responseRange.lowerBound,
                         SpringParameters.responseRange.upperBound),
            figure: "period 2π√(mass/stiffness)") { root in
                springParameters(in: root.object?["completion"]?.object?["spring"]?.object?["parameters"]?.object ?? [:])?.response
            },
        // Within the settle search (spring time) and, at a completionSpeed below 1 (spring time
        // running slower than real time), within the driver's limit on an animation (real time),
        // so neither cuts the animation short.
        CombinedSettingRange(
            SettingRange("completion.spring.parameters", "s", 0,
                         min(SpringMotion.maximumSettleSearchSeconds, GestureTransitionDriver.maximumAnimationSeconds)),
            figure: "settle time from rest (about ln(1/settleDistance) / decay rate, over completionSpeed when below 1)") { root in
                guard let spring = root.object?["completion"]?.object?["spring"]?.object,
                      let parameters = springParameters(in: spring["parameters"]?.object ?? [:]) else { return nil }
                var seconds = parameters.estimatedSettleSeconds()
                if case .number(let distance)? = spring["settleRule"]?.object?["settleDistance"] {
                    seconds = parameters.estimatedSettleSeconds(settleDistance: distance)
                }
                if case .number(let speed)? = root.object?["completionSpeed"] { seconds /= min(1, speed) }
                return seconds
            },
    ]

    /// The spring `section` (`completion.spring.parameters`) describes, when its three numbers are
    /// there and each inside its own range (a number outside is reported by its own key first).
    private static func springParameters(in section: [String: JSONValue]) -> SpringParameters? {
        guard case .number(let mass)? = section["mass"], case .number(let stiffness)? = section["stiffness"],
              case .number(let damping)? = section["damping"] else { return nil }
        return try? SpringParameters(mass: mass, stiffness: stiffness, damping: damping)
    }

    /// The range of the number at `key` (a dot-separated path), if this table has it.
    public static func range(forKey key: String) -> SettingRange? {
        ranges.first { $0.key == key }
    }

    /// Every number in `json` (a settings file's text, already valid JSON) outside its range, as
    /// (`at`: the section's key path, "" at the top; `problem`: "completionSpeed: 0 is outside (0, 1000]").
    public static func rangeProblems(inJSON json: Data) throws -> [(at: String, problem: String)] {
        let root = try JSONDecoder().decode(JSONValue.self, from: json)
        func node(at path: some Collection<String>) -> JSONValue? {
            path.reduce(root) { $0?.object?[$1] }
        }
        var problems: [(at: String, problem: String)] = []
        for range in ranges {
            let path = range.key.split(separator: ".").map(String.init)
            guard case .number(let value)? = node(at: path), let problem = range.problem(with: value) else { continue }
            problems.append((at: path.dropLast().joined(separator: "."), problem: "\(path.last!): \(problem)"))
        }
        // A section's figures only once each of its numbers is in range: one message per cause.
        guard problems.isEmpty else { return problems }
        for combined in combinedRanges {
            guard let value = combined.value(root), let problem = combined.range.problem(with: value) else { continue }
            problems.append((at: combined.range.key, problem: "\(combined.figure): \(problem)"))
        }
        return problems
    }
}

/// A figure that several numbers of one settings section make together (a spring's period), with
/// its range: `LabSettings.combinedRanges`.
public struct CombinedSettingRange: Sendable {
    /// The section's key path and the figure's range.
    public let range: SettingRange
    /// How a message names the figure: "period 2π√(mass/stiffness)".
    public let figure: String
    /// The figure from the whole file (the section's members, and any other number it depends on);
    /// nil when they do not make one.
    let value: @Sendable (_ root: JSONValue) -> Double?

    init(_ range: SettingRange, figure: String, value: @escaping @Sendable (_ root: JSONValue) -> Double?) {
        self.range = range
        self.figure = figure
        self.value = value
    }
}
