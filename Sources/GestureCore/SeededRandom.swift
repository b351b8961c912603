#if canImport(Glibc)
import Glibc
#endif

/// SeededRandom: a small, fast, seedable generator, so that every synthesized recording, every
/// randomised search and every "random" test sequence is reproducible from its seed on any machine
/// (the one copy: the corpus generator, the tuner and the test suites use it).
package struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64
    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    package mutating func unit() -> Double { Double(next() >> 11) / Double(UInt64(1) << 53) }

    /// Uniform in `range`.
    package mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * unit()
    }

    /// Uniform in [-amplitude, amplitude]; 0 for no amplitude (and then no number is drawn).
    package mutating func offset(_ amplitude: Double) -> Double {
        guard amplitude > 0 else { return 0 }
        return (unit() * 2 - 1) * amplitude
    }

    /// Normally distributed with mean 0 and the given standard deviation (Box-Muller).
    package mutating func gaussian(standardDeviation: Double) -> Double {
        let u1 = max(uniform(0...1), 1e-12)
        let u2 = uniform(0...1)
        return standardDeviation * (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }
}

