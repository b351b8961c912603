import ArgumentParser

/// The `--speed` factor of `replay` and `serve`. From 1/1000 (a 14 s recording plays in 3.9
/// hours) to 1000 (in 14 ms): further out the pacing means nothing a person can wait for or see,
/// and its arithmetic breaks (with 1e-300 a replay waited 1e298 s for its second event, a hang,
/// and the virtual device's nanosecond offsets leave the range of a 64-bit integer).
enum PlaySpeed {
    static let range: ClosedRange<Double> = 0.001...1000

    /// Throws the usage error (status 64) for a factor outside `range` (NaN and infinities too).
    static func validate(_ speed: Double) throws {
        guard range.contains(speed) else {
            throw ValidationError("--speed must be a factor from 0.001 to 1000, got \(speed)")
        }
    }
}
