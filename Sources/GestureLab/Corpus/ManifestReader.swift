import Foundation
import GestureKit
import InteractiveTransition
import SettingsTable

/// What is wrong with a manifest, said in its own words: the entry (by number and file), the key,
/// what was expected and what was found. Never a raw `DecodingError`.
public struct ManifestError: Error, Sendable, CustomStringConvertible {
    /// The manifest's path.
    public var path: String
    /// 1-based entry number and its `file`, when the problem is inside an entry.
    public var entry: (number: Int, file: String?)?
    /// The key path inside the entry (or the manifest), e.g. `expect[1].kind`.
    public var key: String?
    public var expected: String
    public var found: String?

    public var description: String {
        var text = path + ": "
        if let entry {
            text += "entry \(entry.number)" + (entry.file.map { " (\(oneLine($0)))" } ?? "") + ": "
        }
        if let key { text += "key '\(key)': " }
        text += "expected " + expected
        if let found { text += ", found " + found }
        return text
    }
}

/// Reads a manifest by hand rather than through `Decodable`, so each mistake a person writing one
/// makes is named with its entry and key, and a key pinchlab does not know is an error listing the
/// known ones (a misspelt `fingrs` never silently passes unchecked).
enum ManifestReader {
    static let manifestKeys = ["$schema", "description", "generatorVersion", "synthesis", "entries"]
    static let entryKeys = ["file", "events", "transition", "expect", "gesture", "difficulty", "notes", "knownMismatch",
                            "deviceConfiguration", "device", "seed", "recipe"]
    static let expectationKeys = ["kind", "fingers", "direction", "outcome"]

    static func read(_ data: Data, path: String) throws -> CorpusManifest {
        func fail(_ key: String?, _ expected: String, _ found: String? = nil) -> ManifestError {
            ManifestError(path: path, entry: nil, key: key, expected: expected, found: found)
        }
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            throw fail(nil, "a JSON object (the manifest)", "text that is not JSON (\(jsonSyntaxProblem(error, in: data)))")
        }
        guard let object = root as? [String: Any] else {
            throw fail(nil, "a JSON object with \"entries\"", describe(root))
        }
        try checkKeys(object, known: manifestKeys) { fail($0, $1, $2) }
        guard let entriesValue = object["entries"] else {
            throw fail("entries", "a list of recordings with their labels", "nothing (the key is missing)")
        }
        guard let entries = entriesValue as? [Any] else { throw fail("entries", "a list", describe(entriesValue)) }
        var manifest = CorpusManifest(entries: [])
        manifest.description = try optionalString(object, "description") { fail($0, $1, $2) }
        if let version = object["generatorVersion"] {
            guard let number = integer(version) else { throw fail("generatorVersion", "an integer", describe(version)) }
            manifest.generatorVersion = number
        }
        if let synthesis = object["synthesis"] {
            manifest.synthesis = try decode(SynthesisParameters.self, synthesis) {
                fail("synthesis", "the generator's synthesis parameters (\($0))", nil)
            }
        }
        for (index, value) in entries.enumerated() {
            manifest.entries.append(try entry(value, number: index + 1, path: path))
        }
        return manifest
    }

    private static func entry(_ value: Any, number: Int, path: String) throws -> CorpusEntry {
        let file = (value as? [String: Any])?["file"] as? String
        func fail(_ key: String?, _ expected: String, _ found: String?) -> ManifestError {
            ManifestError(path: path, entry: (number, file), key: key, expected: expected, found: found)
        }
        guard let object = value as? [String: Any] else {
            throw fail(nil, "an object with \"file\" and \"expect\"", describe(value))
        }
        try checkKeys(object, known: entryKeys, fail)
        guard let file, !file.isEmpty else {
            throw fail("file", "the recording's path (relative to the manifest, or absolute)",
                       object["file"].map(describe) ?? "nothing (the key is missing)")
        }
        guard let expectValue = object["expect"] else {
            throw fail("expect", "a list of the gestures made, e.g. [{\"kind\": \"pinch\", \"fingers\": 2}] "
                       + "or [{\"kind\": \"none\"}]", "nothing (the key is missing)")
        }
        guard let expectList = expectValue as? [Any] else { throw fail("expect", "a list", describe(expectValue)) }
        var expectations: [GestureExpectation] = []
        for (index, item) in expectList.enumerated() {
            expectations.append(try expectation(item, key: "expect[\(index)]", fail))
        }
        if expectations.count > 1 && expectations.contains(where: { $0.kind == .none }) {
            throw fail("expect", "\"none\" alone (no gesture at all), not in a list with gestures",
                       "\(expectations.count) expectations")
        }
        let firstKind = expectations.first?.kind
        var transition = firstKind == .pan ? "pan-dismiss" : "pinch-dismiss"
        if let value = object["transition"] {
            guard let name = value as? String, TransitionName(rawValue: name) != nil else {
                throw fail("transition", "one of " + list(TransitionName.self), describe(value))
            }
            transition = name
        }
        var entry = CorpusEntry(file: file, transition: transition, expect: expectations)
        entry.events = try optionalString(object, "events", fail)
        if entry.events?.isEmpty == true {
            throw fail("events", "the .events half's path (relative to the manifest, or absolute)", "an empty string")
        }
        entry.gesture = try optionalString(object, "gesture", fail)
        entry.difficulty = try optionalString(object, "difficulty", fail)
        entry.notes = try optionalString(object, "notes", fail)
        entry.knownMismatch = try optionalString(object, "knownMismatch", fail)
        if let value = object["deviceConfiguration"] {
            entry.deviceConfiguration = try deviceConfiguration(value, fail)
        }
        if let device = object["device"] {
            guard let name = device as? String, let preset = CorpusEntry.Device(rawValue: name) else {
                throw fail("device", "the generator's device preset, one of "
                           + CorpusEntry.Device.allCases.map(\.rawValue).joined(separator: ", "), describe(device))
            }
            entry.device = preset
        }
        if let seed = object["seed"] {
            guard !isBoolean(seed), let number = seed as? NSNumber, let value = UInt64(number.stringValue) else {
                throw fail("seed", "a non-negative integer", describe(seed))
            }
            entry.seed = value
        }
        if let recipe = object["recipe"] {
            entry.recipe = try decode(GestureRecipe.self, recipe) { fail("recipe", "a generator recipe (\($0))", nil) }
        }
        return entry
    }

    /// The owner's device configuration, read through the touchpad recognizer's settings table
    /// (`OwnerDeviceConfiguration.settings`): the same names and choices as a settings file's.
    private static func deviceConfiguration(_ value: Any, _ fail: (String?, String, String?) -> ManifestError)
        throws -> OwnerDeviceConfiguration {
        let key = "deviceConfiguration"
        guard let object = value as? [String: Any] else {
            throw fail(key, "the owner's libinput settings, such as {\"scrollMethod\": \"edge\"}", describe(value))
        }
        try checkKeys(object, known: OwnerDeviceConfiguration.settings.keys, prefix: key + ".", fail)
        let json: JSONValue
        do {
            json = try JSONSyntax.parse(Array(JSONSerialization.data(withJSONObject: object)))
        } catch {
            throw fail(key, "the owner's libinput settings, such as {\"scrollMethod\": \"edge\"}", "\(error)")
        }
        do {
            return try OwnerDeviceConfiguration(settings: json, at: [key])
        } catch {
            let at = { (name: String) in (error.section + [name]).joined(separator: ".") }
            switch error.reason {
            case .unknownName(let setting, let name, let choices, _):
                throw fail(at(setting), "one of " + choices.joined(separator: ", "), describe(name))
            case .wrongType(let name, let expected, let found):
                throw fail(at(name), expected, found)
            default:
                throw fail(key, "the owner's libinput settings", error.description)
            }
        }
    }

    private static func expectation(_ value: Any, key: String,
                                    _ fail: (String?, String, String?) -> ManifestError) throws -> GestureExpectation {
        guard let object = value as? [String: Any] else {
            throw fail(key, "an object such as {\"kind\": \"pinch\", \"fingers\": 2, \"direction\": \"in\"}", describe(value))
        }
        try checkKeys(object, known: expectationKeys, prefix: key + ".", fail)
        guard let kindValue = object["kind"] else {
            throw fail(key + ".kind", "one of " + list(GestureExpectation.Kind.self), "nothing (the key is missing)")
        }
        guard let kindName = kindValue as? String, let kind = GestureExpectation.Kind(rawValue: kindName) else {
            throw fail(key + ".kind", "one of " + list(GestureExpectation.Kind.self), describe(kindValue))
        }
        var result = GestureExpectation(kind: kind)
        if let fingers = object["fingers"] {
            guard kind != .none else { throw fail(key + ".fingers", "no finger count for kind \"none\"", describe(fingers)) }
            guard let count = integer(fingers), (1...TouchFrame.capacity).contains(count) else {
                throw fail(key + ".fingers", "a finger count from 1 to \(TouchFrame.capacity)", describe(fingers))
            }
            result.fingers = count
        }
        if let value = object["direction"] {
            let allowed: [GestureExpectation.Direction] = kind == .pinch ? [.in, .out] : kind == .pan ? [.up, .down, .left, .right] : []
            let name = value as? String
            guard let direction = name.flatMap(GestureExpectation.Direction.init(rawValue:)), allowed.contains(direction) else {
                let expected = allowed.isEmpty ? "no direction for kind \"\(kind.rawValue)\""
                    : "a \(kind.rawValue)'s direction, one of " + allowed.map(\.rawValue).joined(separator: ", ")
                throw fail(key + ".direction", expected, describe(value))
            }
            result.direction = direction
        }
        if let value = object["outcome"] {
            guard let name = value as? String, let outcome = GestureExpectation.Outcome(rawValue: name) else {
                throw fail(key + ".outcome", "one of " + list(GestureExpectation.Outcome.self), describe(value))
            }
            result.outcome = outcome
        }
        return result
    }

    // MARK: - Helpers

    private static func checkKeys(_ object: [String: Any], known: [String], prefix: String = "",
                                  _ fail: (String?, String, String?) -> ManifestError) throws {
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw fail(prefix + unknown, "one of the known keys (" + known.joined(separator: ", ") + ")",
                       "an unknown key")
        }
    }

    private static func optionalString(_ object: [String: Any], _ key: String,
                                       _ fail: (String?, String, String?) -> ManifestError) throws -> String? {
        guard let value = object[key] else { return nil }
        guard let text = value as? String else { throw fail(key, "a string", describe(value)) }
        return text
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ value: Any, _ fail: (String) -> ManifestError) throws -> T {
        do {
            let data = try JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed])
            return try JSONDecoder().decode(T.self, from: data)
        } catch let error as DecodingError {
            throw fail(decodingProblem(error))
        } catch {
            throw fail("\(error)")
        }
    }

    /// A decoding error as "key 'a.b': what", for the generator's own nested types.
    static func decodingProblem(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context): return "missing key '\(path(context).isEmpty ? "" : path(context) + ".")\(key.stringValue)'"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return "at '\(path(context))': \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }

    private static func integer(_ value: Any) -> Int? {
        guard !isBoolean(value), let number = value as? NSNumber else { return nil }
        let double = number.doubleValue
        return double.rounded() == double ? Int(exactly: double) : nil
    }

    private static func list<T: CaseIterable & RawRepresentable>(_ type: T.Type) -> String where T.RawValue == String {
        T.allCases.map(\.rawValue).joined(separator: ", ")
    }

    /// A found value, short and on one line: `"pan-down"`, `3`, `a list`, `an object`, `null`.
    static func describe(_ value: Any) -> String {
        switch value {
        case is NSNull: return "null"
        case let text as String:
            let short = text.count > 40 ? String(text.prefix(40)) + "..." : text
            return "\"" + oneLine(short) + "\""
        case let number as NSNumber:
            if isBoolean(value) { return number.boolValue ? "true" : "false" }
            return number.stringValue
        case is [Any]: return "a list"
        case is [String: Any]: return "an object"
        default: return "\(type(of: value))"
        }
    }

    /// Foundation says "around character N"; a person editing the file wants the line.
    private static func jsonSyntaxProblem(_ error: Error, in data: Data) -> String {
        // The settings files' syntax check: line, column and what was expected.
        if let syntax = JSONSyntax.firstError(in: data) { return "line \(syntax.line), column \(syntax.column): \(syntax)" }
        guard let text = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String else { return "malformed JSON" }
        guard let range = text.range(of: "character "),
              let offset = Int(text[range.upperBound...].prefix { $0.isNumber }) else { return oneLine(text) }
        let line = data.prefix(offset).filter { $0 == UInt8(ascii: "\n") }.count + 1
        return "line \(line): " + oneLine(text.replacingOccurrences(of: " around character \(offset)", with: ""))
    }

    /// JSONSerialization gives true and false as NSNumber, which also casts from 0 and 1: only the
    /// boolean's own class tells them apart.
    private static func isBoolean(_ value: Any) -> Bool {
        String(describing: type(of: value)).contains("Boolean")
    }
}

/// Control characters (line breaks, escapes) as spaces: a file name from a manifest is data.
public func oneLine(_ text: String) -> String {
    String(String.UnicodeScalarView(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }))
}
