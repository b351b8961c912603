import SettingsTable
import Testing
@testable import GestureCore

/// `GestureDecision.margin(in:)` from evidence: the condition closest to flipping, in the setting's
/// terms, under its full key; nil where no single setting flips the decision. (That the margins
/// are true, replayed through the command line: `DecisionMarginCLITests`.)
@Suite struct DecisionMarginTests {
    @Test func anOpposingPinchIsMeasuredAgainstItsAngleUnderTheDeviceClassesKey() throws {
        var e = GestureEvidence()
        e.angleDegrees = 171
        let pad = try #require(GestureDecision(.opposingFingers, e).margin(in: .default))
        #expect(pad == DecisionMargin(value: 171, threshold: 135, key: "touchpadRecognizer.pinchOpposingMinimumAngleDegrees",
                                      unit: "degrees", scale: 180))
        #expect(pad.distance == 36 && pad.normalized == 0.2)
        let screen = try #require(GestureDecision(.opposingFingers, e).margin(in: .touchscreen))
        #expect(screen.key == "touchscreenRecognizer.pinchOpposingMinimumAngleDegrees")
        // 180° apart: no angle limit in 0...180 flips it.
        e.angleDegrees = 180
        #expect(GestureDecision(.opposingFingers, e).margin(in: .default) == nil)
    }

    /// The usual range: 0 to twice the default, within the valid range (a spread's 0...1000 mm
    /// would make every margin nothing).
    @Test func marginsAreMeasuredAgainstTheSettingsUsualRange() throws {
        var e = GestureEvidence()
        e.horizontalSpreadMM = 35
        e.verticalSpreadMM = 1
        let margin = try #require(GestureDecision(.sideBySideTimeout, e).margin(in: .default))
        #expect(margin.key == "touchpadRecognizer.scrollMaxHorizontalSpreadMM" && margin.scale == 80 && margin.normalized == 5.0 / 80)
        var hold = GestureEvidence()
        hold.movedMM = 0.25
        let screen = try #require(GestureDecision(.holdTimeout, hold).margin(in: .touchscreen))
        #expect(screen.scale == 2 && screen.threshold == 1 && screen.unit == "mm")
    }

    @Test func ofSeveralConditionsTheClosestToFlippingDecides() throws {
        var e = GestureEvidence()
        e.angleDegrees = 25
        e.movedMM = 4.2
        e.otherMovedMM = 0.2
        // The heading: 5° of 60; the still finger: 1.3 mm of 3.
        #expect(GestureDecision(.oneSidedPinch, e).margin(in: .default)?.key == "touchpadRecognizer.oneSidedPinchMaximumAngleDegrees")
        e.angleDegrees = 5
        e.otherMovedMM = 1.4
        let still = try #require(GestureDecision(.oneSidedPinch, e).margin(in: .default))
        #expect(still.key == "touchpadRecognizer.minMoveMM" && still.value == 1.4 && still.threshold == 1.5)
    }

    /// A limit that grows per finger past two is taken off the measured value: the margin is in
    /// `minMoveMM`'s own terms.
    @Test func aPerFingerExtraIsTakenOffTheMeasuredMove() throws {
        var e = GestureEvidence()
        e.moveLimitMM = 2.0  // minMoveMM 1.5 + 0.5 for a third finger
        e.movedMM = 6
        e.otherMovedMM = 0.8
        let margin = try #require(GestureDecision(.restingThumb, e).margin(in: .default))
        #expect(margin.key == "touchpadRecognizer.minMoveMM" && abs(margin.value - 0.3) < 1e-12 && margin.threshold == 1.5)
    }

    /// A pan's evidence has the pinch's angle limit when only the angle kept it from that pinch:
    /// then the angle is a margin, otherwise not.
    @Test func aPanIsMeasuredAgainstThePinchItWasNotOnlyWhenOnlyTheAngleKeptItFromIt() throws {
        var e = GestureEvidence()
        e.angleDegrees = 100
        #expect(GestureDecision(.sameDirection, e).margin(in: .default) == nil)
        e.angleLimitDegrees = 135
        #expect(GestureDecision(.sameDirection, e).margin(in: .default)?.key == "touchpadRecognizer.pinchOpposingMinimumAngleDegrees")
        var one = GestureEvidence()
        one.movedMM = 0.1
        one.otherMovedMM = 4.5
        one.angleDegrees = 35
        #expect(GestureDecision(.oneFingerMoved, one).margin(in: .default)?.key == "touchpadRecognizer.minMoveMM")
        one.angleLimitDegrees = 30
        let angle = try #require(GestureDecision(.oneFingerMoved, one).margin(in: .default))
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
        var e = GestureEvidence()
        e.movedMM = 4
        e.otherMovedMM = 0.9
        let two = try #require(GestureDecision(.restingFinger, e).margin(in: .default))
        #expect(two == DecisionMargin(value: 0.9, threshold: 1.5, key: "touchpadRecognizer.minMoveMM", unit: "mm", scale: 3))
        e.moveLimitMM = 2  // 0.5 mm more for a third finger
        let three = try #require(GestureDecision(.restingFinger, e).margin(in: .default))
        #expect(abs(three.value - 0.4) < 1e-12 && three.threshold == 1.5)
    }

    /// Fingers that pinch by different directions: their angle against the opposing-fingers
    /// angle, only once both moved pinchOpposingMinMoveMM (before, the angle did not decide).
    @Test func differentDirectionsAreMeasuredAgainstTheOpposingAngleOnceBothMoved() throws {
        var e = GestureEvidence()
        e.angleDegrees = 120
        e.movedMM = 1.2
        e.otherMovedMM = 0.8
        #expect(GestureDecision(.differentDirections, e).margin(in: .default) == nil, "one finger under 1 mm: no margin")
        e.otherMovedMM = 1.3
        let margin = try #require(GestureDecision(.differentDirections, e).margin(in: .default))
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
        e.moveLimitMM = 3
        e.waitedMS = 100
        e.timeoutMS = 100
        #expect(GestureDecision(rule, e).margin(in: .default) == nil)
    }

    /// The compass snap: both headings between two points sharing north-east are neighbours; a
    /// snap past the nearer one's distance from its point makes them north and east.
    @Test func theCompassSnapFlipsWhereAHeadingLeavesItsPoint() throws {
        var e = GestureEvidence()
        e.headingEighths = 0.15
        e.otherHeadingEighths = 1.85
        let margin = try #require(GestureDecision(.sameDirection, e).margin(in: .default))
        #expect(margin.key == "touchpadRecognizer.directionSnapEighths" && abs(margin.value - 0.15) < 1e-4 && margin.threshold == 0.1)
        // Kept to 1/8191 of an eighth.
        #expect(abs((e.headingEighths ?? 0) - 0.15) < 1.0 / 8191)
        // Both exactly on a point: no snap in range splits them.
        e.headingEighths = 0
        e.otherHeadingEighths = 1
        #expect(GestureDecision(.sameDirection, e).margin(in: .default) == nil)
    }
}
