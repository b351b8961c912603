import Foundation
import PinchlabTestSupport
import Testing

/// What the commands do when their output cannot be written, when it would destroy an input, and
/// when a recording turns bad part-way through.
@Suite(.blocking) struct OutputCLITests {
    static let pinch = CLI.fixture("corpus/touchpad/pinch-in-slow-finish-01.evemu")

    @Test(arguments: [
        ["replay", pinch, "--json"], ["replay", pinch], ["replay", pinch, "--summary"],
        ["stats", pinch], ["stats", pinch, "--json"], ["devices", "/tmp"], ["tune", CLI.fixture("corpus"), "--folds", "0"],
    ])
    func aFailedWriteToStandardOutputExits74(arguments: [String]) throws {
        let result = try CLI.run(arguments, standardOutput: "/dev/full")
        #expect(result.status == 74, "\(arguments): \(result.stderr)")
        // One message whole ("writing to standard output: No space left on device"), not the same
        // failure reported twice over, no "Fatal error".
        let name = arguments.map { URL(fileURLWithPath: $0).lastPathComponent.replacingOccurrences(of: ".evemu", with: "") }
            .joined(separator: "-").replacingOccurrences(of: "--", with: "")
        try Golden.expect(result, is: "errors-standard-output-full-\(name)")
    }

    /// A value that rounds to nothing from below prints as 0, never -0: rotate-01's release
    /// velocity rounds to 0 from below (it printed `"velocity":-0` on a transition line and in the summary).
    @Test func jsonNeverPrintsNegativeZero() throws {
        let r = try CLI.run(["replay", CLI.fixture("corpus/touchpad/rotate-01.evemu"), "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let negativeZeros = r.lines.filter { $0.range(of: #"-0(\.0+)?[,}\]]"#, options: .regularExpression) != nil }
        #expect(negativeZeros.isEmpty, "\(negativeZeros)")
        let decision = try #require(try r.json(line: -1)["decision"] as? [String: Any])
        #expect(decision["velocity"] as? Double == 0)
        #expect(r.stdout.contains(#""decision":{"finish":false,"progress":0.04117,"velocity":0}"#), "\(r.stdout)")  // a JSON fragment
    }

    @Test func plotRefusesToWriteOverItsInputByAnyPath() throws {
        let dir = try CLI.temporaryDirectory()
        let input = dir.appendingPathComponent("pinch.evemu").path
        try FileManager.default.copyItem(atPath: Self.pinch, toPath: input)
        let before = try Data(contentsOf: URL(fileURLWithPath: input))
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("link.svg").path, withDestinationPath: input)
        // Each refusal whole: "-o OUTPUT is the input file INPUT ...".
        var transcript = ""
        for output in [input, dir.path + "/../" + dir.lastPathComponent + "/pinch.evemu", dir.appendingPathComponent("link.svg").path] {
            let result = try Golden.run(["plot", input, "-o", output], into: &transcript)
            #expect(result.status == 64, "\(output): \(result.stderr)")
        }
        try Golden.expect(transcript, is: "errors-plot-onto-its-input")
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == before)
    }

    @Test func tuneRefusesToWriteOverItsCorpus() throws {
        let dir = try CLI.temporaryDirectory()
        let corpus = dir.appendingPathComponent("corpus")
        try FileManager.default.copyItem(atPath: CLI.fixture("corpus"), toPath: corpus.path)
        let manifest = corpus.appendingPathComponent("manifest.json")
        let recording = corpus.appendingPathComponent("touchpad/pinch-out-01.evemu")
        let before = try [manifest, recording].map { try Data(contentsOf: $0) }
        // Each refusal whole: "... saving the settings would destroy it".
        var transcript = ""
        for target in [manifest, recording] {
            let result = try Golden.run(["tune", corpus.path, "--write", target.path], into: &transcript)
            #expect(result.status == 64, "\(result.stderr)")
        }
        try Golden.expect(transcript, is: "errors-tune-write-onto-its-corpus")
        #expect(try [manifest, recording].map { try Data(contentsOf: $0) } == before)
    }

    /// The corpus's slow pinch with an event going back in time at `line` (1-based), mid-gesture.
    func pinchBrokenMidGesture() throws -> (path: String, line: Int) {
        var lines = try String(contentsOfFile: Self.pinch, encoding: .utf8).components(separatedBy: "\n")
        let eventLines = lines.indices.filter { lines[$0].hasPrefix("E: ") }
        let index = eventLines[eventLines.count / 2]
        lines.insert("E: 0.000001 0003 0035 0100", at: index)
        let path = try CLI.temporaryDirectory().appendingPathComponent("broken.evemu").path
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return (path, index + 1)
    }

    @Test func badDataMidGestureCancelsWhatWasInFlightAndStillSummarizes() throws {
        let broken = try pinchBrokenMidGesture()
        let result = try CLI.run(["replay", broken.path, "--json"])
        #expect(result.status == 65)
        // The lines and stderr whole: "broken.evemu:LINE: expected a time at or after ...".
        try Golden.expect(result, is: "replay-json-bad-data-mid-gesture")

        let records = try result.lines.indices.map { try result.json(line: $0) }
        let gestures = records.filter { $0["type"] as? String == "gesture" }
        #expect(gestures.first?["state"] as? String == "began")
        #expect(gestures.last?["state"] as? String == "cancelled", "the pinch in flight is closed, not left open")
        let transitions = records.filter { $0["type"] as? String == "transition" }
        #expect(transitions.last?["state"] as? String == "cancelled")

        let summary = try #require(records.last)
        #expect(summary["type"] as? String == "summary")
        #expect(summary["outcome"] as? String == "cancelled")
        let error = try #require(summary["error"] as? String)
        #expect(error.contains("broken.evemu:\(broken.line):"))  // a JSON field
        let whole = try CLI.run(["replay", Self.pinch, "--summary"]).json(line: -1)
        #expect(try #require(summary["events"] as? Int) < #require(whole["events"] as? Int))
        #expect(whole["error"] == nil, "a recording read to its end has no error key")
    }

    /// plot ends as replay does: the picture of what was read (the gesture in flight cancelled, the
    /// error in its facts), then the reader's error and status 65.
    @Test func plotDrawsWhatWasReadOfARecordingThatTurnsBad() throws {
        let broken = try pinchBrokenMidGesture()
        let output = try CLI.temporaryDirectory().appendingPathComponent("broken.svg").path
        // Run beside the recording and given its name alone: the picture wraps its facts, a long
        // temporary path among them, and a path cut across two lines cannot be normalised.
        let result = try CLI.run(["plot", "broken.evemu", "-o", output],
                                 directory: URL(fileURLWithPath: broken.path).deletingLastPathComponent())
        #expect(result.status == 65)
        try Golden.expect(result, is: "errors-plot-bad-data-mid-gesture")
        // The picture's words whole: "stopped early", "broken.evemu:LINE: ...".
        let svg = try String(contentsOfFile: output, encoding: .utf8)
        try Golden.expect(Golden.pictureText(ofSVG: svg), is: "plot-words-bad-data-mid-gesture")
        let replay = try CLI.run(["replay", broken.path, "--summary"])
        #expect(replay.status == result.status)
    }
}
