import Foundation
import GestureCore
import InteractiveTransition
import SettingsTable
import Testing
@testable import GestureLab

/// Settings files as `tune --write` saves them and `--config` reads them: every key left out keeps
/// its default, `null` turns a policy rule off, and no key is silently ignored.
@Suite struct LabSettingsFileTests {
    func decode(_ json: String) throws -> LabSettings {
        try JSONDecoder().decode(LabSettings.self, from: Data(json.utf8))
    }

    func unknownKeys(_ data: Data) throws -> [String] {
        LabSettings.unknownKeys(in: try JSONText([UInt8](data)).wholeValue)
    }

    /// A settings file's problem is placed at the key it names, or at its section when it names none.
    @Test(arguments: [
        ("{\n  \"policy\": {\n    \"progressThreshold\": 0.6,\n    \"flickVelocty\": 2\n  }\n}\n", 4, 5),
        ("{\n  \"touchpadRecognizer\": {\n    \"minMoveMM\": -3\n  }\n}\n", 3, 5),
        ("{\"completion\": {\"spring\": {\n  \"parameters\": {\"mass\": 1, \"stiffness\": 100}}}}", 2, 3),
    ])
    func aProblemNamesItsLineAndColumn(text: String, line: Int, column: Int) throws {
        let error = try #require(throws: LabSettingsError.Reason.self) { try LabSettings(fileBytes: Array(text.utf8)) }
        guard case .settings(_, let foundLine, let foundColumn) = error else {
            Issue.record("not a settings problem: \(error)")
            return
        }
        #expect((foundLine, foundColumn) == (line, column))
        #expect(LabSettingsError(path: "s.json", reason: error).description.hasPrefix("s.json:\(line):\(column): "))
    }

    @Test func aPartialPolicyKeepsTheOtherDefaults() throws {
        let settings = try decode(#"{"policy": {"progressThreshold": 0.6}}"#)
        #expect(settings.policy.progressThreshold == 0.6)
        #expect(settings.policy.decelerationRatePerMS == CompletionPolicy.default.decelerationRatePerMS)
        #expect(settings.policy.flickVelocity == CompletionPolicy.default.flickVelocity)
    }

    @Test func nullTurnsAPolicyRuleOff() throws {
        let settings = try decode(#"{"policy": {"flickVelocity": null, "decelerationRatePerMS": null}}"#)
        #expect(settings.policy == .seed)
    }

    @Test(arguments: [CompletionPolicy.seed, .default, .fluid])
    func everyPolicySurvivesARoundTrip(policy: CompletionPolicy) throws {
        var settings = LabSettings.default
        settings.policy = policy
        settings.completionSpeed = 1.5
        settings.completion = .spring(SpringPresets.slideInMenu)
        let data = try JSONEncoder().encode(settings)
        #expect(try JSONDecoder().decode(LabSettings.self, from: data) == settings)
        #expect(try unknownKeys(data).isEmpty, "what is written is read back whole")
    }

    @Test func unknownKeysAreFoundAtEveryLevel() throws {
        let json = #"""
            {"polcy": 1, "policy": {"flickVelocty": 2}, "touchpadRecognizer": {"minMoveMM": 2, "minMoveM": 3,
             "velocity": {"horizonMS": 100, "horizon": 1}}, "completion": {"spring": {"parameters": {"mas": 1}}}}
            """#
        let unknown = try unknownKeys(Data(json.utf8))
        #expect(unknown.contains("polcy"))
        #expect(unknown.contains("policy.flickVelocty"))
        #expect(unknown.contains("touchpadRecognizer.minMoveM"))
        #expect(!unknown.contains("touchpadRecognizer.minMoveMM"))
        #expect(unknown.contains("touchpadRecognizer.velocity.horizon"))
        #expect(unknown.contains("completion.spring.parameters.mas"))
        #expect(unknown.count == 5, "\(unknown)")
        // Every kind's keys (a key of another kind than the file's is the policy decoder's error).
        #expect(LabSettings.knownKeys(at: "policy") == ["cancelRatio", "decelerationRatePerMS", "distance", "flickVelocity",
                                                        "kind", "minSpeedToForce", "pageDP", "progressThreshold", "switchDP",
                                                        "threshold", "touchpad", "touchscreen", "triggerDP"])
    }

    @Test func theSavedDefaultsHoldNoUnknownKey() throws {
        var settings = LabSettings.default
        settings.touchpadRecognizer = .default
        settings.touchscreenRecognizer = .touchscreen
        #expect(try unknownKeys(JSONEncoder().encode(settings)).isEmpty)
    }

    @Test func completionTimingsByNameOrObject() throws {
        #expect(try decode(#"{"completion": "appstore-card-dismiss"}"#).completion == .spring(SpringPresets.appStoreCardDismiss))
        #expect(try decode(#"{"completion": "linear"}"#).completion == .curve(.linear))
        let curve = try decode(#"{"completion": {"curve": {"p1x": 0.2, "p1y": 0, "p2x": 0.4, "p2y": 1}}}"#)
        #expect(curve.completion == .curve(try CubicBezierCurve(p1x: 0.2, p1y: 0, p2x: 0.4, p2y: 1)))
        let spring = try decode(#"{"completion": {"spring": {"parameters": {"mass": 1, "stiffness": 200, "damping": 20}}}}"#)
        #expect(spring.completion == .spring(SpringTiming(parameters: try SpringParameters(mass: 1, stiffness: 200, damping: 20))))
        #expect(throws: DecodingError.self) { try decode(#"{"completion": "bouncy"}"#) }
        #expect(throws: DecodingError.self) { try decode(#"{"completion": {"curve": {}, "spring": {}}}"#) }
    }

    /// The seed documents' names stay accepted as aliases of the readable ones, timing for timing.
    @Test func seedNamesAreAliasesOfTheReadableNames() throws {
        let pairs = [("seed003-present", "appstore-card-present"), ("seed003-dismiss", "appstore-card-dismiss"),
                     ("seed003-bounce", "appstore-cell-bounce"), ("seed004-menu", "slide-in-menu")]
        for (seed, readable) in pairs {
            let byAlias = try decode(#"{"completion": "\#(seed)"}"#).completion
            let byName = try decode(#"{"completion": "\#(readable)"}"#).completion
            #expect(byAlias != nil && byAlias == byName, "\(seed) = \(readable)")
        }
        #expect(SpringPresets.all.map(\.name).allSatisfy { !$0.hasPrefix("seed") }, "only readable names are listed")
        #expect(CompletionTiming(named: "seed004-menu") == .spring(SpringPresets.slideInMenu))
    }

    @Test func aSettleRuleThatCanNeverHoldIsRefused() throws {
        let json = #"{"completion": {"spring": {"parameters": {"mass": 1, "stiffness": 100, "damping": 10}, "settleRule": {"settleDistance": 0, "settleVelocity": 1}}}}"#
        #expect(throws: DecodingError.self) { try decode(json) }
        #expect {
            try LabSettings(settings: JSONText(Array(json.utf8)).wholeValue)
        } throws: { error in
            (error as? SettingsProblem)?.description == "at 'completion.spring.settleRule': settleDistance: 0 progress is outside (0, 1] progress"
        }
    }

    @Test func completionSpeedScalesTheCompletion() throws {
        func completionSeconds(speed: Double) throws -> Double {
            var settings = LabSettings.default
            settings.completionSpeed = speed
            var driver = try GestureTransitionDriver(transition: .pinchDismiss, settings: settings)
            func send(_ state: GestureState, _ time: Double, _ scale: Double) {
                let event = GestureEvent(kind: .pinch, state: state, time: EventTime(totalMicroseconds: Int64(time * 1e6)),
                                         fingerCount: 2, scale: scale)
                driver.handle(event, at: time) { _ in }
            }
            send(.began, 0, 1)
            send(.changed, 0.1, 0.3)
            send(.ended, 0.2, 0.3)
            return try #require(driver.transition.completion).duration
        }
        let normal = try completionSeconds(speed: 1)
        #expect(abs(try completionSeconds(speed: 2) - normal / 2) < 1e-12)
        #expect(normal > 0)
        var bad = LabSettings.default
        bad.completionSpeed = 0
        #expect(bad.validationError()?.description == "completionSpeed: 0 is outside 0.05...1000")
    }
}
