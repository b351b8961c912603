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

    /// Pans past every thinning bound, and twice as many: 1,100 pans make 2,200 gestures (a hold
    /// and a pan each) and 86,900 touch frames; 2,200 pans make 173,800 frames and 2,200 attempts,
    /// past the page's 150,000 frames and 2,000 gestures and attempts, and the picture's 2,000
    /// tracks and 2,000 attempts and gestures marked (`ThinnedEntries`, `TimelineRecorder`).
    static let pastTheBounds = 1_100, twicePastTheBounds = 2_200

    /// `view` and `plot` of twice the recording, past every bound, write a page and a picture no
    /// bigger and take no more memory (but for the entries gathered up to a bound): each keeps
    /// what each gesture and attempt leaves bounded, not only each frame. Before, the page grew by
    /// every gesture's begin, updates and end and every attempt's steps (15.6 to 25.2 MB here), the
    /// picture by every attempt's and gesture's marks.
    @Test(.needs(.gnuTime)) func thePageAndThePictureOfTwiceTheRecordingAreNoBiggerAndSaySo() throws {
        let recordings = try [Self.pastTheBounds, Self.twicePastTheBounds].map { try Self.pans($0) }
        for (command, fileExtension) in [("view", "html"), ("plot", "svg")] {
            var sizes: [Int] = [], peaks: [Double] = [], outputs: [String] = []
            for recording in recordings {
                let output = try CLI.temporaryDirectory().appendingPathComponent("long." + fileExtension).path
                let run = try PeakMemory.run([command, recording, "-o", output, "--transition", "pan-dismiss"], timeout: 300)
                #expect(run.status == 0, "\(run.stderr)")
                sizes.append(try FileManager.default.attributesOfItem(atPath: output)[.size] as? Int ?? 0)
                peaks.append(run.peakMiB)
                outputs.append(try String(contentsOfFile: output, encoding: .utf8))
            }
            #expect(Double(sizes[1]) < Double(sizes[0]) * Self.growthBound, "\(command): \(sizes[0]) then \(sizes[1]) bytes")
            #expect(peaks[1] < peaks[0] + Self.peakGrowthMiB, "\(command): \(peaks[0]) then \(peaks[1]) MiB")
            let long = outputs[1]
            if command == "view" {
                for stride in [#""frameStride":2"#, #""gestureStride":4"#, #""attemptStride":2"#] {
                    #expect(long.contains(stride), "the page's data says what it thinned: \(stride)")
                }
            } else {
                let note = long.firstRange(of: "thinned for drawing (a long recording)").map { long[$0.lowerBound...].prefix(400) }
                #expect(note.map { $0.contains("1 in 2 attempts") && $0.contains("1 in 4 gestures") } == true,
                        "the picture says what it thinned: \(note ?? "no note")")
            }
        }
    }

    /// Twice the recording, past the bounds, writes at most this much more (a thinning leaves
    /// between half and all of a bound, so two lengths past it keep about as many entries).
    static let growthBound = 1.1
    /// ... and takes at most this much more memory: the entries gathered up to the frames' bound
    /// before they are thinned, which the shorter recording does not reach.
    static let peakGrowthMiB = 24.0

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
