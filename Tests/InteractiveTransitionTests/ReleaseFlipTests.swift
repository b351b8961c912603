import Foundation
import Testing
@testable import InteractiveTransition

/// Each policy kind's flips: the threshold, release velocity and release progress at which the same
/// release decides the other way, checked against the policy's own `decide` just either side of
/// them, and the cases where none can.
@Suite struct ReleaseFlipTests {
    /// pinchlab's rule with another threshold, the rest kept (what `--threshold` does).
    static func with(_ policy: CompletionPolicy, threshold: Double) -> CompletionPolicy {
        try! CompletionPolicy(progressThreshold: threshold, decelerationRatePerMS: policy.decelerationRatePerMS,
                              flickVelocity: policy.flickVelocity)
    }

    /// `point` agrees with `outcome(x)` a little either side of it (and at it, when `exact`).
    static func check(_ point: FlipPoint, finishes: Bool, epsilon: Double, in range: ClosedRange<Double>,
                      exact: Bool = false, _ outcome: (Double) -> Bool, _ comment: Comment) {
        var probes = [point.value - epsilon, point.value + epsilon]
        if exact { probes.append(point.value) }
        for x in probes where range.contains(x) {
            #expect((outcome(x) != finishes) == point.flips(x), "\(comment): at \(x), point \(point)")
        }
    }

    // MARK: - pinchlab's rule

    struct Release: Sendable, CustomStringConvertible {
        let policy: CompletionPolicy
        let progress: Double
        let velocity: Double
        var description: String { "\(policy) p=\(progress) v=\(velocity)" }
    }

    static let flickOnly = try! CompletionPolicy(progressThreshold: 0.6, flickVelocity: 1)
    static let projectionOnly = try! CompletionPolicy(progressThreshold: 0.5, decelerationRatePerMS: 0.998)
    static let releases: [Release] = {
        var all: [Release] = []
        for policy in [CompletionPolicy.default, .fluid, .seed, flickOnly, projectionOnly] {
            for progress in [0.0, 0.05, 0.3, 0.45, 0.5, 0.55, 0.8, 1.0] {
                for velocity in [-3.0, -1.5, -0.9, -0.2, 0, 0.2, 0.5, 1.2, 1.5, 4] {
                    all.append(Release(policy: policy, progress: progress, velocity: velocity))
                }
            }
        }
        return all
    }()

    @Test(arguments: releases) func pinchlabFlipsAgreeWithDecide(_ r: Release) {
        let decision = r.policy.decide(progress: r.progress, velocity: r.velocity)
        let flip = r.policy.flip(progress: r.progress, velocity: r.velocity)
        #expect(flip.finishes == decision.shouldFinish)
        // The threshold: every --threshold in 0...1 either side of it.
        if let point = flip.threshold {
            #expect((0...1).contains(point.value))
            Self.check(point, finishes: flip.finishes, epsilon: 1e-9, in: 0...1, exact: true,
                       { Self.with(r.policy, threshold: $0).decide(progress: r.progress, velocity: r.velocity).shouldFinish }, "threshold")
        } else {
            for threshold in stride(from: 0.0, through: 1.0, by: 0.01) {
                #expect(Self.with(r.policy, threshold: threshold).decide(progress: r.progress, velocity: r.velocity).shouldFinish
                        == flip.finishes, "no threshold flips it, yet \(threshold) does")
            }
        }
        if let point = flip.velocity {
            Self.check(point, finishes: flip.finishes, epsilon: 1e-9, in: -1e6...1e6, exact: true,
                       { r.policy.decide(progress: r.progress, velocity: $0).shouldFinish }, "velocity")
        } else {
            for velocity in stride(from: -10.0, through: 10.0, by: 0.05) {
                #expect(r.policy.decide(progress: r.progress, velocity: velocity).shouldFinish == flip.finishes,
                        "no velocity flips it, yet \(velocity) does")
            }
        }
        if let point = flip.progress {
            Self.check(point, finishes: flip.finishes, epsilon: 1e-9, in: 0...1,
                       { r.policy.decide(progress: $0, velocity: r.velocity).shouldFinish }, "progress")
        } else {
            for progress in stride(from: 0.0, through: 1.0, by: 0.01) {
                #expect(r.policy.decide(progress: progress, velocity: r.velocity).shouldFinish == flip.finishes,
                        "no progress flips it, yet \(progress) does")
            }
        }
    }

    @Test func aProjectedCancelFlipsBelowItsProjection() throws {
        // 0.3 + 0.3 x 0.499 = 0.4497 <= 0.5: any threshold below 0.4497 finishes; 0.4497 itself does not.
        let flip = CompletionPolicy.default.flip(progress: 0.3, velocity: 0.3)
        let threshold = try #require(flip.threshold)
        #expect(!flip.finishes && isClose(threshold.value, 0.4497) && threshold.otherSide == .below && !threshold.includesValue)
        // 0.3 + 0.499 v > 0.5 from v = 0.2004 on; 0.3 + 0.499 x 0.3 needs 0.0503 more progress.
        #expect(isClose(try #require(flip.velocity).value, 0.2 / 0.499, tolerance: 1e-12))
        #expect(isClose(try #require(flip.progress).value, 0.5 - 0.3 * 0.499, tolerance: 1e-12))
        let margin = try #require(flip.margin)
        #expect(margin.value == threshold.value && margin.threshold == 0.5 && margin.key == "policy.progressThreshold")
        #expect(margin.unit == "progress" && margin.scale == 1 && isClose(margin.normalized ?? -1, 0.0503))
    }

    @Test func aFinishCancelsAtItsProjectionOrAbove() throws {
        let flip = CompletionPolicy.seed.flip(progress: 0.7, velocity: 3)
        let threshold = try #require(flip.threshold)
        #expect(flip.finishes && threshold.value == 0.7 && threshold.otherSide == .above && threshold.includesValue)
        #expect(flip.velocity == nil, "the seed's rule reads no velocity")
        #expect(flip.progress == FlipPoint(value: 0.5, otherSide: .below, includesValue: true))
    }

    @Test func aFlickHasNoThresholdButAVelocity() throws {
        // 2/s >= 1.5 from 10 %: the projection would cancel below (0.5 - 0.1) / 0.499 = 0.8016/s.
        let flip = CompletionPolicy.default.flip(progress: 0.1, velocity: 2)
        #expect(flip.finishes && flip.threshold == nil && flip.progress == nil)
        let velocity = try #require(flip.velocity)
        #expect(isClose(velocity.value, 0.4 / 0.499, tolerance: 1e-12) && velocity.otherSide == .below && velocity.includesValue)
        #expect(flip.margin == nil, "its projection finishes it too: no flickVelocity cancels it")
        // Fluid's projection is short (0.2 + 0.099 x 2 < 0.5): its flick is the edge.
        let fluid = CompletionPolicy.fluid.flip(progress: 0.2, velocity: 2)
        #expect(fluid.margin?.key == "policy.flickVelocity" && fluid.margin?.unit == "progress/s" && fluid.margin?.threshold == 0.75)
        #expect(fluid.margin?.scale == 4.5, "the flick's usual range is the tuner's 0.5...5")
        // Without projection the flick's own speed is the edge: 1/s finishes from below 0.6.
        let flickOnly = Self.flickOnly.flip(progress: 0.2, velocity: 0.5)
        #expect(!flickOnly.finishes && flickOnly.velocity == FlipPoint(value: 1, otherSide: .above, includesValue: true))
    }

    @Test func outsideTheThresholdsRangeThereIsNone() {
        // Projected below 0: no threshold in 0...1 finishes it; above 1: none cancels it.
        #expect(CompletionPolicy.default.flip(progress: 0.05, velocity: -1.2).threshold == nil)
        #expect(CompletionPolicy.default.flip(progress: 0.95, velocity: 1.2).threshold == nil)
        #expect(CompletionPolicy.seed.flip(progress: 0, velocity: 0).threshold == nil)
        #expect(CompletionPolicy.seed.flip(progress: 1, velocity: 0).threshold == FlipPoint(value: 1, otherSide: .above, includesValue: true))
    }

    // MARK: - The desktops' rules

    static func tracker(_ preset: CompletionPolicyPreset, _ path: [(Double, Double)],
                        input: CompletionInput = .touchpad) -> CompletionTracker {
        var tracker = preset.policy.tracker(input: input, initialProgress: 0, at: 0)
        for (time, progress) in path { tracker.observe(progress: progress, at: time) }
        return tracker
    }

    @Test func kwinFlipsAtItsThresholdAndReadsNoVelocity() throws {
        let flip = CompletionPolicyPreset.kwin.policy.flip(progress: 0.59, velocity: -5)
        #expect(flip.finishes && flip.threshold == FlipPoint(value: 0.59, otherSide: .above, includesValue: true))
        #expect(flip.progress == FlipPoint(value: 0.5, otherSide: .below, includesValue: true) && flip.velocity == nil)
        #expect(flip.margin?.key == "policy.threshold")
        for threshold in [0.58, 0.59, 0.6] {
            let policy = try CompletionPolicy(kind: .kwin(KWinRule(threshold: threshold)))
            #expect(policy.decide(progress: 0.59, velocity: -5).shouldFinish == !flip.threshold!.flips(threshold))
        }
    }

    @Test func gnomesVelocityAndProgressFlipsAgreeWithItsRule() throws {
        let rule = GNOMESwipeRule.shell
        // A slow drag to 0.4 snaps back; 0.6 units/ms (1.5 progress/s) forwards would finish it.
        let slow = Self.tracker(.gnome, DesktopPolicyTests.drag(to: 0.4, over: 1))
        let flip = slow.flip(progress: 0.4, velocity: 0, at: 1)
        #expect(!flip.finishes && flip.threshold == nil, "GNOME's rule has no progress threshold")
        let velocity = try #require(flip.velocity)
        #expect(isClose(velocity.value, 0.6 / 400 * 1000, tolerance: 1e-9) && velocity.otherSide == .above)
        func finishes(progress: Double, progressPerSecond: Double) -> Bool {
            rule.decide(progress: progress, velocity: progressPerSecond / 1000 * 400, initial: 0, input: .touchpad).endProgress == 1
        }
        Self.check(velocity, finishes: false, epsilon: 1e-9, in: -1e6...1e6,
                   { finishes(progress: 0.4, progressPerSecond: $0) }, "gnome velocity")
        // Snapping: past the middle it finishes, 0.5 itself goes back.
        let progress = try #require(flip.progress)
        #expect(isClose(progress.value, 0.5, tolerance: 1e-12) && progress.otherSide == .above)
        Self.check(progress, finishes: false, epsilon: 1e-9, in: 0...1, exact: true,
                   { finishes(progress: $0, progressPerSecond: 0.4) }, "gnome progress")
        #expect(flip.margin?.key == "policy.touchpad.velocityThreshold" && flip.margin?.unit == "units/ms")
        // Past the middle, moving back slowly snaps forwards; moving back fast enough projects below
        // the middle: that turn lies on GNOME's projection (0.35 pages at 0.997/ms), found by halving.
        let back = DesktopPolicyTests.drag(to: 0.9, over: 1) + DesktopPolicyTests.drag(to: 0.85, over: 0.15, from: 0.9, start: 1)
        let backFlip = Self.tracker(.gnome, back).flip(progress: 0.85, velocity: 0, at: 1.15)
        let backVelocity = try #require(backFlip.velocity)
        #expect(backFlip.finishes && backVelocity.otherSide == .below)
        #expect(isClose(backVelocity.value, -0.35 / (0.997 / 0.003 / 1000) / 400 * 1000, tolerance: 1e-6), "\(backVelocity)")
        Self.check(backVelocity, finishes: true, epsilon: 1e-6, in: -1e6...1e6,
                   { finishes(progress: 0.85, progressPerSecond: $0) }, "gnome's projection")
        // A fast swipe forwards finishes from anywhere: no progress flips it.
        let fast = Self.tracker(.gnome, DesktopPolicyTests.drag(to: 0.3, over: 0.1))
        let fastFlip = fast.flip(progress: 0.3, velocity: 0, at: 0.1)
        #expect(fastFlip.finishes && fastFlip.progress == nil && fastFlip.velocity != nil)
    }

    @Test func hyprlandFlipsAtItsCancelRatioUnlessSpeedForced() throws {
        // 0.4 slowly: 120 < 150 units: any ratio at or below 0.4 switches; 0.5 progress would.
        let short = Self.tracker(.hyprland, DesktopPolicyTests.drag(to: 0.4, over: 1)).flip(progress: 0.4, velocity: 0, at: 1)
        #expect(!short.finishes && short.threshold == FlipPoint(value: 0.4, otherSide: .below, includesValue: true))
        #expect(short.progress == FlipPoint(value: 0.5, otherSide: .above, includesValue: true) && short.velocity == nil)
        #expect(short.margin?.key == "policy.cancelRatio")
        for ratio in [0.39, 0.4, 0.41] {
            let policy = try CompletionPolicy(kind: .hyprland(HyprlandSwipeRule(distance: 300, cancelRatio: ratio, minSpeedToForce: 30)))
            var tracker = policy.tracker(input: .touchpad, initialProgress: 0, at: 0)
            for (time, progress) in DesktopPolicyTests.drag(to: 0.4, over: 1) { tracker.observe(progress: progress, at: time) }
            #expect(tracker.decide(progress: 0.4, velocity: 0, at: 1).shouldFinish == short.threshold!.flips(ratio), "ratio \(ratio)")
        }
        // Forced by speed: no ratio reverts it, only less than 2 units of travel.
        let forced = Self.tracker(.hyprland, [(0.01, 0.15), (0.02, 0.3)]).flip(progress: 0.3, velocity: 0, at: 0.02)
        #expect(forced.finishes && forced.threshold == nil)
        #expect(forced.progress == FlipPoint(value: 2.0 / 300, otherSide: .below, includesValue: false))
        #expect(forced.margin?.key == "policy.minSpeedToForce")
        // Under 2 units nothing switches at any ratio.
        let tiny = Self.tracker(.hyprland, [(0.01, 0.006)]).flip(progress: 0.006, velocity: 0, at: 0.01)
        #expect(!tiny.finishes && tiny.threshold == nil && tiny.margin == nil)
    }

    @Test func androidBackIsDecidedByItsPathAlone() {
        let committed = Self.tracker(.androidBack, DesktopPolicyTests.drag(to: 0.3, over: 0.3))
        let flip = committed.flip(progress: 0.3, velocity: -40, at: 0.3)
        #expect(flip == ReleaseFlip(finishes: true), "no threshold, velocity or progress at the release turns it")
    }

    /// The deciding rule's margin comes from the decision alone (the tuner has only decisions), and
    /// is the flip's.
    @Test func theDecidingRulesMarginIsTheDecisions() throws {
        let projected = CompletionPolicy.default.decide(progress: 0.3, velocity: 0.3)
        let margin = try #require(projected.margin(input: .touchpad))
        #expect(margin.key == "policy.progressThreshold" && margin.threshold == 0.5 && margin.scale == 1)
        #expect(margin == CompletionPolicy.default.flip(progress: 0.3, velocity: 0.3).margin)
        let flick = try #require(CompletionPolicy.fluid.decide(progress: 0.2, velocity: 2).margin(input: .touchpad))
        #expect(flick.key == "policy.flickVelocity" && flick.value == 2 && flick.threshold == 0.75 && flick.normalized == 1.25 / 4.5)
        let kwin = try #require(CompletionPolicyPreset.kwin.policy.decide(progress: 0.7, velocity: 0).margin(input: .touchpad))
        #expect(kwin.key == "policy.threshold" && isClose(kwin.distance, 0.2))
        let gnome = Self.tracker(.gnome, DesktopPolicyTests.drag(to: 0.1, over: 0.15), input: .touchscreen)
            .decide(progress: 0.1, velocity: 0, at: 0.15)
        #expect(gnome.margin(input: .touchscreen)?.key == "policy.touchscreen.velocityThreshold")
        #expect(CompletionPolicyPreset.androidBack.policy.decide(progress: 0.5, velocity: 0).margin(input: .touchpad) == nil)
    }

    @Test func aBoundarySearchFindsAValueThatFlipsWithinATrillionth() throws {
        // x > 0.3 finishes: from 0, a finishing value just above 0.3.
        let point = try #require(FlipSearch.boundary(from: 0, in: 0...1, finishes: false) { $0 > 0.3 })
        #expect(point.value > 0.3 && point.value - 0.3 <= 1e-12 && point.otherSide == .above && point.includesValue)
        // Far out: relative to the value (GNOME's velocities reach 1000 pages/ms).
        let far = try #require(FlipSearch.boundary(from: 0, in: -1000...1000, finishes: true) { $0 > -700.25 })
        #expect(far.value <= -700.25 && -700.25 - far.value <= 700.25 * 1e-12 && far.otherSide == .below)
        #expect(FlipSearch.boundary(from: 0.5, in: 0...1, finishes: false) { _ in false } == nil)
    }
}
