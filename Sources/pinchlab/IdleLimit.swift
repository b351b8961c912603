import ArgumentParser

/// The `--exit-after-idle` seconds of `live` and `record`, checked by one rule for both: a
/// positive, finite number. `inf` (or `1e999`, which reads as infinity) would never be reached, so
/// the command would wait forever while saying it stops when idle; NaN compares false with every
/// time, and 0 or less would stop at the first idle moment.
enum IdleLimit {
    /// Throws the usage error (status 64) for seconds that are not positive and finite.
    static func validate(_ seconds: Double?) throws {
        guard let seconds else { return }
        guard seconds > 0, seconds.isFinite else {
            throw ValidationError("--exit-after-idle must be a positive, finite number of seconds, got \(seconds)")
        }
    }
}
