/// Settings for `VelocityTracker`; the defaults are Android's and Flutter's.
public struct VelocityTrackerConfiguration: Sendable, Hashable, Codable {
    /// Only samples this much older than the newest one are fitted (Android `HORIZON`, 100 ms).
    public var horizonMS: Double
    /// A gap this long between samples, or between the newest sample and the time asked about,
    /// means the finger stopped: history is dropped and the velocity is zero
    /// (Android `ASSUME_POINTER_STOPPED_TIME`, Flutter `_assumePointerMoveStoppedMilliseconds`, 40 ms).
    public var stopGapMS: Double
    /// Degree of the least-squares polynomial (2 like Android's LSQ2); lowered when there are too few
    /// samples to fit it, down to 0 (velocity zero).
    public var polynomialDegree: Int

    public init(horizonMS: Double = 100, stopGapMS: Double = 40, polynomialDegree: Int = 2) {
        self.horizonMS = horizonMS
        self.stopGapMS = stopGapMS
        self.polynomialDegree = polynomialDegree
    }

    public static let `default` = VelocityTrackerConfiguration()
}

/// Estimates the velocity of a 2-D quantity (a position in mm, or a scale in `x`) from timed samples
/// by a least-squares polynomial fit, as Android's and Flutter's `VelocityTracker` do.
///
/// Samples live in a fixed inline ring of `capacity` entries: adding one never allocates.
public struct VelocityTracker: Sendable {
    /// History length (Android and Flutter keep 20).
    public static let capacity = 20

    public var configuration: VelocityTrackerConfiguration

    private var times = InlineArray<20, Int64>(repeating: 0)  // microseconds
    private var xs = InlineArray<20, Double>(repeating: 0)
    private var ys = InlineArray<20, Double>(repeating: 0)
    /// Index of the newest sample.
    private var newest = 0
    public private(set) var count = 0

    public init(configuration: VelocityTrackerConfiguration = .default) {
        self.configuration = configuration
    }

    public mutating func reset() { count = 0 }

    public mutating func add(_ value: Double, at time: EventTime) {
        add(PointMM(x: value, y: 0), at: time)
    }

    /// Adds a sample. A non-finite value is ignored; time going backwards or a stop gap clears the
    /// history first; a second sample at the newest sample's exact time replaces it (two values at one
    /// instant carry no slope, and keeping both would make the fit singular).
    public mutating func add(_ value: PointMM, at time: EventTime) {
        guard value.isFinite else { return }
        let t = time.totalMicroseconds
        if count > 0 {
            let last = times[newest]
            if t == last {
                xs[newest] = value.x
                ys[newest] = value.y
                return
            }
            if t < last || Double(t - last) / 1_000 > configuration.stopGapMS { count = 0 }
        }
        newest = count == 0 ? 0 : (newest + 1) % Self.capacity
        times[newest] = t
        xs[newest] = value.x
        ys[newest] = value.y
        count = min(count + 1, Self.capacity)
    }

    /// Velocity in units per second at `time`: zero when the newest sample is older than the stop gap
    /// (the finger has stopped), when there is no history, or when the samples cannot be fitted.
    public func velocity(at time: EventTime) -> PointMM {
        guard count > 0 else { return .zero }
        let sinceNewestMS = Double(time.totalMicroseconds &- times[newest]) / 1_000
        if sinceNewestMS > configuration.stopGapMS { return .zero }
        return velocity()
    }

    /// Velocity at the newest sample in units per second, from the samples within the horizon.
    public func velocity() -> PointMM {
        let newestTime = times[newest]
        let horizonUS = max(0, configuration.horizonMS.finiteOr(0)) * 1_000
        // Ages in seconds (>= 0) of the samples inside the horizon, newest first.
        var ages = InlineArray<20, Double>(repeating: 0)
        var sx = InlineArray<20, Double>(repeating: 0)
        var sy = InlineArray<20, Double>(repeating: 0)
        var m = 0
        var index = newest
        for _ in 0..<count {
            let ageUS = Double(newestTime - times[index])
            if ageUS > horizonUS { break }
            ages[m] = ageUS / 1_000_000
            sx[m] = xs[index]
            sy[m] = ys[index]
            m += 1
            index = (index + Self.capacity - 1) % Self.capacity
        }
        var degree = min(max(0, configuration.polynomialDegree), 2, m - 1)
        while degree > 0 {
            if let v = Self.slope(ages: ages, xs: sx, ys: sy, count: m, degree: degree) { return v }
            degree -= 1
        }
        return .zero
    }

    /// Least-squares fit of `value(t) = c0 + c1 t + c2 t^2` (t = -age) and returns c1, the slope at
    /// the newest sample; nil when the normal equations are singular.
    ///
    /// Time is rescaled to [-1, 0] over the sample span before fitting so the 3x3 system stays well
    /// conditioned whatever the horizon.
    private static func slope(ages: InlineArray<20, Double>, xs: InlineArray<20, Double>,
                              ys: InlineArray<20, Double>, count m: Int, degree: Int) -> PointMM? {
        let span = ages[m - 1]
        guard span > 0, span.isFinite else { return nil }
        let n = degree + 1
        // Normal equations A c = b for x and y at once: A[i][j] = sum t^(i+j).
        var a = InlineArray<9, Double>(repeating: 0)
        var bx = InlineArray<3, Double>(repeating: 0)
        var by = InlineArray<3, Double>(repeating: 0)
        for k in 0..<m {
            let t = -ages[k] / span
            var powers = InlineArray<5, Double>(repeating: 1)
            for p in 1..<5 { powers[p] = powers[p - 1] * t }
            for i in 0..<n {
                for j in 0..<n { a[i * 3 + j] += powers[i + j] }
                bx[i] += powers[i] * xs[k]
                by[i] += powers[i] * ys[k]
            }
        }
        guard let cx = solve(a, bx, n), let cy = solve(a, by, n) else { return nil }
        let v = PointMM(x: cx / span, y: cy / span)
        return v.isFinite ? v : nil
    }

    /// Gaussian elimination with partial pivoting on an n x n (n <= 3) system; returns the
    /// coefficient of t (index 1).
    private static func solve(_ matrix: InlineArray<9, Double>, _ rhs: InlineArray<3, Double>, _ n: Int) -> Double? {
        var a = matrix
        var b = rhs
        var scale = 0.0
        for i in 0..<(n * 3) { scale = max(scale, abs(a[i])) }
        guard scale > 0 else { return nil }
        for col in 0..<n {
            var pivot = col
            for r in (col + 1)..<max(col + 1, n) where abs(a[r * 3 + col]) > abs(a[pivot * 3 + col]) { pivot = r }
            guard abs(a[pivot * 3 + col]) > 1e-10 * scale else { return nil }
            if pivot != col {
                for j in 0..<n { a.swapAt(col * 3 + j, pivot * 3 + j) }
                b.swapAt(col, pivot)
            }
            for r in (col + 1)..<max(col + 1, n) {
                let f = a[r * 3 + col] / a[col * 3 + col]
                for j in col..<n { a[r * 3 + j] -= f * a[col * 3 + j] }
                b[r] -= f * b[col]
            }
        }
        var c = InlineArray<3, Double>(repeating: 0)
        for row in stride(from: n - 1, through: 0, by: -1) {
            var s = b[row]
            for j in (row + 1)..<max(row + 1, n) { s -= a[row * 3 + j] * c[j] }
            c[row] = s / a[row * 3 + row]
        }
        return c[1].isFinite ? c[1] : nil
    }
}
