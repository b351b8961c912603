import SettingsTable

/// A CSS/Core Animation cubic-Bézier timing curve from (0, 0) to (1, 1) with two control points.
///
/// `value(at: x)` answers "at this fraction of the duration, how far along is the animation?". x(t) is
/// solved for the curve parameter t with Newton's method, falling back to bisection where the slope is too
/// flat for Newton to be trusted — the approach of WebKit's `UnitBezier` (read, not copied).
public struct CubicBezierCurve: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The first control point's x, 0...1.
    public private(set) var p1x: Double
    /// The first control point's y.
    public private(set) var p1y: Double
    /// The second control point's x, 0...1.
    public private(set) var p2x: Double
    /// The second control point's y.
    public private(set) var p2y: Double

    /// How close x(t) must come to the requested time fraction. Tight, because where dx/dt is nearly 0
    /// (a control point on an endpoint) a small x error becomes a large t error.
    public static let solveEpsilon = 1e-12
    /// Newton iterations before falling back to bisection.
    static let newtonIterations = 8
    /// Below this |dx/dt| a Newton step is unreliable.
    static let minimumNewtonSlope = 1e-6
    /// Bisection halves [0, 1] at most this many times (2^-60 is far below `solveEpsilon`).
    static let maximumBisectionSteps = 60

    /// Control points x must be in 0...1 so that x(t) is monotonic (time never runs backwards);
    /// y may leave 0...1 (anticipation / overshoot curves).
    public init(p1x: Double, p1y: Double, p2x: Double, p2y: Double) throws(TransitionError) {
        guard p1x.isFinite, p1y.isFinite, p2x.isFinite, p2y.isFinite,
              (0...1).contains(p1x), (0...1).contains(p2x)
        else { throw .invalidBezierControlPoints(p1x: p1x, p1y: p1y, p2x: p2x, p2y: p2y) }
        self.p1x = p1x; self.p1y = p1y; self.p2x = p2x; self.p2y = p2y
    }

    private init(unchecked p1x: Double, _ p1y: Double, _ p2x: Double, _ p2y: Double) {
        self.p1x = p1x; self.p1y = p1y; self.p2x = p2x; self.p2y = p2y
    }

    /// Core Animation's `kCAMediaTimingFunctionLinear`.
    public static let linear = CubicBezierCurve(unchecked: 0, 0, 1, 1)
    /// Core Animation's `kCAMediaTimingFunctionEaseIn` (UIKit `.curveEaseIn`).
    public static let easeIn = CubicBezierCurve(unchecked: 0.42, 0, 1, 1)
    /// Core Animation's `kCAMediaTimingFunctionEaseOut` (UIKit `.curveEaseOut`).
    public static let easeOut = CubicBezierCurve(unchecked: 0, 0, 0.58, 1)
    /// Core Animation's `kCAMediaTimingFunctionEaseInEaseOut` (UIKit `.curveEaseInOut`, the
    /// `UIPercentDrivenInteractiveTransition.completionCurve` default).
    public static let easeInOut = CubicBezierCurve(unchecked: 0.42, 0, 0.58, 1)

    /// True when both control points lie on the diagonal: the curve is the identity.
    public var isLinear: Bool { p1x == p1y && p2x == p2y }

    // Polynomial coefficients: B(t) = ((a t + b) t + c) t for each axis.
    private var cx: Double { 3 * p1x }
    private var bx: Double { 3 * (p2x - p1x) - cx }
    private var ax: Double { 1 - cx - bx }
    private var cy: Double { 3 * p1y }
    private var by: Double { 3 * (p2y - p1y) - cy }
    private var ay: Double { 1 - cy - by }

    func sampleX(_ t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
    func sampleY(_ t: Double) -> Double { ((ay * t + by) * t + cy) * t }
    func sampleDerivativeX(_ t: Double) -> Double { (3 * ax * t + 2 * bx) * t + cx }
    func sampleDerivativeY(_ t: Double) -> Double { (3 * ay * t + 2 * by) * t + cy }

    /// The curve parameter t in 0...1 with x(t) = `x` (within `solveEpsilon`).
    func solveParameter(forX x: Double) -> Double {
        var t = x
        for _ in 0..<Self.newtonIterations {
            let error = sampleX(t) - x
            if abs(error) < Self.solveEpsilon { return t }
            let slope = sampleDerivativeX(t)
            if abs(slope) < Self.minimumNewtonSlope { break }
            t -= error / slope
        }
        // x(t) is monotonic on [0, 1], so bisection always converges.
        var low = 0.0, high = 1.0
        t = min(max(x, low), high)
        for _ in 0..<Self.maximumBisectionSteps {
            let value = sampleX(t)
            if abs(value - x) < Self.solveEpsilon || high - low < Self.solveEpsilon { return t }
            if value < x { low = t } else { high = t }
            t = (low + high) / 2
        }
        return t
    }

    /// The eased fraction at time fraction `x`. Inputs are clamped to 0...1; the endpoints are exact
    /// (0 -> 0, 1 -> 1) and NaN counts as 0 so the result is always finite.
    public func value(at x: Double) -> Double {
        guard x > 0 else { return 0 }      // also catches NaN
        guard x < 1 else { return 1 }
        if isLinear { return x }
        return sampleY(solveParameter(forX: x))
    }

    /// d(value)/dx at time fraction `x`: how fast the eased fraction moves per unit of time fraction.
    /// Finite everywhere: where dx/dt vanishes (an endpoint with a control point on it) the slope
    /// is taken a hair inside the interval.
    public func slope(at x: Double) -> Double {
        if isLinear { return 1 }
        let clamped = x.isNaN ? 0 : min(max(x, 0), 1)
        var t = solveParameter(forX: clamped)
        var dx = sampleDerivativeX(t)
        if abs(dx) < Self.minimumNewtonSlope {
            t = min(max(t, 1e-4), 1 - 1e-4)
            dx = sampleDerivativeX(t)
        }
        let result = sampleDerivativeY(t) / dx
        return result.isFinite ? result : 0
    }

    /// The curve as CSS writes it: `cubic-bezier(x1, y1, x2, y2)`.
    public var description: String { "cubic-bezier(\(p1x), \(p1y), \(p2x), \(p2y))" }

    /// Its keys in a settings file, all four needed. x stays in 0...1 so that time runs forwards
    /// (the init's rule); y may overshoot, to 10 (CSS allows any y; no easing overshoots by ten
    /// times the whole move).
    public static let settings = SettingsTable<CubicBezierCurve>([
        .number("p1x", \.p1x, "", SettingRange(0...1), required: true, source: "CSS cubic-bezier: x in 0...1"),
        .number("p1y", \.p1y, "", SettingRange(-10...10), required: true, source: "overshoot and anticipation within ten moves"),
        .number("p2x", \.p2x, "", SettingRange(0...1), required: true, source: "CSS cubic-bezier: x in 0...1"),
        .number("p2y", \.p2y, "", SettingRange(-10...10), required: true, source: "overshoot and anticipation within ten moves"),
    ])

    /// Reads a curve from its JSON form, checked as its init checks it.
    public init(from decoder: any Decoder) throws {
        self = try Self.settings.decode(from: decoder, over: .linear)
    }
}
