import Foundation
import GestureCore
import SettingsTable

// A settings file holds only what differs from the defaults (`tune --write`), so a reader sees what
// was tuned and a file keeps following the defaults where it never changed them. Each part's
// changes come from its settings table (`SettingsTable.changes`), over the base its reading
// starts from: the defaults, the recognizer class's defaults, the policy kind's preset.
extension LabSettings {
    /// The settings as a settings file: pretty-printed JSON with sorted keys and a final newline,
    /// holding only the keys whose values differ from `LabSettings.default`. Decoding it gives these
    /// settings back (`LabSettingsWritingTests` checks the round trip).
    public func settingsFileData() throws -> Data {
        let changed = try changedKeys()
        // Foundation pretty-prints an empty object as "{\n\n}": the file of no changed setting
        // (what tune writes when nothing beats the defaults) reads better as "{}".
        if changed.isEmpty { return Data("{}\n".utf8) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(JSONValue.object(changed)) + Data("\n".utf8)
    }

    /// The top-level keys that differ from the defaults, each section reduced to what it changes.
    func changedKeys() throws -> [String: JSONValue] {
        var changed = Self.settings.changes(self, from: .default)
        // A section that is present reads over its class's defaults, and is kept even when it
        // changes nothing: an empty section still reads back as a configuration, not as nil.
        if let touchpadRecognizer {
            changed["touchpadRecognizer"] = .object(GestureRecognizerConfiguration.settings.changes(touchpadRecognizer, from: .default))
        }
        if let touchscreenRecognizer {
            changed["touchscreenRecognizer"] = .object(GestureRecognizerConfiguration.settings.changes(touchscreenRecognizer,
                                                                                                        from: .touchscreen))
        }
        let policyChanges = policy.changes(from: .default)
        if !policyChanges.isEmpty { changed["policy"] = .object(policyChanges) }
        // A timing is written whole: its reading starts from no defaults.
        if let completion { changed["completion"] = try JSONText.value(encoding: completion) }
        return changed
    }
}
