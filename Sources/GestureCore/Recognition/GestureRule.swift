/// The rule that made the recognizer begin, end, cancel or fail a gesture. Raw values are the names
/// printed in JSON (`"rule"`) and by `--explain`.
public enum GestureRule: String, Sendable, Hashable, Codable, CaseIterable {
    // Beginning a pinch.
    /// Both tracked fingers moved at least `pinchOpposingMinMoveMM` in directions at least
    /// `pinchOpposingMinimumAngleDegrees` apart.
    case opposingFingers = "opposing-fingers"
    /// One finger headed at (or away from) a still one (`oneSidedPinchMaximumAngleDegrees`).
    case oneSidedPinch = "one-sided-pinch"
    /// With three or more fingers, the lowest (thumb) moved while every finger rested.
    case thumbPinch = "thumb-pinch"
    /// Both moved past `minMoveMM` in directions that are not neighbours.
    case differentDirections = "different-directions"
    /// A two-finger pan that, inside `pinchCorrectionWindowMS`, turned out to move the fingers apart:
    /// the pan is cancelled and a pinch begins.
    case scrollToPinchCorrection = "scroll-to-pinch-correction"

    // Beginning a pan.
    /// Both tracked fingers moved past `minMoveMM` in the same or neighbouring directions.
    case sameDirection = "same-direction"
    /// Fingers side by side (within the spreads) and undecided past `scrollDecisionTimeoutMS`.
    case sideBySideTimeout = "side-by-side-timeout"
    /// One finger moved past `maxMoveMM` while the other rested, and it was no pinch.
    case oneFingerMoved = "one-finger-moved"
    /// A touch rested while all the others moved along together (touchscreen: the hand pans).
    case restingFinger = "resting-finger"
    /// Both moved past `minMoveMM`, but this many fingers may not pinch (or the touchpad cannot
    /// track each finger: semi-MT): the fingers scroll, as libinput's do.
    case pinchUnavailable = "pinch-unavailable"
    /// Fewer than two positioned touches: the centroid moved past `panSlopMM`.
    case centroidMoved = "centroid-moved"
    /// The fingers moved as a pan would, but this many may not pan (`panMinimumFingerCount` ...
    /// `panMaximumFingerCount`): on a touchpad one finger moves the pointer. The recognizer waits in
    /// its pan state without a gesture until the count changes.
    case panUnavailable = "pan-unavailable"
    /// Edge scrolling (`scrollMethod` edge): one finger that landed within `edgeScrollWidthMM` of the
    /// right or bottom edge moved `edgeScrollMinMoveMM` along it, or any distance after resting
    /// there `edgeScrollLockTimeoutMS` (libinput's evdev-mt-touchpad-edge-scroll.c).
    case edgeScroll = "edge-scroll"

    // Leaving a touch out.
    /// A still lower touch while the other moved past `maxMoveMM`: suppressed as a resting thumb.
    case restingThumb = "resting-thumb"
    /// The lowest touch lay in the bottom thumb band below two or more fingers.
    case thumbBand = "thumb-band"

    // Holds.
    /// Fingers down and still for the hold timeout.
    case holdTimeout = "hold-timeout"
    /// A finger of a hold moved past `holdMaxMoveMM`, or the decision found a pan or pinch.
    case motionEndsHold = "motion-ends-hold"

    // Ending and cancelling.
    /// The finger count changed and stayed changed for `fingerCountDebounceMS`, or changed while
    /// nothing was begun.
    case fingerCountChange = "finger-count-change"
    /// A finger was replaced by another within one frame (same count, different touches).
    case fingersReplaced = "fingers-replaced"
    /// A touch moved farther in one frame than a finger can (libinput's jump detection).
    case touchJump = "touch-jump"
    /// The kernel dropped events (`SYN_DROPPED`): positions restart from the next frame.
    case resync
    /// A position was NaN, infinite or absurd, or time went backwards.
    case badNumbers = "bad-numbers"
    /// A clickpad's button (`INPUT_PROP_BUTTONPAD`: the whole surface clicks) was pressed by a
    /// finger, not a thumb resting in the thumb band: the gesture in flight is cancelled and none
    /// begins until the button is released, as libinput's `tp_gesture_post_events` does (only
    /// pointer motion while the clickpad is down).
    case clickpadPressed = "clickpad-pressed"
    /// Every finger lifted.
    case allLifted = "all-lifted"
    /// The stream ended (end of file, device removed, interrupted) with fingers down.
    case endOfStream = "end-of-stream"
}

/// The measurements behind a decision, in physical units. Only what the rule looked at is set (the
/// others read nil); output names carry the unit (`entries`). A motion rule writes and reads its
/// own fields through its typed evidence (`MotionEvidence`), so that no reader guesses which it set. Stored compactly (NaN, -1 and
/// `UInt64.max` for absent values) in a fixed struct, so that a gesture event carrying it stays
/// small to copy and making one never allocates.
public struct GestureEvidence: Sendable, Hashable {
    private var numbers = InlineArray<16, Double>(repeating: .nan)  // Slot.count
    private var before: Int16 = -1
    private var after: Int16 = -1
    /// The two headings (`headingEighths`) in fixed point, 0 for none: in what was padding before
    /// `touchID`, so that keeping them makes no gesture event bigger to copy.
    private var headings: (UInt16, UInt16) = (0, 0)
    private var touchID = UInt64.max

    private enum Slot: Int {
        case angle, angleLimit, moved, otherMoved, moveLimit, waited, timeout, spanChange, horizontalSpread,
             verticalSpread, fromBottom, jump, increaseLimit, previousStep, fromRight, edgeWidth
        static let count = Slot.edgeWidth.rawValue + 1
    }

    /// Inlined: every field of every decision's evidence is read and written through it, and as a
    /// call it cost the margins' read-back (`MotionEvidence.init?`) more than the read itself.
    private subscript(slot: Slot) -> Double? {
        @inline(__always) get { let v = numbers[slot.rawValue]; return v.isNaN ? nil : v }
        @inline(__always) set { numbers[slot.rawValue] = newValue ?? .nan }
    }

    /// Angle between the two fingers' movements, or between a moving finger and the line to the
    /// still one.
    public var angleDegrees: Double? { get { self[.angle] } set { self[.angle] = newValue } }
    /// The angle limit the rule compared with (`>=` for opposing fingers, `<=` for one-sided).
    public var angleLimitDegrees: Double? { get { self[.angleLimit] } set { self[.angleLimit] = newValue } }
    /// How far the first (top) tracked finger moved since the decision began.
    public var movedMM: Double? { get { self[.moved] } set { self[.moved] = newValue } }
    /// How far the second (bottom) tracked finger moved.
    public var otherMovedMM: Double? { get { self[.otherMoved] } set { self[.otherMoved] = newValue } }
    /// The distance the rule required.
    public var moveLimitMM: Double? { get { self[.moveLimit] } set { self[.moveLimit] = newValue } }
    /// Time waited since the decision began (or since the finger count changed).
    public var waitedMS: Double? { get { self[.waited] } set { self[.waited] = newValue } }
    /// The time the rule waited for.
    public var timeoutMS: Double? { get { self[.timeout] } set { self[.timeout] = newValue } }
    /// Change of the distance between the fingers since they came down.
    public var spanChangeMM: Double? { get { self[.spanChange] } set { self[.spanChange] = newValue } }
    /// Horizontal and vertical distance between the two fingers (side by side).
    public var horizontalSpreadMM: Double? { get { self[.horizontalSpread] } set { self[.horizontalSpread] = newValue } }
    /// Vertical distance between the two fingers.
    public var verticalSpreadMM: Double? { get { self[.verticalSpread] } set { self[.verticalSpread] = newValue } }
    /// Distance of a touch from the bottom edge (thumb band).
    public var fromBottomMM: Double? { get { self[.fromBottom] } set { self[.fromBottom] = newValue } }
    /// Distance of a touch from the right edge (edge scrolling).
    public var fromRightMM: Double? { get { self[.fromRight] } set { self[.fromRight] = newValue } }
    /// The width of the scroll edge a touch had to land in (`edgeScrollWidthMM`).
    public var edgeWidthMM: Double? { get { self[.edgeWidth] } set { self[.edgeWidth] = newValue } }
    /// A jump's distance, normalized to libinput's 12 ms reference frame, and the growth over the
    /// frame before that also counts as a jump.
    public var jumpMM: Double? { get { self[.jump] } set { self[.jump] = newValue } }
    /// How far the span had to grow for the rule.
    public var increaseLimitMM: Double? { get { self[.increaseLimit] } set { self[.increaseLimit] = newValue } }
    /// The jumping touch's move in the frame before, normalized the same way (the increase is
    /// `jumpMM` less this).
    public var previousStepMM: Double? { get { self[.previousStep] } set { self[.previousStep] = newValue } }
    /// The heading of each tracked finger's movement, in eighths of a turn clockwise from up the
    /// surface (0 ..< 8), as the compass test reads it (`directionSnapEighths`), to 1/8191 of an
    /// eighth. Kept for the decision's margin (`GestureDecision.margin(in:)`), not printed.
    var headingEighths: Double? {
        get { Self.heading(headings.0) }
        set { headings.0 = Self.heading(newValue) }
    }
    var otherHeadingEighths: Double? {
        get { Self.heading(headings.1) }
        set { headings.1 = Self.heading(newValue) }
    }

    private static let headingSteps = 8191.0

    private static func heading(_ stored: UInt16) -> Double? {
        stored == 0 ? nil : Double(stored - 1) / headingSteps
    }

    private static func heading(_ eighths: Double?) -> UInt16 {
        guard let eighths, eighths.isFinite else { return 0 }
        return UInt16((min(max(eighths, 0), 8) * headingSteps).rounded()) + 1
    }
    /// Finger counts before and after a change.
    public var fingersBefore: Int? {
        get { before < 0 ? nil : Int(before) }
        set { before = newValue.map { Int16(clamping: $0) } ?? -1 }
    }
    /// The finger count after the change.
    public var fingersAfter: Int? {
        get { after < 0 ? nil : Int(after) }
        set { after = newValue.map { Int16(clamping: $0) } ?? -1 }
    }
    /// The touch a rule singled out (the resting thumb, the touch that jumped).
    public var touch: UInt64? {
        get { touchID == .max ? nil : touchID }
        set { touchID = newValue ?? .max }
    }

    /// Equal when the same values are set (absent equals absent).
    public static func == (a: GestureEvidence, b: GestureEvidence) -> Bool {
        guard a.before == b.before, a.after == b.after, a.touchID == b.touchID, a.headings == b.headings else { return false }
        for i in 0..<Slot.count {
            let x = a.numbers[i], y = b.numbers[i]
            if !(x == y || (x.isNaN && y.isNaN)) { return false }
        }
        return true
    }

    /// Hashes the values that are set, consistently with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(before)
        hasher.combine(after)
        hasher.combine(touchID)
        hasher.combine(headings.0)
        hasher.combine(headings.1)
        for i in 0..<Slot.count { hasher.combine(numbers[i].isNaN ? Double.nan.bitPattern : numbers[i].bitPattern) }
    }

    /// Evidence with nothing measured.
    public init() {}

    /// Every key with a value, in a fixed order, with its unit in its name (the JSON form).
    public var entries: [(key: String, value: Double)] {
        var out: [(String, Double)] = []
        func add(_ key: String, _ v: Double?) { if let v { out.append((key, v)) } }
        add("angleDegrees", angleDegrees)
        add("angleLimitDegrees", angleLimitDegrees)
        add("movedMM", movedMM)
        add("otherMovedMM", otherMovedMM)
        add("moveLimitMM", moveLimitMM)
        add("waitedMS", waitedMS)
        add("timeoutMS", timeoutMS)
        add("spanChangeMM", spanChangeMM)
        add("horizontalSpreadMM", horizontalSpreadMM)
        add("verticalSpreadMM", verticalSpreadMM)
        add("fromBottomMM", fromBottomMM)
        add("fromRightMM", fromRightMM)
        add("edgeWidthMM", edgeWidthMM)
        add("fingersBefore", fingersBefore.map(Double.init))
        add("fingersAfter", fingersAfter.map(Double.init))
        add("jumpMM", jumpMM)
        add("increaseLimitMM", increaseLimitMM)
        add("previousStepMM", previousStepMM)
        // Not `touch.map(Double.init)`: for a UInt64 that is `Double(bitPattern:)`, and id 1 read 5e-324.
        add("touch", touch.map { Double($0) })
        return out
    }
}

/// A rule and what it measured.
public struct GestureDecision: Sendable, Hashable {
    /// The rule that decided.
    public var rule: GestureRule
    /// What the rule measured when it decided.
    public var evidence: GestureEvidence

    /// A decision by `rule`, with what it measured.
    public init(_ rule: GestureRule, _ evidence: GestureEvidence = GestureEvidence()) {
        self.rule = rule
        self.evidence = evidence
    }
}
