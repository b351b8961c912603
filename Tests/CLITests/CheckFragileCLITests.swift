import Foundation
import Testing

/// `check` lists a file that matches within a small margin of failing as fragile, with the margin
/// (human, JSON, JUnit property), and `--strict` fails it (status 1, a JUnit failure).
@Suite struct CheckFragileCLITests {
    /// A manifest (in a fresh directory) of corpus recordings, by absolute path, with their labels.
    static func manifest(_ entries: [(file: String, expect: [String: Any])], transition: String = "pinch-dismiss") throws -> String {
        let dir = try CLI.temporaryDirectory()
        let manifest: [String: Any] = ["entries": entries.map { ["file": $0.file, "transition": transition, "expect": [$0.expect]] }]
        let path = dir.appendingPathComponent("manifest.json").path
        try JSONSerialization.data(withJSONObject: manifest).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A pinch 40° clear of the opposing-fingers angle, and a jittery touchscreen pinch 12.3° clear
    /// of it (6.8% of its usual range, 0...180°).
    static func pinches() throws -> String {
        try manifest([
            (CLI.fixture("corpus/touchpad/pinch-out-01.evemu"), ["kind": "pinch", "fingers": 2, "direction": "out", "outcome": "cancel"]),
            (CLI.fixture("corpus/touchscreen/pinch-in-jitter-01.evemu"), ["kind": "pinch", "fingers": 2, "direction": "in", "outcome": "finish"]),
        ])
    }

    /// Under the list's header a line says the margin (JUnit's property says "fragile: " first).
    static let jitterLine = "pinch-in-jitter-01.evemu: the pinch began (opposing-fingers) 12.3° above "
        + "pinchOpposingMinimumAngleDegrees 135°, 6.8% of its usual range"

    @Test func aFileThatMatchesByASmallMarginIsListedAsFragileWithItsMargin() throws {
        let manifest = try Self.pinches()
        let r = try CLI.run(["check", manifest])
        #expect(r.status == 0, "fragile is no failure without --strict: \(r.stdout)\(r.stderr)")
        let header = try #require(r.lines.firstIndex(of: "fragile (matching within a small margin of failing):"), "\(r.stdout)")
        #expect(r.lines[header + 1].hasPrefix("  /") && r.lines[header + 1].hasSuffix(Self.jitterLine), "\(r.lines[header + 1])")
        #expect(!r.stdout.contains("pinch-out-01"), "a pinch 40° clear is not fragile: \(r.stdout)")
        #expect(r.lines.last == "2 files: 2 match (1 fragile)")

        // Its margin follows the setting: 5° under the other pinch's angle, that one is fragile too.
        let higher = try DecisionMarginCLITests.settingsFile("touchpadRecognizer.pinchOpposingMinimumAngleDegrees", 170)
        let moved = try CLI.run(["check", manifest, "--config", higher])
        #expect(moved.stdout.contains("pinch-out-01.evemu: the pinch began (opposing-fingers) 5.3° above "
                                      + "pinchOpposingMinimumAngleDegrees 170°, 2.9% of its usual range"), "\(moved.stdout)")
        #expect(moved.stdout.contains(Self.jitterLine), "the touchscreen's setting is its own: \(moved.stdout)")
        #expect(moved.lines.last == "2 files: 2 match (2 fragile)")
    }

    @Test func strictFailsAFragileFile() throws {
        let manifest = try Self.pinches()
        let r = try CLI.run(["check", manifest, "--strict"])
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        #expect(r.lines.contains("fragile (failures with --strict):"), "\(r.stdout)")
        #expect(r.lines.contains { $0.hasSuffix(Self.jitterLine) })
        // Nothing fragile: --strict passes.
        let robust = try Self.manifest([(CLI.fixture("corpus/touchpad/pinch-out-01.evemu"),
                                         ["kind": "pinch", "fingers": 2, "direction": "out", "outcome": "cancel"])])
        #expect(try CLI.run(["check", robust, "--strict"]).status == 0)
    }

    @Test func jsonAndJUnitCarryTheMargin() throws {
        let manifest = try Self.pinches()
        let json = try CLI.run(["check", manifest, "--json"])
        #expect(json.status == 0)
        let report = try json.json(line: 0)
        #expect(report["fragile"] as? Int == 1 && report["matched"] as? Int == 2)
        let results = try #require(report["results"] as? [[String: Any]])
        #expect(results[0]["fragile"] == nil)
        let fragile = try #require(results[1]["fragile"] as? [String: Any], "\(results[1])")
        #expect(fragile["gesture"] as? Int == 0 && fragile["decision"] as? String == "opposing-fingers")
        #expect(fragile["key"] as? String == "touchscreenRecognizer.pinchOpposingMinimumAngleDegrees")
        #expect(fragile["threshold"] as? Double == 135 && fragile["unit"] as? String == "degrees")
        let value = try #require(fragile["value"] as? Double), normalized = try #require(fragile["normalized"] as? Double)
        #expect(abs(normalized - (value - 135) / 180) < 1e-6, "\(fragile)")

        let dir = try CLI.temporaryDirectory()
        let xml = dir.appendingPathComponent("check.xml").path
        #expect(try CLI.run(["check", manifest, "--junit", xml]).status == 0)
        var text = try String(contentsOfFile: xml, encoding: .utf8)
        #expect(text.contains(#"failures="0""#), "\(text)")
        #expect(text.contains("<properties>\n        <property name=\"fragile\" value=\"fragile: the pinch began (opposing-fingers) 12.3° above "
                              + "pinchOpposingMinimumAngleDegrees 135°, 6.8% of its usual range\"/>\n      </properties>"), "\(text)")
        #expect(try CLI.run(["check", manifest, "--junit", xml, "--strict"]).status == 1)
        text = try String(contentsOfFile: xml, encoding: .utf8)
        #expect(text.contains(#"failures="1""#) && text.contains(#"<failure type="fragile" message="fragile: the pinch began"#), "\(text)")
        #expect(!text.contains("<property"), "\(text)")
    }

    /// A time window decides within a frame of its limit: fragile, said in milliseconds. A scroll
    /// turned into a pinch by the correction (`scroll-to-pinch-correction`, within
    /// `pinchCorrectionWindowMS`), with the window set 3 ms past the moment it corrected.
    @Test func aDecisionWithinAFrameOfItsTimeLimitIsFragile() throws {
        typealias Finger = SyntheticTouchpad.Finger
        // Both fingers up 0.5 mm a frame (a scroll); after 40 ms the right one turns down-right.
        let path = try SyntheticTouchpad.recording([Finger(x: 800, y: 600, dx: 0, dy: -10),
                                                    Finger(x: 1200, y: 600, dx: 0, dy: -10, movingFrames: 4, thenDX: 20, thenDY: 20)],
                                                   frames: 20)
        let began = try DecisionMarginCLITests.beganLines(path)
        let correction = try #require(began.first { $0["rule"] as? String == "scroll-to-pinch-correction" }, "\(began)")
        let waited = try #require((correction["evidence"] as? [String: Any])?["waitedMS"] as? Double)
        let manifest = try Self.manifest([(path, ["kind": "pinch", "fingers": 2])])
        #expect(try CLI.run(["check", manifest]).lines == ["1 file: 1 match"], "300 ms is far from \(waited) ms")
        let window = try DecisionMarginCLITests.settingsFile("touchpadRecognizer.pinchCorrectionWindowMS", waited + 3)
        let r = try CLI.run(["check", manifest, "--config", window])
        #expect(r.status == 0)
        #expect(r.stdout.contains("synthetic.evemu: the pinch began (scroll-to-pinch-correction) 3.0 ms below "
                                  + "pinchCorrectionWindowMS \(Int(waited + 3)) ms, within one frame (9.5 ms)"), "\(r.stdout)")
    }
}
