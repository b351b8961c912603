import Foundation
import GestureKit
import InteractiveTransition
import Testing
@testable import GestureLab

/// Settings files checked before they are decoded: JSON syntax with line and column, and every
/// number against a range.
@Suite struct LabSettingsRangeTests {
    func syntaxError(_ text: String) -> JSONSyntaxError? { JSONSyntax.firstError(in: Data(text.utf8)) }

    @Test func validJSONHasNoSyntaxError() {
        for text in [#"{}"#, #" {"a": [1, -2.5e+3, 0, true, false, null, "x\"\u00e9"]} "#, "[]", "0", #""s""#] {
            #expect(syntaxError(text) == nil, "\(text)")
        }
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

    @Test func everyNumberASettingsFileCanHoldHasARange() throws {
        // The settings the key check learns its keys from: a key it accepts with no range would be
        // a number nothing checks.
        let recognizerKeys = Set(GestureRecognizerConfiguration.thresholds.map(\.key))
        var checked = 0
        for settings in LabSettings.everyOptionalPart {
            for (key, value) in numbers(in: try JSONValue(encoding: settings), path: []) {
                let components = key.split(separator: ".", maxSplits: 1).map(String.init)
                if components[0].hasSuffix("Recognizer"), recognizerKeys.contains(components[1]) { continue }
                let range = try #require(LabSettings.range(forKey: key), "no range for \(key)")
                #expect(range.contains(value), "\(key): the value written by a preset (\(value)) is outside \(range.rangeText)")
                checked += 1
            }
        }
        #expect(checked > 50)
    }

    /// The figures a section's numbers make together (a spring's period and settle time) hold for
    /// every preset, and each is refused on its own, naming the section: a spring in range number by
    /// number can still be one no display shows or that never settles.
    @Test func theCombinedRangesHoldForThePresetsAndRefuseWhatTheyBound() throws {
        for settings in LabSettings.everyOptionalPart + SpringPresets.all.map({ LabSettings(completion: .spring($0.timing)) }) {
            let problems = try LabSettings.rangeProblems(inJSON: JSONEncoder().encode(settings))
            #expect(problems.isEmpty, "\(problems.map(\.problem))")
        }
        func problem(mass: Double, stiffness: Double, damping: Double, settleDistance: Double? = nil) throws -> String? {
            let rule = settleDistance.map { #", "settleRule": {"settleDistance": \#($0), "settleVelocity": 0.01}"# } ?? ""
            let json = #"{"completion": {"spring": {"parameters": {"mass": \#(mass), "stiffness": \#(stiffness), "damping": \#(damping)}\#(rule)}}}"#
            let problems = try LabSettings.rangeProblems(inJSON: Data(json.utf8))
            #expect(problems.allSatisfy { $0.at == "completion.spring.parameters" }, "\(problems)")
            return problems.first?.problem
        }
        #expect(try problem(mass: 1, stiffness: 300, damping: 20) == nil)
        #expect(try problem(mass: 1e-15, stiffness: 1, damping: 1)?.hasPrefix("period 2π√(mass/stiffness): ") == true)
        #expect(try problem(mass: 1000, stiffness: 1e-3, damping: 1)?.hasSuffix("s is outside 0.001...60 s") == true, "a period of hours")
        #expect(try problem(mass: 1, stiffness: 100, damping: 1e-4)?.hasPrefix("settle time from rest") == true, "rings for hours")
        #expect(try problem(mass: 1, stiffness: 1, damping: 1000)?.hasPrefix("settle time from rest") == true, "creeps for hours")
        // The settle time is measured to the file's own settle distance.
        #expect(try problem(mass: 1, stiffness: 1, damping: 2) == nil, "critical at ω0 = 1: about 7 s to 0.001")
        #expect(try problem(mass: 1, stiffness: 1, damping: 2, settleDistance: 1e-30)?.hasPrefix("settle time from rest") == true)
        // A number outside its own range is reported by its key, once.
        let own = try LabSettings.rangeProblems(inJSON: Data(#"{"completion": {"spring": {"parameters": {"mass": 0, "stiffness": 1, "damping": 1}}}}"#.utf8))
        #expect(own.map(\.problem) == ["mass: 0 is outside (0, 1000]"])
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
            try LabSettings.rangeProblems(inJSON: Data(json.utf8)).map { $0.at.isEmpty ? $0.problem : "at '\($0.at)': \($0.problem)" }
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
        #expect(try problems(#"{"completionSpeed": "fast"}"#).isEmpty, "a wrong type is the decoder's error")
    }

    @Test func inMemorySettingsAreCheckedFromTheSameTable() {
        var settings = LabSettings.default
        #expect(settings.validationError() == nil)
        settings.animationFrameRateHz = 0
        #expect(settings.validationError() == "animationFrameRateHz: 0 Hz is outside 1...1000 Hz")
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
            screen.device = GestureDeviceTraits(deviceClass: .touchscreen, fuzzMM: 0.1, heightMM: 120)
            screen.pinchSpanSlopMM = 2
            settings.touchscreenRecognizer = screen
            let (back, _) = try roundTrip(settings)
            #expect(back == settings, "\(preset) \(String(describing: timing))")
        }
    }
}
