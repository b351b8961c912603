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
        #expect(result.stderr.contains("writing to standard output: No space left on device"), "\(result.stderr)")
        #expect(!result.stderr.contains("Fatal error"))
        // One message, not the same failure reported twice over.
        #expect(result.stderr.components(separatedBy: "standard output").count == 2, "\(result.stderr)")
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
        #expect(r.stdout.contains(#""decision":{"finish":false,"progress":0.04117,"velocity":0}"#), "\(r.stdout)")
    }

    @Test func plotRefusesToWriteOverItsInputByAnyPath() throws {
        let dir = try CLI.temporaryDirectory()
        let input = dir.appendingPathComponent("pinch.evemu").path
        try FileManager.default.copyItem(atPath: Self.pinch, toPath: input)
        let before = try Data(contentsOf: URL(fileURLWithPath: input))
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("link.svg").path, withDestinationPath: input)
        for output in [input, dir.path + "/../" + dir.lastPathComponent + "/pinch.evemu", dir.appendingPathComponent("link.svg").path] {
            let result = try CLI.run(["plot", input, "-o", output])
            #expect(result.status == 64, "\(output): \(result.stderr)")
            #expect(result.stderr.contains("is the input file"), "\(result.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == before)
    }

    @Test func tuneRefusesToWriteOverItsCorpus() throws {
        let dir = try CLI.temporaryDirectory()
        let corpus = dir.appendingPathComponent("corpus")
        try FileManager.default.copyItem(atPath: CLI.fixture("corpus"), toPath: corpus.path)
        let manifest = corpus.appendingPathComponent("manifest.json")
        let recording = corpus.appendingPathComponent("touchpad/pinch-out-01.evemu")
        let before = try [manifest, recording].map { try Data(contentsOf: $0) }
        for target in [manifest, recording] {
            let result = try CLI.run(["tune", corpus.path, "--write", target.path])
            #expect(result.status == 64, "\(result.stderr)")
            #expect(result.stderr.contains("saving the settings would destroy it"), "\(result.stderr)")
        }
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
        #expect(result.stderr.contains("broken.evemu:\(broken.line): expected a time at or after"), "\(result.stderr)")

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
        #expect(error.contains("broken.evemu:\(broken.line):"))
        let whole = try CLI.run(["replay", Self.pinch, "--summary"]).json(line: -1)
        #expect(try #require(summary["events"] as? Int) < #require(whole["events"] as? Int))
        #expect(whole["error"] == nil, "a recording read to its end has no error key")
    }

    /// plot ends as replay does: the picture of what was read (the gesture in flight cancelled, the
    /// error in its facts), then the reader's error and status 65.
    @Test func plotDrawsWhatWasReadOfARecordingThatTurnsBad() throws {
        let broken = try pinchBrokenMidGesture()
        let output = try CLI.temporaryDirectory().appendingPathComponent("broken.svg").path
        let result = try CLI.run(["plot", broken.path, "-o", output])
        #expect(result.status == 65)
        #expect(result.stderr.contains("broken.evemu:\(broken.line):"))
        let svg = try String(contentsOfFile: output, encoding: .utf8)
        #expect(svg.contains("stopped early") && svg.contains("broken.evemu:\(broken.line):"))
        let replay = try CLI.run(["replay", broken.path, "--summary"])
        #expect(replay.status == result.status)
    }
}
