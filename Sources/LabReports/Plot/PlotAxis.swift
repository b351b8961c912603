/// Axis arithmetic for the plots: round tick values and the ranges around data.
enum PlotAxis {
    /// Values at round steps (1, 2 or 5 times a power of ten) inside `range`, about `target` of them.
    static func ticks(in range: ClosedRange<Double>, target: Int = 5) -> [Double] {
        let span = range.upperBound - range.lowerBound
        guard span.isFinite, span > 0, target > 0 else { return [] }
        let step = roundStep(span / Double(target))
        var value = (range.lowerBound / step).rounded(.up) * step
        var ticks: [Double] = []
        while value <= range.upperBound + step * 1e-9 && ticks.count <= target * 3 {
            // -0 would print as "-0".
            ticks.append(abs(value) < step * 1e-9 ? 0 : value)
            value += step
        }
        return ticks
    }

    /// The round number (1, 2 or 5 times a power of ten) nearest above `raw`.
    static func roundStep(_ raw: Double) -> Double {
        guard raw.isFinite, raw > 0 else { return 1 }
        var power = 1.0
        while power * 10 <= raw { power *= 10 }
        while power > raw { power /= 10 }
        for factor in [1.0, 2, 5, 10] where factor * power >= raw { return factor * power }
        return 10 * power
    }

    /// The data's extent with `included` values, padded by `padFraction` of the span on each side (a
    /// flat series gets a span of 1 around its value).
    static func range(of values: [Double], including included: [Double], padFraction: Double = 0.05) -> ClosedRange<Double> {
        let all = (values + included).filter(\.isFinite)
        var low = all.min() ?? 0, high = all.max() ?? 1
        if high - low < 1e-6 { low -= 0.5; high += 0.5 }
        let pad = (high - low) * padFraction
        return (low - pad)...(high + pad)
    }
}
