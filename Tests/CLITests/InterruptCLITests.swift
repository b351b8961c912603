import Foundation
import Testing

/// Ctrl-C in the middle of a paced replay ends it like the end of the recording: the gesture in
/// flight is cancelled, the summary line still comes, and the exit status says "interrupted".
@Suite struct InterruptCLITests {
    @Test(arguments: [SIGINT, SIGTERM])
    func anInterruptedReplayStillPrintsItsSummary(signal: Int32) throws {
        // pinch-in-slow-finish-01 pinches from 0.23 s to 0.84 s; at a tenth of the speed the pinch
        // is in flight from about 2.3 s to 8.4 s of wall time.
        let replay = try CLI.Running(["replay", CLI.fixture("corpus/touchpad/pinch-in-slow-finish-01.evemu"),
                                      "--json", "--speed", "0.1"])
        #expect(CLI.waitFor(30) { replay.stdoutSoFar.contains(#""state":"changed""#) }, "the pinch is under way")
        kill(replay.process.processIdentifier, signal)
        let r = try replay.finish(timeout: 10)
        #expect(r.status == 130, "\(r.stderr)")
        #expect(r.stderr.contains("interrupted"))
        let summary = try r.json(line: -1)
        #expect(summary["type"] as? String == "summary")
        let gesture = try #require((summary["gestures"] as? [[String: Any]])?.first { $0["kind"] as? String != "hold" })
        #expect(gesture["kind"] as? String == "pinch")
        #expect(gesture["ended"] as? String == "cancelled", "nobody lifted those fingers")
        #expect(summary["outcome"] as? String == "cancelled")
        #expect((summary["duration"] as? Double ?? 9) < 0.84, "the summary covers what was replayed")
    }
}
