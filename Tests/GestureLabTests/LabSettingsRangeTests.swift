import Foundation
import GestureCore
import InteractiveTransition
import SettingsTable
import Testing
@testable import GestureLab

/// Settings files checked before they are decoded: JSON syntax with line and column, and every
/// number against a range.
@Suite struct LabSettingsRangeTests {
    func syntaxError(_ text: String) -> JSONSyntaxError? {
        do throws(JSONSyntaxError) {
            _ = try JSONText(Array(text.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test func validJSONHasNoSyntaxError() {
        for text in [#"{}"#, #" {"a": [1, -2.5e+3, 0, true, false, null, "x\"\u00e9"]} "#, "[]", "0", #""s""#] {
            #expect(syntaxError(text) == nil, "\(text)")
        }
    }

    /// The one parse a settings file gets gives the values JSONDecoder would: escapes decoded
    /// (a surrogate pair to one character, a lone one to U+FFFD), numbers from their whole text,
    /// the last of duplicated keys.
    @Test func theParseGivesTheValues() throws {
        let text = #"{"a": "x\"\u00e9\ud83d\ude00\n\/", "b": [-2.5e+3, 0, true, null], "c": "\ud800!", "a2": {}, "d": 1, "d": 2}"#
        let value = try JSONText(Array(text.utf8)).wholeValue
        #expect(value == .object(["a": .string("x\"é😀\n/"), "b": .array([.number(-2500), .number(0), .bool(true), .null]),
                                  "c": .string("\u{FFFD}!"), "a2": .object([:]), "d": .number(2)]))
        #expect(try JSONText(Array("0.1".utf8)).wholeValue == .number(0.1))
        #expect(try JSONText(Array(#"{"a": 1e400}"#.utf8)).wholeValue == .object(["a": .number(.infinity)]))
    }

    @Test func aSyntaxErrorNamesLineColumnAndWhatWasExpected() throws {
        let missingComma = syntaxError("{\n  \"policy\": {\n    \"progressThreshold\": 0.6\n    \"flickVelocity\": 2\n  }\n}\n")
        #expect(missingComma == JSONSyntaxError(line: 4, column: 5, expected: "',' or '}'", found: "'\"'"))
        let trailingComma = syntaxError("{\"a\": 1,\n}")
        #expect(trailingComma == JSONSyntaxError(line: 2, column: 1, expected: "a key in double quotes", found: "'}'"))
        #expect(syntaxError("{\"a\" 1}")?.expected == "':' after the key")
        #expect(syntaxError("{\"a\": tru}") == JSONSyntaxError(line: 1, column: 10, expected: "'true'", found: "'}'"))
        #expect(syntaxError("{\"a\": 01}")?.expected == "',' or '}'")
        #expect(syntaxError("{\"a\": 1.}")?.expected == "a digit after the decimal point")
        #expect(syntaxError("{\"a\": \"x") == JSONSyntaxError(line: 1, column: 9, expected: "'\"' to close the string", found: "end of file"))
        #expect(syntaxError("") == JSONSyntaxError(line: 1, column: 1, expected: "a value (object, array, string, number, true, false or null)",
                                                   found: "end of file"))
        #expect(syntaxError("{} {}")?.expected == "the end of the file after the JSON value")
        #expect(syntaxError("{\"a\": \u{7}}")?.found == "byte 0x07", "control bytes are shown as numbers, never raw")
        // Nesting deeper than the limit is an error, not a stack overflow.
        let deep = String(repeating: "[", count: 100_000)
        #expect(syntaxError(deep)?.expected.contains("nested") == true)
    }

    /// Settings that together write every key a settings file may hold: both recognizer sections
    /// (with the size and finger count a device may report), every kind of policy, and each kind of
    /// completion timing.
    static var everyOptionalPart: [LabSettings] {
        var traits = GestureRecognizerConfiguration.default.device
        (traits.heightMM, traits.widthMM, traits.maximumFingerCount) = (60, 100, 5)
        var touchpad = GestureRecognizerConfiguration.default
        touchpad.device = traits
        traits.deviceClass = .touchscreen
        var touchscreen = GestureRecognizerConfiguration.touchscreen
        touchscreen.device = traits
        let timings: [CompletionTiming] = [.curve(.easeInOut), .spring(SpringPresets.appStoreCardDismiss)]
        let policies = CompletionPolicyPreset.allCases.map(\.policy)
        return zip(timings + Array(repeating: timings[0], count: policies.count - timings.count), policies).map { timing, policy in
            LabSettings(touchpadRecognizer: touchpad, touchscreenRecognizer: touchscreen, policy: policy, completion: timing)
        }
    }

    /// Every number key of a file with its range, from the parts' tables.
    static var ranges: [String: SettingRange] {
        var ranges: [String: SettingRange] = [:]
        func add(_ keys: [(String, SettingRange?)], under prefix: String) {
            for (key, range) in keys { if let range { ranges[prefix + key] = range } }
        }
        add(LabSettings.settings.settings.map { ($0.key, $0.range) }, under: "")
        for section in ["touchpadRecognizer.", "touchscreenRecognizer."] {
            add(GestureRecognizerConfiguration.settings.settings.map { ($0.key, $0.range) }, under: section)
        }
        add(CompletionPolicy.settings.settings.map { ($0.key, $0.range) }, under: "policy.")
        add(GNOMESwipeRule.settings.settings.map { ($0.key, $0.range) }, under: "policy.")
        add(KWinRule.settings.settings.map { ($0.key, $0.range) }, under: "policy.")
        add(HyprlandSwipeRule.settings.settings.map { ($0.key, $0.range) }, under: "policy.")
        add(AndroidBackRule.settings.settings.map { ($0.key, $0.range) }, under: "policy.")
        add(CubicBezierCurve.settings.settings.map { ($0.key, $0.range) }, under: "completion.curve.")
        add(SpringTiming.settings.settings.map { ($0.key, $0.range) }, under: "completion.spring.")
        return ranges
    }

    @Test func everyNumberASettingsFileCanHoldHasARange() throws {
        // What the presets write: a key the file accepts with no range would be a number nothing checks.
        let ranges = Self.ranges
        var checked = 0
        for settings in Self.everyOptionalPart {
            let json = try JSONText([UInt8](JSONEncoder().encode(settings))).wholeValue
            #expect(LabSettings.unknownKeys(in: json).isEmpty, "what is written is read back whole")
            for (key, value) in numbers(in: json, path: []) {
                let range = try #require(ranges[key], "no range for \(key)")
                #expect(range.contains(value), "\(key): the value written by a preset (\(value)) is outside \(range.text)")
                checked += 1
            }
            #expect(settings.validationError() == nil)
        }
        #expect(checked > 50)
    }

    func problem(_ json: String) throws -> SettingsProblem? {
        do {
            _ = try LabSettings(settings: JSONText(Array(json.utf8)).wholeValue)
            return nil
        } catch let problem as SettingsProblem {
            return problem
        }
    }

    /// The figures a section's numbers make together (a spring's period and settle time) hold for
    /// every preset, and each is refused on its own, naming the section: a spring in range number by
    /// number can still be one no display shows or that never settles.
    @Test func theCombinedRangesHoldForThePresetsAndRefuseWhatTheyBound() throws {
        for settings in Self.everyOptionalPart + SpringPresets.all.map({ LabSettings(completion: .spring($0.timing)) }) {
            #expect(settings.validationError() == nil)
            #expect(try problem(String(decoding: JSONEncoder().encode(settings), as: UTF8.self)) == nil)
        }
        func figure(mass: Double, stiffness: Double, damping: Double, settleDistance: Double? = nil) throws -> String? {
            let rule = settleDistance.map { #", "settleRule": {"settleDistance": \#($0), "settleVelocity": 0.01}"# } ?? ""
            let json = #"{"completion": {"spring": {"parameters": {"mass": \#(mass), "stiffness": \#(stiffness), "damping": \#(damping)}\#(rule)}}}"#
            guard let found = try problem(json) else { return nil }
            #expect(found.section == ["completion", "spring", "parameters"], "\(found)")
            guard case .figureOutOfRange = found.reason else { return nil }
            return String(found.description.dropFirst("at 'completion.spring.parameters': ".count))
        }
        #expect(try figure(mass: 1, stiffness: 300, damping: 20) == nil)
        #expect(try figure(mass: 1e-15, stiffness: 1, damping: 1)?.hasPrefix("period 2π√(mass/stiffness): ") == true)
        #expect(try figure(mass: 1000, stiffness: 1e-3, damping: 1)?.hasSuffix("s is outside 0.001...60 s") == true, "a period of hours")
        #expect(try figure(mass: 1, stiffness: 100, damping: 1e-4)?.hasPrefix("settle time from rest") == true, "rings for hours")
        #expect(try figure(mass: 1, stiffness: 1, damping: 1000)?.hasPrefix("settle time from rest") == true, "creeps for hours")
        // The settle time is measured to the file's own settle distance.
        #expect(try figure(mass: 1, stiffness: 1, damping: 2) == nil, "critical at ω0 = 1: about 7 s to 0.001")
        #expect(try figure(mass: 1, stiffness: 1, damping: 2, settleDistance: 1e-30)?.hasPrefix("settle time from rest") == true)
        // A number outside its own range is reported by its key, once.
        let own = try problem(#"{"completion": {"spring": {"parameters": {"mass": 0, "stiffness": 1, "damping": 1}}}}"#)
        #expect(own?.description == "at 'completion.spring.parameters': mass: 0 is outside (0, 1000]")
    }

    private func numbers(in value: JSONValue, path: [String]) -> [(String, Double)] {
        switch value {
        case .number(let n): return [(path.joined(separator: "."), n)]
        case .object(let members): return members.flatMap { numbers(in: $1, path: path + [$0]) }
        default: return []
        }
    }

    @Test func aValueOutsideItsRangeNamesKeyValueAndRange() throws {
        func problems(_ json: String) throws -> [String] {
            try problem(json).map { [$0.description] } ?? []
        }
        #expect(try problems(#"{"completionSpeed": 0}"#) == ["completionSpeed: 0 is outside 0.05...1000"])
        #expect(try problems(#"{"animationFrameRateHz": 5000}"#) == ["animationFrameRateHz: 5000 Hz is outside 1...1000 Hz"])
        #expect(try problems(#"{"panDismissDistanceMM": -3}"#) == ["panDismissDistanceMM: -3 mm is outside (0, 1000] mm"])
        #expect(try problems(#"{"completion": {"curve": {"p1x": 1.5, "p1y": 0, "p2x": 0.5, "p2y": 1}}}"#)
                == ["at 'completion.curve': p1x: 1.5 is outside 0...1"])
        #expect(try problems(#"{"completion": {"spring": {"parameters": {"mass": 1, "stiffness": 0, "damping": 10}}}}"#)
                == ["at 'completion.spring.parameters': stiffness: 0 is outside (0, 1000000]"])
        #expect(try problems(#"{"policy": {"decelerationRatePerMS": 1}}"#)
                == ["at 'policy': decelerationRatePerMS: 1 per ms is outside (0, 1) per ms"])
        #expect(try problems(#"{"policy": {"kind": "gnome", "touchpad": {"velocityThreshold": -1, "deceleration": 0.9, "pageDistance": 400}}}"#)
                == ["at 'policy.touchpad': velocityThreshold: -1 units/ms is outside 0...100 units/ms"])
        #expect(try problems(#"{"completionSpeed": 2, "policy": {"progressThreshold": 0.6}}"#).isEmpty)
        #expect(try problems(#"{"completionSpeed": "fast"}"#) == ["wrong type at 'completionSpeed': expected a number, found a string"])
        // One range per key: the policy's own init and a settings file refuse the same flick.
        #expect(try problems(#"{"policy": {"flickVelocity": 5000}}"#)
                == ["at 'policy': flickVelocity: 5000 progress/s is outside (0, 1000] progress/s"])
        #expect(throws: TransitionError.self) { try CompletionPolicy(progressThreshold: 0.5, flickVelocity: 5000) }
        #expect(throws: TransitionError.self) {
            var rule = GNOMESwipeRule.shell
            rule.touchpad.velocityThreshold = 500
            return try CompletionPolicy(kind: .gnome(rule))
        }
    }

    /// Edge scrolling's keys come from the recognizer's table like every other: a scroll method by
    /// name, its figures with their ranges, and the device's width and finger count (a whole number
    /// or null).
    @Test func edgeScrollKeysAreReadAndCheckedFromTheRecognizerTable() throws {
        let read = try LabSettings(settings: JSONText(Array(#"""
            {"touchpadRecognizer": {"scrollMethod": "edge", "edgeScrollMinMoveMM": 2,
             "device": {"widthMM": 90, "maximumFingerCount": 1}}}
            """#.utf8)).wholeValue)
        #expect(read.touchpadRecognizer?.scrollMethod == .edge && read.touchpadRecognizer?.edgeScrollMinMoveMM == 2)
        #expect(read.touchpadRecognizer?.device.widthMM == 90 && read.touchpadRecognizer?.device.maximumFingerCount == 1)
        #expect(read.touchpadRecognizer?.edgeScrollWidthMM == 7, "a key left out keeps its default")
        func problems(_ json: String) throws -> [String] { try problem(json).map { [$0.description] } ?? [] }
        #expect(try problems(#"{"touchscreenRecognizer": {"scrollMethod": "sideways"}}"#)
                == ["at 'touchscreenRecognizer': unknown scrollMethod 'sideways'; choose one of default, two-finger, edge, none"])
        #expect(try problems(#"{"touchpadRecognizer": {"edgeScrollLockTimeoutMS": -1}}"#)
                == ["at 'touchpadRecognizer': edgeScrollLockTimeoutMS: -1 ms is outside 0...10000 ms"])
        #expect(try problems(#"{"touchpadRecognizer": {"device": {"maximumFingerCount": 2.5}}}"#)
                == ["wrong type at 'touchpadRecognizer.device.maximumFingerCount': expected a whole number, found 2.5"])
        #expect(try problems(#"{"touchpadRecognizer": {"device": {"maximumFingerCount": 1001}}}"#)
                == ["at 'touchpadRecognizer.device': maximumFingerCount: 1001 fingers is outside 0...1000 fingers"])
        #expect(try problems(#"{"touchpadRecognizer": {"device": {"maximumFingerCount": null, "widthMM": null}}}"#).isEmpty)
        #expect(try problems(#"{"touchpadRecognizer": {"device": {"widthMM": 0}}}"#)
                == ["at 'touchpadRecognizer.device': widthMM: 0 mm is outside (0, 10000] mm"])
    }

    @Test func inMemorySettingsAreCheckedFromTheSameTable() {
        var settings = LabSettings.default
        #expect(settings.validationError() == nil)
        settings.animationFrameRateHz = 0
        #expect(settings.validationError()?.description == "animationFrameRateHz: 0 Hz is outside 1...1000 Hz")
    }
}

/// `tune --write`: only what differs from the defaults, and the file reads back to the same settings.
@Suite struct LabSettingsWritingTests {
    func roundTrip(_ settings: LabSettings) throws -> (LabSettings, [String: Any]) {
        let data = try settings.settingsFileData()
        let object = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        return (try JSONDecoder().decode(LabSettings.self, from: data), object)
    }

    @Test func theDefaultsWriteAnEmptyObject() throws {
        let (back, object) = try roundTrip(.default)
        #expect(object.isEmpty)
        #expect(back == .default)
    }

    @Test func aTunedFileHoldsOnlyItsChangesAndReadsBackTheSame() throws {
        var settings = LabSettings.default
        var touchpad = GestureRecognizerConfiguration.default
        touchpad.minMoveMM = 1.25
        touchpad.velocity.horizonMS = 60
        touchpad.velocity.polynomialDegree = 2
        settings.touchpadRecognizer = touchpad
        settings.touchscreenRecognizer = .touchscreen
        settings.policy = try CompletionPolicy(progressThreshold: 0.45, decelerationRatePerMS: 0.99, flickVelocity: nil)
        settings.completionSpeed = 1.5
        let (back, object) = try roundTrip(settings)
        #expect(back == settings)
        #expect(Set(object.keys) == ["touchpadRecognizer", "touchscreenRecognizer", "policy", "completionSpeed"])
        let section = try #require(object["touchpadRecognizer"] as? [String: Any])
        #expect(Set(section.keys) == ["minMoveMM", "velocity"])
        #expect(Set((section["velocity"] as? [String: Any])?.keys ?? [:].keys) == ["horizonMS", "polynomialDegree"])
        #expect((object["touchscreenRecognizer"] as? [String: Any])?.isEmpty == true, "present but unchanged")
        let policy = try #require(object["policy"] as? [String: Any])
        #expect(Set(policy.keys) == ["progressThreshold", "decelerationRatePerMS", "flickVelocity"])
        #expect(policy["flickVelocity"] is NSNull, "a rule turned off is written as null")
    }

    @Test(arguments: CompletionPolicyPreset.allCases)
    func everyPresetAndTimingReadsBackTheSame(preset: CompletionPolicyPreset) throws {
        for timing in [nil, CompletionTiming.curve(try CubicBezierCurve(p1x: 0.1, p1y: -0.3, p2x: 0.7, p2y: 1.2)),
                       .spring(SpringPresets.slideInMenu)] {
            var settings = LabSettings.default
            settings.policy = preset.policy
            settings.completion = timing
            var screen = GestureRecognizerConfiguration.touchscreen
            (screen.device.deviceClass, screen.device.fuzzMM, screen.device.heightMM) = (.touchscreen, 0.1, 120)
            screen.pinchSpanSlopMM = 2
            settings.touchscreenRecognizer = screen
            let (back, _) = try roundTrip(settings)
            #expect(back == settings, "\(preset) \(String(describing: timing))")
        }
    }
}
