/// Numbers as people read them in reports, plots and the terminal: a fixed number of decimals,
/// without Foundation's locale-dependent `String(format:)`, the same text on every run.
package enum FixedPoint {
    /// Above this many units in the last place the digits are no longer exact in a `Double`:
    /// such numbers are printed as Swift prints them.
    static let exactLimit = 9_007_199_254_740_992.0   // 2^53

    /// `value` with `decimals` decimals ("0.50"), or with trailing zeros dropped when
    /// `trimmingZeros` ("0.5", "12"). Not finite: "0"; never "-0".
    package static func string(_ value: Double, decimals: Int, trimmingZeros: Bool = false) -> String {
        guard value.isFinite else { return "0" }
        var unit: Int64 = 1
        for _ in 0..<max(0, decimals) { unit *= 10 }
        let scaled = (abs(value) * Double(unit)).rounded()
        guard scaled < exactLimit else { return String(value) }
        let units = Int64(scaled)
        let sign = value < 0 && units != 0 ? "-" : ""
        var fraction = units % unit
        var digits = max(0, decimals)
        if trimmingZeros {
            while digits > 0 && fraction % 10 == 0 { fraction /= 10; digits -= 1 }
        }
        let whole = sign + String(units / unit)
        guard digits > 0 else { return whole }
        let text = String(fraction)
        return whole + "." + String(repeating: "0", count: digits - text.count) + text
    }
}
