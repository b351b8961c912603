import Foundation
import PinchlabTestSupport
import Testing

/// A decision's margin is true (issue #22, §4): moving the setting it names just past its value, in
/// a settings file (`--config`), flips the decision, and just short of it does not. On recordings
/// made to measure (each finger heading the same way at every frame) and on corpus recordings.
@Suite(.blocking) struct DecisionMarginCLITests {
    typealias Finger = SyntheticTouchpad.Finger

    /// The began lines of a replay (`--json`), with `config` when given.
    static func beganLines(_ path: String, config: String? = nil) throws -> [[String: Any]] {
        let r = try CLI.run(["replay", path, "--json"] + (config.map { ["--config", $0] } ?? []))
        #expect(r.status == 0, "\(path): \(r.stderr)")
        return r.lines.compactMap { line -> [String: Any]? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  object["type"] as? String == "gesture", object["state"] as? String == "began" else { return nil }
            return object
        }
    }

    /// A settings file setting one key, spelled as the margin spells it (`touchpadRecognizer.minMoveMM`).
    static func settingsFile(_ key: String, _ value: Double) throws -> String {
        let parts = key.split(separator: ".", maxSplits: 1).map(String.init)
        let data = try JSONSerialization.data(withJSONObject: [parts[0]: [parts[1]: value]])
        let path = try CLI.temporaryDirectory().appendingPathComponent("settings.json").path
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The first began line of `kind` by `rule` has a margin naming `key`; with the setting just
    /// short of the margin's value the same decision is made at the same time, just past it none
    /// is. Returns the rules of the began lines of `kind` just past, for the caller to say what
    /// the decision flipped to.
    @discardableResult
    static func expectMarginIsTrue(_ path: String, kind: String, rule: String, key: String,
                                   sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        let lines = try beganLines(path)
        let decision = try #require(lines.first { $0["kind"] as? String == kind && $0["rule"] as? String == rule },
                                    "\(path): no \(kind) began by \(rule): \(lines)", sourceLocation: sourceLocation)
        let margin = try #require(decision["margin"] as? [String: Any], "\(path): no margin on \(decision)",
                                  sourceLocation: sourceLocation)
        #expect(margin["key"] as? String == key, "\(path): \(margin)", sourceLocation: sourceLocation)
        let value = try #require(margin["value"] as? Double), threshold = try #require(margin["threshold"] as? Double)
        let time = try #require(decision["time"] as? Double)
        // Past the value, coming from the threshold's side; short, still on that side.
        let step = 0.001, towards: Double = threshold > value ? -1 : 1
        let past = value + towards * step, short = value - towards * step
        func sameDecision(_ lines: [[String: Any]]) -> Bool {
            lines.contains { $0["kind"] as? String == kind && $0["rule"] as? String == rule && $0["time"] as? Double == time }
        }
        let shortLines = try beganLines(path, config: settingsFile(key, short))
        #expect(sameDecision(shortLines), "\(path): \(key) \(short), short of \(value), changed the decision: \(shortLines)",
                sourceLocation: sourceLocation)
        let pastLines = try beganLines(path, config: settingsFile(key, past))
        #expect(!sameDecision(pastLines), "\(path): \(key) \(past), past \(value), kept the decision: \(pastLines)",
                sourceLocation: sourceLocation)
        return pastLines.filter { $0["kind"] as? String == kind }.compactMap { $0["rule"] as? String }
    }

    // Fingers 20 units a millimetre, a frame every 10 ms.

    @Test func opposingFingersFlipAtTheirAngle() throws {
        // Each finger half a millimetre out and 0.05 mm down a frame: 168.6° apart at every frame.
        let path = try SyntheticTouchpad.recording([Finger(x: 800, y: 600, dx: -10, dy: 1), Finger(x: 1200, y: 600, dx: 10, dy: 1)],
                                                   frames: 12)
        let began = try #require(try Self.beganLines(path).first { $0["kind"] as? String == "pinch" })
        let margin = try #require(began["margin"] as? [String: Any])
        #expect(abs((margin["value"] as? Double ?? 0) - (180 - 2 * atan(0.1) * 180 / .pi)) < 1e-4, "\(margin)")
        #expect(margin["threshold"] as? Double == 135 && margin["unit"] as? String == "degrees")
        let flipped = try Self.expectMarginIsTrue(path, kind: "pinch", rule: "opposing-fingers",
                                                  key: "touchpadRecognizer.pinchOpposingMinimumAngleDegrees")
        // Past it, the fingers still pinch once both moved minMoveMM, by the compass.
        #expect(flipped == ["different-directions"], "\(flipped)")
    }

    @Test func aOneSidedPinchFlipsAtItsHeading() throws {
        // The lower finger heads at the still one, 12.5° off the line between them.
        let path = try SyntheticTouchpad.recording([Finger(x: 1000, y: 400), Finger(x: 1000, y: 800, dx: 2, dy: -9)], frames: 12)
        let flipped = try Self.expectMarginIsTrue(path, kind: "pinch", rule: "one-sided-pinch",
                                                  key: "touchpadRecognizer.oneSidedPinchMaximumAngleDegrees")
        #expect(flipped.isEmpty, "no pinch past it: \(flipped)")
        let pan = try Self.beganLines(path, config: Self.settingsFile("touchpadRecognizer.oneSidedPinchMaximumAngleDegrees", 12))
        #expect(pan.first { $0["kind"] as? String == "pan" }?["rule"] as? String == "one-finger-moved", "\(pan)")
    }

    @Test func oneFingerMovedFlipsToAOneSidedPinchAtItsHeading() throws {
        // The lower finger heads 50.7° off the line to the still one: no pinch, until the limit reaches that.
        let path = try SyntheticTouchpad.recording([Finger(x: 1000, y: 400), Finger(x: 1000, y: 800, dx: 11, dy: -9)], frames: 12)
        let flipped = try Self.expectMarginIsTrue(path, kind: "pan", rule: "one-finger-moved",
                                                  key: "touchpadRecognizer.oneSidedPinchMaximumAngleDegrees")
        #expect(flipped.isEmpty, "no pan past it: \(flipped)")
        let pinch = try Self.beganLines(path, config: Self.settingsFile("touchpadRecognizer.oneSidedPinchMaximumAngleDegrees", 51))
        #expect(pinch.first?["rule"] as? String == "one-sided-pinch", "\(pinch)")
    }

    @Test func sameDirectionFlipsAtTheCompassSnap() throws {
        // 6.7° right of up and 6.7° up of right: each between two compass points (the snap is 0.1
        // of an eighth, 4.5°), sharing north-east: neighbours. A snap past 6.7° makes them north
        // and east, not neighbours: the fingers spread, so they pinch.
        let path = try SyntheticTouchpad.recording([Finger(x: 800, y: 600, dx: 2, dy: -17), Finger(x: 1200, y: 600, dx: 17, dy: -2)],
                                                   frames: 12)
        let flipped = try Self.expectMarginIsTrue(path, kind: "pan", rule: "same-direction", key: "touchpadRecognizer.directionSnapEighths")
        #expect(flipped.isEmpty, "\(flipped)")
        let past = try Self.beganLines(path, config: Self.settingsFile("touchpadRecognizer.directionSnapEighths", 0.2))
        #expect(past.first?["rule"] as? String == "different-directions", "\(past)")
    }

    @Test func sideBySideTimeoutFlipsAtTheSpread() throws {
        // One finger creeps down 0.1 mm a frame beside a still one 35 mm to its right: still
        // undecided after 150 ms, side by side (35 < 40 mm across).
        let path = try SyntheticTouchpad.recording([Finger(x: 600, y: 600, dx: 0, dy: 2), Finger(x: 1300, y: 600)], frames: 25)
        try Self.expectMarginIsTrue(path, kind: "pan", rule: "side-by-side-timeout", key: "touchpadRecognizer.scrollMaxHorizontalSpreadMM")
    }

    @Test func aHoldFlipsAtHowFarItsFingersMoved() throws {
        // Two fingers down for 300 ms; one drifts 0.1 mm in the first two frames, then rests.
        let path = try SyntheticTouchpad.recording([Finger(x: 800, y: 600, dx: 0, dy: 1, movingFrames: 2), Finger(x: 1200, y: 600)],
                                                   frames: 30)
        let flipped = try Self.expectMarginIsTrue(path, kind: "hold", rule: "hold-timeout", key: "touchpadRecognizer.holdMaxMoveMM")
        #expect(flipped.isEmpty, "no hold past it: \(flipped)")
    }

    /// Corpus recordings (with their jitter): the pinches' angles, a touchscreen's one-sided pinch,
    /// a scroll taken for one after the timeout.
    @Test func marginsOfCorpusRecordingsAreTrue() throws {
        try Self.expectMarginIsTrue(CLI.fixture("corpus/touchpad/pinch-out-01.evemu"), kind: "pinch", rule: "opposing-fingers",
                                    key: "touchpadRecognizer.pinchOpposingMinimumAngleDegrees")
        try Self.expectMarginIsTrue(CLI.fixture("corpus/touchscreen/pinch-in-jitter-01.evemu"), kind: "pinch", rule: "opposing-fingers",
                                    key: "touchscreenRecognizer.pinchOpposingMinimumAngleDegrees")
        try Self.expectMarginIsTrue(CLI.fixture("corpus/touchscreen/pinch-in-one-sided-01.evemu"), kind: "pinch", rule: "one-sided-pinch",
                                    key: "touchscreenRecognizer.minMoveMM")
        try Self.expectMarginIsTrue(CLI.fixture("corpus/touchpad/pan-down-finish-01.evemu"), kind: "pan", rule: "side-by-side-timeout",
                                    key: "touchpadRecognizer.scrollMaxHorizontalSpreadMM")
        try Self.expectMarginIsTrue(CLI.fixture("sessions/touchscreen-session.evemu"), kind: "pinch", rule: "opposing-fingers",
                                    key: "touchscreenRecognizer.pinchOpposingMinimumAngleDegrees")
    }

    /// A scroll whose fingers nothing but their moving decided has no margin: no setting short of
    /// absurd makes it anything else, and a threshold just crossed only says when.
    @Test func aPlainScrollHasNoMarginAndExplainSaysNone() throws {
        let path = CLI.fixture("corpus/touchpad/two-finger-scroll-01.evemu")
        let pan = try #require(try Self.beganLines(path).first { $0["kind"] as? String == "pan" })
        #expect(pan["rule"] as? String == "same-direction" && pan["margin"] == nil, "\(pan)")
        // The explanation whole: "pan began" with no margin.
        try Golden.expect(try CLI.run(["replay", path, "--explain"]), is: "replay-explain-touchpad-two-finger-scroll")
    }

    /// `--explain` names the margin in each decision's sentence; the JSON line carries the same.
    @Test func explainNamesTheMarginOfEachDecision() throws {
        let r = try CLI.run(["replay", CLI.fixture("corpus/touchpad/pinch-out-01.evemu"), "--explain"])
        #expect(r.status == 0)
        // Whole: "pinch began (2 fingers): ...; margin 40.3° above pinchOpposingMinimumAngleDegrees
        // 135°", "hold began (2 fingers): ...; margin 0.92 mm below holdMaxMoveMM 1 mm".
        try Golden.expect(r, is: "replay-explain-touchpad-pinch-out")
        // Decisions no setting flips say nothing more.
        #expect(r.lines.contains { $0.hasSuffix("pinch ended (2 fingers): all 2 fingers lifted") })
        let json = try CLI.run(["replay", CLI.fixture("corpus/touchpad/pinch-out-01.evemu"), "--json"])
        // JSON lines, read by their fragments.
        let began = try #require(json.lines.first { $0.contains("\"opposing-fingers\"") })
        #expect(began.contains(#""margin":{"key":"touchpadRecognizer.pinchOpposingMinimumAngleDegrees","threshold":135,"unit":"degrees","value":175.272012}"#),
                "\(began)")
        let ended = try #require(json.lines.first { $0.contains("\"all-lifted\"") })
        #expect(!ended.contains("margin"), "\(ended)")  // a JSON line
    }
}
