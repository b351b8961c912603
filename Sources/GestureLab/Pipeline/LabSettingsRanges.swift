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
            .init("completionSpeed", "", 0, 1000, lowerIsOpen: true),
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
        // The surface height a recognizer section may carry (its fuzz is in the recognizer table).
        for section in ["touchpadRecognizer", "touchscreenRecognizer"] {
            ranges.append(.init("\(section).device.heightMM", "mm", 0, 10_000, lowerIsOpen: true))
        }
        return ranges
    }()

    /// The range of the number at `key` (a dot-separated path), if this table has it.
    public static func range(forKey key: String) -> SettingRange? {
        ranges.first { $0.key == key }
    }

    /// Every number in `json` (a settings file's text, already valid JSON) outside its range, as
    /// (`at`: the section's key path, "" at the top; `problem`: "completionSpeed: 0 is outside (0, 1000]").
    public static func rangeProblems(inJSON json: Data) throws -> [(at: String, problem: String)] {
        let root = try JSONDecoder().decode(JSONValue.self, from: json)
        var problems: [(at: String, problem: String)] = []
        for range in ranges {
            let path = range.key.split(separator: ".").map(String.init)
            var node: JSONValue? = root
            for component in path { node = node?.object?[component] }
            guard case .number(let value)? = node, let problem = range.problem(with: value) else { continue }
            problems.append((at: path.dropLast().joined(separator: "."), problem: "\(path.last!): \(problem)"))
        }
        return problems
    }
}
