// The motion rules of an undecided gesture, each in one place: its name, where it leads, what it
// measures (a struct of its own), how it judges the tracked pair and what its margin is. libinput's
// `tp_gesture_detect_motion_gestures`, in millimetres throughout.

/// The motion rules, in the order `verdict` asks them: the first whose judge returns evidence
/// decides, and when none does the fingers stay undecided. Each judge is asked only when every rule
/// before it declined, and counts on that (one-finger-moved is asked of no resting thumb, since
/// resting-thumb comes first). The motion edges out of undecided (`TouchGestureRecognizer.edges`)
/// are made from this list, and `RecognizerStateDiagramTests` holds the rule tables of
/// docs/reference/recognizer.md to it.
enum MotionRule: Int, CaseIterable, Sendable {
    case opposingFingers, sideBySideTimeout, oneSidedPinch, restingThumb, oneFingerMoved, restingFinger,
         thumbPinch, pinchUnavailable, sameDirection, differentDirections

    /// The order the rules are asked in: stored, since a synthesized `allCases` builds its array on
    /// every call and `verdict` walks this on every frame it judges.
    static let inOrder: [MotionRule] = allCases

    /// The name printed in JSON, `--explain` and `--trace`.
    var name: GestureRule {
        switch self {
        case .opposingFingers: .opposingFingers
        case .sideBySideTimeout: .sideBySideTimeout
        case .oneSidedPinch: .oneSidedPinch
        case .restingThumb: .restingThumb
        case .oneFingerMoved: .oneFingerMoved
        case .restingFinger: .restingFinger
        case .thumbPinch: .thumbPinch
        case .pinchUnavailable: .pinchUnavailable
        case .sameDirection: .sameDirection
        case .differentDirections: .differentDirections
        }
    }

    /// How far the pair must have moved before the rule is asked: the rules of one finger moving
    /// far, and those of both moving, are skipped without a call while the fingers have not (most
    /// judged frames of a gesture, before it is decided).
    var gate: MotionGate {
        switch self {
        case .opposingFingers, .sideBySideTimeout: .none
        case .oneSidedPinch, .restingThumb, .oneFingerMoved, .restingFinger, .thumbPinch: .oneMovedFar
        case .pinchUnavailable, .sameDirection, .differentDirections: .bothMoved
        }
    }

    /// What the fingers become when the rule decides.
    var outcome: MotionOutcome {
        switch self {
        case .opposingFingers, .oneSidedPinch, .thumbPinch, .differentDirections: .pinch
        case .sideBySideTimeout, .oneFingerMoved, .pinchUnavailable, .sameDirection: .pan
        case .restingThumb: .leaveOut
        case .restingFinger: .leaveOutOrPan
        }
    }

    /// The motion rule of that name (`name` read backwards); nil for a rule decided elsewhere. A
    /// switch, not a search of `inOrder`: each decision's margin asks it (`RecognizerRuleTests` holds
    /// it to `name`).
    init?(_ rule: GestureRule) {
        switch rule {
        case .opposingFingers: self = .opposingFingers
        case .sideBySideTimeout: self = .sideBySideTimeout
        case .oneSidedPinch: self = .oneSidedPinch
        case .restingThumb: self = .restingThumb
        case .oneFingerMoved: self = .oneFingerMoved
        case .restingFinger: self = .restingFinger
        case .thumbPinch: self = .thumbPinch
        case .pinchUnavailable: self = .pinchUnavailable
        case .sameDirection: self = .sameDirection
        case .differentDirections: self = .differentDirections
        default: return nil
        }
    }
}

/// How far the judged pair must have moved for a motion rule to be asked (`MotionRule.gate`).
enum MotionGate: Sendable {
    /// Asked whenever the pair is judged: the rule has thresholds of its own.
    case none
    /// One finger moved at least `maxMoveMM` (libinput's `max_move`).
    case oneMovedFar
    /// Both fingers moved at least `minMoveMM` (libinput's `min_move`).
    case bothMoved
}

/// Where a motion rule leads.
enum MotionOutcome: Sendable {
    case pinch, pan
    /// The touch its evidence names is left out (suppressed as a resting thumb) and the others are
    /// judged afresh.
    case leaveOut
    /// Left out where resting thumbs are suppressed (touchpads); elsewhere the hand pans with it.
    case leaveOutOrPan

    /// The states the undecided gesture may enter by it (the state diagram's edges).
    var modes: [RecognizerMode] {
        switch self {
        case .pinch: [.pinch]
        case .pan: [.pan]
        case .leaveOut: [.undecided]
        case .leaveOutOrPan: [.undecided, .pan]
        }
    }
}

/// What the judged pair's fingers are, besides the two touches: read once per judged frame, shared
/// by every rule.
struct JudgedPair {
    /// The fingers judged (the pair and any others not left out).
    var fingers: Int
    /// A touch left out of this judgement (a thumb in the band), besides those left out for good.
    var excluded: UInt64?
    /// Since the decision began.
    var waitedMS: Double
    /// `minMoveMM` and `maxMoveMM`, each with its extra per finger past two (libinput's
    /// `min_move` and `max_move`).
    var minMoveMM: Double
    var maxMoveMM: Double
    /// Either finger moved at least `maxMoveMM`; both moved at least `minMoveMM`: the rules' gates.
    var oneMovedFar: Bool
    var bothMoved: Bool

    init(_ a: TrackedTouch, _ b: TrackedTouch, fingers: Int, excluded: UInt64?, waitedMS: Double,
         minMoveMM: Double, maxMoveMM: Double) {
        self.fingers = fingers
        self.excluded = excluded
        self.waitedMS = waitedMS
        self.minMoveMM = minMoveMM
        self.maxMoveMM = maxMoveMM
        oneMovedFar = a.movedMM >= maxMoveMM || b.movedMM >= maxMoveMM
        bothMoved = a.movedMM >= minMoveMM && b.movedMM >= minMoveMM
    }

    /// The pair has moved as far as `gate` asks.
    @inline(__always)
    func opens(_ gate: MotionGate) -> Bool {
        switch gate {
        case .none: true
        case .oneMovedFar: oneMovedFar
        case .bothMoved: bothMoved
        }
    }
}

// MARK: Evidence

/// How far each finger of the tracked pair moved since the decision began, and the distance the
/// rule required: what every motion rule shows.
package struct PairMoves: Sendable, Hashable {
    /// The top finger's move, and the bottom one's.
    package var movedMM: Double
    package var otherMovedMM: Double
    package var moveLimitMM: Double

    package var larger: Double { max(movedMM, otherMovedMM) }
    package var smaller: Double { min(movedMM, otherMovedMM) }

    func record(into e: inout GestureEvidence) {
        e.movedMM = movedMM
        e.otherMovedMM = otherMovedMM
        e.moveLimitMM = moveLimitMM
    }

    /// What the rule added to `minMoveMM` for fingers past two: its limit less the setting (0 for
    /// two fingers), so that a margin is in the setting's own terms.
    func extraOverMinMove(_ c: GestureRecognizerConfiguration) -> Double { max(0, moveLimitMM - c.minMoveMM) }
}

extension PairMoves {
    init(_ a: TrackedTouch, _ b: TrackedTouch, limit: Double) {
        movedMM = a.movedMM
        otherMovedMM = b.movedMM
        moveLimitMM = limit
    }

    init?(_ e: GestureEvidence) {
        guard let moved = e.movedMM, let other = e.otherMovedMM, let limit = e.moveLimitMM else { return nil }
        (movedMM, otherMovedMM, moveLimitMM) = (moved, other, limit)
    }
}

/// A rule's typed evidence, which writes exactly its own fields into the `GestureEvidence` that
/// every output prints: the one list of what the rule records.
protocol RecordedEvidence {
    func record(into e: inout GestureEvidence)
    /// The touch a leaving-out rule leaves out; nil for the others.
    var restingTouch: UInt64? { get }
}

extension RecordedEvidence {
    var restingTouch: UInt64? { nil }
}

/// An angle the rule compared with a limit (`>=` for opposing fingers, `<=` for a one-sided pinch).
package struct AngleAgainstLimit: Sendable, Hashable {
    package var degrees: Double
    package var limitDegrees: Double
}

/// A pinch found by an angle: opposing-fingers (the angle between the moves) and one-sided-pinch
/// (the moving finger's heading off the line to the still one).
package struct AngledPinchEvidence: Sendable, Hashable {
    package var moves: PairMoves
    package var angle: AngleAgainstLimit
    /// Change of the distance between the fingers since they came down.
    package var spanChangeMM: Double
}

extension AngledPinchEvidence: RecordedEvidence {
    func record(into e: inout GestureEvidence) {
        moves.record(into: &e)
        e.angleDegrees = angle.degrees
        e.angleLimitDegrees = angle.limitDegrees
        e.spanChangeMM = spanChangeMM
    }
}

/// side-by-side-timeout: still undecided past the timeout, the fingers within both spreads.
package struct SideBySideEvidence: Sendable, Hashable {
    package var moves: PairMoves
    package var waitedMS: Double
    package var timeoutMS: Double
    package var horizontalSpreadMM: Double
    package var verticalSpreadMM: Double
}

extension SideBySideEvidence: RecordedEvidence {
    func record(into e: inout GestureEvidence) {
        moves.record(into: &e)
        e.waitedMS = waitedMS
        e.timeoutMS = timeoutMS
        e.horizontalSpreadMM = horizontalSpreadMM
        e.verticalSpreadMM = verticalSpreadMM
    }
}

/// resting-thumb and resting-finger: the touch that rests while the other moves.
package struct RestingTouchEvidence: Sendable, Hashable {
    package var moves: PairMoves
    package var touch: UInt64
    /// A resting thumb's distance from the bottom edge, on a touchpad of known height.
    package var fromBottomMM: Double?
}

extension RestingTouchEvidence: RecordedEvidence {
    func record(into e: inout GestureEvidence) {
        moves.record(into: &e)
        e.touch = touch
        e.fromBottomMM = fromBottomMM
    }

    var restingTouch: UInt64? { touch }
}

/// one-finger-moved: one finger moved while the other rested, not towards it.
package struct OneFingerMovedEvidence: Sendable, Hashable {
    package var moves: PairMoves
    /// The heading off the line to the still finger, when only it kept the pair from a one-sided
    /// pinch (two fingers that may pinch, with pinch intent).
    package var offLine: AngleAgainstLimit?
}

extension OneFingerMovedEvidence: RecordedEvidence {
    func record(into e: inout GestureEvidence) {
        moves.record(into: &e)
        e.angleDegrees = offLine?.degrees
        e.angleLimitDegrees = offLine?.limitDegrees
    }
}

/// thumb-pinch: the lowest touch moved while every finger rested.
package struct ThumbPinchEvidence: Sendable, Hashable {
    package var moves: PairMoves
    package var spanChangeMM: Double
}

extension ThumbPinchEvidence: RecordedEvidence {
    func record(into e: inout GestureEvidence) {
        moves.record(into: &e)
        e.spanChangeMM = spanChangeMM
    }
}

/// pinch-unavailable, same-direction and different-directions: both fingers moved past
/// `minMoveMM`, and their directions (or the finger count) decided.
package struct DirectionsEvidence: Sendable, Hashable {
    package var moves: PairMoves
    /// The angle between the two moves; nil when a finger has no direction.
    package var angleDegrees: Double?
    /// Each finger's heading as the compass test read it (`CompassDirections.headingEighths`),
    /// for the margin; nil where the rule did not look.
    package var headingEighths: Double?
    package var otherHeadingEighths: Double?
    /// same-direction: the opposing-fingers angle, when only that angle kept the fingers from
    /// opposing (both moved `pinchOpposingMinMoveMM`, with pinch intent).
    package var opposingAngleLimitDegrees: Double?
    /// different-directions: the change of the distance between the fingers.
    package var spanChangeMM: Double?
}

extension DirectionsEvidence: RecordedEvidence {
    func record(into e: inout GestureEvidence) {
        moves.record(into: &e)
        e.angleDegrees = angleDegrees
        e.angleLimitDegrees = opposingAngleLimitDegrees
        e.spanChangeMM = spanChangeMM
        e.headingEighths = headingEighths
        e.otherHeadingEighths = otherHeadingEighths
    }
}

/// A motion rule's decision with its own evidence. The decision carries it as the compact
/// `GestureEvidence` its outputs print (`recorded`); the margin and the sentences read it back
/// here (`init?(_:)`), typed, so that each reads only fields its rule sets.
package enum MotionEvidence: Sendable, Hashable {
    case opposingFingers(AngledPinchEvidence)
    case sideBySideTimeout(SideBySideEvidence)
    case oneSidedPinch(AngledPinchEvidence)
    case restingThumb(RestingTouchEvidence)
    case oneFingerMoved(OneFingerMovedEvidence)
    case restingFinger(RestingTouchEvidence)
    case thumbPinch(ThumbPinchEvidence)
    case pinchUnavailable(DirectionsEvidence)
    case sameDirection(DirectionsEvidence)
    case differentDirections(DirectionsEvidence)

    var rule: MotionRule {
        switch self {
        case .opposingFingers: .opposingFingers
        case .sideBySideTimeout: .sideBySideTimeout
        case .oneSidedPinch: .oneSidedPinch
        case .restingThumb: .restingThumb
        case .oneFingerMoved: .oneFingerMoved
        case .restingFinger: .restingFinger
        case .thumbPinch: .thumbPinch
        case .pinchUnavailable: .pinchUnavailable
        case .sameDirection: .sameDirection
        case .differentDirections: .differentDirections
        }
    }

    /// The decision as the recognizer reports it.
    var decision: GestureDecision { GestureDecision(rule.name, recorded) }

    /// The evidence in the form every output prints: exactly the fields of this rule.
    var recorded: GestureEvidence {
        var e = GestureEvidence()
        switch self {
        case .opposingFingers(let p), .oneSidedPinch(let p): p.record(into: &e)
        case .sideBySideTimeout(let s): s.record(into: &e)
        case .restingThumb(let r), .restingFinger(let r): r.record(into: &e)
        case .oneFingerMoved(let o): o.record(into: &e)
        case .thumbPinch(let t): t.record(into: &e)
        case .pinchUnavailable(let d), .sameDirection(let d), .differentDirections(let d): d.record(into: &e)
        }
        return e
    }

    /// A motion rule's decision read back from what it recorded; nil for another rule, or when
    /// the evidence lacks what the rule always records (a decision read from a file has none).
    package init?(_ decision: GestureDecision) {
        guard let rule = MotionRule(decision.rule) else { return nil }
        let e = decision.evidence
        guard let moves = PairMoves(e) else { return nil }
        func angled() -> AngledPinchEvidence? {
            guard let degrees = e.angleDegrees, let limit = e.angleLimitDegrees, let span = e.spanChangeMM else { return nil }
            return AngledPinchEvidence(moves: moves, angle: AngleAgainstLimit(degrees: degrees, limitDegrees: limit),
                                       spanChangeMM: span)
        }
        func resting() -> RestingTouchEvidence? {
            e.touch.map { RestingTouchEvidence(moves: moves, touch: $0, fromBottomMM: e.fromBottomMM) }
        }
        func directions() -> DirectionsEvidence {
            DirectionsEvidence(moves: moves, angleDegrees: e.angleDegrees, headingEighths: e.headingEighths,
                               otherHeadingEighths: e.otherHeadingEighths,
                               opposingAngleLimitDegrees: e.angleLimitDegrees, spanChangeMM: e.spanChangeMM)
        }
        let found: MotionEvidence?
        switch rule {
        case .opposingFingers: found = angled().map(Self.opposingFingers)
        case .oneSidedPinch: found = angled().map(Self.oneSidedPinch)
        case .sideBySideTimeout:
            guard let waited = e.waitedMS, let timeout = e.timeoutMS, let x = e.horizontalSpreadMM,
                  let y = e.verticalSpreadMM else { return nil }
            found = .sideBySideTimeout(SideBySideEvidence(moves: moves, waitedMS: waited, timeoutMS: timeout,
                                                          horizontalSpreadMM: x, verticalSpreadMM: y))
        case .restingThumb: found = resting().map(Self.restingThumb)
        case .restingFinger: found = resting().map(Self.restingFinger)
        case .oneFingerMoved:
            let offLine = e.angleDegrees.flatMap { degrees in
                e.angleLimitDegrees.map { AngleAgainstLimit(degrees: degrees, limitDegrees: $0) }
            }
            found = .oneFingerMoved(OneFingerMovedEvidence(moves: moves, offLine: offLine))
        case .thumbPinch: found = e.spanChangeMM.map { .thumbPinch(ThumbPinchEvidence(moves: moves, spanChangeMM: $0)) }
        case .pinchUnavailable: found = .pinchUnavailable(directions())
        case .sameDirection: found = .sameDirection(directions())
        case .differentDirections: found = e.spanChangeMM == nil ? nil : .differentDirections(directions())
        }
        guard let found else { return nil }
        self = found
    }
}

// MARK: Margins

extension MotionEvidence {
    /// Each condition that chose the rule, as a candidate margin (`GestureDecision.margin(in:)`
    /// says which conditions count).
    func addMargins(to candidates: inout MarginCandidates) {
        let c = candidates.configuration
        switch self {
        case .opposingFingers(let p):
            candidates.add(.pinchOpposingMinimumAngleDegrees, p.angle.degrees, .above)
        case .oneSidedPinch(let p):
            candidates.add(.oneSidedPinchMaximumAngleDegrees, p.angle.degrees, .below)
            candidates.add(.minMoveMM, p.moves.smaller, .atOrBelow)
        case .sideBySideTimeout(let s):
            candidates.add(.scrollMaxHorizontalSpreadMM, s.horizontalSpreadMM, .atOrBelow)
            candidates.add(.scrollMaxVerticalSpreadMM, s.verticalSpreadMM, .atOrBelow)
        case .restingThumb(let r):
            // The thumb is the bottom touch.
            candidates.add(.minMoveMM, r.moves.otherMovedMM - r.moves.extraOverMinMove(c), .atOrBelow)
        case .restingFinger(let r):
            candidates.add(.minMoveMM, r.moves.smaller - r.moves.extraOverMinMove(c), .atOrBelow)
        case .oneFingerMoved(let o):
            candidates.add(.minMoveMM, o.moves.smaller, .atOrBelow)
            if let offLine = o.offLine { candidates.add(.oneSidedPinchMaximumAngleDegrees, offLine.degrees, .atOrAbove) }
        case .thumbPinch, .pinchUnavailable:
            // A thumb pinch's resting fingers are not kept (only the pair): no margin rather than
            // one that may be the wrong finger's. A finger count is no setting's margin.
            break
        case .sameDirection(let d):
            if d.opposingAngleLimitDegrees != nil {
                candidates.add(.pinchOpposingMinimumAngleDegrees, d.angleDegrees, .atOrBelow)
            }
            candidates.addCompassSnap(d.headingEighths, d.otherHeadingEighths, neighbours: true)
        case .differentDirections(let d):
            // The angle chose only once both moved as far as opposing-fingers asks.
            if d.moves.movedMM >= c.pinchOpposingMinMoveMM && d.moves.otherMovedMM >= c.pinchOpposingMinMoveMM {
                candidates.add(.pinchOpposingMinimumAngleDegrees, d.angleDegrees, .atOrBelow)
            }
            candidates.addCompassSnap(d.headingEighths, d.otherHeadingEighths, neighbours: false)
        }
    }
}

// MARK: Judging

extension TouchGestureRecognizer {
    /// What `rule` makes of the pair `a` (top) and `b` (bottom), or nil when it does not decide.
    /// A switch, not a call through a table: this runs on every frame an undecided pair is judged.
    /// Each judge is asked only once the pair has passed the rule's gate, and its typed evidence
    /// goes straight into the decision (`conclude`), not through a `MotionEvidence` first.
    @inline(__always)
    func verdict(by rule: MotionRule, _ a: TrackedTouch, _ b: TrackedTouch, _ p: JudgedPair) -> Verdict? {
        guard p.opens(rule.gate) else { return nil }
        return switch rule {
        case .opposingFingers: conclude(rule, judgeOpposingFingers(a, b, p), a, b)
        case .sideBySideTimeout: conclude(rule, judgeSideBySide(a, b, p), a, b)
        case .oneSidedPinch: conclude(rule, judgeOneSidedPinch(a, b, p), a, b)
        case .restingThumb: conclude(rule, judgeRestingThumb(a, b, p), a, b)
        case .oneFingerMoved: conclude(rule, judgeOneFingerMoved(a, b, p), a, b)
        case .restingFinger: conclude(rule, judgeRestingFinger(a, b, p), a, b)
        case .thumbPinch: conclude(rule, judgeThumbPinch(a, b, p), a, b)
        case .pinchUnavailable: conclude(rule, judgePinchUnavailable(a, b, p), a, b)
        case .sameDirection: conclude(rule, judgeSameDirection(a, b, p), a, b)
        case .differentDirections: conclude(rule, judgeDifferentDirections(a, b, p), a, b)
        }
    }

    /// The decision `rule` makes with `evidence` (nil: it does not decide), where the rule leads.
    @inline(__always)
    private func conclude<Evidence: RecordedEvidence>(_ rule: MotionRule, _ evidence: Evidence?,
                                                      _ a: TrackedTouch, _ b: TrackedTouch) -> Verdict? {
        guard let evidence else { return nil }
        var recorded = GestureEvidence()
        evidence.record(into: &recorded)
        let why = GestureDecision(rule.name, recorded)
        switch rule.outcome {
        case .pinch: return .pinch(a, b, why)
        case .pan: return .pan(why)
        case .leaveOut, .leaveOutOrPan:
            // A touchscreen's hand pans with its resting finger (`leaveOutOrPan`).
            if let touch = evidence.restingTouch, rule.outcome == .leaveOut || configuration.suppressRestingThumb {
                return .resting(touch, why)
            }
            return .pan(why)
        }
    }

    /// Both moved at least `pinchOpposingMinMoveMM` in directions at least
    /// `pinchOpposingMinimumAngleDegrees` apart.
    private func judgeOpposingFingers(_ a: TrackedTouch, _ b: TrackedTouch, _ p: JudgedPair) -> AngledPinchEvidence? {
        guard a.movedMM >= configuration.pinchOpposingMinMoveMM && b.movedMM >= configuration.pinchOpposingMinMoveMM
                && allows(.pinch, fingers: p.fingers), let angle = angleBetweenMoves(a, b),
              angle >= configuration.pinchOpposingMinimumAngleDegrees, hasPinchIntent(a, b) else { return nil }
        return AngledPinchEvidence(moves: PairMoves(a, b, limit: configuration.pinchOpposingMinMoveMM),
                                   angle: AngleAgainstLimit(degrees: angle, limitDegrees: configuration.pinchOpposingMinimumAngleDegrees),
                                   spanChangeMM: spanChange(a, b))
    }

    /// Side by side after the timeout is a scroll (libinput), unless the span already changed: a
    /// span change is no scroll, and the direction rules decide once both have moved.
    private func judgeSideBySide(_ a: TrackedTouch, _ b: TrackedTouch, _ p: JudgedPair) -> SideBySideEvidence? {
        let spreadX = abs(a.position.x - b.position.x), spreadY = abs(a.position.y - b.position.y)
        guard p.waitedMS > configuration.scrollDecisionTimeoutMS && spreadX < configuration.scrollMaxHorizontalSpreadMM
                && spreadY < configuration.scrollMaxVerticalSpreadMM && !hasPinchIntent(a, b) else { return nil }
        return SideBySideEvidence(moves: PairMoves(a, b, limit: configuration.undecidedMoveMM), waitedMS: p.waitedMS,
                                  timeoutMS: configuration.scrollDecisionTimeoutMS, horizontalSpreadMM: spreadX, verticalSpreadMM: spreadY)
    }

    /// The one that moved farther, and the other.
    private func movingAndStill(_ a: TrackedTouch, _ b: TrackedTouch) -> (moving: TrackedTouch, still: TrackedTouch) {
        a.movedMM >= b.movedMM ? (a, b) : (b, a)
    }

    /// The lower touch stayed below `minMoveMM` where resting thumbs are suppressed.
    private func thumbRests(_ b: TrackedTouch, _ p: JudgedPair) -> Bool {
        configuration.suppressRestingThumb && b.movedMM < p.minMoveMM
    }

    /// One finger headed at (or away from) a still one. Two fingers only: with more, the pair is
    /// two of them and a finger heading at a still one may be moving along with the others (a
    /// scroll beside a resting touch), which the rules after it tell apart.
    private func judgeOneSidedPinch(_ a: TrackedTouch, _ b: TrackedTouch, _ p: JudgedPair) -> AngledPinchEvidence? {
        guard p.fingers == 2 else { return nil }
        let (moving, still) = movingAndStill(a, b)
        guard still.movedMM < p.minMoveMM && !(thumbRests(b, p) && isInThumbArea(b, whenHeightUnknown: true))
                && allows(.pinch, fingers: p.fingers),
              let angle = oneSidedPinchAngle(moving: moving, still: still), hasPinchIntent(a, b) else { return nil }
        return AngledPinchEvidence(moves: PairMoves(a, b, limit: p.maxMoveMM),
                                   angle: AngleAgainstLimit(degrees: angle, limitDegrees: configuration.oneSidedPinchMaximumAngleDegrees),
                                   spanChangeMM: spanChange(a, b))
    }

    /// A still lower touch while the other moved far: a resting thumb, suppressed.
    private func judgeRestingThumb(_ a: TrackedTouch, _ b: TrackedTouch, _ p: JudgedPair) -> RestingTouchEvidence? {
        guard thumbRests(b, p) else { return nil }
        return RestingTouchEvidence(moves: PairMoves(a, b, limit: p.minMoveMM), touch: b.id,
                                    fromBottomMM: configuration.device.heightMM.map { max(0, $0 - b.position.y) })
    }

    /// Two fingers, one resting while the other moves, and it is no pinch: the pair pans
    /// (libinput's one-finger scroll; UIKit pans the centroid of the touches).
    private func judgeOneFingerMoved(_ a: TrackedTouch, _ b: TrackedTouch, _ p: JudgedPair) -> OneFingerMovedEvidence? {
        guard p.fingers == 2 else { return nil }
        let (moving, still) = movingAndStill(a, b)
        guard still.movedMM < p.minMoveMM else { return nil }
        // The one-sided pinch it was not, when only its heading kept it from being one.
        var offLine: AngleAgainstLimit?
        if allows(.pinch, fingers: p.fingers), hasPinchIntent(a, b), let angle = angleOffLine(moving: moving, still: still) {
            offLine = AngleAgainstLimit(degrees: angle, limitDegrees: configuration.oneSidedPinchMaximumAngleDegrees)
        }
        return OneFingerMovedEvidence(moves: PairMoves(a, b, limit: p.maxMoveMM), offLine: offLine)
    }

    /// Three or more fingers: a touch rests while all the others move along with the moving one (a
    /// scroll or swipe beside a resting finger): resting, suppressed like a thumb on a touchpad; on
    /// a touchscreen the hand pans, resting finger and all.
    private func judgeRestingFinger(_ a: TrackedTouch, _ b: TrackedTouch, _ p: JudgedPair) -> RestingTouchEvidence? {
        guard p.fingers != 2 else { return nil }
        let (moving, still) = movingAndStill(a, b)
        guard still.movedMM < p.minMoveMM,
              othersMove(along: moving, minMoveMM: p.minMoveMM, besides: a.id, b.id, p.excluded) else { return nil }
        return RestingTouchEvidence(moves: PairMoves(a, b, limit: p.minMoveMM), touch: still.id, fromBottomMM: nil)
    }

    /// The thumb moves while the fingers rest: a pinch (libinput), but only if every finger rests,
    /// not just the topmost.
    private func judgeThumbPinch(_ a: TrackedTouch, _ b: TrackedTouch, _ p: JudgedPair) -> ThumbPinchEvidence? {
        guard a.movedMM < p.minMoveMM && p.fingers > 2,
              othersRest(minMoveMM: p.minMoveMM, besides: a.id, b.id, p.excluded)
                && allows(.pinch, fingers: p.fingers) && hasPinchIntent(a, b) else { return nil }
        return ThumbPinchEvidence(moves: PairMoves(a, b, limit: p.minMoveMM), spanChangeMM: spanChange(a, b))
    }

    /// Both moved, but this many fingers may not pinch (or the touchpad cannot track each finger:
    /// semi-MT): the fingers scroll, as libinput's do.
    private func judgePinchUnavailable(_ a: TrackedTouch, _ b: TrackedTouch, _ p: JudgedPair) -> DirectionsEvidence? {
        guard !allows(.pinch, fingers: p.fingers) else { return nil }
        return DirectionsEvidence(moves: PairMoves(a, b, limit: p.minMoveMM), angleDegrees: angleBetweenMoves(a, b))
    }

    /// Both moved in the same or neighbouring compass directions.
    private func judgeSameDirection(_ a: TrackedTouch, _ b: TrackedTouch, _ p: JudgedPair) -> DirectionsEvidence? {
        guard directions(a).isSameOrNeighbour(of: directions(b)) else { return nil }
        // The opposing fingers they were not, when only their angle kept them from being so.
        let onlyTheAngle = a.movedMM >= configuration.pinchOpposingMinMoveMM && b.movedMM >= configuration.pinchOpposingMinMoveMM && hasPinchIntent(a, b)
        return DirectionsEvidence(moves: PairMoves(a, b, limit: p.minMoveMM), angleDegrees: angleBetweenMoves(a, b),
                                  headingEighths: CompassDirections.headingEighths(a.displacement),
                                  otherHeadingEighths: CompassDirections.headingEighths(b.displacement),
                                  opposingAngleLimitDegrees: onlyTheAngle ? configuration.pinchOpposingMinimumAngleDegrees : nil)
    }

    /// Both moved in directions that are not neighbours (same-direction declined), with pinch intent.
    private func judgeDifferentDirections(_ a: TrackedTouch, _ b: TrackedTouch, _ p: JudgedPair) -> DirectionsEvidence? {
        guard hasPinchIntent(a, b) else { return nil }
        return DirectionsEvidence(moves: PairMoves(a, b, limit: p.minMoveMM), angleDegrees: angleBetweenMoves(a, b),
                                  headingEighths: CompassDirections.headingEighths(a.displacement),
                                  otherHeadingEighths: CompassDirections.headingEighths(b.displacement),
                                  spanChangeMM: spanChange(a, b))
    }
}
