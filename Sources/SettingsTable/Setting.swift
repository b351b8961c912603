/// One key of a configurable part, declared once next to the part's type: its key in a settings
/// file, the stored property it sets, what kind of value it holds, its unit, the values it may
/// take, what `pinchlab tune` tries, and where its default and range come from. The default is the
/// part's own: the property's initial value, which the part's `init()` and `.default` take, so no
/// init repeats it (or a preset's figure, for a part made only of presets). Reading a file,
/// range errors, repairing values, differences, the command line's ranges and the reference page
/// are all made from these (`SettingsTable`); code finds a setting by its property's key path,
/// never by its key's text, so a renamed key cannot skip a check.
public struct Setting<Part>: Sendable {
    /// What kind of value a setting holds.
    public typealias Kind = SettingKind
    /// A setting's value as a part holds it.
    public typealias Value = SettingValue

    /// The key path in the part's section, dot-separated (`minMoveMM`, `velocity.horizonMS`).
    public let key: String
    /// What kind of value it holds.
    public let kind: Kind
    /// "mm", "ms", "progress/s", "" for a plain number, a flag or a name.
    public let unit: String
    /// The values a number may take (nil for a flag or a name).
    public let range: SettingRange?
    /// What `pinchlab tune` tries (empty: not tuned).
    public let tuningValues: [Double]
    /// Whether the tuner also tries the setting turned off (`null`), before `tuningValues`.
    public let tuningTriesOff: Bool
    /// Where the default and the range come from: the system's code and figure, or the reason.
    public let source: String
    /// Must be given whenever its object is (a curve's four points, a spring's three numbers).
    public let isRequired: Bool
    /// The property this setting sets, as a key path from the part: what `SettingsTable.setting(for:)`
    /// finds it by. Key paths are immutable values; the stored type only lacks the annotation.
    nonisolated(unsafe) public let path: AnyKeyPath
    private let read: @Sendable (Part) -> Value
    private let write: @Sendable (inout Part, Value) -> Void

    init(key: String, path: AnyKeyPath, kind: Kind, unit: String, range: SettingRange?, tuningValues: [Double], tuningTriesOff: Bool,
         source: String, isRequired: Bool, read: @escaping @Sendable (Part) -> Value,
         write: @escaping @Sendable (inout Part, Value) -> Void) {
        self.key = key
        self.path = path
        self.kind = kind
        self.unit = unit
        self.range = range
        self.tuningValues = tuningValues
        self.tuningTriesOff = tuningTriesOff
        self.source = source
        self.isRequired = isRequired
        self.read = read
        self.write = write
    }

    /// A number setting, with its unit, range, tuning values and source.
    public static func number(_ key: String, _ path: WritableKeyPath<Part, Double> & Sendable, _ unit: String,
                              _ range: SettingRange, tune: [Double] = [], required: Bool = false, source: String) -> Self {
        Self(key: key, path: path, kind: .number, unit: unit, range: range, tuningValues: tune, tuningTriesOff: false, source: source,
             isRequired: required, read: { .number($0[keyPath: path]) },
             write: { part, value in if case .number(let v) = value { part[keyPath: path] = v } })
    }

    /// A number setting that `null` turns off.
    public static func optionalNumber(_ key: String, _ path: WritableKeyPath<Part, Double?> & Sendable, _ unit: String,
                                      _ range: SettingRange, tune: [Double] = [], tuneOff: Bool = false, source: String) -> Self {
        Self(key: key, path: path, kind: .optionalNumber, unit: unit, range: range, tuningValues: tune, tuningTriesOff: tuneOff,
             source: source, isRequired: false, read: { $0[keyPath: path].map(SettingValue.number) ?? .off },
             write: { part, value in
                 switch value {
                 case .number(let v): part[keyPath: path] = v
                 case .off: part[keyPath: path] = nil
                 case .flag, .name: break
                 }
             })
    }

    /// A whole-number setting.
    public static func count(_ key: String, _ path: WritableKeyPath<Part, Int> & Sendable, _ unit: String,
                             _ range: ClosedRange<Double>, tune: [Double] = [], source: String) -> Self {
        Self(key: key, path: path, kind: .count, unit: unit, range: SettingRange(range), tuningValues: tune, tuningTriesOff: false,
             source: source, isRequired: false, read: { .number(Double($0[keyPath: path])) },
             write: { part, value in
                 if case .number(let v) = value { part[keyPath: path] = v.isFinite && abs(v) < 1e15 ? Int(v.rounded()) : 0 }
             })
    }

    /// A whole number that `null` leaves unknown (a device's finger count).
    public static func optionalCount(_ key: String, _ path: WritableKeyPath<Part, Int?> & Sendable, _ unit: String,
                                     _ range: ClosedRange<Double>, source: String) -> Self {
        Self(key: key, path: path, kind: .optionalCount, unit: unit, range: SettingRange(range), tuningValues: [], tuningTriesOff: false,
             source: source, isRequired: false, read: { $0[keyPath: path].map { SettingValue.number(Double($0)) } ?? .off },
             write: { part, value in
                 switch value {
                 case .number(let v): part[keyPath: path] = v.isFinite && abs(v) < 1e15 ? Int(v.rounded()) : nil
                 case .off: part[keyPath: path] = nil
                 case .flag, .name: break
                 }
             })
    }

    /// A flag setting.
    public static func flag(_ key: String, _ path: WritableKeyPath<Part, Bool> & Sendable, source: String) -> Self {
        Self(key: key, path: path, kind: .flag, unit: "", range: nil, tuningValues: [], tuningTriesOff: false, source: source,
             isRequired: false, read: { .flag($0[keyPath: path]) },
             write: { part, value in if case .flag(let v) = value { part[keyPath: path] = v } })
    }

    /// A setting that holds one of a type's names (its raw values).
    public static func choice<Choice: RawRepresentable & Sendable>(
        _ key: String, _ path: WritableKeyPath<Part, Choice> & Sendable, _ choices: [Choice], source: String
    ) -> Self where Choice.RawValue == String {
        Self(key: key, path: path, kind: .choice(choices.map(\.rawValue)), unit: "", range: nil, tuningValues: [], tuningTriesOff: false,
             source: source, isRequired: false, read: { .name($0[keyPath: path].rawValue) },
             write: { part, value in
                 if case .name(let name) = value, let choice = Choice(rawValue: name) { part[keyPath: path] = choice }
             })
    }

    /// This setting of a part held at `path` of a larger one, under `prefix` (`velocity`): how a
    /// part's table is made of its members' tables.
    public func nested<Outer>(in path: WritableKeyPath<Outer, Part> & Sendable, prefix: String) -> Setting<Outer> {
        let read = self.read, write = self.write
        // `path` is the part's own key path, so the outer one is `path` then it: `\.velocity.horizonMS`.
        guard let outerPath = (path as AnyKeyPath).appending(path: self.path) else {
            preconditionFailure("\(key)'s key path does not start at \(Part.self)")
        }
        return Setting<Outer>(key: prefix + "." + key, path: outerPath, kind: kind, unit: unit, range: range, tuningValues: tuningValues,
                              tuningTriesOff: tuningTriesOff, source: source, isRequired: isRequired,
                              read: { read($0[keyPath: path]) }, write: { write(&$0[keyPath: path], $1) })
    }

    /// The value in `part`.
    public func value(in part: Part) -> Value { read(part) }

    /// The value as a number: a flag reads 0 or 1, off and a name NaN.
    public func number(in part: Part) -> Double {
        switch read(part) {
        case .number(let v): v
        case .flag(let on): on ? 1 : 0
        case .name, .off: .nan
        }
    }

    /// Sets the value (a count is rounded; a flag is set when not 0).
    public func set(_ value: Value, in part: inout Part) { write(&part, value) }

    /// Sets the value from a number (a count is rounded; a flag is set when not 0).
    public func set(_ number: Double, in part: inout Part) {
        write(&part, kind == .flag ? .flag(number != 0) : .number(number))
    }

    /// The value as a settings file and `tune` show it: `1.25`, `true`, `null`, `touchpad`.
    public func text(in part: Part) -> String {
        switch read(part) {
        case .number(let v): SettingRange.text(v)
        case .flag(let on): on ? "true" : "false"
        case .name(let name): name
        case .off: "null"
        }
    }

    /// The value as a settings file holds it.
    public func json(in part: Part) -> JSONValue {
        switch read(part) {
        case .number(let v): .number(v)
        case .flag(let on): .bool(on)
        case .name(let name): .string(name)
        case .off: .null
        }
    }

    /// The value's problem with the range, if it has one (off, a flag and a name have none).
    public func rangeProblem(in part: Part) -> SettingsProblem.OutOfRange? {
        guard case .number(let v) = read(part) else { return nil }
        return rangeProblem(with: v)
    }

    /// `value`'s problem with the range, if it is outside it: the one range check of a number,
    /// whether it comes from a settings file, a part changed in memory or a command-line option.
    public func rangeProblem(with value: Double) -> SettingsProblem.OutOfRange? {
        guard let range, !range.contains(value) else { return nil }
        return SettingsProblem.OutOfRange(key: key, value: value, unit: unit, range: range)
    }
}

/// What kind of value a setting holds.
public enum SettingKind: Sendable, Hashable {
    /// A number.
    case number
    /// A whole number (a finger count, a polynomial degree).
    case count
    /// True or false.
    case flag
    /// A number that `null` turns off (a policy's optional rule, an unknown height).
    case optionalNumber
    /// A whole number that `null` leaves unknown (a device's finger count).
    case optionalCount
    /// One of these names.
    case choice([String])
}

/// A setting's value as a part holds it.
public enum SettingValue: Sendable, Hashable {
    /// A number (a count, too).
    case number(Double)
    /// A flag.
    case flag(Bool)
    /// A name.
    case name(String)
    /// Turned off (`null`).
    case off
}
