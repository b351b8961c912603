/// Every setting of `GestureRecognizerConfiguration` once: its key in a settings file, where it
/// lives, its unit, the values it may take, the values the tuner tries, and libinput's figure.
/// Decoding, range validation, `sanitized`, encoding and the tuner's list are all made from this
/// table, so a threshold added to the configuration and the table is read, checked, repaired and
/// tuned without a second list to update (`RecognizerThresholdTableTests` checks every field is in
/// it).
public struct RecognizerThreshold: Sendable {
    public enum Field: Sendable {
        case number(WritableKeyPath<GestureRecognizerConfiguration, Double> & Sendable)
        case count(WritableKeyPath<GestureRecognizerConfiguration, Int> & Sendable)
        case flag(WritableKeyPath<GestureRecognizerConfiguration, Bool> & Sendable)
        /// One of a closed set of names (`scrollMethod`); its value is the name's index.
        case choice(Choice)
    }

    /// A setting that takes one of a few names, written as the name in a settings file.
    public struct Choice: Sendable {
        /// The names, in the order of their indices.
        public let names: [String]
        let index: @Sendable (GestureRecognizerConfiguration) -> Int
        let setIndex: @Sendable (inout GestureRecognizerConfiguration, Int) -> Void

        init<Value: CaseIterable & RawRepresentable & Equatable & Sendable>(
            _ path: WritableKeyPath<GestureRecognizerConfiguration, Value> & Sendable
        ) where Value.RawValue == String {
            let cases = Array(Value.allCases)
            names = cases.map(\.rawValue)
            index = { c in cases.firstIndex(of: c[keyPath: path]) ?? 0 }
            setIndex = { c, i in c[keyPath: path] = cases[min(max(i, 0), cases.count - 1)] }
        }

        /// The index of `name`, nil when it is none of them.
        public func index(of name: String) -> Int? { names.firstIndex(of: name) }
    }

    /// The key path in a settings section, dot-separated (`minMoveMM`, `velocity.horizonMS`).
    public let key: String
    public let field: Field
    /// "mm", "ms", "degrees", "fingers", "eighths of a turn", "" for a flag.
    public let unit: String
    /// Values outside are refused when read from a file and repaired by `sanitized` (flags: unused).
    public let range: ClosedRange<Double>
    /// What `pinchlab tune` tries (empty: not tuned).
    public let tuningValues: [Double]
    /// Where the default comes from in libinput, if it does.
    public let libinput: String?

    init(_ key: String, _ field: Field, _ unit: String, _ range: ClosedRange<Double>, tune: [Double] = [],
         libinput: String? = nil) {
        self.key = key
        self.field = field
        self.unit = unit
        self.range = range
        self.tuningValues = tune
        self.libinput = libinput
    }

    /// The value as a number (a flag reads 0 or 1).
    public func value(in c: GestureRecognizerConfiguration) -> Double {
        switch field {
        case .number(let path): c[keyPath: path]
        case .count(let path): Double(c[keyPath: path])
        case .flag(let path): c[keyPath: path] ? 1 : 0
        case .choice(let choice): Double(choice.index(c))
        }
    }

    /// The value as a settings file writes it: a name for a choice, else nil.
    public func name(in c: GestureRecognizerConfiguration) -> String? {
        guard case .choice(let choice) = field else { return nil }
        return choice.names[choice.index(c)]
    }

    /// Sets the value (a count is rounded; a flag is set when not 0).
    public func set(_ value: Double, in c: inout GestureRecognizerConfiguration) {
        switch field {
        case .number(let path): c[keyPath: path] = value
        case .count(let path): c[keyPath: path] = value.isFinite ? Int(value.rounded()) : 0
        case .flag(let path): c[keyPath: path] = value != 0
        case .choice(let choice): choice.setIndex(&c, value.isFinite ? Int(value.rounded()) : 0)
        }
    }

    /// "-3 mm is outside 0...50 mm".
    public func rangeProblem(in c: GestureRecognizerConfiguration) -> String? {
        switch field {
        case .flag, .choice: return nil
        case .number, .count: break
        }
        let v = value(in: c)
        guard !(v.isFinite && range.contains(v)) else { return nil }
        return Self.outside(v, unit: unit, range: "\(Self.text(range.lowerBound))...\(Self.text(range.upperBound))")
    }

    /// "-3 mm is outside 0...50 mm": how every settings number outside its range is reported.
    public static func outside(_ value: Double, unit: String, range rangeText: String) -> String {
        let unitText = unit.isEmpty ? "" : " \(unit)"
        return "\(text(value))\(unitText) is outside \(rangeText)\(unitText)"
    }

    /// A number as messages show it: whole numbers without a fraction.
    public static func text(_ v: Double) -> String {
        v.isFinite && v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
    }
}

extension GestureRecognizerConfiguration {
    /// The table (see `RecognizerThreshold`).
    public static let thresholds: [RecognizerThreshold] = [
        .init("useFuzzHysteresis", .flag(\.useFuzzHysteresis), "", 0...1, libinput: "tp_motion_hysteresis"),
        .init("panMinimumFingerCount", .count(\.panMinimumFingerCount), "fingers", 1...10),
        .init("panMaximumFingerCount", .count(\.panMaximumFingerCount), "fingers", 0...10),
        .init("pinchMinimumFingerCount", .count(\.pinchMinimumFingerCount), "fingers", 2...10),
        .init("pinchMaximumFingerCount", .count(\.pinchMaximumFingerCount), "fingers", 0...10),
        .init("scrollMethod", .choice(.init(\.scrollMethod)), "", 0...Double(ScrollMethod.allCases.count - 1),
              libinput: "tp_scroll_get_default_method: 2fg when ntouches >= 2, else edge"),
        .init("edgeScrollWidthMM", .number(\.edgeScrollWidthMM), "mm", 0...100, libinput: "tp_edge_scroll_init 7 mm"),
        .init("edgeScrollMinMoveMM", .number(\.edgeScrollMinMoveMM), "mm", 0...50,
              libinput: "DEFAULT_SCROLL_THRESHOLD 3 mm"),
        .init("edgeScrollLockTimeoutMS", .number(\.edgeScrollLockTimeoutMS), "ms", 0...10_000,
              libinput: "DEFAULT_SCROLL_LOCK_TIMEOUT 300 ms"),
        .init("edgeScrollBottomMinimumHeightMM", .number(\.edgeScrollBottomMinimumHeightMM), "mm", 0...1000,
              libinput: "tp_edge_scroll_init: height >= 40 mm"),
        .init("panSlopMM", .number(\.panSlopMM), "mm", 0...50, tune: [2.0, 3.0, 4.0]),
        .init("undecidedMoveMM", .number(\.undecidedMoveMM), "mm", 0...50, tune: [0.5, 1.0],
              libinput: "tp_gesture_detect_motion_gestures: both < 1 mm"),
        .init("minMoveMM", .number(\.minMoveMM), "mm", 0...50, tune: [1.0, 1.25, 1.5, 2.0], libinput: "min_move 1.5 mm"),
        .init("maxMoveMM", .number(\.maxMoveMM), "mm", 0...100, tune: [3.0, 4.0, 5.0, 6.0], libinput: "max_move 4 mm"),
        .init("minMoveExtraPerFingerMM", .number(\.minMoveExtraPerFingerMM), "mm", 0...20, libinput: "+0.5 mm per finger"),
        .init("maxMoveExtraPerFingerMM", .number(\.maxMoveExtraPerFingerMM), "mm", 0...20, libinput: "+2 mm per finger"),
        .init("scrollDecisionTimeoutMS", .number(\.scrollDecisionTimeoutMS), "ms", 0...5000, tune: [100, 150, 200],
              libinput: "DEFAULT_GESTURE_SWIPE_TIMEOUT 150 ms"),
        .init("scrollMaxHorizontalSpreadMM", .number(\.scrollMaxHorizontalSpreadMM), "mm", 0...1000, libinput: "40 mm"),
        .init("scrollMaxVerticalSpreadMM", .number(\.scrollMaxVerticalSpreadMM), "mm", 0...1000, libinput: "7 mm"),
        .init("directionSnapEighths", .number(\.directionSnapEighths), "eighths of a turn", 0...0.5, libinput: "0.1"),
        .init("suppressRestingThumb", .flag(\.suppressRestingThumb), "", 0...1, libinput: "tp_thumb_suppress"),
        .init("restingThumbAreaMM", .number(\.restingThumbAreaMM), "mm", 0...1000, libinput: "thumb area"),
        .init("restingThumbMaxMoveMM", .number(\.restingThumbMaxMoveMM), "mm", 0...50),
        .init("oneSidedPinchMaximumAngleDegrees", .number(\.oneSidedPinchMaximumAngleDegrees), "degrees", 0...90,
              tune: [20, 30, 40]),
        .init("pinchCorrectionWindowMS", .number(\.pinchCorrectionWindowMS), "ms", 0...5000, tune: [200, 300, 400],
              libinput: "DEFAULT_GESTURE_PINCH_TIMEOUT 300 ms"),
        .init("pinchCorrectionMinMoveMM", .number(\.pinchCorrectionMinMoveMM), "mm", 0...50,
              libinput: "PINCH_DISAMBIGUATION_MOVE_THRESHOLD 1.5 mm"),
        .init("pinchOpposingMinMoveMM", .number(\.pinchOpposingMinMoveMM), "mm", 0...50, tune: [0.75, 1.0, 1.25]),
        .init("pinchOpposingMinimumAngleDegrees", .number(\.pinchOpposingMinimumAngleDegrees), "degrees", 0...180),
        .init("pinchMinimumSpanMM", .number(\.pinchMinimumSpanMM), "mm", 0.1...1000),
        .init("pinchSpanSlopMM", .number(\.pinchSpanSlopMM), "mm", 0...100, tune: [0.5, 1.0, 1.5, 2.0]),
        .init("pinchRotationSlopMM", .number(\.pinchRotationSlopMM), "mm", 0...100),
        .init("rotationMinimumSpanMM", .number(\.rotationMinimumSpanMM), "mm", 0...1000),
        .init("fingerCountDebounceMS", .number(\.fingerCountDebounceMS), "ms", 0...5000,
              libinput: "DEFAULT_GESTURE_SWITCH_TIMEOUT 100 ms"),
        .init("jumpDistanceMM", .number(\.jumpDistanceMM), "mm", 0...1000, libinput: "tp_detect_jumps 20 mm per 12 ms"),
        .init("jumpIncreaseMM", .number(\.jumpIncreaseMM), "mm", 0...1000, libinput: "tp_detect_jumps +7 mm"),
        .init("holdTimeoutMS", .number(\.holdTimeoutMS), "ms", 0...10_000, libinput: "DEFAULT_GESTURE_HOLD_TIMEOUT 180 ms"),
        .init("quickHoldTimeoutMS", .number(\.quickHoldTimeoutMS), "ms", 0...10_000, libinput: "QUICK_GESTURE_HOLD_TIMEOUT 40 ms"),
        .init("quickHoldMaximumFingerCount", .count(\.quickHoldMaximumFingerCount), "fingers", 0...10,
              libinput: "tp_gesture_is_quick_hold 1-2 fingers"),
        .init("holdMinimumFingerCount", .count(\.holdMinimumFingerCount), "fingers", 0...99),
        .init("holdMaximumFingerCount", .count(\.holdMaximumFingerCount), "fingers", 0...10, libinput: "1-4 fingers"),
        .init("holdMaxMoveMM", .number(\.holdMaxMoveMM), "mm", 0...50),
        .init("velocity.horizonMS", .number(\.velocity.horizonMS), "ms", 0...10_000, tune: [60, 80, 100, 150]),
        .init("velocity.stopGapMS", .number(\.velocity.stopGapMS), "ms", 0...10_000),
        .init("velocity.polynomialDegree", .count(\.velocity.polynomialDegree), "", 0...2, tune: [1, 2]),
        .init("device.fuzzMM", .number(\.device.fuzzMM), "mm", 0...100, libinput: "absinfo fuzz"),
    ]

    /// The same configuration with every value that would break the arithmetic repaired from the
    /// table: a number that is not finite or below its range becomes its default, one above its range
    /// its upper bound; a count is clamped into its range.
    public var sanitized: GestureRecognizerConfiguration {
        var c = self
        let defaults = GestureRecognizerConfiguration.default
        for t in Self.thresholds {
            let v = t.value(in: c)
            switch t.field {
            case .flag, .choice:
                continue
            case .count:
                t.set(min(max(v, t.range.lowerBound), t.range.upperBound), in: &c)
            case .number:
                if !v.isFinite || v < t.range.lowerBound {
                    t.set(t.value(in: defaults), in: &c)
                } else if v > t.range.upperBound {
                    t.set(t.range.upperBound, in: &c)
                }
            }
        }
        return c
    }

    /// Every value read from a file outside its range, as "key: value is outside range".
    func rangeProblems(keys present: Set<String>) -> [String] {
        Self.thresholds.compactMap { t in
            guard present.contains(t.key), let problem = t.rangeProblem(in: self) else { return nil }
            return "\(t.key): \(problem)"
        }
    }
}
