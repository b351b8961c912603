import Glibc

/// Monotonic seconds, for timing a measured loop.
enum Stopwatch {
    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = now()
        try body()
        return now() - start
    }
}

/// The figures a command prints: `name key=value ...`, one line.
struct ResultLine {
    var name: String
    var fields: [(String, String)] = []

    init(_ name: String) { self.name = name }

    mutating func add(_ key: String, _ value: Int) { fields.append((key, String(value))) }
    mutating func add(_ key: String, _ value: Double, decimals: Int = 3) {
        fields.append((key, formatted(value, decimals: decimals)))
    }
    mutating func add(_ key: String, _ value: String) { fields.append((key, value)) }

    var line: String { ([name] + fields.map { "\($0.0)=\($0.1)" }).joined(separator: " ") }
}

func formatted(_ value: Double, decimals: Int) -> String {
    guard value.isFinite else { return "nan" }
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = (value * scale).rounded()
    let whole = Int64(scaled / scale)
    guard decimals > 0 else { return String(whole) }
    var fraction = String(Int64(abs(scaled)) % Int64(scale))
    while fraction.count < decimals { fraction = "0" + fraction }
    return (scaled < 0 && whole == 0 ? "-" : "") + "\(whole).\(fraction)"
}
