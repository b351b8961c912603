import Foundation
import GestureCore
import InteractiveTransition
import SettingsTable

/// What is wrong with a manifest, said in its own words: where in the file (line and column, as a
/// compiler gives them), the entry (by number and file), the key, what was expected and what was
/// found. Never a raw `DecodingError`.
package struct ManifestError: Error, Sendable, CustomStringConvertible {
    /// The manifest's path.
    package var path: String
    /// 1-based line and column (in bytes) of the value or key the problem is about.
    package var line: Int
    package var column: Int
    /// 1-based entry number and its `file`, when the problem is inside an entry.
    package var entry: (number: Int, file: String?)?
    /// The key path inside the entry (or the manifest), e.g. `expect[1].kind`.
    package var key: String?
    package var expected: String
    package var found: String?

    package var description: String {
        var text = "\(path):\(line):\(column): "
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
///
/// The text is checked once (`JSONText`, the reader of every pinchlab JSON file) and then read in
/// place: the entries one at a time, each entry's fields made from its own span and dropped once
/// its `CorpusEntry` is made. Reading takes the text's bytes and the entries, no tree of the
/// manifest's values. Each problem points at the span it is about (`Failure`), for its line.
enum ManifestReader {
    static let manifestKeys = ["$schema", "description", "generatorVersion", "synthesis", "entries"]
    static let entryKeys = ["file", "events", "transition", "expect", "gesture", "difficulty", "notes", "knownMismatch",
                            "deviceConfiguration", "device", "seed", "recipe"]
    static let expectationKeys = ["kind", "fingers", "direction", "outcome"]

    typealias Span = JSONText.Span
    /// A problem at a byte of the text: the key path, what was expected, what was found.
    typealias Failure = (_ at: Int, _ key: String?, _ expected: String, _ found: String?) -> ManifestError

    static func read(_ bytes: [UInt8], path: String) throws -> CorpusManifest {
        let text: JSONText
        do {
            text = try JSONText(bytes)
        } catch {
            throw ManifestError(path: path, line: error.line, column: error.column, entry: nil, key: nil,
                                expected: "a JSON object (the manifest): \(error.expected)", found: error.found)
        }
        let fail: Failure = { at, key, expected, found in
            let (line, column) = text.position(ofByte: at)
            return ManifestError(path: path, line: line, column: column, entry: nil, key: key, expected: expected, found: found)
        }
        let reader = SpanReader(text: text)
        let top = text.root.range.lowerBound
        guard text.kind(of: text.root) == .object else {
            throw fail(top, nil, "a JSON object with \"entries\"", reader.describe(text.root))
        }
        let object = reader.object(text.root)
        try reader.checkKeys(object, of: text.root, known: manifestKeys, fail)
        guard let entriesSpan = object["entries"] else {
            throw fail(top, "entries", "a list of recordings with their labels", "nothing (the key is missing)")
        }
        guard text.kind(of: entriesSpan) == .array else {
            throw fail(entriesSpan.range.lowerBound, "entries", "a list", reader.describe(entriesSpan))
        }
        var manifest = CorpusManifest(entries: [])
        manifest.description = try reader.optionalString(object, "description", fail)
        if let version = object["generatorVersion"] {
            guard let number = reader.integer(version) else {
                throw fail(version.range.lowerBound, "generatorVersion", "an integer", reader.describe(version))
            }
            manifest.generatorVersion = number
        }
        if let synthesis = object["synthesis"] {
            manifest.synthesis = try reader.decode(SynthesisParameters.self, synthesis) {
                fail(synthesis.range.lowerBound, "synthesis", "the generator's synthesis parameters (\($0))", nil)
            }
        }
        // Counted first (passing over the text takes no memory), so the entries are one array of
        // their own size, not the up to three times as much an array grown by doubling holds at once.
        manifest.entries.reserveCapacity(text.elements(of: entriesSpan).reduce(0) { count, _ in count + 1 })
        for (index, span) in text.elements(of: entriesSpan).enumerated() {
            manifest.entries.append(try entry(span, number: index + 1, reader: reader, path: path))
        }
        return manifest
    }

    private static func entry(_ span: Span, number: Int, reader: SpanReader, path: String) throws -> CorpusEntry {
        let object = reader.object(span)
        let file = object["file"].flatMap(reader.text.string)
        let fail: Failure = { at, key, expected, found in
            let (line, column) = reader.text.position(ofByte: at)
            return ManifestError(path: path, line: line, column: column, entry: (number, file), key: key, expected: expected, found: found)
        }
        let start = span.range.lowerBound
        guard reader.text.kind(of: span) == .object else {
            throw fail(start, nil, "an object with \"file\" and \"expect\"", reader.describe(span))
        }
        try reader.checkKeys(object, of: span, known: entryKeys, fail)
        guard let file, !file.isEmpty else {
            throw fail(object["file"]?.range.lowerBound ?? start, "file", "the recording's path (relative to the manifest, or absolute)",
                       object["file"].map(reader.describe) ?? "nothing (the key is missing)")
        }
        guard let expectSpan = object["expect"] else {
            throw fail(start, "expect", "a list of the gestures made, e.g. [{\"kind\": \"pinch\", \"fingers\": 2}] "
                       + "or [{\"kind\": \"none\"}]", "nothing (the key is missing)")
        }
        guard reader.text.kind(of: expectSpan) == .array else {
            throw fail(expectSpan.range.lowerBound, "expect", "a list", reader.describe(expectSpan))
        }
        var expectations: [GestureExpectation] = []
        for (index, item) in reader.text.elements(of: expectSpan).enumerated() {
            expectations.append(try expectation(item, key: "expect[\(index)]", reader: reader, fail))
        }
        if expectations.count > 1 && expectations.contains(where: { $0.kind == .none }) {
            throw fail(expectSpan.range.lowerBound, "expect", "\"none\" alone (no gesture at all), not in a list with gestures",
                       "\(expectations.count) expectations")
        }
        let firstKind = expectations.first?.kind
        var transition = firstKind == .pan ? "pan-dismiss" : "pinch-dismiss"
        if let value = object["transition"] {
            guard let name = reader.text.string(value), TransitionName(rawValue: name) != nil else {
                throw fail(value.range.lowerBound, "transition", "one of " + list(TransitionName.self), reader.describe(value))
            }
            transition = name
        }
        var entry = CorpusEntry(file: file, transition: transition, expect: expectations)
        entry.events = try reader.optionalString(object, "events", fail)
        if entry.events?.isEmpty == true, let events = object["events"] {
            throw fail(events.range.lowerBound, "events", "the .events half's path (relative to the manifest, or absolute)", "an empty string")
        }
        entry.gesture = try reader.optionalString(object, "gesture", fail)
        entry.difficulty = try reader.optionalString(object, "difficulty", fail)
        entry.notes = try reader.optionalString(object, "notes", fail)
        entry.knownMismatch = try reader.optionalString(object, "knownMismatch", fail)
        if let value = object["deviceConfiguration"] {
            entry.deviceConfiguration = try deviceConfiguration(value, inEntry: span, reader: reader, fail)
        }
        if let device = object["device"] {
            guard let name = reader.text.string(device), let preset = CorpusEntry.Device(rawValue: name) else {
                throw fail(device.range.lowerBound, "device", "the generator's device preset, one of "
                           + CorpusEntry.Device.allCases.map(\.rawValue).joined(separator: ", "), reader.describe(device))
            }
            entry.device = preset
        }
        if let seed = object["seed"] {
            // From the digits as written: a seed past 2^53 is not rounded through a double.
            guard reader.text.kind(of: seed) == .number, let value = UInt64(reader.text.source(of: seed)) else {
                throw fail(seed.range.lowerBound, "seed", "a non-negative integer", reader.describe(seed))
            }
            entry.seed = value
        }
        if let recipe = object["recipe"] {
            entry.recipe = try reader.decode(GestureRecipe.self, recipe) {
                fail(recipe.range.lowerBound, "recipe", "a generator recipe (\($0))", nil)
            }
        }
        return entry
    }

    /// The owner's device configuration, read through the touchpad recognizer's settings table
    /// (`OwnerDeviceConfiguration.settings`): the same names and choices as a settings file's. Its
    /// members are listed once; the table checks their keys (an unknown one is its problem).
    private static func deviceConfiguration(_ span: Span, inEntry entry: Span, reader: SpanReader, _ fail: Failure)
        throws -> OwnerDeviceConfiguration {
        let key = "deviceConfiguration"
        guard reader.text.kind(of: span) == .object else {
            throw fail(span.range.lowerBound, key, "the owner's libinput settings, such as {\"scrollMethod\": \"edge\"}",
                       reader.describe(span))
        }
        // Its settings are names and numbers: a list or an object where one belongs is refused by
        // its kind alone, so it is not made (a long list would take 36 bytes a byte of it).
        let written = reader.text.members(of: span)
        var members: [String: JSONValue] = [:]
        for (name, value) in written {
            switch reader.text.kind(of: value) {
            case .array: members[name] = .array([])
            case .object: members[name] = .object([:])
            default: members[name] = reader.text.value(of: value)
            }
        }
        do {
            return try OwnerDeviceConfiguration(settings: .object(members), at: [key])
        } catch {
            // At the problem's key below the section, else at the section's own key.
            let at = error.keyPath.dropFirst().first.flatMap { reader.text.keyStart(of: $0, in: span) }
                ?? reader.text.keyStart(of: key, in: entry) ?? span.range.lowerBound
            let path = error.keyPath.joined(separator: ".")
            switch error.reason {
            case .unknownKeys:
                throw fail(at, path, "one of the known keys (" + OwnerDeviceConfiguration.settings.keys.joined(separator: ", ") + ")",
                           "an unknown key")
            case .unknownName(_, let name, let choices, _):
                throw fail(at, path, "one of " + choices.joined(separator: ", "), describe(string: name))
            case .wrongType(_, let expected, let found):
                throw fail(at, path, expected, found)
            default:
                throw fail(at, key, "the owner's libinput settings", error.description)
            }
        }
    }

    private static func expectation(_ span: Span, key: String, reader: SpanReader, _ fail: Failure) throws -> GestureExpectation {
        guard reader.text.kind(of: span) == .object else {
            throw fail(span.range.lowerBound, key, "an object such as {\"kind\": \"pinch\", \"fingers\": 2, \"direction\": \"in\"}", reader.describe(span))
        }
        let object = reader.object(span)
        try reader.checkKeys(object, of: span, known: expectationKeys, prefix: key + ".", fail)
        guard let kindValue = object["kind"] else {
            throw fail(span.range.lowerBound, key + ".kind", "one of " + list(GestureExpectation.Kind.self), "nothing (the key is missing)")
        }
        guard let kindName = reader.text.string(kindValue), let kind = GestureExpectation.Kind(rawValue: kindName) else {
            throw fail(kindValue.range.lowerBound, key + ".kind", "one of " + list(GestureExpectation.Kind.self), reader.describe(kindValue))
        }
        var result = GestureExpectation(kind: kind)
        if let fingers = object["fingers"] {
            guard kind != .none else {
                throw fail(fingers.range.lowerBound, key + ".fingers", "no finger count for kind \"none\"", reader.describe(fingers))
            }
            guard let count = reader.integer(fingers), (1...TouchFrame.capacity).contains(count) else {
                throw fail(fingers.range.lowerBound, key + ".fingers", "a finger count from 1 to \(TouchFrame.capacity)", reader.describe(fingers))
            }
            result.fingers = count
        }
        if let value = object["direction"] {
            let allowed: [GestureExpectation.Direction] = kind == .pinch ? [.in, .out] : kind == .pan ? [.up, .down, .left, .right] : []
            let name = reader.text.string(value)
            guard let direction = name.flatMap(GestureExpectation.Direction.init(rawValue:)), allowed.contains(direction) else {
                let expected = allowed.isEmpty ? "no direction for kind \"\(kind.rawValue)\""
                    : "a \(kind.rawValue)'s direction, one of " + allowed.map(\.rawValue).joined(separator: ", ")
                throw fail(value.range.lowerBound, key + ".direction", expected, reader.describe(value))
            }
            result.direction = direction
        }
        if let value = object["outcome"] {
            guard let name = reader.text.string(value), let outcome = GestureExpectation.Outcome(rawValue: name) else {
                throw fail(value.range.lowerBound, key + ".outcome", "one of " + list(GestureExpectation.Outcome.self), reader.describe(value))
            }
            result.outcome = outcome
        }
        return result
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

    private static func list<T: CaseIterable & RawRepresentable>(_ type: T.Type) -> String where T.RawValue == String {
        T.allCases.map(\.rawValue).joined(separator: ", ")
    }

    /// A found string, short and on one line: `"pan-down"`.
    static func describe(string text: String) -> String {
        let short = text.count > 40 ? String(text.prefix(40)) + "..." : text
        return "\"" + oneLine(short) + "\""
    }
}

/// The manifest's values read from their spans of the text, as the reader's messages need them.
private struct SpanReader {
    let text: JSONText

    /// An object's members by key (a key written twice keeps its last value, as JSONDecoder does);
    /// empty for any other value.
    func object(_ span: JSONText.Span) -> [String: JSONText.Span] {
        var members: [String: JSONText.Span] = [:]
        for (key, value) in text.members(of: span) { members[key] = value }
        return members
    }

    /// An unknown key of the object at `span` is named at its own place in the text.
    func checkKeys(_ object: [String: JSONText.Span], of span: JSONText.Span, known: [String], prefix: String = "",
                   _ fail: ManifestReader.Failure) throws {
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw fail(text.keyStart(of: unknown, in: span) ?? span.range.lowerBound, prefix + unknown,
                       "one of the known keys (" + known.joined(separator: ", ") + ")", "an unknown key")
        }
    }

    func optionalString(_ object: [String: JSONText.Span], _ key: String, _ fail: ManifestReader.Failure) throws -> String? {
        guard let span = object[key] else { return nil }
        guard let string = text.string(span) else { throw fail(span.range.lowerBound, key, "a string", describe(span)) }
        return string
    }

    /// A whole number written as a number (`2`, `2.0`), in `Int`'s range.
    func integer(_ span: JSONText.Span) -> Int? {
        guard text.kind(of: span) == .number, case .number(let double) = text.value(of: span) else { return nil }
        return double.rounded() == double ? Int(exactly: double) : nil
    }

    /// The generator's own nested types, decoded from their span's bytes alone.
    func decode<T: Decodable>(_ type: T.Type, _ span: JSONText.Span, _ fail: (String) -> ManifestError) throws -> T {
        do {
            return try text.decode(T.self, at: span)
        } catch let error as DecodingError {
            throw fail(ManifestReader.decodingProblem(error))
        } catch {
            throw fail("\(error)")
        }
    }

    /// A found value, short and on one line: `"pan-down"`, `3`, `a list`, `an object`, `null`; a
    /// number as it is written.
    func describe(_ span: JSONText.Span) -> String {
        switch text.kind(of: span) {
        case .null: "null"
        case .bool: String(text.source(of: span))
        case .number: oneLine(String(text.source(of: span).prefix(40)))
        case .string: ManifestReader.describe(string: text.string(span) ?? "")
        case .array: "a list"
        case .object: "an object"
        }
    }
}

/// Control characters (line breaks, escapes) as spaces: a file name from a manifest is data.
package func oneLine(_ text: String) -> String {
    String(String.UnicodeScalarView(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }))
}
