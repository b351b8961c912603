/// Why a settings section cannot be read: where (the section's key path) and the typed reason.
/// Its text is made only when it is shown (`description`).
public struct SettingsProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// A number outside its range: the key within its object, the value and the range.
    public struct OutOfRange: Sendable, Hashable {
        /// The key, within its object.
        public let key: String
        /// The value given.
        public let value: Double
        /// The value's unit.
        public let unit: String
        /// The values the key may take.
        public let range: SettingRange

        /// "minMoveMM: -3 mm is outside 0...50 mm".
        public var text: String { "\(key): \(range.outsideText(value, unit: unit))" }

        /// The same problem under another name: a dotted key's last part, when the problem is
        /// reported in the object that holds it.
        func named(_ key: String) -> OutOfRange { OutOfRange(key: key, value: value, unit: unit, range: range) }
    }

    /// What is wrong.
    public enum Reason: Sendable, Hashable {
        /// Keys no setting has (full key paths, sorted), and the keys known where the first one is.
        case unknownKeys([String], known: [String])
        /// A number outside its range.
        case outOfRange(OutOfRange)
        /// A figure several numbers make together (a spring's period), outside its range.
        case figureOutOfRange(figure: String, value: Double, unit: String, range: SettingRange)
        /// A value of the wrong JSON type.
        case wrongType(key: String, expected: String, found: String)
        /// A required key left out.
        case missingKey(String)
        /// A name that is none of the choices (a timing, a device class, a policy kind).
        case unknownName(what: String, name: String, choices: [String], orElse: String?)
        /// A key of another kind of the part (a Hyprland key in a KWin policy).
        case notASettingOfKind(key: String, kind: String, keys: [String])
        /// The part's own rule, in its own words.
        case invalid(String)
    }

    /// The key path of the object the problem is in; empty at the top of the file.
    public let section: [String]
    /// What is wrong.
    public let reason: Reason

    /// A problem in the section at this key path.
    public init(at section: [String], _ reason: Reason) {
        self.section = section
        self.reason = reason
    }

    /// The same problem, inside `outer` (a part's table used for a section of a larger file).
    public func inside(_ outer: [String]) -> SettingsProblem {
        guard case .unknownKeys(let keys, let known) = reason else { return SettingsProblem(at: outer + section, reason) }
        return SettingsProblem(at: [], .unknownKeys(keys.map { (outer + [$0]).joined(separator: ".") }, known: known))
    }

    /// The section's key path and the problem, as one line.
    public var description: String {
        let at = section.isEmpty ? "" : "at '\(section.joined(separator: "."))': "
        switch reason {
        case .unknownKeys(let keys, let known):
            let first = keys.first ?? ""
            let parent = first.split(separator: ".").dropLast().joined(separator: ".")
            return "unknown key '\(first)'"
                + (keys.count > 1 ? " (and \(keys.count - 1) more: \(keys.dropFirst().joined(separator: ", ")))" : "")
                + "; known \(parent.isEmpty ? "keys" : "keys in '\(parent)'"): \(known.joined(separator: ", "))"
        case .outOfRange(let problem):
            return at + problem.text
        case .figureOutOfRange(let figure, let value, let unit, let range):
            return at + "\(figure): \(range.outsideText(value, unit: unit))"
        case .wrongType(let key, let expected, let found):
            return "wrong type at '\((section + [key]).joined(separator: "."))': expected \(expected), found \(found)"
        case .missingKey(let key):
            return at + "expected the key '\(key)'"
        case .unknownName(let what, let name, let choices, let orElse):
            return at + "unknown \(what) '\(name)'; choose one of \(choices.joined(separator: ", "))" + (orElse.map { ", or \($0)" } ?? "")
        case .notASettingOfKind(let key, let kind, let keys):
            return at + "'\(key)' is not a setting of a \(kind); its keys: \(keys.joined(separator: ", "))"
        case .invalid(let text):
            return at + text
        }
    }
}
