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
        // The three explanations whole, in one file: with edge scrolling, "pan began (1 finger):
        // touch 1 landed 4.5 mm from the right edge (< 7 mm) and moved 3.0 mm along it (>= 3 mm):
        // edge scrolling" and "pan ended (1 finger): the finger lifted"; with the touchpad's own
        // default (it counts four fingers: two-finger scrolling), the pointer, no pan; with a
        // narrower edge than where the finger landed, the pointer again.
        var explanations = ""
        #expect(try Golden.run(["replay", Self.rightEdge, "--config", edge, "--explain"], into: &explanations).status == 0)
        #expect(try Golden.run(["replay", Self.rightEdge, "--explain"], into: &explanations).status == 0)
        let narrow = try Self.settings(#"{"touchpadRecognizer": {"scrollMethod": "edge", "edgeScrollWidthMM": 4}}"#)
        try Golden.run(["replay", Self.rightEdge, "--config", narrow, "--explain"], into: &explanations,
                       normalising: [narrow: "$TMP/narrow-settings.json"])
        try Golden.expect(explanations, is: "replay-explain-edge-scroll-settings")

        let r = try CLI.run(["replay", Self.rightEdge, "--config", edge, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let began = try r.json(line: 0)
        #expect(began["rule"] as? String == "edge-scroll" && began["fingers"] as? Int == 1)
        let evidence = try #require(began["evidence"] as? [String: Any])
        #expect(evidence["edgeWidthMM"] as? Double == 7 && evidence["fromRightMM"] as? Double == 4.5)
        #expect(evidence["moveLimitMM"] as? Double == 3)
        #expect(evidence["touch"] as? Int == 1, "the touch --explain names: \(evidence)")
    }

    /// `--trace` prints the edge scroll's state changes among the machine's, with the rule and
    /// evidence that began it and the input that stopped it.
    @Test func traceShowsTheEdgeScrollBeginningAndStopping() throws {
        let edge = try Self.settings(#"{"touchpadRecognizer": {"scrollMethod": "edge"}}"#)
        // Both traces whole: "state edge scroll: none -> scrolling  (motion, 1 finger)  edge-scroll
        // ... fromRightMM=4.50 ... edgeWidthMM=7 ... touch=1", later "state edge scroll: scrolling ->
        // none  (all-lifted, 0 fingers)  all-lifted"; without edge scrolling, no such line.
        var traces = ""
        #expect(try Golden.run(["replay", Self.rightEdge, "--config", edge, "--trace"], into: &traces).status == 0)
        #expect(try Golden.run(["replay", Self.rightEdge, "--trace"], into: &traces).status == 0)
        try Golden.expect(traces, is: "replay-trace-edge-scroll")
    }

    @Test func aScrollMethodThatIsNoneOfTheNamesIsRefusedWithTheNames() throws {
        // Each refusal whole (65): the names to choose from, the range, the type expected.
        var transcript = ""
        for json in [#"{"touchpadRecognizer": {"scrollMethod": "edgy"}}"#, #"{"touchpadRecognizer": {"edgeScrollWidthMM": 101}}"#,
                     #"{"touchpadRecognizer": {"scrollMethod": 2}}"#] {
            #expect(try Golden.run(["replay", Self.rightEdge, "--config", try Self.settings(json)], into: &transcript).status == 65, "\(json)")
        }
        try Golden.expect(transcript, is: "errors-config-scroll-method")
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
        // Each of the manifest's errors whole (65): the names to choose from, the type expected, and
        // a threshold, which is no device configuration.
        var transcript = ""
        for configuration in [#""deviceConfiguration": {"scrollMethod": "sideways"},"#, #""deviceConfiguration": {"scrollMethod": 2},"#,
                              #""deviceConfiguration": {"minMoveMM": 1},"#] {
            try write(configuration)
            #expect(try Golden.run(["check", dir.path], into: &transcript).status == 65, "\(configuration)")
        }
        try Golden.expect(transcript, is: "errors-manifest-device-configuration")
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
