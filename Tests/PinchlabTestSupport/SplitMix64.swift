/// SplitMix64: the one small seeded generator of the test suites, so "random" test sequences and
/// jitter are the same on every run (one copy instead of one per suite).
public struct SplitMix64: RandomNumberGenerator, Sendable {
    public var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    public mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

    /// Uniform in [-amplitude, amplitude]; 0 for no amplitude (and then no number is drawn).
    public mutating func offset(_ amplitude: Double) -> Double {
        guard amplitude > 0 else { return 0 }
        return (unit() * 2 - 1) * amplitude
    }
}
