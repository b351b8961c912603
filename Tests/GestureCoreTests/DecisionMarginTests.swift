import SettingsTable
import Testing
@testable import GestureCore

/// `GestureDecision.margin(in:)` from evidence: the condition closest to flipping, in the setting's
/// terms, under its full key; nil where no single setting flips the decision. (That the margins
/// are true, replayed through the command line: `DecisionMarginCLITests`.)
@Suite struct DecisionMarginTests {
    /// Two fingers' moves, the top one's first.
    static func moves(_ moved: Double, _ other: Double, limit: Double) -> PairMoves {
        PairMoves(movedMM: moved, otherMovedMM: other, moveLimitMM: limit)
    }

    static func opposing(_ degrees: Double) -> GestureDecision {
        MotionEvidence.opposingFingers(AngledPinchEvidence(moves: moves(1.2, 1.3, limit: 1),
                                                           angle: AngleAgainstLimit(degrees: degrees, limitDegrees: 135),
                                                           spanChangeMM: 2)).decision
    }

    @Test func anOpposingPinchIsMeasuredAgainstItsAngleUnderTheDeviceClassesKey() throws {
        let pad = try #require(Self.opposing(171).margin(in: .default))
        #expect(pad == DecisionMargin(value: 171, threshold: 135, key: "touchpadRecognizer.pinchOpposingMinimumAngleDegrees",
                                      unit: "degrees", scale: 180))
        #expect(pad.distance == 36 && pad.normalized == 0.2)
        let screen = try #require(Self.opposing(171).margin(in: .touchscreen))
        #expect(screen.key == "touchscreenRecognizer.pinchOpposingMinimumAngleDegrees")
        // 180° apart: no angle limit in 0...180 flips it.
        #expect(Self.opposing(180).margin(in: .default) == nil)
    }

    /// A motion rule's decision without the evidence its rule records (one read from a file) has
    /// no margin, rather than one made of absent numbers.
    @Test func aMotionRuleWithoutItsEvidenceHasNoMargin() {
        var e = GestureEvidence()
        e.angleDegrees = 171
        #expect(GestureDecision(.opposingFingers, e).margin(in: .default) == nil)
        #expect(GestureDecision(.sameDirection).margin(in: .default) == nil)
    }

    /// The usual range: 0 to twice the default, within the valid range (a spread's 0...1000 mm
    /// would make every margin nothing).
    @Test func marginsAreMeasuredAgainstTheSettingsUsualRange() throws {
        let side = MotionEvidence.sideBySideTimeout(SideBySideEvidence(moves: Self.moves(0.5, 0.6, limit: 0.5), waitedMS: 160,
                                                                       timeoutMS: 150, horizontalSpreadMM: 35, verticalSpreadMM: 1))
        let margin = try #require(side.decision.margin(in: .default))
        #expect(margin.key == "touchpadRecognizer.scrollMaxHorizontalSpreadMM" && margin.scale == 80 && margin.normalized == 5.0 / 80)
        var hold = GestureEvidence()
        hold.movedMM = 0.25
        let screen = try #require(GestureDecision(.holdTimeout, hold).margin(in: .touchscreen))
        #expect(screen.scale == 2 && screen.threshold == 1 && screen.unit == "mm")
    }

    @Test func ofSeveralConditionsTheClosestToFlippingDecides() throws {
        func oneSided(_ degrees: Double, still: Double) -> GestureDecision {
            MotionEvidence.oneSidedPinch(AngledPinchEvidence(moves: Self.moves(4.2, still, limit: 4),
                                                             angle: AngleAgainstLimit(degrees: degrees, limitDegrees: 30),
                                                             spanChangeMM: -3)).decision
        }
        // The heading: 5° of 60; the still finger: 1.3 mm of 3.
        #expect(oneSided(25, still: 0.2).margin(in: .default)?.key == "touchpadRecognizer.oneSidedPinchMaximumAngleDegrees")
        let still = try #require(oneSided(5, still: 1.4).margin(in: .default))
        #expect(still.key == "touchpadRecognizer.minMoveMM" && still.value == 1.4 && still.threshold == 1.5)
    }

    /// A limit that grows per finger past two is taken off the measured value: the margin is in
    /// `minMoveMM`'s own terms.
    @Test func aPerFingerExtraIsTakenOffTheMeasuredMove() throws {
        // The limit: minMoveMM 1.5 + 0.5 for a third finger.
        let thumb = MotionEvidence.restingThumb(RestingTouchEvidence(moves: Self.moves(6, 0.8, limit: 2.0), touch: 2))
        let margin = try #require(thumb.decision.margin(in: .default))
        #expect(margin.key == "touchpadRecognizer.minMoveMM" && abs(margin.value - 0.3) < 1e-12 && margin.threshold == 1.5)
    }

    /// A pan's evidence has the pinch's angle limit when only the angle kept it from that pinch:
    /// then the angle is a margin, otherwise not.
    @Test func aPanIsMeasuredAgainstThePinchItWasNotOnlyWhenOnlyTheAngleKeptItFromIt() throws {
        var same = DirectionsEvidence(moves: Self.moves(2, 2.1, limit: 1.5), angleDegrees: 100)
        #expect(MotionEvidence.sameDirection(same).decision.margin(in: .default) == nil)
        same.opposingAngleLimitDegrees = 135
        #expect(MotionEvidence.sameDirection(same).decision.margin(in: .default)?.key
                == "touchpadRecognizer.pinchOpposingMinimumAngleDegrees")
        var one = OneFingerMovedEvidence(moves: Self.moves(0.1, 4.5, limit: 4))
        #expect(MotionEvidence.oneFingerMoved(one).decision.margin(in: .default)?.key == "touchpadRecognizer.minMoveMM")
        one.offLine = AngleAgainstLimit(degrees: 35, limitDegrees: 30)
        let angle = try #require(MotionEvidence.oneFingerMoved(one).decision.margin(in: .default))
        #expect(angle.key == "touchpadRecognizer.oneSidedPinchMaximumAngleDegrees" && angle.value == 35 && angle.threshold == 30)
    }

    /// An edge scroll's touch against the edge's width: from the right edge, else the bottom.
    @Test func anEdgeScrollIsMeasuredAgainstTheEdgesWidth() throws {
        var e = GestureEvidence()
        e.fromBottomMM = 3
        let bottom = try #require(GestureDecision(.edgeScroll, e).margin(in: .default))
        #expect(bottom == DecisionMargin(value: 3, threshold: 7, key: "touchpadRecognizer.edgeScrollWidthMM", unit: "mm", scale: 14))
        e.fromRightMM = 5
        let right = try #require(GestureDecision(.edgeScroll, e).margin(in: .default))
        #expect(right.value == 5 && right.normalized == 2.0 / 14)
    }

    /// A thumb in the band: how still it stayed and how far up it lies, the closer of the two.
    @Test func aThumbInTheBandIsMeasuredByItsMoveAndItsHeight() throws {
        var e = GestureEvidence()
        e.movedMM = 0.2
        e.fromBottomMM = 12
        // Still: 0.3 mm of 0...1 mm; the band: 3 mm of 0...30 mm.
        let area = try #require(GestureDecision(.thumbBand, e).margin(in: .default))
        #expect(area == DecisionMargin(value: 12, threshold: 15, key: "touchpadRecognizer.restingThumbAreaMM", unit: "mm", scale: 30))
        e.fromBottomMM = 2
        let still = try #require(GestureDecision(.thumbBand, e).margin(in: .default))
        #expect(still.key == "touchpadRecognizer.restingThumbMaxMoveMM" && still.threshold == 0.5 && abs(still.normalized! - 0.3) < 1e-12)
    }

    /// A clickpad pressed by a finger above the thumb band: its height against the band's; none
    /// without the pad's height.
    @Test func aClickpadPressIsMeasuredByTheHighestTouchAgainstTheBand() throws {
        var e = GestureEvidence()
        #expect(GestureDecision(.clickpadPressed, e).margin(in: .default) == nil)
        e.fromBottomMM = 20
        let margin = try #require(GestureDecision(.clickpadPressed, e).margin(in: .default))
        #expect(margin == DecisionMargin(value: 20, threshold: 15, key: "touchpadRecognizer.restingThumbAreaMM", unit: "mm", scale: 30))
    }

    /// A resting finger: the one that moved less against minMoveMM, in its own terms past two fingers.
    @Test func aRestingFingerIsMeasuredByTheStillerFinger() throws {
        func resting(limit: Double) -> GestureDecision {
            MotionEvidence.restingFinger(RestingTouchEvidence(moves: Self.moves(4, 0.9, limit: limit), touch: 3)).decision
        }
        let two = try #require(resting(limit: 1.5).margin(in: .default))
        #expect(two == DecisionMargin(value: 0.9, threshold: 1.5, key: "touchpadRecognizer.minMoveMM", unit: "mm", scale: 3))
        // 0.5 mm more for a third finger.
        let three = try #require(resting(limit: 2).margin(in: .default))
        #expect(abs(three.value - 0.4) < 1e-12 && three.threshold == 1.5)
    }

    /// Fingers that pinch by different directions: their angle against the opposing-fingers
    /// angle, only once both moved pinchOpposingMinMoveMM (before, the angle did not decide).
    @Test func differentDirectionsAreMeasuredAgainstTheOpposingAngleOnceBothMoved() throws {
        func different(other: Double) -> GestureDecision {
            MotionEvidence.differentDirections(DirectionsEvidence(moves: Self.moves(1.2, other, limit: 0.75), angleDegrees: 120,
                                                                  spanChangeMM: 1)).decision
        }
        #expect(different(other: 0.8).margin(in: .default) == nil, "one finger under 1 mm: no margin")
        let margin = try #require(different(other: 1.3).margin(in: .default))
        #expect(margin == DecisionMargin(value: 120, threshold: 135, key: "touchpadRecognizer.pinchOpposingMinimumAngleDegrees",
                                         unit: "degrees", scale: 180))
    }

    @Test func aJumpHasAMarginOnlyWhenOneLimitAloneWasExceeded() throws {
        var e = GestureEvidence()
        e.jumpMM = 25
        e.previousStepMM = 20
        #expect(GestureDecision(.touchJump, e).margin(in: .default)?.key == "touchpadRecognizer.jumpDistanceMM")
        e.previousStepMM = 1
        #expect(GestureDecision(.touchJump, e).margin(in: .default) == nil, "both limits exceeded: no one setting flips it")
        e.jumpMM = 10
        e.previousStepMM = 1
        let increase = try #require(GestureDecision(.touchJump, e).margin(in: .default))
        #expect(increase.key == "touchpadRecognizer.jumpIncreaseMM" && increase.value == 9)
    }

    @Test(arguments: [GestureRule.thumbPinch, .allLifted, .endOfStream, .resync, .badNumbers, .centroidMoved, .pinchUnavailable,
                      .panUnavailable, .motionEndsHold, .fingerCountChange, .fingersReplaced])
    func rulesNoSettingFlipsHaveNoMargin(rule: GestureRule) {
        var e = GestureEvidence()
        e.movedMM = 3.1
        // With the other finger's move and the span's change, thumb-pinch and pinch-unavailable read
        // back as their own evidence: no margin from it, not for want of it.
        e.otherMovedMM = 0.4
        e.spanChangeMM = 1
        e.moveLimitMM = 3
        e.waitedMS = 100
        e.timeoutMS = 100
        #expect(GestureDecision(rule, e).margin(in: .default) == nil)
    }

    /// The compass snap: both headings between two points sharing north-east are neighbours; a
    /// snap past the nearer one's distance from its point makes them north and east.
    @Test func theCompassSnapFlipsWhereAHeadingLeavesItsPoint() throws {
        func same(_ a: Double, _ b: Double) -> GestureDecision {
            MotionEvidence.sameDirection(DirectionsEvidence(moves: Self.moves(2, 2, limit: 1.5), angleDegrees: 30,
                                                            headingEighths: a, otherHeadingEighths: b)).decision
        }
        let margin = try #require(same(0.15, 1.85).margin(in: .default))
        #expect(margin.key == "touchpadRecognizer.directionSnapEighths" && abs(margin.value - 0.15) < 1e-4 && margin.threshold == 0.1)
        // Kept to 1/8191 of an eighth.
        #expect(abs((same(0.15, 1.85).evidence.headingEighths ?? 0) - 0.15) < 1.0 / 8191)
        // Both exactly on a point: no snap in range splits them.
        #expect(same(0, 1).margin(in: .default) == nil)
    }

    /// A margin's threshold is its setting's property, read directly (`MarginSetting.value(in:)`)
    /// rather than through the key path its row is found by: each case reads the property of its
    /// path and no other (a value set through the row alone comes back).
    @Test func eachMarginSettingReadsThePropertyItsPathNames() {
        for setting in MarginSetting.allCases {
            var c = GestureRecognizerConfiguration.default
            let marked = 900 + Double(setting.rawValue) / 8
            GestureRecognizerConfiguration.settings.setting(for: setting.path).set(marked, in: &c)
            #expect(setting.value(in: c) == marked, "\(setting)")
        }
    }
}
