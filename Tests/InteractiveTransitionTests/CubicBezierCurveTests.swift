import Testing
@testable import InteractiveTransition

@Suite struct CubicBezierCurveTests {
    /// The Bernstein form of a cubic from (0,0) to (1,1): an independent way to get points on the curve.
    static func bernstein(_ p1: Double, _ p2: Double, _ t: Double) -> Double {
        let u = 1 - t
        return 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t
    }

    static let curves: [CubicBezierCurve] = [
        .linear, .easeIn, .easeOut, .easeInOut,
        try! CubicBezierCurve(p1x: 0.68, p1y: -0.6, p2x: 0.32, p2y: 1.6),   // anticipate + overshoot
        try! CubicBezierCurve(p1x: 0, p1y: 1, p2x: 0, p2y: 1),              // flat dx/dt at t=0
        try! CubicBezierCurve(p1x: 1, p1y: 0, p2x: 1, p2y: 0),              // flat dx/dt at t=1
    ]

    @Test func linearIsTheIdentity() {
        for index in 0...1000 {
            let x = Double(index) / 1000
            #expect(CubicBezierCurve.linear.value(at: x) == x)
        }
        // Any curve with both control points on the diagonal is the identity.
        let diagonal = try! CubicBezierCurve(p1x: 0.3, p1y: 0.3, p2x: 0.7, p2y: 0.7)
        #expect(isClose(diagonal.value(at: 0.123), 0.123, tolerance: 1e-12))
    }

    @Test func endpointsAreExactAndInputIsClamped() {
        for curve in Self.curves {
            #expect(curve.value(at: 0) == 0)
            #expect(curve.value(at: 1) == 1)
            #expect(curve.value(at: -3) == 0)
            #expect(curve.value(at: 7) == 1)
            #expect(curve.value(at: .nan) == 0)
            #expect(curve.value(at: .infinity) == 1)
        }
    }

    @Test func easeInOutIsPointSymmetric() {
        // Control points (0.42, 0) and (0.58, 1) mirror each other through (0.5, 0.5), so f(1-x) = 1-f(x).
        for index in 0...200 {
            let x = Double(index) / 200
            let f = CubicBezierCurve.easeInOut.value(at: x)
            let mirrored = CubicBezierCurve.easeInOut.value(at: 1 - x)
            #expect(isClose(mirrored, 1 - f, tolerance: 1e-8))
        }
        #expect(isClose(CubicBezierCurve.easeInOut.value(at: 0.5), 0.5, tolerance: 1e-9))
    }

    @Test func standardCurvesAreMonotonic() {
        for curve in [CubicBezierCurve.linear, .easeIn, .easeOut, .easeInOut] {
            var previous = 0.0
            for index in 1...2000 {
                let value = curve.value(at: Double(index) / 2000)
                #expect(value >= previous - 1e-12)
                previous = value
            }
        }
    }

    @Test func valuesMatchTheBernsteinForm() {
        // ease-in at t = 0.5 by hand: x = 3(.25)(.5)(.42) + 3(.5)(.25)(1) + .125 = 0.6575,
        // y = 3(.5)(.25)(1) + .125 = 0.5.
        #expect(isClose(CubicBezierCurve.easeIn.value(at: 0.6575), 0.5, tolerance: 1e-8))
        for curve in Self.curves {
            for index in 0...100 {
                let t = Double(index) / 100
                let x = Self.bernstein(curve.p1x, curve.p2x, t)
                let y = Self.bernstein(curve.p1y, curve.p2y, t)
                // Where dx/dt is 0, a tiny x error becomes a bigger y error: compare through the slope bound.
                #expect(isClose(curve.value(at: x), y, tolerance: 1e-6), "curve \(curve) t \(t)")
            }
        }
    }

    @Test func slopeMatchesFiniteDifferences() {
        let h = 1e-6
        for curve in [CubicBezierCurve.easeIn, .easeOut, .easeInOut, Self.curves[4]] {
            for x in stride(from: 0.05, through: 0.95, by: 0.05) {
                let numeric = (curve.value(at: x + h) - curve.value(at: x - h)) / (2 * h)
                #expect(isClose(curve.slope(at: x), numeric, tolerance: 1e-4), "curve \(curve) x \(x)")
            }
            #expect(curve.slope(at: 0).isFinite && curve.slope(at: 1).isFinite)
        }
    }

    @Test func invalidControlPointsAreRejected() {
        #expect(throws: TransitionError.self) { try CubicBezierCurve(p1x: -0.1, p1y: 0, p2x: 1, p2y: 1) }
        #expect(throws: TransitionError.self) { try CubicBezierCurve(p1x: 0.2, p1y: 0, p2x: 1.5, p2y: 1) }
        #expect(throws: TransitionError.self) { try CubicBezierCurve(p1x: 0.2, p1y: .nan, p2x: 0.5, p2y: 1) }
    }
}
