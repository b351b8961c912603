import SettingsTable

/// Settings for `VelocityTracker`; the defaults are Android's and Flutter's.
public struct VelocityTrackerConfiguration: Sendable, Hashable, Codable {
    /// Only samples this much older than the newest one are fitted (Android `HORIZON`, 100 ms).
    public var horizonMS: Double = 100
    /// A gap this long between samples, or between the newest sample and the time asked about,
    /// means the finger stopped: history is dropped and the velocity is zero
    /// (Android `ASSUME_POINTER_STOPPED_TIME`, Flutter `_assumePointerMoveStoppedMilliseconds`, 40 ms).
    public var stopGapMS: Double = 40
    /// Degree of the least-squares polynomial; lowered when there are too few samples to fit it,
    /// down to 0 (velocity zero). 1 by default, not Android's LSQ2: a quadratic's slope at its newest
    /// sample amplifies sensor noise, and a release after a hold must read as still. On the corpus's
    /// touchscreen jitter pinch (0.3 mm noise) the hold before release read ±0.58 scale/s with
    /// degree 2 (sd 0.31) and ±0.22/s with degree 1 (sd 0.11); degree 2 projected that noise into a
    /// cancel. Flicks are still read fast enough to decide (every flick in the corpus is).
    public var polynomialDegree: Int = 1

    /// The default window and sample limits.
    public static let `default` = VelocityTrackerConfiguration()
}

extension VelocityTrackerConfiguration {
    /// The velocity settings of a recognizer section (`velocity.horizonMS`, ...).
    public static let settings = SettingsTable<VelocityTrackerConfiguration>([
        .number("horizonMS", \.horizonMS, "ms", SettingRange(0...10_000), tune: [60, 80, 100, 150],
                source: "Android VelocityTracker HORIZON 100 ms"),
        .number("stopGapMS", \.stopGapMS, "ms", SettingRange(0...10_000), source: "Android ASSUME_POINTER_STOPPED_TIME 40 ms"),
        .count("polynomialDegree", \.polynomialDegree, "", 0...2, tune: [1, 2],
               source: "least squares of degree 0 to 2; Android's LSQ2 amplifies noise (see polynomialDegree)"),
    ])

    /// Reads a configuration from its JSON form.
    public init(from decoder: any Decoder) throws {
        self = try Self.settings.decode(from: decoder, over: .default)
    }
}

/// Estimates the velocity of a 2-D quantity (a position in mm, or a scale in `x`) from timed samples
/// by a least-squares polynomial fit, as Android's and Flutter's `VelocityTracker` do.
///
/// Samples live in a fixed inline ring of `capacity` entries: adding one never allocates.
public struct VelocityTracker: Sendable {
    /// History length (Android and Flutter keep 20).
    public static let capacity = 20

    /// How it measures.
    public var configuration: VelocityTrackerConfiguration

    private var times = InlineArray<20, Int64>(repeating: 0)  // microseconds
    private var xs = InlineArray<20, Double>(repeating: 0)
    private var ys = InlineArray<20, Double>(repeating: 0)
    /// Index of the newest sample.
    private var newest = 0
    /// How many samples it holds.
    public private(set) var count = 0

    /// A tracker with no samples.
    public init(configuration: VelocityTrackerConfiguration = .default) {
        self.configuration = configuration
    }

    /// Forgets every sample.
    public mutating func reset() { count = 0 }

    /// Adds a sample of the value at a time (times in order).
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
        newest = count == 0 || newest == Self.capacity - 1 ? 0 : newest + 1
        times[newest] = t
        xs[newest] = value.x
        ys[newest] = value.y
        count = min(count + 1, Self.capacity)
    }

    /// Velocity in units per second at `time`: zero when the newest sample is older than the stop gap
    /// (the finger has stopped), when there is no history, or when the samples cannot be fitted.
    public func velocity(at time: EventTime) -> PointMM {
        var tracker = self
        return tracker.velocityInPlace(at: time)
    }

    /// Velocity at the newest sample in units per second, from the samples within the horizon.
    public func velocity() -> PointMM {
        var tracker = self
        return tracker.velocityInPlace()
    }

    /// `velocity(at:)` without a copy of the tracker, for the recognizer's own trackers (twice per
    /// frame of a pinch): mutating though it changes nothing, because a non-mutating method copied
    /// the whole tracker (520 bytes) to take its spans, at every call.
    mutating func velocityInPlace(at time: EventTime) -> PointMM {
        guard count > 0 else { return .zero }
        let sinceNewestMS = Double(time.totalMicroseconds &- times[newest]) / 1_000
        if sinceNewestMS > configuration.stopGapMS { return .zero }
        return velocityInPlace()
    }

    /// `velocity()` without a copy of the tracker (`velocityInPlace(at:)`). One pass finds the
    /// samples inside the horizon, a second accumulates the normal equations' sums straight from
    /// the ring.
    mutating func velocityInPlace() -> PointMM {
        // Read through spans: subscripting the stored inline arrays directly copies them whole.
        let times = self.times.span, xs = self.xs.span, ys = self.ys.span
        let newestTime = times[newest]
        let horizonUS = max(0, configuration.horizonMS.finiteOr(0)) * 1_000
        var m = 0
        var index = newest
        var spanUS = 0.0
        for _ in 0..<count {
            let ageUS = Double(newestTime - times[index])
            if ageUS > horizonUS { break }
            spanUS = ageUS
            m += 1
            index = Self.older(index)
        }
        let span = spanUS / 1_000_000
        guard m >= 2, span > 0, span.isFinite else { return .zero }

        // Time rescaled to [-1, 0] over the span keeps the system well conditioned at any horizon.
        var degree = min(max(0, configuration.polynomialDegree), 2, m - 1)
        guard degree > 0 else { return .zero }  // a constant has no slope
        let sums = degree >= 2
            ? Self.sums(times, xs, ys, newest: newest, count: m, span: span, quadratic: true)
            : Self.sums(times, xs, ys, newest: newest, count: m, span: span, quadratic: false)
        while degree > 0 {
            if let slope = sums.slope(degree: degree) {
                let v = PointMM(x: slope.x / span, y: slope.y / span)
                if v.isFinite { return v }
            }
            degree -= 1
        }
        return .zero
    }

    /// The normal equations' sums of the `m` samples from the newest back, time rescaled to [-1, 0]
    /// over `span` seconds; without `quadratic`, only those a line reads (the same values: each is
    /// added in the same order). Inlined at each call with a constant `quadratic`, so its loop has
    /// no branch (a branch in the loop cost about 7 instructions an event of replay).
    @inline(__always)
    private static func sums(_ times: Span<Int64>, _ xs: Span<Double>, _ ys: Span<Double>, newest: Int, count m: Int,
                             span: Double, quadratic: Bool) -> NormalSums {
        let newestTime = times[newest]
        var sums = NormalSums()
        var index = newest
        for _ in 0..<m {
            let t = -(Double(newestTime - times[index]) / 1_000_000) / span
            if quadratic { sums.add(t: t, x: xs[index], y: ys[index]) } else { sums.addForLine(t: t, x: xs[index], y: ys[index]) }
            index = older(index)
        }
        return sums
    }

    /// The ring index before `index` (a compare, not a division by the capacity).
    @inline(__always)
    private static func older(_ index: Int) -> Int { index == 0 ? capacity - 1 : index - 1 }
}

/// The sums of a least-squares polynomial fit `value(t) = c0 + c1 t + c2 t²`: `s_k = Σ t^k` and
/// `b_k = Σ value t^k`, for x and y at once. Degree 1 uses a subset of degree 2's sums.
private struct NormalSums {
    var s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0, s4 = 0.0
    var bx0 = 0.0, bx1 = 0.0, bx2 = 0.0
    var by0 = 0.0, by1 = 0.0, by2 = 0.0

    /// A system whose determinant is this small relative to its entries is treated as singular.
    static let singularRelativeDeterminant = 1e-10

    @inline(__always) mutating func add(t: Double, x: Double, y: Double) {
        let t2 = t * t
        s0 += 1; s1 += t; s2 += t2; s3 += t2 * t; s4 += t2 * t2
        bx0 += x; bx1 += x * t; bx2 += x * t2
        by0 += y; by1 += y * t; by2 += y * t2
    }

    /// `add` for a fit of degree 1: s0, s1, s2, bx0, bx1, by0, by1 only.
    @inline(__always) mutating func addForLine(t: Double, x: Double, y: Double) {
        s0 += 1; s1 += t; s2 += t * t
        bx0 += x; bx1 += x * t
        by0 += y; by1 += y * t
    }

    /// c1, the slope at the newest sample (t = 0), for x and y; nil when the system is singular.
    func slope(degree: Int) -> (x: Double, y: Double)? {
        if degree >= 2 {
            // Cramer's rule on [[s0 s1 s2] [s1 s2 s3] [s2 s3 s4]] c = b, solving only for c1.
            let det = s0 * (s2 * s4 - s3 * s3) - s1 * (s1 * s4 - s3 * s2) + s2 * (s1 * s3 - s2 * s2)
            let scale = max(abs(s0), abs(s2), abs(s4))
            guard abs(det) > Self.singularRelativeDeterminant * scale * scale * scale else { return nil }
            func c1(_ b0: Double, _ b1: Double, _ b2: Double) -> Double {
                (s0 * (b1 * s4 - s3 * b2) - b0 * (s1 * s4 - s3 * s2) + s2 * (s1 * b2 - b1 * s2)) / det
            }
            return (c1(bx0, bx1, bx2), c1(by0, by1, by2))
        }
        let det = s0 * s2 - s1 * s1
        let scale = max(abs(s0), abs(s2))
        guard abs(det) > Self.singularRelativeDeterminant * scale * scale else { return nil }
        return ((s0 * bx1 - s1 * bx0) / det, (s0 * by1 - s1 * by0) / det)
    }
}
