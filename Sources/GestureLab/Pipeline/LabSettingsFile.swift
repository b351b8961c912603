import Foundation
import GestureCore
import InteractiveTransition
import SettingsTable
import SystemPackage

// The mappings' keys, and reading a settings file (`--config`): parsed once, then every key checked
// and decoded from the tables of the parts (the recognizer per device class, each policy kind, the
// completion timings, these mappings), in the order a user fixing the file needs them: its size, the
// JSON's syntax with line and column, unknown keys (a misspelt key would otherwise keep its
// default), each section's types and ranges, then the figures numbers make together.
extension LabSettings {
    /// The top-level numbers: how a gesture maps to progress and how the output is sampled.
    public static let settings = SettingsTable<LabSettings>([
        .number("panDismissDistanceMM", \.panDismissDistanceMM, "mm", SettingRange(0, 1000, lowerIsOpen: true),
                source: "seed 003 divides by 100 points (16 mm on a phone); 40 mm is two thirds of a 60 mm touchpad; above 0 (it divides)"),
        .number("zoomPresentScaleRange", \.zoomPresentScaleRange, "", SettingRange(0, 100, lowerIsOpen: true),
                source: "pinching out to twice the spread (1) presents fully; above 0 (it divides)"),
        .number("animationFrameRateHz", \.animationFrameRateHz, "Hz", SettingRange(1...1000),
                source: "display rate, 60 Hz; 1000 Hz is the shortest spring's tick (SpringParameters.responseRange)"),
        // At 0.05 the longest curve completion (a whole 1 s zoom) takes 20 s: inside the 60 s the
        // driver lets an animation run, so it never cuts one short; a spring is checked with its
        // settle time (`figureProblem`).
        .number("completionSpeed", \.completionSpeed, "", SettingRange(0.05...1000),
                source: "UIKit completionSpeed 1; at 0.05 a whole 1 s curve takes 20 s, inside the driver's 60 s limit"),
    ])

    /// Every key a settings file may hold, dotted (`touchpadRecognizer.velocity.horizonMS`): each
    /// part's table under its section, every policy kind's keys (a key of another kind than the
    /// file's is the policy's error, naming the kind), and both kinds of completion timing.
    public static let everyKey: [String] = settings.keys
        + ["touchpadRecognizer", "touchscreenRecognizer"].flatMap { section in
            GestureRecognizerConfiguration.settings.keys.map { section + "." + $0 }
        }
        + CompletionPolicy.everyKey.map { "policy." + $0 }
        + CompletionTiming.everyKey.map { "completion." + $0 }

    /// The key paths in `json` that no setting has, as `policy.flickVelocty`; empty when all are known.
    public static func unknownKeys(in json: JSONValue) -> [String] {
        SettingsKeys.unknownKeys(in: json, known: Set(everyKey))
    }

    /// The keys known at `path` (dot-separated, "" for the top level), for an error message.
    public static func knownKeys(at path: String) -> [String] {
        SettingsKeys.children(at: path, known: everyKey)
    }

    /// The settings a settings file's JSON holds: every key left out keeps its default, and each
    /// recognizer section its own class's defaults; `null` for a section keeps the defaults.
    public init(settings json: JSONValue) throws(SettingsProblem) {
        guard var members = json.object else {
            throw SettingsProblem(at: [], .invalid("not a pinchlab settings file: expected a JSON object, found \(json.kindName)"))
        }
        try SettingsKeys.refuseUnknownKeys(in: json, known: Self.everyKey)
        let touchpad = members.removeValue(forKey: "touchpadRecognizer"), touchscreen = members.removeValue(forKey: "touchscreenRecognizer")
        let policy = members.removeValue(forKey: "policy"), completion = members.removeValue(forKey: "completion")
        self = try Self.settings.decode(.object(members), over: .default)
        if let touchpad, touchpad != .null {
            touchpadRecognizer = try GestureRecognizerConfiguration.settings.decode(touchpad, over: .default, at: ["touchpadRecognizer"])
        }
        if let touchscreen, touchscreen != .null {
            touchscreenRecognizer = try GestureRecognizerConfiguration.settings.decode(touchscreen, over: .touchscreen,
                                                                                       at: ["touchscreenRecognizer"])
        }
        if let policy, policy != .null { self.policy = try CompletionPolicy(settings: policy, over: .default, at: ["policy"]) }
        if let completion, completion != .null { self.completion = try CompletionTiming(settings: completion, at: ["completion"]) }
        if let problem = figureProblem() { throw problem }
    }

    /// The settings a settings file's bytes hold: at most `fileBytesMax` of them, one JSON value.
    /// A problem with a value is placed at the key it is about (`SettingsProblem.keyPath`), so the
    /// message names the line to fix.
    public init(fileBytes bytes: [UInt8]) throws(LabSettingsError.Reason) {
        guard bytes.count <= Self.fileBytesMax else { throw .tooLarge(limit: Self.fileBytesMax) }
        let text: JSONText
        do { text = try JSONText(bytes) } catch { throw .syntax(error) }
        do {
            try self.init(settings: text.wholeValue)
        } catch {
            let (line, column) = text.position(ofKeyPath: error.keyPath)
            throw .settings(error, line: line, column: column)
        }
    }

    /// The settings file at `path` (`--config`), read with a bound (`/dev/zero` is refused, not read
    /// without end), parsed once, checked and decoded from the tables.
    public init(contentsOf path: String) throws(LabSettingsError) {
        let bytes: [UInt8]
        do {
            bytes = try FileDescriptor.contents(ofFile: path, limit: Self.fileBytesMax)
        } catch {
            throw LabSettingsError(path: path, reason: error.kind == .interrupted ? .interrupted : .unreadable(error))
        }
        do { try self.init(fileBytes: bytes) } catch { throw LabSettingsError(path: path, reason: error) }
    }

    /// A figure several numbers make together outside its range: a spring's period and how long it
    /// takes to settle depend on its mass, stiffness and damping at once (and its settle time, in
    /// real time, on `completionSpeed`), so no range of each alone keeps them bounded (mass 1e-15
    /// with stiffness 1 is a period of 0.2 us, and a settle search of billions of steps).
    func figureProblem() -> SettingsProblem? {
        guard case .spring(let spring)? = completion else { return nil }
        let section = ["completion", "spring", "parameters"]
        let period = SettingRange(SpringParameters.responseRange)
        if !period.contains(spring.parameters.response) {
            return SettingsProblem(at: section, .figureOutOfRange(figure: "period 2π√(mass/stiffness)",
                                                                  value: spring.parameters.response, unit: "s", range: period))
        }
        // Within the settle search (spring time) and, at a completionSpeed below 1 (spring time
        // running slower than real time), within the driver's limit on an animation (real time),
        // so neither cuts the animation short.
        let settle = SettingRange(0, min(SpringMotion.maximumSettleSearchSeconds, GestureTransitionDriver.maximumAnimationSeconds))
        let seconds = spring.parameters.estimatedSettleSeconds(settleDistance: spring.settleRule.settleDistance) / min(1, completionSpeed)
        if !settle.contains(seconds) {
            return SettingsProblem(at: section, .figureOutOfRange(
                figure: "settle time from rest (about ln(1/settleDistance) / decay rate, over completionSpeed when below 1)",
                value: seconds, unit: "s", range: settle))
        }
        return nil
    }
}

/// Why a settings file cannot be used: the file, and the typed reason. The text is made where it
/// is printed (`description`: "bad.json:4:5: not valid JSON: ...", "bad.json:3:5: unknown key ...").
public struct LabSettingsError: Error, Sendable, CustomStringConvertible {
    /// Why the file cannot be used.
    public enum Reason: Error, Sendable {
        /// The file could not be read.
        case unreadable(Errno)
        /// A stop request ended the wait for the file (a FIFO nobody writes).
        case interrupted
        /// The file is larger than a settings file may be.
        case tooLarge(limit: Int)
        /// The file is not valid JSON.
        case syntax(JSONSyntaxError)
        /// A value's problem, at the line and column of the key it is about (or of the nearest
        /// object that holds it, for a key left out).
        case settings(SettingsProblem, line: Int, column: Int)
    }

    /// The settings file.
    public let path: String
    /// Why it cannot be used.
    public let reason: Reason

    /// An error from its file and reason.
    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    /// The file, the place in it, and what is wrong, as one line.
    public var description: String {
        switch reason {
        case .unreadable(let errno):
            return "\(path): cannot read the settings file (\(errno)); "
                + "`pinchlab tune CORPUS --write FILE` writes one, and any key left out keeps its default"
        case .interrupted:
            return "\(path): interrupted while waiting for the settings file to be written"
        case .tooLarge(let limit):
            return "\(path): expected a settings file of at most \(limit / 1024) KiB (one with every key is a few KiB), found a larger one"
        case .syntax(let syntax):
            return "\(path):\(syntax.line):\(syntax.column): not valid JSON: \(syntax)"
        case .settings(let problem, let line, let column):
            return "\(path):\(line):\(column): \(problem)"
        }
    }
}

// Read on its own (a test, a report), a settings file decodes through the same tables.
extension LabSettings {
    /// Reads settings from a decoder, through the same tables as a settings file; a problem throws `SettingsProblem`.
    public init(from decoder: any Decoder) throws {
        self = try SettingsDecoding.read(from: decoder) { json throws(SettingsProblem) in try Self(settings: json) }
    }
}

extension SettingsProblem {
    /// The keys from the top of the file to what the problem is about, as far as its reason names
    /// them: the key of a value out of range or of the wrong type, the first unknown key, else the
    /// section (a figure several keys make, a key left out).
    var keyPath: [String] {
        func keys(_ dotted: String) -> [String] { dotted.split(separator: ".").map(String.init) }
        switch reason {
        case .unknownKeys(let unknown, _): return unknown.first.map(keys) ?? section
        case .outOfRange(let problem): return section + keys(problem.key)
        case .wrongType(let key, _, _), .notASettingOfKind(let key, _, _): return section + keys(key)
        case .unknownName(let what, _, _, _): return section + keys(what)
        case .figureOutOfRange, .missingKey, .invalid: return section
        }
    }
}
