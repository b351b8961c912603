import Testing
@testable import GestureCore

@Suite struct VelocityTrackerTests {
    func time(ms: Double) -> EventTime { EventTime(totalMicroseconds: 5_000_000 + Int64((ms * 1000).rounded())) }

    @Test func constantVelocityIsExact() {
        var v = VelocityTracker()
        for i in 0..<30 {
            let ms = Double(i) * 8
            v.add(PointMM(x: 120 * ms / 1000, y: -45 * ms / 1000), at: time(ms: ms))
        }
        let estimate = v.velocity(at: time(ms: 29 * 8))
        #expect(abs(estimate.x - 120) < 1e-6)
        #expect(abs(estimate.y + 45) < 1e-6)
    }

    @Test func constantAccelerationGivesVelocityAtNewestSample() {
        // x = v0 t + a t^2 / 2 with v0 = 50 mm/s, a = 400 mm/s^2: at t = 0.2 s, v = 130 mm/s.
        var v = VelocityTracker(configuration: VelocityTrackerConfiguration(polynomialDegree: 2))
        for i in 0...20 {
            let t = Double(i) * 0.01
            v.add(PointMM(x: 50 * t + 200 * t * t, y: 0), at: time(ms: t * 1000))
        }
        #expect(abs(v.velocity(at: time(ms: 200)).x - 130) < 1e-6)
    }

    @Test func linearFitUnderestimatesAccelerationButDegreeTwoDoesNot() {
        var quadratic = VelocityTracker(configuration: VelocityTrackerConfiguration(polynomialDegree: 2))
        var linearOnly = VelocityTracker()
        #expect(linearOnly.configuration.polynomialDegree == 1, "the default")
        for i in 0...10 {
            let t = Double(i) * 0.01
            quadratic.add(1000 * t * t, at: time(ms: t * 1000))
            linearOnly.add(1000 * t * t, at: time(ms: t * 1000))
        }
        // True slope at t = 0.1 s: 2000 t = 200. A straight line through the last 100 ms gives 100.
        #expect(abs(quadratic.velocity().x - 200) < 1e-6)
        #expect(abs(linearOnly.velocity().x - 100) < 1e-6)
    }

    @Test func onlySamplesWithinTheHorizonCount() {
        var v = VelocityTracker()
        // Fast for 200 ms, then 10 mm/s for the last 100 ms: only the slow part is in the horizon.
        var x = 0.0
        for i in 0...30 {
            let ms = Double(i) * 10
            if i > 0 { x += ms <= 190 ? 5 : 0.1 }
            v.add(x, at: time(ms: ms))
        }
        #expect(abs(v.velocity().x - 10) < 1e-6)
    }

    @Test func stopGapResetsHistory() {
        var v = VelocityTracker()
        for i in 0..<10 { v.add(Double(i) * 2, at: time(ms: Double(i) * 10)) }  // 200 mm/s
        #expect(v.count == 10)
        // 50 ms later (> 40 ms stop gap): history dropped, one sample, no slope.
        v.add(100, at: time(ms: 140))
        #expect(v.count == 1)
        #expect(v.velocity().x == 0)
        v.add(101, at: time(ms: 150))
        #expect(abs(v.velocity().x - 100) < 1e-6, "two samples fall back to degree 1")
    }

    @Test func velocityIsZeroOnceTheFingerStopped() {
        var v = VelocityTracker()
        for i in 0..<10 { v.add(Double(i), at: time(ms: Double(i) * 10)) }
        #expect(abs(v.velocity(at: time(ms: 120)).x - 100) < 1e-6)  // 30 ms after the last sample
        #expect(v.velocity(at: time(ms: 131)) == .zero)  // 41 ms after
    }

    @Test func identicalTimestampsStayFinite() {
        var v = VelocityTracker()
        for i in 0..<25 { v.add(Double(i), at: time(ms: 0)) }
        #expect(v.count == 1, "a sample at the same instant replaces the previous one")
        #expect(v.velocity() == .zero)
        v.add(30, at: time(ms: 0))
        v.add(31, at: time(ms: 10))
        v.add(31, at: time(ms: 10))
        let e = v.velocity()
        #expect(e.x.isFinite && e.y.isFinite)
    }

    @Test func zeroHorizonStaysFinite() {
        var v = VelocityTracker(configuration: VelocityTrackerConfiguration(horizonMS: 0))
        for i in 0..<10 { v.add(Double(i), at: time(ms: Double(i))) }
        #expect(v.velocity() == .zero)
        var nan = VelocityTracker(configuration: VelocityTrackerConfiguration(horizonMS: .nan))
        nan.add(1, at: time(ms: 0))
        nan.add(2, at: time(ms: 1))
        #expect(nan.velocity().x.isFinite)
    }

    @Test func timeGoingBackResetsAndNonFiniteSamplesAreIgnored() {
        var v = VelocityTracker()
        for i in 0..<5 { v.add(Double(i), at: time(ms: 100 + Double(i) * 10)) }
        v.add(0, at: time(ms: 50))
        #expect(v.count == 1)
        v.add(.infinity, at: time(ms: 60))
        v.add(.nan, at: time(ms: 60))
        #expect(v.count == 1)
    }

    @Test func ringKeepsTwentySamples() {
        var v = VelocityTracker(configuration: VelocityTrackerConfiguration(horizonMS: 10_000, stopGapMS: 10_000))
        for i in 0..<45 { v.add(3 * Double(i), at: time(ms: Double(i))) }  // 3000 units/s
        #expect(v.count == VelocityTracker.capacity)
        #expect(abs(v.velocity().x - 3000) < 1e-6)
    }

    /// Why the default is a straight line: a still finger on a noisy sensor (±0.3 mm, scanned every
    /// 10 ms) must read as still. A quadratic's slope at its newest sample swings several times wider.
    @Test func degreeOneReadsANoisyStillFingerAsStill() {
        var linear = VelocityTracker()
        var quadratic = VelocityTracker(configuration: VelocityTrackerConfiguration(polynomialDegree: 2))
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func noise() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (Double(state >> 11) / Double(1 << 53) - 0.5) * 0.6
        }
        var sumLinear = 0.0, sumQuadratic = 0.0
        for i in 0..<400 {
            let t = time(ms: Double(i) * 10)
            let p = PointMM(x: 40 + noise(), y: 30 + noise())
            linear.add(p, at: t)
            quadratic.add(p, at: t)
            guard i >= 10 else { continue }
            let a = linear.velocity(at: t), b = quadratic.velocity(at: t)
            sumLinear += a.x * a.x + a.y * a.y
            sumQuadratic += b.x * b.x + b.y * b.y
        }
        let rmsLinear = (sumLinear / 390).squareRoot(), rmsQuadratic = (sumQuadratic / 390).squareRoot()
        #expect(rmsLinear < 8, "mm/s of apparent motion from noise alone: \(rmsLinear)")
        #expect(rmsQuadratic > 2.5 * rmsLinear, "degree 2: \(rmsQuadratic) mm/s, degree 1: \(rmsLinear) mm/s")
    }
}
