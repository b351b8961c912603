import SettingsTable

/// Checks that a settings table and its part's stored properties are the same list: each row sets
/// exactly the stored property its key names, and each stored property is set by a row (or is
/// named, with the reason, as no setting). A property added without a row, a row whose key path
/// points at another property than its key, and a key that is no stored property all fail here.
public enum SettingsCoverage {
    /// A row or a stored property that does not match its counterpart.
    public enum Mismatch: Hashable, Sendable, CustomStringConvertible {
        /// Setting the row changed these stored properties (dotted), not the one its key names.
        case rowSetsOtherProperties(key: String, changed: [String])
        /// A stored property (dotted) no row sets and that is not listed as no setting.
        case propertyWithoutRow(String)
        /// A property listed as no setting that the part does not store (a stale exception).
        case unknownException(String)
        case keyTwice(String)

        public var description: String {
            switch self {
            case .rowSetsOtherProperties(let key, let changed):
                "the row '\(key)' sets \(changed.isEmpty ? "nothing" : changed.joined(separator: ", ")), not the stored property '\(key)'"
            case .propertyWithoutRow(let path): "the stored property '\(path)' has no row in the settings table"
            case .unknownException(let path): "'\(path)' is listed as no setting but is no stored property"
            case .keyTwice(let key): "the key '\(key)' has two rows"
            }
        }
    }

    /// Every mismatch between `table` and the stored properties of `part`. Objects that hold rows
    /// (`velocity` of `velocity.horizonMS`) are walked into; `notSettings` names the stored
    /// properties that are deliberately no setting (read from the device, a section with its own
    /// table), with why.
    public static func mismatches<Part>(_ table: SettingsTable<Part>, in part: Part,
                                        notSettings: [String: String] = [:]) -> [Mismatch] {
        let objects = Set(table.keys.flatMap { key in
            let parts = key.split(separator: ".").map(String.init)
            return (1..<max(parts.count, 1)).map { parts[..<$0].joined(separator: ".") }
        })
        let stored = storedValues(of: part, prefix: "", objects: objects)
        var mismatches: [Mismatch] = []
        var seen = Set<String>()
        for key in table.keys where !seen.insert(key).inserted { mismatches.append(.keyTwice(key)) }
        // The stored properties some row really sets: a key alone covers nothing.
        var covered = Set<String>()
        for setting in table.settings {
            var changed = part
            setting.set(otherValue(of: setting, in: part), in: &changed)
            let after = storedValues(of: changed, prefix: "", objects: objects)
            let differing = after.keys.filter { after[$0] != stored[$0] }.sorted()
            covered.formUnion(differing)
            if differing != [setting.key] { mismatches.append(.rowSetsOtherProperties(key: setting.key, changed: differing)) }
        }
        for path in stored.keys.sorted() where !covered.contains(path) && notSettings[path] == nil {
            mismatches.append(.propertyWithoutRow(path))
        }
        for path in notSettings.keys.sorted() where stored[path] == nil { mismatches.append(.unknownException(path)) }
        return mismatches
    }

    /// The stored properties of `value`, dotted, each with its value's text.
    static func storedValues(of value: Any, prefix: String, objects: Set<String>) -> [String: String] {
        var values: [String: String] = [:]
        for child in Mirror(reflecting: value).children {
            guard let label = child.label else { continue }
            let path = prefix.isEmpty ? label : prefix + "." + label
            if objects.contains(path) {
                values.merge(storedValues(of: child.value, prefix: path, objects: objects)) { first, _ in first }
            } else {
                values[path] = String(reflecting: child.value)
            }
        }
        return values
    }

    /// A value of `setting` that differs from its value in `part` and lies inside its range.
    public static func otherValue<Part>(of setting: Setting<Part>, in part: Part) -> SettingValue {
        let v = setting.number(in: part)
        let lower = setting.range?.lower ?? 0, upper = setting.range?.upper ?? 1
        let inside = { (candidate: Double) in setting.range?.contains(candidate) ?? true }
        switch setting.kind {
        case .flag: return .flag(v == 0)
        case .count, .optionalCount:
            if v.isNaN { return .number(max(lower, min(upper, 2))) }
            return .number(v + 1 <= upper ? v + 1 : v - 1)
        case .number, .optionalNumber:
            if v.isNaN { return .number(inside((lower + upper) / 2) ? (lower + upper) / 2 : lower + (upper - lower) / 4) }
            // Halfway to the next whole unit (or to the upper bound), else halfway down to the lower bound.
            let up = v + (min(upper, v + 1) - v) / 2
            return .number(up != v && inside(up) ? up : v - (v - lower) / 2)
        case .choice(let names): return .name(names.first { $0 != setting.text(in: part) } ?? names[0])
        }
    }
}
