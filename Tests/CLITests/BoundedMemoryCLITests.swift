import Foundation
import Testing
import PinchlabTestSupport

/// `report` and `view` of a recording of hours stay within a memory bound that its length does not
/// move (#42 item 3: a 3.6 h recording of 274 MB, 8,667 two-finger pans, took 2.07 GB to report
/// and 590 MB to view). Each child's peak resident memory is read as it exits (`PeakMemory`); the
/// recordings are long enough that a report or a page held whole in memory passes the bound.
@Suite(.blocking, .serialized) struct BoundedMemoryCLITests {
    /// The most a debug build of `report` or `view` may take here (it takes 70 to 80 MiB). Before
    /// the bound, release builds of e55c610 took, for the recordings below: `report` of the 300
    /// pans 137 MiB, `view` of the 600 pans 142 MiB, `view --compare` of the sessions 136 MiB,
    /// and each more with every minute of recording (5,000 pans: 1,287 and 604 MiB).
    static let peakBoundMiB = 110.0

    /// `times` copies of the fixture's events one after another, `gap` s apart, as one evemu file;
    /// each copy starts in slot 0, as the fixture does (it leaves its last touch's slot selected).
    static func repeated(_ fixture: String, times: Int, gap: Double) throws -> String {
        let lines = try String(contentsOfFile: CLI.fixture(fixture), encoding: .utf8).split(separator: "\n")
        var text = lines.filter { !$0.hasPrefix("E:") }.joined(separator: "\n") + "\n"
        // `E: 0.815457 0001 0145 0000`: its time in microseconds, and the rest without its comment.
        let events = lines.filter { $0.hasPrefix("E: ") }.map { line -> (micros: Int, rest: Substring) in
            let fields = line.dropFirst(3).split(separator: " ", maxSplits: 1)
            let time = fields[0].split(separator: ".")
            return (Int(time[0])! * 1_000_000 + Int(time[1])!, fields[1].prefix { $0 != "\t" })
        }
        let period = events.last!.micros - events.first!.micros + Int(gap * 1_000_000)
        text.reserveCapacity(times * events.count * 30)
        for copy in 0..<times {
            for (index, (micros, rest)) in events.enumerated() {
                let shifted = micros - events.first!.micros + copy * period
                let fraction = String(shifted % 1_000_000)
                let time = "E: \(shifted / 1_000_000).\(String(repeating: "0", count: 6 - fraction.count))\(fraction) "
                if index == 0 { text += time + "0003 002f 0000\n" }
                text += time + rest + "\n"
            }
        }
        let path = try CLI.temporaryDirectory().appendingPathComponent("long.evemu").path
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    /// Two-finger pans down (the corpus's, 0.8 s each, 1 s apart), each an attempt of pan-dismiss.
    static func pans(_ count: Int) throws -> String {
        try repeated("corpus/touchpad/pan-down-finish-01.evemu", times: count, gap: 1)
    }

    /// `report --no-libinput` of 300 pans (6.5 minutes) stays under the bound, and its archive's
    /// recording replays to what the recording itself replays to, as its JSON log's summary says.
    @Test(.needs(.python3, .gnuTime)) func aReportOfManyPansStaysBoundedAndReplaysToTheSameSummary() throws {
        let recording = try Self.pans(300)
        let archive = try CLI.temporaryDirectory().appendingPathComponent("long.zip").path
        let run = try PeakMemory.run(["report", recording, "--no-libinput", "-o", archive, "--transition", "pan-dismiss"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.peakMiB < Self.peakBoundMiB, "report took \(run.peakMiB) MiB")
        let dir = try ReportCLITests.extract(archive)

        let fromArchive = try CLI.run(["replay", dir.appendingPathComponent("recording.yml").path, "--summary",
                                       "--transition", "pan-dismiss", "--config", dir.appendingPathComponent("settings.json").path])
        let fromOriginal = try CLI.run(["replay", recording, "--summary", "--transition", "pan-dismiss"])
        let log = try String(contentsOf: dir.appendingPathComponent("replay.jsonl"), encoding: .utf8)
        let lastLine = try #require(log.split(separator: "\n").last)
        let logSummary = try #require(try JSONSerialization.jsonObject(with: Data(lastLine.utf8)) as? [String: Any])
        var a = try fromArchive.json(line: 0), b = try fromOriginal.json(line: 0), c = logSummary
        a["source"] = nil
        b["source"] = nil
        c["source"] = nil
        #expect(CLI.canonicalJSON(a) == CLI.canonicalJSON(b), "the archived recording replays to the same summary")
        #expect(CLI.canonicalJSON(c) == CLI.canonicalJSON(b), "replay.jsonl ends with that summary")
        #expect(b["trialCount"] as? Int == 300, "every pan is an attempt: \(b["trialCount"] ?? "none")")
        let page = try String(contentsOf: dir.appendingPathComponent("view.html"), encoding: .utf8)
        #expect(page.contains(#"id="pinchlab-data">{"#) && page.hasSuffix("</html>\n"), "the archive's page is whole")
    }

    /// `view` of 600 pans (13 minutes) stays under the bound.
    @Test(.needs(.gnuTime)) func theViewOfManyPansStaysBounded() throws {
        let recording = try Self.pans(600)
        let page = try CLI.temporaryDirectory().appendingPathComponent("long.html").path
        let run = try PeakMemory.run(["view", recording, "-o", page, "--transition", "pan-dismiss"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.peakMiB < Self.peakBoundMiB, "view took \(run.peakMiB) MiB")
        #expect(run.stderr.contains("600 attempts: 600 finished"), "\(run.stderr)")
    }

    /// Not the reproducer: a touchscreen session of an hour (one-, two- and three-finger gestures),
    /// its page with a compared policy's ghost.
    @Test(.needs(.gnuTime)) func theViewOfAnHourOfTouchscreenSessionsWithAGhostStaysBounded() throws {
        let recording = try Self.repeated("sessions/touchscreen-session.evemu", times: 200, gap: 2)
        let page = try CLI.temporaryDirectory().appendingPathComponent("long.html").path
        let run = try PeakMemory.run(["view", recording, "-o", page, "--compare", "gnome"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.peakMiB < Self.peakBoundMiB, "view --compare took \(run.peakMiB) MiB")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains(#""compare":{"name":"gnome""#) && html.contains(#"["c","#), "the ghost's steps are on the page")
    }
}
