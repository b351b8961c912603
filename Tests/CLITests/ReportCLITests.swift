import Foundation
import Testing
import PinchlabTestSupport

/// `pinchlab report`: one archive for a bug report, on a real recording, and `live --report`.
@Suite(.blocking, .serialized) struct ReportCLITests {
    static let real = "evemu-devices-Wacom-Bamboo-16FG-4x5-Finger-double-center-scroll.evemu"

    /// The archive's files, extracted with Debian's python3 (zipfile), by name (`.needs(.python3)`).
    static func extract(_ archive: String) throws -> URL {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.run(["-m", "zipfile", "-e", archive, dir.path], executable: URL(fileURLWithPath: "/usr/bin/python3"))
        #expect(r.status == 0, "\(r.stderr)")
        return dir.appendingPathComponent("pinchlab-report")
    }

    /// A real recording's report holds every part; its recording replays to the same summary as the
    /// original, its settings are the ones used, and its page opens in headless Chromium.
    @Test(.needs(.sharedRecordings, .chromium, .python3))
    func aReportOfARealRecordingReplaysToTheSameSummary() throws {
        let original = Prerequisite.sharedRecording(Self.real)
        let out = try CLI.temporaryDirectory().appendingPathComponent("bug.zip").path
        let r = try CLI.run(["report", original, "-o", out, "--transition", "pan-dismiss"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("wrote \(out)"))  // beside libinput's run, whose timing varies
        let dir = try Self.extract(out)
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        let libinput = FileManager.default.isExecutableFile(atPath: "/usr/bin/libinput")
        #expect(names == (["plot.svg", "recording.yml", "replay.jsonl", "settings.json", "summary.txt", "view.html"]
                          + (libinput ? ["libinput.txt"] : [])).sorted())

        let recording = dir.appendingPathComponent("recording.yml").path
        let fromArchive = try CLI.run(["replay", recording, "--summary", "--transition", "pan-dismiss",
                                       "--config", dir.appendingPathComponent("settings.json").path])
        let fromOriginal = try CLI.run(["replay", original, "--summary", "--transition", "pan-dismiss"])
        var a = try fromArchive.json(line: 0), b = try fromOriginal.json(line: 0)
        a["source"] = nil
        b["source"] = nil
        #expect(CLI.canonicalJSON(a) == CLI.canonicalJSON(b), "the archived recording replays to the same summary")
        #expect(b["outcome"] as? String == "finished")

        let replayLines = try String(contentsOf: dir.appendingPathComponent("replay.jsonl"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        let printed = try CLI.run(["replay", original, "--json", "--transition", "pan-dismiss"]).lines
        #expect(Array(replayLines.dropLast()) == Array(printed.dropLast()), "replay.jsonl is replay --json")
        // Its summary too, the releases' flips and margins included (only the source differs).
        let archivedLast = try #require(replayLines.last), printedLast = try #require(printed.last)
        var archivedSummary = try #require(try JSONSerialization.jsonObject(with: Data(archivedLast.utf8)) as? [String: Any])
        var printedSummary = try #require(try JSONSerialization.jsonObject(with: Data(printedLast.utf8)) as? [String: Any])
        archivedSummary["source"] = nil
        printedSummary["source"] = nil
        #expect(CLI.canonicalJSON(archivedSummary) == CLI.canonicalJSON(printedSummary), "replay.jsonl's summary is replay --json's")
        let trials = try #require(archivedSummary["trials"] as? [[String: Any]])
        #expect(trials.contains { $0["margins"] != nil && $0["flip"] != nil }, "the summary's trials carry their margins: \(trials)")

        let summary = try String(contentsOf: dir.appendingPathComponent("summary.txt"), encoding: .utf8)
        for fact in ["version: pinchlab ", "kernel: ", "libinput: ", "device: \"Wacom Bamboo 16FG 4x5 Finger\"",
                     "pan began (2 fingers)", "finish: projected progress", "; margin ", " would have cancelled it"] {
            #expect(summary.contains(fact), "summary.txt says \(fact)")
        }
        if libinput {
            let verdict = try String(contentsOf: dir.appendingPathComponent("libinput.txt"), encoding: .utf8)
            #expect(verdict.hasPrefix("libinput 1.") && verdict.contains("scroll"), "\(verdict)")  // libinput's verdict: its times vary
        }
        let svg = try String(contentsOf: dir.appendingPathComponent("plot.svg"), encoding: .utf8)
        #expect(svg.hasPrefix("<svg") || svg.hasPrefix("<?xml"))
        let dom = try Chromium.dumpDOM(Chromium.fileURL(dir.appendingPathComponent("view.html").path))
        #expect(dom.contains(#"<div id="stopped" hidden="">"#), "the page loads the whole recording")
        #expect(dom.contains("Wacom Bamboo 16FG 4x5 Finger"))  // the page's DOM
    }

    @Test func aReportOfNothingSaysWhy() throws {
        let missing = try CLI.run(["report", "/nonexistent.evemu"])
        #expect(missing.status == 66, "\(missing.stderr)")
        let stdin = try CLI.run(["report", "-"])
        #expect(stdin.status == 64, "\(stdin.stderr)")
        try Golden.expect(Golden.text(of: missing) + Golden.text(of: stdin), is: "errors-report-missing-and-standard-input")
        let input = CLI.fixture(FlightRecorderCLITests.pinch)
        let overwrite = try CLI.run(["report", input, "-o", input])
        #expect(overwrite.status == 64, "\(overwrite.stderr)")
    }

    /// `live --dump-on every-release --report`: each dump gets its archive beside it, whose
    /// recording is the dump.
    @Test(.needs(.chromium, .python3, .fuse)) func liveMakesAReportOfItsDump() throws {
        let (serve, node) = try FlightRecorderCLITests.serve(FlightRecorderCLITests.pinch)
        defer { serve.process.interrupt() }
        let dir = try CLI.temporaryDirectory()
        let live = try CLI.Running(["live", node, "--json", "--keep", "5", "--dump-on", "every-release", "--report",
                                    "--dump-dir", dir.path])
        func archives() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { $0.hasSuffix("-report.zip") }
        }
        #expect(CLI.waitFor(40) { !archives().isEmpty }, "\(live.stderrSoFar)")
        live.process.interrupt()
        let r = try live.finish()
        #expect(r.status == 0, "\(r.stderr)")
        let archive = dir.appendingPathComponent(try #require(archives().first)).path
        // A live session: its output and its dump vary from run to run.
        #expect(r.stderr.contains("pinchlab: report \(archive)"), "\(r.stderr)")
        let extracted = try Self.extract(archive)
        let summary = try String(contentsOf: extracted.appendingPathComponent("summary.txt"), encoding: .utf8)
        #expect(summary.contains("a live dump (an attempt that ended)"), "\(summary)")
        let replayed = try CLI.run(["replay", extracted.appendingPathComponent("recording.yml").path, "--json"])
        #expect(replayed.status == 0 && replayed.stderr.contains("is a live dump"), "\(replayed.stderr)")  // a live dump's replay
    }
}
