#if canImport(Glibc)
import Glibc
#endif

/// SplitMix64: a small, fast, seedable generator, so that every synthesized recording and every
/// randomised search is reproducible from its seed on any machine.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in `range`.
    public mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        let unit = Double(next() >> 11) / Double(UInt64(1) << 53)
        return range.lowerBound + (range.upperBound - range.lowerBound) * unit
    }

    /// Normally distributed with mean 0 and the given standard deviation (Box-Muller).
    public mutating func gaussian(standardDeviation: Double) -> Double {
        let u1 = max(uniform(0...1), 1e-12)
        let u2 = uniform(0...1)
        return standardDeviation * (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }
}

