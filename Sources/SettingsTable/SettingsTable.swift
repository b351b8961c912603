/// Every key of one configurable part (a recognizer, a policy kind, a spring, the mappings), each
/// declared once as a `Setting`. A settings section is read, checked and decoded from this table
/// alone; `sanitized`, `differences` and the reference page's tables are made from it too.
public struct SettingsTable<Part>: Sendable {
    /// Every setting of the part, in order.
    public let settings: [Setting<Part>]
    /// Objects that may be left out although they hold a required key (a spring's `settleRule`:
    /// both its numbers are needed when it is there).
    public let optionalSections: Set<String>

    /// A table of these settings.
    public init(_ settings: [Setting<Part>], optionalSections: Set<String> = []) {
        self.settings = settings
        self.optionalSections = optionalSections
    }

    /// Every setting's key, in order.
    public var keys: [String] { settings.map(\.key) }

    /// The setting of the property at `path` (`\.progressThreshold`, `\.velocity.horizonMS`).
    /// Every stored setting of a part has a row (each part's table test checks it), so a path
    /// without one is a mistake in the code, stopped here.
    public func setting(for path: PartialKeyPath<Part>) -> Setting<Part> {
        guard let setting = settings.first(where: { $0.path == path }) else {
            preconditionFailure("\(path) has no row in \(Part.self)'s settings table")
        }
        return setting
    }

    /// The values the number at `path` may take: a number's row always has a range.
    public func range(of path: KeyPath<Part, Double>) -> SettingRange { setting(for: path).range! }

    /// The values the optional number at `path` may take when it is not `null`.
    public func range(of path: KeyPath<Part, Double?>) -> SettingRange { setting(for: path).range! }

    /// The part `json` (a section of a settings file) describes: every key it leaves out keeps its
    /// value from `base`. Refuses a key no setting has, a value of the wrong type, a missing
    /// required key and a number outside its range (the first, in the table's order), each naming
    /// the key; `section` is where the section is in the file, for those messages.
    public func decode(_ json: JSONValue, over base: Part, at section: [String] = []) throws(SettingsProblem) -> Part {
        guard json.object != nil else {
            throw SettingsProblem(at: Array(section.dropLast()), .wrongType(key: section.last ?? "", expected: "an object", found: json.kindName))
        }
        try SettingsKeys.refuseUnknownKeys(in: json, known: keys, at: section)
        var part = base
        for setting in settings {
            let path = setting.key.split(separator: ".").map(String.init)
            var node = json
            var walked: [String] = []
            var leaf: JSONValue?
            for (index, component) in path.enumerated() {
                guard let next = node.object?[component] else {
                    // A required key is missing unless the object that would hold it may be left out.
                    let leftOutSection = index < path.count - 1
                        && optionalSections.contains((walked + [component]).joined(separator: "."))
                    if setting.isRequired && !leftOutSection {
                        throw SettingsProblem(at: section + walked, .missingKey(component))
                    }
                    break
                }
                if index == path.count - 1 { leaf = next; break }
                guard next.object != nil else {
                    throw SettingsProblem(at: section + walked, .wrongType(key: component, expected: "an object", found: next.kindName))
                }
                walked.append(component)
                node = next
            }
            guard let leaf else { continue }
            let value = try Self.value(of: setting, from: leaf, at: section + walked, key: path.last!)
            if case .number(let v) = value, let problem = setting.rangeProblem(with: v) {
                throw SettingsProblem(at: section + walked, .outOfRange(problem.named(path.last!)))
            }
            setting.set(value, in: &part)
        }
        return part
    }

    private static func value(of setting: Setting<Part>, from json: JSONValue, at section: [String],
                              key: String) throws(SettingsProblem) -> SettingValue {
        func wrong(_ expected: String) -> SettingsProblem {
            SettingsProblem(at: section, .wrongType(key: key, expected: expected, found: json.kindName))
        }
        switch (setting.kind, json) {
        case (.number, .number(let v)): return .number(v)
        case (.count, .number(let v)), (.optionalCount, .number(let v)):
            guard v == v.rounded(), abs(v) < 1e15 else {
                throw SettingsProblem(at: section, .wrongType(key: key, expected: "a whole number", found: SettingRange.text(v)))
            }
            return .number(v)
        case (.optionalNumber, .number(let v)): return .number(v)
        case (.optionalNumber, .null), (.optionalCount, .null): return .off
        case (.flag, .bool(let on)): return .flag(on)
        case (.choice(let names), .string(let name)):
            guard names.contains(name) else {
                throw SettingsProblem(at: section, .unknownName(what: key, name: name, choices: names, orElse: nil))
            }
            return .name(name)
        case (.number, _): throw wrong("a number")
        case (.count, _): throw wrong("a whole number")
        case (.optionalNumber, _): throw wrong("a number or null")
        case (.optionalCount, _): throw wrong("a whole number or null")
        case (.flag, _): throw wrong("true or false")
        case (.choice, _): throw wrong("a string")
        }
    }

    /// Every number of `part` outside its range, in the table's order.
    public func rangeProblems(in part: Part) -> [SettingsProblem.OutOfRange] {
        settings.compactMap { $0.rangeProblem(in: part) }
    }

    /// The first number of `part` outside its range, as a problem of `section`'s object.
    public func check(_ part: Part, at section: [String] = []) throws(SettingsProblem) {
        guard let first = rangeProblems(in: part).first else { return }
        let path = first.key.split(separator: ".").map(String.init)
        throw SettingsProblem(at: section + path.dropLast(), .outOfRange(first.named(path.last!)))
    }

    /// `part` with every value that would break the arithmetic repaired from the table: a number
    /// that is not finite or below its range becomes its value in `defaults`, one above its range
    /// the upper bound; a count is clamped into its range. An optional number or count (a height, a
    /// finger count a device reports) is left as it is: nil already says "unknown".
    public func sanitized(_ part: Part, defaults: Part) -> Part {
        var repaired = part
        for setting in settings {
            guard let range = setting.range, case .number(let v) = setting.value(in: part) else { continue }
            switch setting.kind {
            case .count:
                setting.set(min(max(v, range.lower), range.upper), in: &repaired)
            case .number:
                if !v.isFinite || v < range.lower {
                    setting.set(setting.value(in: defaults), in: &repaired)
                } else if v > range.upper {
                    setting.set(range.upper, in: &repaired)
                }
            case .optionalNumber, .optionalCount, .flag, .choice:
                continue
            }
        }
        return repaired
    }

    /// The settings whose values differ between `part` and `base` as a settings section holds them:
    /// a dotted key nested (`velocity.horizonMS` in `{"velocity": {"horizonMS": 60}}`), a rule
    /// that is off as `null`. Read over `base`, the section gives `part` back.
    public func changes(_ part: Part, from base: Part) -> [String: JSONValue] {
        var section: [String: JSONValue] = [:]
        for setting in settings where setting.value(in: part) != setting.value(in: base) {
            let path = setting.key.split(separator: ".").map(String.init)
            section.insert(setting.json(in: part), at: path[...])
        }
        return section
    }

    /// The settings whose values differ between `part` and `base`, sorted by key, with the value
    /// of `part` as a settings file shows it.
    public func differences(_ part: Part, from base: Part) -> [(key: String, value: String)] {
        settings.filter { $0.value(in: part) != $0.value(in: base) }
            .map { (key: $0.key, value: $0.text(in: part)) }
            .sorted { $0.key < $1.key }
    }
}

package extension [String: JSONValue] {
    /// Sets `value` at a dotted key's path (`["velocity", "horizonMS"]`), making the objects on the way.
    mutating func insert(_ value: JSONValue, at path: ArraySlice<String>) {
        guard let first = path.first else { return }
        guard path.count > 1 else { self[first] = value; return }
        var nested = self[first]?.object ?? [:]
        nested.insert(value, at: path.dropFirst())
        self[first] = .object(nested)
    }
}

/// Which keys a settings file may hold, as dotted key paths. JSON decoding would skip a key it does
/// not know, so a misspelt `"polcy"` would silently keep the default: every key is checked.
package enum SettingsKeys {
    /// The key paths in `json` that are not in `known` and not an object holding known keys,
    /// sorted; a value of the wrong type where an object is known is left to the decoder.
    package static func unknownKeys(in json: JSONValue, known: Set<String>) -> [String] {
        var objects = Set<String>()
        for key in known {
            var prefix = ""
            for component in key.split(separator: ".").dropLast() {
                prefix += (prefix.isEmpty ? "" : ".") + component
                objects.insert(prefix)
            }
        }
        var unknown: [String] = []
        func walk(_ value: JSONValue, _ path: String) {
            guard let members = value.object else { return }
            for key in members.keys.sorted() {
                let keyPath = path.isEmpty ? key : path + "." + key
                if known.contains(keyPath) { continue }
                if objects.contains(keyPath) { walk(members[key]!, keyPath) } else { unknown.append(keyPath) }
            }
        }
        walk(json, "")
        return unknown
    }

    /// Refuses `json` when it holds a key path that is not in `known`: the one check of unknown
    /// keys, for a part's section and for a whole file. The problem names every unknown key path,
    /// sorted and under `section` (where `json` is in the file), and the keys known where the first is.
    package static func refuseUnknownKeys(in json: JSONValue, known: [String], at section: [String] = []) throws(SettingsProblem) {
        let unknown = unknownKeys(in: json, known: Set(known))
        guard let first = unknown.first else { return }
        throw SettingsProblem(at: [], .unknownKeys(unknown.map { (section + [$0]).joined(separator: ".") },
                                                   known: children(of: first, known: known)))
    }

    /// The keys known in the object that holds `keyPath` (`policy.flickVelocty`: the policy's
    /// keys), sorted, for an error message.
    package static func children(of keyPath: String, known: some Sequence<String>) -> [String] {
        let parent = keyPath.split(separator: ".").dropLast().joined(separator: ".")
        return children(at: parent, known: known)
    }

    /// The keys known directly in the object at `parent` ("" for the top).
    package static func children(at parent: String, known: some Sequence<String>) -> [String] {
        let prefix = parent.isEmpty ? "" : parent + "."
        var names = Set<String>()
        for key in known where key.hasPrefix(prefix) {
            if let name = key.dropFirst(prefix.count).split(separator: ".").first { names.insert(String(name)) }
        }
        return names.sorted()
    }
}

extension SettingsTable {
    /// The part a `Decodable` reading describes (a settings section read on its own, as a test or a
    /// report does): the same table, its problem as the decoder's error.
    public func decode(from decoder: any Decoder, over base: Part) throws -> Part {
        try SettingsDecoding.read(from: decoder) { json throws(SettingsProblem) in try decode(json, over: base) }
    }
}

/// How a settings type's `init(from:)` reads: the JSON value the decoder holds, through the same
/// code as a settings file (`read`), its problem as a `DecodingError` that carries its text.
package enum SettingsDecoding {
    package static func read<Value>(from decoder: any Decoder,
                                   _ read: (JSONValue) throws(SettingsProblem) -> Value) throws -> Value {
        let json = try JSONValue(from: decoder)
        do {
            return try read(json)
        } catch {
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }
}
