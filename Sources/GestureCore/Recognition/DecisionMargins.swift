import SettingsTable

// How close each rule's decision came to going the other way, from its evidence and the settings
// it was made with: computed after the fact, only when an output asks (nothing here runs per frame).

extension GestureDecision {
    /// The decision's margin: of the conditions that chose this rule at its deciding frame, the one
    /// closest to flipping (the smallest `DecisionMargin.normalized`, a distance over the setting's
    /// usual range), as the measured value, the setting it was compared with, that setting's full
    /// key in a settings file (`touchpadRecognizer.pinchOpposingMinimumAngleDegrees`), its unit and
    /// the width of its usual range. Moving that setting from `threshold` past `value` (and no other
    /// setting) makes the deciding frame decide otherwise; short of `value` it decides the same.
    ///
    /// Only conditions that *choose* count: an angle, a spread, where a touch lies, a finger that
    /// stayed below a move limit, a window still open, a heading the compass snap reads. A
    /// threshold that a growing value has just crossed (a finger moving past `minMoveMM`, a wait
    /// past `scrollDecisionTimeoutMS`) only says *when*: moved past the value it delays the same
    /// decision by a frame rather than changing it, so it is no margin. A condition no value of the
    /// setting's valid range flips (fingers 180° apart) is none either. Where a rule adds
    /// `minMoveExtraPerFingerMM` per finger past two, `value` is the measured move less that extra,
    /// in the setting's own terms.
    ///
    /// The margin is the deciding frame's: where the measured value wanders from frame to frame (a
    /// resting finger's jitter), another frame of the same stretch may decide the same way with a
    /// value a little to the other side.
    ///
    /// nil for a rule no single setting flips: the end of fingers or of the stream
    /// (`all-lifted`, `end-of-stream`), a fault (`resync`, `bad-numbers`), a finger count
    /// (`pinch-unavailable`, `pan-unavailable`, `finger-count-change`, `fingers-replaced`), a rule
    /// only a crossed threshold decided (`centroid-moved`, `motion-ends-hold`, a scroll whose
    /// fingers nothing but their moving decided), a jump both of whose limits it exceeded, and
    /// evidence without the number needed (a clickpad of unknown height).
    ///
    public func margin(in configuration: GestureRecognizerConfiguration) -> DecisionMargin? {
        var candidates = MarginCandidates(configuration)
        let e = evidence
        let c = configuration
        if let motion = MotionEvidence(self) {
            motion.addMargins(to: &candidates)
            return candidates.closest
        }
        // Each condition: the setting, the value measured, and where the setting would have to be
        // for the deciding frame to decide otherwise (`Flip`).
        switch rule {
        case .scrollToPinchCorrection:
            candidates.add(.pinchCorrectionWindowMS, e.waitedMS, .atOrBelow)
            candidates.addCompassSnap(e.headingEighths, e.otherHeadingEighths, neighbours: false)
        case .thumbBand:
            candidates.add(.restingThumbMaxMoveMM, e.movedMM, .atOrBelow)
            candidates.add(.restingThumbAreaMM, e.fromBottomMM, .below)
        case .edgeScroll:
            candidates.add(.edgeScrollWidthMM, e.fromRightMM ?? e.fromBottomMM, .atOrBelow)
        case .holdTimeout:
            candidates.add(.holdMaxMoveMM, e.movedMM, .atOrBelow)
        case .touchJump:
            // A jump is either limit exceeded: one setting flips it only when the other was not.
            guard let jump = e.jumpMM, let previous = e.previousStepMM else { break }
            let overDistance = jump > c.jumpDistanceMM, overIncrease = jump - previous > c.jumpIncreaseMM
            if overDistance && !overIncrease { candidates.add(.jumpDistanceMM, jump, .atOrAbove) }
            if overIncrease && !overDistance { candidates.add(.jumpIncreaseMM, jump - previous, .atOrAbove) }
        case .clickpadPressed:
            candidates.add(.restingThumbAreaMM, e.fromBottomMM, .atOrAbove)
        default:
            // No single setting flips it (see above); or a motion rule whose evidence lacks what
            // that rule records (a decision read from a file): nothing to measure. A motion rule's
            // margins are its own (`MotionEvidence.addMargins`), so that a rule is written in one place.
            break
        }
        return candidates.closest
    }
}

extension GestureRecognizerConfiguration {
    /// The section of a settings file these thresholds are read from for the configuration's
    /// device class (`LabSettings`): `touchscreenRecognizer`, else `touchpadRecognizer` (a device
    /// of another class replays with the touchpad's).
    fileprivate var settingsSection: String {
        device.deviceClass == .touchscreen ? "touchscreenRecognizer" : "touchpadRecognizer"
    }

    /// The width a margin of `setting` is measured against (`DecisionMargin.scale`): its usual
    /// range, from 0 to twice its default for this device class, within its valid range. The valid
    /// range guards against absurd values (0...1000 mm for a spread), it is not how far a setting
    /// sensibly moves: against it every millimetre margin would read as nothing. The whole valid
    /// range for a setting whose default is 0.
    static func marginScale(of setting: Setting<GestureRecognizerConfiguration>, deviceClass: DeviceClass) -> Double? {
        guard let range = setting.range, range.upper.isFinite, range.lower.isFinite else { return nil }
        let defaults: GestureRecognizerConfiguration = deviceClass == .touchscreen ? .touchscreen : .default
        let usual = 2 * setting.number(in: defaults)
        guard usual > 0, usual.isFinite else { return range.upper - range.lower }
        return min(range.upper, usual) - max(range.lower, 0)
    }
}

/// The settings a margin can name, each read from the configuration directly; what a margin says
/// of each (its keys, unit, valid range and scale per device class) is looked up once in the
/// settings table, so a decision's margin costs no search and makes no string.
enum MarginSetting: Int, CaseIterable {
    case pinchOpposingMinimumAngleDegrees, oneSidedPinchMaximumAngleDegrees, minMoveMM, pinchCorrectionWindowMS,
         directionSnapEighths, scrollMaxHorizontalSpreadMM, scrollMaxVerticalSpreadMM, restingThumbMaxMoveMM,
         restingThumbAreaMM, edgeScrollWidthMM, holdMaxMoveMM, jumpDistanceMM, jumpIncreaseMM

    /// The configuration's property this setting is: its row in the settings table is found by it.
    var path: KeyPath<GestureRecognizerConfiguration, Double> {
        switch self {
        case .pinchOpposingMinimumAngleDegrees: \.pinchOpposingMinimumAngleDegrees
        case .oneSidedPinchMaximumAngleDegrees: \.oneSidedPinchMaximumAngleDegrees
        case .minMoveMM: \.minMoveMM
        case .pinchCorrectionWindowMS: \.pinchCorrectionWindowMS
        case .directionSnapEighths: \.directionSnapEighths
        case .scrollMaxHorizontalSpreadMM: \.scrollMaxHorizontalSpreadMM
        case .scrollMaxVerticalSpreadMM: \.scrollMaxVerticalSpreadMM
        case .restingThumbMaxMoveMM: \.restingThumbMaxMoveMM
        case .restingThumbAreaMM: \.restingThumbAreaMM
        case .edgeScrollWidthMM: \.edgeScrollWidthMM
        case .holdMaxMoveMM: \.holdMaxMoveMM
        case .jumpDistanceMM: \.jumpDistanceMM
        case .jumpIncreaseMM: \.jumpIncreaseMM
        }
    }

    /// The setting's value in `c`, the property that `path` names, read directly: read through the
    /// key path (generic key-path code and its metadata) it cost `replay --json` 1.8 instructions an
    /// event. `DecisionMarginTests` holds each case to its path.
    func value(in c: GestureRecognizerConfiguration) -> Double {
        switch self {
        case .pinchOpposingMinimumAngleDegrees: c.pinchOpposingMinimumAngleDegrees
        case .oneSidedPinchMaximumAngleDegrees: c.oneSidedPinchMaximumAngleDegrees
        case .minMoveMM: c.minMoveMM
        case .pinchCorrectionWindowMS: c.pinchCorrectionWindowMS
        case .directionSnapEighths: c.directionSnapEighths
        case .scrollMaxHorizontalSpreadMM: c.scrollMaxHorizontalSpreadMM
        case .scrollMaxVerticalSpreadMM: c.scrollMaxVerticalSpreadMM
        case .restingThumbMaxMoveMM: c.restingThumbMaxMoveMM
        case .restingThumbAreaMM: c.restingThumbAreaMM
        case .edgeScrollWidthMM: c.edgeScrollWidthMM
        case .holdMaxMoveMM: c.holdMaxMoveMM
        case .jumpDistanceMM: c.jumpDistanceMM
        case .jumpIncreaseMM: c.jumpIncreaseMM
        }
    }

    /// A setting's entry in the table, as a margin names it.
    struct Described {
        var unit: String
        var range: SettingRange
        /// Per device class: touchpad (and any other), touchscreen.
        var keys: (String, String)
        var scales: (Double?, Double?)
    }

    /// Every case's, in case order, made on the first margin asked for (any test of a margin
    /// checks that every case is a number of the table).
    static let described: [Described] = allCases.map { setting in
        let entry = GestureRecognizerConfiguration.settings.setting(for: setting.path)
        let range = GestureRecognizerConfiguration.settings.range(of: setting.path)
        return Described(unit: entry.unit, range: range,
                         keys: (GestureRecognizerConfiguration.default.settingsSection + "." + entry.key,
                                GestureRecognizerConfiguration.touchscreen.settingsSection + "." + entry.key),
                         scales: (GestureRecognizerConfiguration.marginScale(of: entry, deviceClass: .touchpad),
                                  GestureRecognizerConfiguration.marginScale(of: entry, deviceClass: .touchscreen)))
    }
}

/// Where a setting must be, relative to the measured value, for a condition to go the other way:
/// `above` for a condition `value >= setting`, `atOrBelow` for `value < setting`, and so on.
enum Flip {
    case above, atOrAbove, below, atOrBelow

    /// Whether a setting inside `range` can get there.
    func isReachable(from value: Double, in range: SettingRange) -> Bool {
        switch self {
        case .above: value < range.upper
        case .atOrAbove: value <= range.upper
        case .below: value > range.lower
        case .atOrBelow: value >= range.lower
        }
    }
}

/// The margins a rule's conditions give, keeping the closest to flipping.
struct MarginCandidates {
    let configuration: GestureRecognizerConfiguration
    private(set) var closest: DecisionMargin?

    init(_ configuration: GestureRecognizerConfiguration) { self.configuration = configuration }

    /// The condition comparing `value` with `setting`, which goes the other way with the setting
    /// at `flip` of the value; nothing when the rule did not measure it, or when no value of the
    /// setting's valid range gets there.
    mutating func add(_ setting: MarginSetting, _ value: Double?, _ flip: Flip) {
        let described = MarginSetting.described[setting.rawValue]
        guard let value, value.isFinite, flip.isReachable(from: value, in: described.range) else { return }
        let touchscreen = configuration.device.deviceClass == .touchscreen
        let margin = DecisionMargin(value: value, threshold: setting.value(in: configuration),
                                    key: touchscreen ? described.keys.1 : described.keys.0, unit: described.unit,
                                    scale: touchscreen ? described.scales.1 : described.scales.0)
        guard let current = closest else { closest = margin; return }
        if (margin.normalized ?? .infinity) < (current.normalized ?? .infinity) { closest = margin }
    }

    /// The compass test (`directionSnapEighths`): a finger heading within the snap of a compass
    /// point is that point alone, otherwise both neighbouring points. Raising the snap takes
    /// points away (fingers that were neighbours may no longer be), lowering it adds them. Each
    /// finger changes at its own distance from its nearest point: the nearest such distance on the
    /// side that changes the verdict is the margin (`neighbours`: what the test said).
    mutating func addCompassSnap(_ a: Double?, _ b: Double?, neighbours: Bool) {
        guard let a, let b else { return }
        let snap = configuration.directionSnapEighths
        let highest = MarginSetting.described[MarginSetting.directionSnapEighths.rawValue].range.upper
        func offPoint(_ h: Double) -> Double { let f = h - h.rounded(.down); return min(f, 1 - f) }
        // A finger is one point while the snap is above its distance from that point: raising,
        // the nearer distance above the snap comes first; lowering, the farther below it.
        let (pa, pb) = (offPoint(a), offPoint(b))
        let ordered = neighbours ? (min(pa, pb), max(pa, pb)) : (max(pa, pb), min(pa, pb))
        for point in [ordered.0, ordered.1] where neighbours ? point > snap && point < highest : point < snap {
            // Just past `point` (raising, above it; lowering, below it), clear of rounding.
            let trial = neighbours ? point + 1e-9 : point - 1e-9
            let verdict = CompassDirections(eighths: a, snapEighths: trial)
                .isSameOrNeighbour(of: CompassDirections(eighths: b, snapEighths: trial))
            if verdict != neighbours {
                add(.directionSnapEighths, point, neighbours ? .above : .atOrBelow)
                return
            }
        }
    }
}
