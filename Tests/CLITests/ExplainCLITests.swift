import Foundation
import Testing
import PinchlabTestSupport

/// `replay --json` names a rule with evidence on every began/ended/cancelled gesture line, and
/// `--explain` / `--trace` work, on every recording the project has (Fixtures/) and on the shared
/// real recordings (../shared/recordings, beside CI's clone only).
@Suite(.blocking) struct ExplainCLITests {
    /// Fixtures/'s recordings, package-relative.
    static func fixtureRecordings() -> [String] {
        let fixtures = CLI.packageRoot.appendingPathComponent("Fixtures")
        let walk = FileManager.default.enumerator(atPath: fixtures.path)?.compactMap { $0 as? String } ?? []
        return walk.filter { $0.hasSuffix(".evemu") || $0.hasSuffix(".yml") }.map { "Fixtures/" + $0 }.sorted()
    }

    /// ../shared/recordings's recordings, package-relative.
    static func sharedRecordings() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: Prerequisite.sharedRecordingsDirectory.path)
            .filter { $0.hasSuffix(".evemu") }.map { "../shared/recordings/" + $0 }.sorted()
    }

    @Test func everyDecisionLineNamesItsRuleOnEveryFixture() throws {
        let files = Self.fixtureRecordings()
        #expect(files.count >= 48, "the fixtures are missing")
        let (decisions, holds) = try Self.expectEveryDecisionNamesItsRule(files)
        #expect(decisions > 100, "\(decisions) decisions")  // 154
        #expect(holds > 0)
    }

    @Test(.needs(.sharedRecordings)) func everyDecisionLineNamesItsRuleOnEverySharedRecording() throws {
        let files = try Self.sharedRecordings()
        #expect(files.count >= 42, "\(files.count) shared recordings")
        let (decisions, holds) = try Self.expectEveryDecisionNamesItsRule(files)
        #expect(decisions > 50, "\(decisions) decisions")  // 100
        #expect(holds > 0)
    }

    /// The checks on each of `files`; the number of gesture decisions and of holds begun.
    static func expectEveryDecisionNamesItsRule(_ files: [String]) throws -> (decisions: Int, holds: Int) {
        var decisions = 0, holds = 0
        for file in files {
            let json = try CLI.run(["replay", file, "--json"])
            // A file cut mid-frame is bad data (65) but still reports what it read.
            #expect(json.status == 0 || json.status == 65, "\(file): status \(json.status)")
            var gestureDecisions = 0
            for line in json.lines {
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                      object["type"] as? String == "gesture", let state = object["state"] as? String else { continue }
                if state == "changed" {
                    #expect(object["rule"] == nil, "\(file): a changed line with a rule: \(line)")
                    continue
                }
                gestureDecisions += 1
                if object["kind"] as? String == "hold" && state == "began" { holds += 1 }
                #expect(object["rule"] is String, "\(file): no rule on \(line)")
                #expect(object["evidence"] is [String: Any], "\(file): no evidence on \(line)")
            }
            decisions += gestureDecisions

            let explain = try CLI.run(["replay", file, "--explain"])
            #expect(explain.status == json.status, "\(file): --explain status \(explain.status)")
            // One sentence per gesture decision: "pinch began (2 fingers): fingers moved ...".
            let sentences = explain.lines.filter { $0.range(of: #"^ *[0-9.]+ s  (pinch|pan|hold) (began|ended|cancelled) \([0-9]+ fingers?\): "#,
                                                            options: .regularExpression) != nil }
            #expect(sentences.count == gestureDecisions, "\(file): \(sentences.count) sentences for \(gestureDecisions) decisions")

            let trace = try CLI.run(["replay", file, "--trace"])
            #expect(trace.status == json.status, "\(file): --trace status \(trace.status)")
            // A property of every corpus file's trace (the files' traces whole are not kept).
            let changes = trace.lines.filter { $0.contains("  state ") }
            if gestureDecisions > 0 { #expect(!changes.isEmpty, "\(file): no state changes traced") }
            #expect(!trace.stdout.contains("RECOGNIZER BUG"), "\(file): recognizer bug")
        }
        return (decisions, holds)
    }

    @Test func explainSaysWhyAPinchBegan() throws {
        let result = try CLI.run(["replay", CLI.fixture("corpus/touchpad/pinch-out-01.evemu"), "--explain"])
        #expect(result.status == 0)
        // "pinch began (2 fingers): fingers moved N° apart (>= 135°) after A and B mm (>= 1 mm)",
        // "pinch ended (2 fingers): all 2 fingers lifted", whole.
        try Golden.expect(result, is: "replay-explain-touchpad-pinch-out")
    }

    @Test func traceShowsEveryStateChangeWithItsTime() throws {
        let result = try CLI.run(["replay", CLI.fixture("corpus/touchpad/pinch-out-01.evemu"), "--trace"])
        #expect(result.status == 0)
        // The trace whole: "state idle -> undecided  (finger-count-changed, ...)", then "undecided ->
        // pinch ... opposing-fingers ... angleDegrees=..."; one finger lifted 20 ms before the other,
        // so the pinch ends from switching fingers ("pinch -> switching-fingers", last
        // "switching-fingers -> idle  (all-lifted, 0 fingers)  all-lifted  fingersBefore=2").
        try Golden.expect(result, is: "replay-trace-touchpad-pinch-out")
    }

    /// One finger moving on a touchpad is pointer motion: --explain says so and --trace names the
    /// rule, where the trace read "undecided -> pan ... centroid-moved" for a pan that never came.
    @Test func aFingerThatMayNotPanIsExplained() throws {
        let file = CLI.fixture("corpus/touchpad/resting-thumb-01.evemu")
        // Both whole: "0.681 s  no gesture: 1 finger moved 3.1 mm (>= 3 mm) but may not pan here ...",
        // and "state undecided -> pan  (motion, 1 finger)  pan-unavailable  movedMM=...", never
        // "centroid-moved".
        var transcript = ""
        try Golden.run(["replay", file, "--explain"], into: &transcript)
        try Golden.run(["replay", file, "--trace"], into: &transcript)
        try Golden.expect(transcript, is: "replay-explain-and-trace-resting-thumb")
    }

    @Test func explainAndTraceRefuseJSON() throws {
        let result = try CLI.run(["replay", CLI.fixture("corpus/touchpad/pinch-out-01.evemu"), "--trace", "--json"])
        #expect(result.status == 64)
        try Golden.expect(result, is: "errors-trace-with-json")
    }
}

/// A settings value outside its range is bad data: status 65, the message names key, value and range.
@Suite(.blocking) struct ThresholdRangeCLITests {
    @Test func anOutOfRangeThresholdIsRefusedWithStatus65() throws {
        let dir = try CLI.temporaryDirectory()
        let config = dir.appendingPathComponent("bad.json")
        try Data(#"{"touchpadRecognizer":{"minMoveMM":-3}}"#.utf8).write(to: config)
        let r = try CLI.run(["replay", CLI.fixture("corpus/touchpad/pinch-out-01.evemu"), "--config", config.path])
        #expect(r.status == 65)
        #expect(r.stderr == "pinchlab: \(config.path):1:24: at 'touchpadRecognizer': minMoveMM: -3 mm is outside 0...50 mm\n", "\(r.stderr)")
    }
}
