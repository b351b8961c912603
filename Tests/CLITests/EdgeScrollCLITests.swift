import Foundation
import Testing
import PinchlabTestSupport

/// Edge scrolling from the command line: the setting in a settings file, the rule in `--explain`
/// and JSON lines, the owner's configuration in a manifest, and Debian's libinput told the same.
@Suite(.blocking) struct EdgeScrollCLITests {
    static let rightEdge = CLI.fixture("corpus/touchpad/edge-scroll-01.evemu")

    static func settings(_ json: String) throws -> String {
        let path = try CLI.temporaryDirectory().appendingPathComponent("settings.json").path
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func withEdgeScrollingTheFingerAlongTheRightEdgeIsAOneFingerPanWithItsRule() throws {
        let edge = try Self.settings(#"{"touchpadRecognizer": {"scrollMethod": "edge"}}"#)
        var r = try CLI.run(["replay", Self.rightEdge, "--config", edge, "--explain"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("pan began (1 finger): touch 1 landed 4.5 mm from the right edge (< 7 mm) and moved 3.0 mm along it (>= 3 mm): edge scrolling"),
                "\(r.stdout)")
        #expect(r.stdout.contains("pan ended (1 finger): the finger lifted"))

        r = try CLI.run(["replay", Self.rightEdge, "--config", edge, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let began = try r.json(line: 0)
        #expect(began["rule"] as? String == "edge-scroll" && began["fingers"] as? Int == 1)
        let evidence = try #require(began["evidence"] as? [String: Any])
        #expect(evidence["edgeWidthMM"] as? Double == 7 && evidence["fromRightMM"] as? Double == 4.5)
        #expect(evidence["moveLimitMM"] as? Double == 3)
        #expect(evidence["touch"] as? Int == 1, "the touch --explain names: \(evidence)")

        // The touchpad's own default (it counts four fingers: two-finger scrolling): the pointer.
        r = try CLI.run(["replay", Self.rightEdge, "--explain"])
        #expect(r.status == 0)
        #expect(!r.stdout.contains("pan began"), "\(r.stdout)")
        // A narrower edge than where the finger landed: the pointer again.
        let narrow = try Self.settings(#"{"touchpadRecognizer": {"scrollMethod": "edge", "edgeScrollWidthMM": 4}}"#)
        r = try CLI.run(["replay", Self.rightEdge, "--config", narrow, "--explain"])
        #expect(!r.stdout.contains("pan began"), "\(r.stdout)")
    }

    /// `--trace` prints the edge scroll's state changes among the machine's, with the rule and
    /// evidence that began it and the input that stopped it.
    @Test func traceShowsTheEdgeScrollBeginningAndStopping() throws {
        let edge = try Self.settings(#"{"touchpadRecognizer": {"scrollMethod": "edge"}}"#)
        let r = try CLI.run(["replay", Self.rightEdge, "--config", edge, "--trace"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        let began = try #require(lines.firstIndex { $0.contains("state edge scroll: none -> scrolling  (motion, 1 finger)  edge-scroll") },
                                 "\(r.stdout)")
        #expect(lines[began].contains("fromRightMM=4.50") && lines[began].contains("edgeWidthMM=7") && lines[began].hasSuffix("touch=1"),
                "\(lines[began])")
        let stopped = try #require(lines.firstIndex { $0.contains("state edge scroll: scrolling -> none  (all-lifted, 0 fingers)  all-lifted") },
                                   "\(r.stdout)")
        #expect(began < stopped)
        // Without edge scrolling there is no such line.
        let plain = try CLI.run(["replay", Self.rightEdge, "--trace"])
        #expect(plain.status == 0 && !plain.stdout.contains("edge scroll"), "\(plain.stdout)")
    }

    @Test func aScrollMethodThatIsNoneOfTheNamesIsRefusedWithTheNames() throws {
        let bad = try Self.settings(#"{"touchpadRecognizer": {"scrollMethod": "edgy"}}"#)
        var r = try CLI.run(["replay", Self.rightEdge, "--config", bad])
        #expect(r.status == 65)
        #expect(r.stderr.contains("at 'touchpadRecognizer': unknown scrollMethod 'edgy'; choose one of default, two-finger, edge, none"),
                "\(r.stderr)")
        let wide = try Self.settings(#"{"touchpadRecognizer": {"edgeScrollWidthMM": 101}}"#)
        r = try CLI.run(["replay", Self.rightEdge, "--config", wide])
        #expect(r.status == 65)
        #expect(r.stderr.contains("at 'touchpadRecognizer': edgeScrollWidthMM: 101 mm is outside 0...100 mm"), "\(r.stderr)")
        let wrongType = try Self.settings(#"{"touchpadRecognizer": {"scrollMethod": 2}}"#)
        r = try CLI.run(["replay", Self.rightEdge, "--config", wrongType])
        #expect(r.status == 65)
        #expect(r.stderr.contains("wrong type at 'touchpadRecognizer.scrollMethod': expected a string, found a number"), "\(r.stderr)")
    }

    /// The owner's configuration in the manifest is what check replays with; without it the same
    /// label is a mismatch, and a bad value is the manifest's error.
    @Test func checkAppliesTheEntrysDeviceConfiguration() throws {
        let dir = try CheckLabelCLITests.recordingsFolder(["touchpad/edge-scroll-01.evemu"])
        let manifest = dir.appendingPathComponent("manifest.json")
        func write(_ configuration: String) throws {
            try """
            {"entries": [{"file": "edge-scroll-01.evemu", \(configuration)
              "expect": [{"kind": "pan", "fingers": 1, "direction": "down"}]}]}
            """.write(to: manifest, atomically: true, encoding: .utf8)
        }
        try write(#""deviceConfiguration": {"scrollMethod": "edge"},"#)
        var r = try CLI.run(["check", dir.path])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.lines.last == "1 file: 1 match")
        try write("")
        r = try CLI.run(["check", dir.path])
        #expect(r.status == 1, "\(r.stdout)")
        try write(#""deviceConfiguration": {"scrollMethod": "sideways"},"#)
        r = try CLI.run(["check", dir.path])
        #expect(r.status == 65)
        #expect(r.stderr.contains("deviceConfiguration.scrollMethod") && r.stderr.contains("one of default, two-finger, edge, none"),
                "\(r.stderr)")
        try write(#""deviceConfiguration": {"scrollMethod": 2},"#)
        r = try CLI.run(["check", dir.path])
        #expect(r.status == 65)
        #expect(r.stderr.contains("key 'deviceConfiguration.scrollMethod': expected a string, found a number"), "\(r.stderr)")
        try write(#""deviceConfiguration": {"minMoveMM": 1},"#)
        r = try CLI.run(["check", dir.path])
        #expect(r.status == 65, "a threshold is no device configuration")
        #expect(r.stderr.contains("key 'deviceConfiguration.minMoveMM': expected one of the known keys (scrollMethod)"), "\(r.stderr)")
    }
}

/// Debian's libinput set to edge scrolling (`debug-events --set-scroll-method=edge`) scrolls where
/// pinchlab's edge-scroll pan is, and not at all with its default for this touchpad.
@Suite(.blocking, .needs(.libinput, .fuse), .serialized)
struct EdgeScrollLibinputCLITests {
    @Test func libinputSetToEdgeScrollingScrollsWherePinchlabPans() throws {
        var r = try CLI.run(["libinput", EdgeScrollCLITests.rightEdge, "--scroll-method", "edge", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let scrolls = LibinputCLITests.gestures(try r.json(line: 0)).filter { $0["kind"] as? String == "scroll" }
        #expect(scrolls.count == 1, "\(r.stdout)")
        r = try CLI.run(["libinput", EdgeScrollCLITests.rightEdge, "--json"])
        #expect(LibinputCLITests.gestures(try r.json(line: 0)).allSatisfy { $0["kind"] as? String != "scroll" }, "\(r.stdout)")

        let edge = try EdgeScrollCLITests.settings(#"{"touchpadRecognizer": {"scrollMethod": "edge"}}"#)
        r = try CLI.run(["replay", EdgeScrollCLITests.rightEdge, "--config", edge, "--with-libinput", "--summary"])
        #expect(r.status == 0, "\(r.stderr)")
        let agreement = try #require(try r.json(line: -1)["agreement"] as? [String: Any])
        #expect(agreement["matched"] as? Int == 1 && agreement["ratio"] as? Double == 1, "\(agreement)")
    }
}
