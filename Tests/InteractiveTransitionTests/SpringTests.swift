import Foundation
import Testing
@testable import InteractiveTransition

@Suite struct SpringTests {
    static let under = try! SpringParameters(dampingRatio: 0.7, response: 0.6)
    static let critical = try! SpringParameters(dampingRatio: 1.0, response: 0.5)
    static let over = try! SpringParameters(mass: 1, stiffness: 100, damping: 40)   // ζ = 40 / (2·10) = 2
    static let regimes: [(SpringParameters, SpringRegime)] = [
        (under, .underdamped), (critical, .criticallyDamped), (over, .overdamped),
    ]
    /// Release states: from rest, fast towards the target, and fast the wrong way.
    static let releases: [(x0: Double, v0: Double)] = [(-0.6, 0), (-0.4, 3.5), (0.3, -2), (-0.5, -4)]

    @Test func regimesAndDerivedQuantities() {
        for (spring, regime) in Self.regimes { #expect(spring.regime == regime) }
        // By the response formulas: k = (2π/0.6)², c = 4π·0.7/0.6; ζ and T come back.
        #expect(isClose(Self.under.dampingRatio, 0.7, tolerance: 1e-12))
        #expect(isClose(Self.under.response, 0.6, tolerance: 1e-12))
        #expect(isClose(Self.over.dampingRatio, 2, tolerance: 1e-12))
        // Android stiffness 1500, ζ 0.5, mass 1: c = 2·0.5·sqrt(1500).
        #expect(isClose(SpringPresets.androidDefault.parameters.damping, 1500.0.squareRoot(), tolerance: 1e-9))
    }

    @Test func solutionsSatisfyTheDifferentialEquation() {
        let h = 1e-4
        for (spring, regime) in Self.regimes {
            for release in Self.releases {
                let motion = SpringMotion(parameters: spring, initialDisplacement: release.x0, initialVelocity: release.v0)
                // Scale of the terms: k·(largest plausible displacement).
                let scale = spring.stiffness * (abs(release.x0) + abs(release.v0) / spring.undampedAngularFrequency)
                for index in 1...300 {
                    let t = Double(index) * 0.005
                    let x = motion.displacement(at: t)
                    let xPrime = (motion.displacement(at: t + h) - motion.displacement(at: t - h)) / (2 * h)
                    let xSecond = (motion.displacement(at: t + h) - 2 * x + motion.displacement(at: t - h)) / (h * h)
                    let residual = spring.mass * xSecond + spring.damping * xPrime + spring.stiffness * x
                    #expect(abs(residual) <= 1e-5 * scale, "\(regime) \(release) t=\(t) residual \(residual)")
                    // The closed-form velocity agrees with the numerical derivative.
                    #expect(isClose(motion.velocity(at: t), xPrime, tolerance: 1e-5 * (1 + abs(xPrime))))
                }
            }
        }
    }

    @Test func motionStartsExactlyAtTheReleaseState() {
        for (spring, _) in Self.regimes {
            for release in Self.releases {
                let motion = SpringMotion(parameters: spring, initialDisplacement: release.x0, initialVelocity: release.v0)
                #expect(motion.displacement(at: 0) == release.x0)
                #expect(motion.velocity(at: 0) == release.v0)
                // The closed form itself (not the t <= 0 shortcut) is continuous at release.
                let tiny = 1e-9
                #expect(isClose(motion.displacement(at: tiny), release.x0, tolerance: 1e-8))
                #expect(isClose(motion.velocity(at: tiny), release.v0, tolerance: 1e-6))
                // And starts moving the way the velocity says: x(h) ≈ x0 + v0 h.
                let h = 1e-5
                #expect(isClose(motion.displacement(at: h), release.x0 + release.v0 * h, tolerance: 1e-7))
            }
        }
    }

    @Test func settleTimeFollowsTheStatedRule() {
        let rule = SpringSettleRule.standard
        for (spring, regime) in Self.regimes {
            for release in Self.releases {
                let motion = SpringMotion(parameters: spring, initialDisplacement: release.x0, initialVelocity: release.v0)
                let settle = motion.settleTime(rule: rule)
                #expect(settle > 0 && settle < SpringMotion.maximumSettleSearchSeconds, "\(regime) \(release)")
                #expect(motion.isSettled(at: settle, rule: rule))
                // Not settled at any earlier millisecond.
                var step = 0
                while Double(step) * 0.001 < settle - 1e-6 {
                    let t = Double(step) * 0.001
                    #expect(!motion.isSettled(at: t, rule: rule), "\(regime) settled early at \(t)")
                    step += 1
                }
                // Energy ½kx² + ½mv² never grows, so after settling |x| stays within
                // sqrt(d² + m v²/k) for the rule's distance d and velocity v.
                let bound = (rule.settleDistance * rule.settleDistance
                    + spring.mass * rule.settleVelocity * rule.settleVelocity / spring.stiffness).squareRoot()
                for index in 0...500 {
                    #expect(abs(motion.displacement(at: settle + Double(index) * 0.01)) <= bound + 1e-12)
                }
            }
        }
    }

    /// A spring that never meets the settle rule within the search is not settled silently: the search
    /// says it gave up, and how far from the target the motion still is there.
    @Test func springsThatNeverSettleAreReported() throws {
        let search = SpringMotion.maximumSettleSearchSeconds
        // Almost no damping: the envelope decays at ζ ω0 = 0.001 x 12.6/s, still about 0.47 after 60 s.
        let undamped = try SpringParameters(dampingRatio: 0.001, response: 0.5)
        // Far too much: the slow mode decays at about ω0 / 2ζ = 12.6/s / 2e4, still about 0.96 after 60 s.
        let stuck = try SpringParameters(dampingRatio: 10_000, response: 0.5)
        for spring in [undamped, stuck] {
            let motion = SpringMotion(parameters: spring, initialDisplacement: -1, initialVelocity: 0)
            let settling = motion.settling()
            #expect(settling.reachedSearchLimit, "\(spring)")
            #expect(settling.seconds == search && motion.settleTime() == search)
            #expect(settling.displacement == motion.displacement(at: search))
            #expect(settling.velocity == motion.velocity(at: search))
            #expect(!SpringSettleRule.standard.isSettled(displacement: settling.displacement, velocity: settling.velocity))
            #expect(abs(settling.displacement) > 0.1, "a jump far too big to pass unnoticed: \(settling.displacement)")
        }
        // Every spring that does settle says so, with nothing left over.
        for (spring, regime) in Self.regimes {
            let settling = SpringMotion(parameters: spring, initialDisplacement: -1, initialVelocity: 0).settling()
            #expect(!settling.reachedSearchLimit && settling.seconds < 5, "\(regime)")
            #expect(settling.displacement == 0 && settling.velocity == 0)
        }
    }

    /// Through the transition: the completion is cut at the search limit (in real time, through
    /// `completionSpeed`), the cut is flagged on the animation and reported as a diagnostic, and the
    /// jump onto the target at the end is the reported displacement.
    @Test func transitionReportsACompletionSpringCutAtTheSearchLimit() throws {
        let undamped = SpringTiming(parameters: try SpringParameters(dampingRatio: 0.001, response: 0.5))
        for speed in [0.5, 2] {
            var t = Fixtures.transition(.zoomPresent, speed: speed, timing: .spring(undamped))
            t.update(0.5, at: 0)
            t.finish(at: 1, velocity: 0)
            let completion = try #require(t.completion)
            let settling = try #require(completion.springSettling)
            #expect(settling.reachedSearchLimit)
            let cut = SpringMotion.maximumSettleSearchSeconds / speed
            #expect(completion.duration == cut)
            #expect(t.diagnostics.map(\.issue) == [
                .implicitBegin, .springCutAtSettleSearchLimit(seconds: cut, displacement: settling.displacement),
            ])
            // Just before the cut the progress is still the spring's, about `displacement` off the target.
            t.tick(at: 1 + cut - 1e-9)
            #expect(isClose(t.progress, 1 + settling.displacement, tolerance: 1e-6))
            t.tick(at: 1 + cut)
            #expect(t.phase == .finished && t.progress == 1)
        }
        // A spring that settles reports nothing.
        var settles = Fixtures.transition(.panDismiss)
        settles.update(0.5, at: 0)
        settles.finish(at: 0, velocity: 1)
        #expect(settles.completion?.springSettling?.reachedSearchLimit == false)
        #expect(!settles.diagnostics.contains { if case .springCutAtSettleSearchLimit = $0.issue { true } else { false } })
    }

    @Test func alreadySettledReleaseTakesNoTime() {
        let motion = SpringMotion(parameters: Self.under, initialDisplacement: 0, initialVelocity: 0)
        #expect(motion.settleTime() == 0)
    }

    @Test func overdampedSpringDoesNotOvershootFromRest() {
        let motion = SpringMotion(parameters: Self.over, initialDisplacement: -1, initialVelocity: 0)
        for index in 0...400 { #expect(motion.displacement(at: Double(index) * 0.01) <= 0) }
        let underMotion = SpringMotion(parameters: Self.under, initialDisplacement: -1, initialVelocity: 0)
        // ζ = 0.7 overshoots: somewhere x > 0.
        #expect((0...200).contains { underMotion.displacement(at: Double($0) * 0.005) > 0.01 })
    }

    @Test func seedPresets() {
        let present = SpringPresets.appStoreCardPresent
        #expect(isClose(present.parameters.dampingRatio, 0.7, tolerance: 1e-12))
        #expect(isClose(present.parameters.response, 0.6, tolerance: 1e-12))
        #expect(present.normalizedInitialVelocity == 0.7)
        #expect(isClose(SpringPresets.appStoreCardDismiss.parameters.response, 0.7, tolerance: 1e-12))
        #expect(SpringPresets.appStoreCellBounce.parameters.regime == .criticallyDamped)
        #expect(SpringPresets.slideInMenu.normalizedInitialVelocity == 0.8)
        #expect(isClose(SpringPresets.material3SpatialDefault.parameters.dampingRatio, 0.9, tolerance: 1e-12))
        #expect(SpringPresets.all.count == Set(SpringPresets.all.map(\.name)).count)
    }

    @Test func uikitNormalisedVelocity() {
        // 1.2 progress/s with 0.6 of the way left: covers the rest in 0.5 s, normalised 2.
        #expect(isClose(SpringVelocity.normalized(velocity: 1.2, from: 0.4, to: 1), 2, tolerance: 1e-12))
        #expect(isClose(SpringVelocity.progressPerSecond(normalized: 2, from: 0.4, to: 1), 1.2, tolerance: 1e-12))
        #expect(SpringVelocity.normalized(velocity: 1, from: 1, to: 1) == 0)
        #expect(SpringVelocity.normalized(velocity: .nan, from: 0, to: 1) == 0)
    }

    @Test func invalidSpringsAreRejected() {
        #expect(throws: TransitionError.self) { try SpringParameters(dampingRatio: 0, response: 0.5) }
        #expect(throws: TransitionError.self) { try SpringParameters(dampingRatio: 0.7, response: -1) }
        #expect(throws: TransitionError.self) { try SpringParameters(mass: 0, stiffness: 1, damping: 1) }
        #expect(throws: TransitionError.self) { try SpringParameters(mass: 1, stiffness: .infinity, damping: 1) }
        #expect(throws: TransitionError.self) { try SpringParameters(mass: 1, stiffness: 1, damping: 0) }
    }
}

/// Springs built in code are not held to a settings file's ranges: their settle search must still
/// end, and never trap (mass 1e-300 made its step count overflow Int: "Double value cannot be
/// converted to Int").
@Suite struct SpringSearchBoundTests {
    @Test(arguments: [1e-300, 1e-20, 1e-15])
    func aSpringFasterThanAnyDisplayStillEndsItsSettleSearch(mass: Double) throws {
        let spring = try SpringParameters(mass: mass, stiffness: 1, damping: 1)
        let settling = SpringMotion(parameters: spring, initialDisplacement: 1, initialVelocity: 0).settling()
        #expect(settling.seconds.isFinite && settling.seconds <= SpringMotion.maximumSettleSearchSeconds)
        #expect(spring.response < SpringParameters.responseRange.lowerBound, "a settings file refuses it")
    }

    @Test func theSettleEstimateFollowsTheSlowestMode() throws {
        // Critically damped at ω0 = 10: e^(-10 t) reaches 0.001 at ln(1000) / 10 ≈ 0.69 s.
        let critical = try SpringParameters(mass: 1, stiffness: 100, damping: 20)
        #expect(abs(critical.estimatedSettleSeconds() - log(1000) / 10) < 1e-9)
        // Far overdamped, the slow mode creeps at about k / c.
        let creeping = try SpringParameters(mass: 1, stiffness: 1, damping: 1000)
        #expect(abs(creeping.slowestDecayRate - 0.001) < 1e-6)
        // Every preset settles well inside the search.
        for (name, preset) in SpringPresets.all {
            #expect(preset.parameters.estimatedSettleSeconds() < 5, "\(name)")
            #expect(SpringParameters.responseRange.contains(preset.parameters.response), "\(name)")
        }
    }
}
