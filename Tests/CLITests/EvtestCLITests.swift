import Foundation
import Testing
import PinchlabTestSupport

/// evtest logs end to end: Debian's real `evtest` prints a served recording, and every command
/// that reads recordings reads its log to the same gestures as the recording itself.
@Suite(.blocking, .serialized) struct EvtestCLITests {
    static let evtest = "/usr/bin/evtest"

    /// What Debian's evtest prints while `serve --unplug-when-done` plays `fixture` once: evtest
    /// ends by itself when the device goes away.
    static func evtestLog(of fixture: String) throws -> String {
        let dir = DeviceCLITests.mountDirectory("serve-evtest")
        let serve = try CLI.Running(["serve", CLI.fixture(fixture), "--at", dir, "--unplug-when-done"])
        defer { serve.process.interrupt() }
        try #require(CLI.waitFor(20) { FileManager.default.fileExists(atPath: dir + "/event0") }, "\(serve.stderrSoFar)")
        let log = try CLI.temporaryDirectory().appendingPathComponent("evtest.txt").path
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let r = try CLI.run([dir + "/event0"], timeout: 60, standardOutput: log, executable: URL(fileURLWithPath: evtest))
        // evtest's own message: ENODEV, or ECONNABORTED when the FUSE connection goes first.
        #expect(r.stderr.contains("evtest: error reading: "), "evtest stopped because the device went away: \(r.stderr)")
        #expect(try serve.finish(timeout: 30).status == 0)
        return log
    }

    static func summary(_ arguments: [String]) throws -> [String: Any] {
        let r = try CLI.run(arguments + ["--json"])
        #expect(r.status == 0, "\(arguments): \(r.stderr)")
        return try r.json(line: -1)
    }

    @Test(.needs(.evtest, .fuse), arguments: [
        ("corpus/touchpad/pinch-in-slow-finish-01.evemu", "pinch-dismiss"),
        ("corpus/touchscreen/pan-down-flick-01.evemu", "pan-dismiss"),
    ])
    func aRealEvtestLogReplaysToTheGesturesOfTheRecordingServed(fixture: String, transition: String) throws {
        let log = try Self.evtestLog(of: fixture)
        let text = try String(contentsOfFile: log, encoding: .utf8)
        #expect(text.hasPrefix("Input driver version is "), "evtest's own output")
        #expect(text.contains("-------------- SYN_REPORT ------------"))  // evtest's own output

        let original = try Self.summary(["replay", CLI.fixture(fixture), "--transition", transition])
        let replayed = try Self.summary(["replay", log, "--transition", transition])
        #expect(CLI.canonicalJSON(replayed["gestures"]) == CLI.canonicalJSON(original["gestures"]))
        #expect(replayed["outcome"] as? String == original["outcome"] as? String)
        #expect(replayed["events"] as? Int == original["events"] as? Int, "every event of the recording, none more")
        #expect(replayed["frames"] as? Int == original["frames"] as? Int)
        let device = try #require(replayed["device"] as? [String: Any]), served = try #require(original["device"] as? [String: Any])
        #expect(device["class"] as? String == served["class"] as? String)
        #expect(device["widthMM"] as? Double == served["widthMM"] as? Double)

        // stats reads it as the recording; convert makes either format of it, which replay the same.
        let stats = try CLI.run(["stats", log])
        #expect(stats.status == 0 && stats.stderr.isEmpty, "\(stats.stderr)")
        let statsOriginal = try CLI.run(["stats", CLI.fixture(fixture)])
        #expect(stats.lines.dropFirst() == statsOriginal.lines.dropFirst(), "the same figures, under another file name")
        for ext in ["evemu", "yml"] {
            let out = try CLI.temporaryDirectory().appendingPathComponent("converted.\(ext)").path
            let converted = try CLI.run(["convert", log, "-o", out])
            #expect(converted.status == 0, "\(converted.stderr)")
            let again = try Self.summary(["replay", out, "--transition", transition])
            #expect(CLI.canonicalJSON(again["gestures"]) == CLI.canonicalJSON(original["gestures"]), "\(ext)")
        }
    }

    /// The same log as a bug report holds it: a prompt, `> ` quotes, Windows line ends, in a code
    /// fence. plot, view, label and check read it as replay does; serve plays it.
    @Test(.needs(.evtest, .fuse))
    func aPastedLogWorksWithEveryCommandThatReadsRecordings() throws {
        let fixture = "corpus/touchpad/pinch-in-slow-finish-01.evemu"
        let log = try Self.evtestLog(of: fixture)
        let dir = try CLI.temporaryDirectory()
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let pasted = dir.appendingPathComponent("issue-comment.txt").path
        try ("```\r\n> $ sudo evtest /dev/input/event7\r\n" + lines.map { "> " + $0 }.joined(separator: "\r\n") + "```\r\n")
            .write(toFile: pasted, atomically: true, encoding: .utf8)

        let original = try Self.summary(["replay", CLI.fixture(fixture)])
        let replayed = try Self.summary(["replay", pasted])
        #expect(CLI.canonicalJSON(replayed["gestures"]) == CLI.canonicalJSON(original["gestures"]))

        let svg = dir.appendingPathComponent("plot.svg").path
        let plot = try CLI.run(["plot", pasted, "-o", svg])
        #expect(plot.status == 0, "\(plot.stderr)")
        #expect(try String(contentsOfFile: svg, encoding: .utf8).contains("<svg"))  // an SVG came out
        let html = dir.appendingPathComponent("view.html").path
        let view = try CLI.run(["view", pasted, "-o", html])
        #expect(view.status == 0, "\(view.stderr)")

        let corpus = dir.appendingPathComponent("corpus").path
        let label = try CLI.run(["label", pasted, "--corpus", corpus, "--expect", "pinch:2", "--direction", "in",
                                 "--outcome", "finish", "--transition", "pinch-dismiss"])
        #expect(label.status == 0, "\(label.stderr)")
        let check = try CLI.run(["check", corpus])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout == "1 file: 1 match\n", "\(check.stdout)")

        // serve plays the pasted log as a device; a recording of it replays to the same gestures.
        let mount = DeviceCLITests.mountDirectory("serve-pasted")
        let serve = try CLI.Running(["serve", pasted, "--at", mount, "--unplug-when-done"])
        defer { serve.process.interrupt() }
        try #require(CLI.waitFor(20) { FileManager.default.fileExists(atPath: mount + "/event0") }, "\(serve.stderrSoFar)")
        let recorded = dir.appendingPathComponent("served.evemu").path
        let record = try CLI.Running(["record", mount + "/event0", "-o", recorded]).finish(timeout: 30)
        #expect(record.status == 69, "the device went away at the end: \(record.stderr)")
        let served = try Self.summary(["replay", recorded])
        #expect(CLI.canonicalJSON(served["gestures"]) == CLI.canonicalJSON(original["gestures"]))
    }

    /// A paste that cannot be read says where and why, with status 65 (bad data).
    @Test func anUnreadablePasteIsAnErrorWithFileAndLine() throws {
        let dir = try CLI.temporaryDirectory()
        let headless = dir.appendingPathComponent("events-only.txt").path
        try "Event: time 1479439827.574600, type 3 (EV_ABS), code 47 (ABS_MT_SLOT), value 1\n"
            .write(toFile: headless, atomically: true, encoding: .utf8)
        let r = try CLI.run(["replay", headless])
        #expect(r.status == 65)
        try Golden.expect(r, is: "errors-evtest-log-without-its-header")
    }
}
