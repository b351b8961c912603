import Foundation
import GestureKit
import SettingsTable

// A settings file holds only what differs from the defaults (`tune --write`), so a reader sees what
// was tuned and a file keeps following the defaults where it never changed them. Only the sections
// whose decoder fills left-out keys from the defaults are written in part (the top level, the
// recognizer sections and their `velocity`, the policy); any other object (a completion timing, a
// device's traits, GNOME's figures) is written whole when it differs.
extension LabSettings {
    /// The settings as a settings file: pretty-printed JSON with sorted keys and a final newline,
    /// holding only the keys whose values differ from `LabSettings.default`. Decoding it gives these
    /// settings back (`LabSettingsWritingTests` checks the round trip).
    public func settingsFileData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(JSONValue.object(changedKeys())) + Data("\n".utf8)
    }

    /// The top-level keys that differ from the defaults, each section reduced to what it changes.
    func changedKeys() throws -> [String: JSONValue] {
        let mine = try JSONValue(encoding: self).object ?? [:]
        let defaults = try JSONValue(encoding: LabSettings.default).object ?? [:]
        var changed: [String: JSONValue] = [:]
        for (key, value) in mine {
            switch key {
            case "touchpadRecognizer", "touchscreenRecognizer":
                // A section that is present decodes over its class's defaults, and is kept even when it
                // changes nothing: an empty section still reads back as a configuration, not as nil.
                let classDefaults: GestureRecognizerConfiguration = key == "touchpadRecognizer" ? .default : .touchscreen
                let base = try JSONValue(encoding: classDefaults).object ?? [:]
                changed[key] = .object(Self.changes(in: value.object ?? [:], from: base, partial: ["velocity"]))
            case "policy":
                let section = Self.changes(in: value.object ?? [:], from: defaults[key]?.object ?? [:], partial: [])
                if !section.isEmpty { changed[key] = .object(section) }
            default:
                if defaults[key] != value { changed[key] = value }
            }
        }
        return changed
    }

    /// The members of `object` that differ from `base`; a member named in `partial` is itself reduced
    /// (one level) and left out when nothing in it changed.
    private static func changes(in object: [String: JSONValue], from base: [String: JSONValue],
                                partial: Set<String>) -> [String: JSONValue] {
        var changed: [String: JSONValue] = [:]
        for (key, value) in object where base[key] != value {
            if partial.contains(key), let members = value.object, let baseMembers = base[key]?.object {
                let nested = changes(in: members, from: baseMembers, partial: [])
                if !nested.isEmpty { changed[key] = .object(nested) }
            } else {
                changed[key] = value
            }
        }
        return changed
    }
}

private extension JSONValue {
    /// The value of `encodable` as JSON data (our own settings types always encode).
    init(encoding encodable: some Encodable) throws {
        self = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(encodable))
    }
}
