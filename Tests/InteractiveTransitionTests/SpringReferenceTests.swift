import Testing
@testable import InteractiveTransition

/// The closed-form spring checked against an independent numerical solution: classic fourth-order
/// Runge-Kutta on `m x'' + c x' + k x = 0`, which shares no formula with `SpringMotion`.
@Suite struct SpringReferenceTests {
    struct SpringCase: Sendable, CustomStringConvertible {
        let label: String
        let parameters: SpringParameters
        let regime: SpringRegime
        /// Largest allowed |closed form - RK4| per unit of release amplitude |x0| + |v0| / ω0.
        let tolerancePerAmplitude: Double
        var description: String { label }
    }

    /// RK4 step, seconds. Its global error here is at most about 7e-11 x amplitude (measured; the stiff
    /// fast mode of the ζ 5 spring, 120/s, dominates), far below the tolerances used.
    static let integrationStepSeconds = 1e-4
    /// Compared every 10 ms over the first 3 s (several response periods: past most of the motion).
    static let comparisonIntervalSeconds = 0.01
    static let comparedSeconds = 3.0
    /// The regime boundary the closed forms switch at is |ζ - 1| = 1e-6 (`criticalDampingTolerance`).
    /// ζ = 1 ± 2e-6 lies just outside it, where the under/overdamped forms divide by ωd or γ- - γ+,
    /// only about 2e-3 ω0 in size: the place a cancellation would show.
    static let boundaryOffset = 2e-6
    /// Closed form vs RK4, per unit of release amplitude |x0| + |v0| / ω0, for position and (times ω0)
    /// for velocity. Measured worst: 7e-11 away from the boundary and 6e-14 at ζ = 1 ± 2e-6 (the forms
    /// keep their precision there); a wrong sign or term would be off by more than 1e-3.
    static let closedFormTolerance = 1e-9
    /// Inside the boundary (|ζ - 1| <= 1e-6) the critical form stands in for the exact one; the true
    /// motion differs by O(|ζ - 1|): measured 2.2e-7 x amplitude at |ζ - 1| = 5e-7.
    static let insideBoundaryTolerance = 1e-6
    /// Across the boundary the motion must be continuous in ζ: between ζ = 1 and 1 ± 2e-6 it moves by
    /// |∂x/∂ζ| x 2e-6, measured at most 9e-7 x amplitude; a jump between the forms would be far larger.
    static let acrossBoundaryTolerance = 2e-6

    static let cases: [SpringCase] = [
        SpringCase(label: "underdamped ζ 0.7", parameters: try! SpringParameters(dampingRatio: 0.7, response: 0.6),
                   regime: .underdamped, tolerancePerAmplitude: closedFormTolerance),
        SpringCase(label: "underdamped ζ 0.1", parameters: try! SpringParameters(dampingRatio: 0.1, response: 0.5),
                   regime: .underdamped, tolerancePerAmplitude: closedFormTolerance),
        SpringCase(label: "critical ζ 1", parameters: try! SpringParameters(dampingRatio: 1, response: 0.5),
                   regime: .criticallyDamped, tolerancePerAmplitude: closedFormTolerance),
        SpringCase(label: "overdamped ζ 2", parameters: try! SpringParameters(mass: 1, stiffness: 100, damping: 40),
                   regime: .overdamped, tolerancePerAmplitude: closedFormTolerance),
        SpringCase(label: "overdamped ζ 5, mass 2", parameters: try! SpringParameters(dampingRatio: 5, stiffness: 300, mass: 2),
                   regime: .overdamped, tolerancePerAmplitude: closedFormTolerance),
        SpringCase(label: "ζ 1 - 2e-6", parameters: try! SpringParameters(dampingRatio: 1 - boundaryOffset, response: 0.5),
                   regime: .underdamped, tolerancePerAmplitude: closedFormTolerance),
        SpringCase(label: "ζ 1 + 2e-6", parameters: try! SpringParameters(dampingRatio: 1 + boundaryOffset, response: 0.5),
                   regime: .overdamped, tolerancePerAmplitude: closedFormTolerance),
        SpringCase(label: "ζ 1 - 5e-7", parameters: try! SpringParameters(dampingRatio: 1 - 5e-7, response: 0.5),
                   regime: .criticallyDamped, tolerancePerAmplitude: insideBoundaryTolerance),
        SpringCase(label: "ζ 1 + 5e-7", parameters: try! SpringParameters(dampingRatio: 1 + 5e-7, response: 0.5),
                   regime: .criticallyDamped, tolerancePerAmplitude: insideBoundaryTolerance),
    ]

    /// Release states (displacement, velocity): from rest, thrown towards the target, thrown away.
    static let releases: [(x0: Double, v0: Double)] = [(-1, 0), (-0.4, 3.5), (0.3, -2), (-0.5, -4), (0, 5)]

    /// One RK4 step of x' = v, v' = -(c v + k x) / m.
    static func rk4Step(x: Double, v: Double, h: Double, _ p: SpringParameters) -> (x: Double, v: Double) {
        func acceleration(_ x: Double, _ v: Double) -> Double { -(p.damping * v + p.stiffness * x) / p.mass }
        let k1x = v, k1v = acceleration(x, v)
        let k2x = v + h / 2 * k1v, k2v = acceleration(x + h / 2 * k1x, v + h / 2 * k1v)
        let k3x = v + h / 2 * k2v, k3v = acceleration(x + h / 2 * k2x, v + h / 2 * k2v)
        let k4x = v + h * k3v, k4v = acceleration(x + h * k3x, v + h * k3v)
        return (x + h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x), v + h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v))
    }

    @Test(arguments: cases) func closedFormMatchesRungeKutta(_ c: SpringCase) {
        #expect(c.parameters.regime == c.regime, "the case exercises the closed form it claims to")
        let stepsPerComparison = Int((Self.comparisonIntervalSeconds / Self.integrationStepSeconds).rounded())
        let comparisons = Int((Self.comparedSeconds / Self.comparisonIntervalSeconds).rounded())
        let omega = c.parameters.undampedAngularFrequency
        for release in Self.releases {
            let motion = SpringMotion(parameters: c.parameters, initialDisplacement: release.x0, initialVelocity: release.v0)
            let amplitude = abs(release.x0) + abs(release.v0) / omega
            var state = (x: release.x0, v: release.v0)
            var worstPosition = 0.0, worstVelocity = 0.0
            for comparison in 1...comparisons {
                for _ in 0..<stepsPerComparison {
                    state = Self.rk4Step(x: state.x, v: state.v, h: Self.integrationStepSeconds, c.parameters)
                }
                let t = Double(comparison * stepsPerComparison) * Self.integrationStepSeconds
                let closed = motion.evaluate(at: t)
                worstPosition = max(worstPosition, abs(closed.displacement - state.x))
                worstVelocity = max(worstVelocity, abs(closed.velocity - state.v))
            }
            #expect(worstPosition <= c.tolerancePerAmplitude * amplitude, "\(c) \(release): |Δx| \(worstPosition)")
            #expect(worstVelocity <= c.tolerancePerAmplitude * amplitude * omega, "\(c) \(release): |Δv| \(worstVelocity)")
        }
    }

    /// Either side of the boundary the motion is continuous in ζ: 1 - 2e-6, 1 and 1 + 2e-6 nearly agree.
    @Test func motionIsContinuousAcrossTheCriticalBoundary() {
        let response = 0.5
        let springs = [1 - Self.boundaryOffset, 1, 1 + Self.boundaryOffset].map {
            try! SpringParameters(dampingRatio: $0, response: response)
        }
        #expect(springs.map(\.regime) == [.underdamped, .criticallyDamped, .overdamped])
        for release in Self.releases {
            let motions = springs.map { SpringMotion(parameters: $0, initialDisplacement: release.x0, initialVelocity: release.v0) }
            let amplitude = abs(release.x0) + abs(release.v0) / springs[1].undampedAngularFrequency
            for index in 1...300 {
                let t = Double(index) * 0.01
                let critical = motions[1].displacement(at: t)
                #expect(abs(motions[0].displacement(at: t) - critical) <= Self.acrossBoundaryTolerance * amplitude,
                        "\(release) t=\(t)")
                #expect(abs(motions[2].displacement(at: t) - critical) <= Self.acrossBoundaryTolerance * amplitude,
                        "\(release) t=\(t)")
            }
        }
    }
}
