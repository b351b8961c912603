import Foundation
import Testing

@Suite struct ReplayCLITests {
    let slowFinish = CLI.fixture("corpus/touchpad/pinch-in-slow-finish-01.evemu")
    let quickFlick = CLI.fixture("corpus/touchpad/pinch-in-quick-flick-01.evemu")

    @Test func replayJSONHasGestureAndTransitionLinesThenASummary() throws {
        let r = try CLI.run(["replay", slowFinish, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let objects = try (0..<r.lines.count).map { try r.json(line: $0) }
        let types = objects.compactMap { $0["type"] as? String }
        #expect(types.last == "summary")
        #expect(types.filter { $0 == "summary" }.count == 1)
        let gestures = objects.filter { $0["type"] as? String == "gesture" }
        #expect(gestures.first?["state"] as? String == "began")
        #expect(gestures.first?["kind"] as? String == "pinch")
        #expect(gestures.last?["state"] as? String == "ended")
        let transitions = objects.filter { $0["type"] as? String == "transition" }
        #expect(transitions.first?["state"] as? String == "interactive")
        #expect(transitions.last?["state"] as? String == "finished")
        #expect(transitions.last?["progress"] as? Double == 1)
        let times = objects.dropLast().compactMap { $0["time"] as? Double }
        #expect(times == times.sorted(), "records come in time order")
        let summary = try r.json(line: -1)
        #expect(summary["outcome"] as? String == "finished")
        let g = try #require((summary["gestures"] as? [[String: Any]])?.first)
        #expect(g["kind"] as? String == "pinch")
        #expect(g["fingers"] as? Int == 2)
        #expect(g["ended"] as? String == "ended")
        #expect((g["scale"] as? Double ?? 1) < 0.5)
        #expect(summary["reason"] as? String != nil)
    }

    @Test func twoReplaysOfOneFileAreByteIdentical() throws {
        let a = try CLI.run(["replay", quickFlick, "--json"])
        let b = try CLI.run(["replay", quickFlick, "--json"])
        #expect(a.status == 0)
        #expect(a.stdout == b.stdout)
        #expect(a.stdout.count > 1000)
    }

    @Test func theSeedRuleCancelsAQuickFlickThatTheDefaultPolicyFinishes() throws {
        let seed = try CLI.run(["replay", quickFlick, "--summary", "--policy", "seed"])
        let tuned = try CLI.run(["replay", quickFlick, "--summary"])
        #expect(try seed.json(line: 0)["outcome"] as? String == "cancelled")
        #expect(try tuned.json(line: 0)["outcome"] as? String == "finished")
        #expect((try tuned.json(line: 0)["reason"] as? String)?.contains("flick") == true)
    }

    @Test func humanOutputNamesTheGestureAndTheOutcome() throws {
        let r = try CLI.run(["replay", slowFinish])
        #expect(r.status == 0)
        #expect(r.stdout.contains("pinch began"))
        #expect(r.stdout.contains("outcome: pinch-dismiss finished"))
    }

    @Test func panDismissOnAPullDown() throws {
        let r = try CLI.run(["replay", CLI.fixture("corpus/touchscreen/pan-down-finish-01.evemu"),
                             "--transition", "pan-dismiss", "--summary"])
        let summary = try r.json(line: 0)
        #expect(summary["outcome"] as? String == "finished")
        let g = try #require((summary["gestures"] as? [[String: Any]])?.first)
        #expect(g["kind"] as? String == "pan")
        let translation = try #require(g["translation"] as? [String: Double])
        #expect((translation["y"] ?? 0) > 30)
    }

    @Test func realTimeReplayTakesAboutTheRecordedDuration() throws {
        let start = Date()
        let r = try CLI.run(["replay", quickFlick, "--summary", "--speed", "2"])
        let elapsed = Date().timeIntervalSince(start)
        let duration = try r.json(line: 0)["duration"] as? Double ?? 0
        #expect(elapsed >= duration / 2 * 0.9, "paced at twice the recorded speed")
    }

    @Test func statsCountsWhatIsInTheFile() throws {
        let r = try CLI.run(["stats", slowFinish, "--json"])
        #expect(r.status == 0)
        let stats = try r.json(line: 0)
        let text = try String(contentsOfFile: slowFinish, encoding: .utf8)
        let eventLines = text.split(separator: "\n").filter { $0.hasPrefix("E: ") }
        #expect(stats["events"] as? Int == eventLines.count)
        #expect(stats["frames"] as? Int == eventLines.filter { $0.contains(" 0000 0000 0000") }.count)
        #expect(stats["class"] as? String == "touchpad")
        #expect(stats["widthMM"] as? Double == 100)
        #expect(stats["mostFingersDown"] as? Int == 2)
    }

    @Test func convertToLibinputRecordAndBackIsLossless() throws {
        let dir = try CLI.temporaryDirectory()
        let yml = dir.appendingPathComponent("a.yml").path, back = dir.appendingPathComponent("b.evemu").path
        #expect(try CLI.run(["convert", slowFinish, "-o", yml]).status == 0)
        #expect(try String(contentsOfFile: yml, encoding: .utf8).contains("version: 1"))
        #expect(try CLI.run(["convert", yml, "-o", back]).status == 0)
        #expect(FileManager.default.contents(atPath: back) == FileManager.default.contents(atPath: slowFinish))
    }

    @Test func plotWritesAnSVGThatRenders() throws {
        let dir = try CLI.temporaryDirectory()
        let svg = dir.appendingPathComponent("p.svg").path, png = dir.appendingPathComponent("p.png").path
        let r = try CLI.run(["plot", quickFlick, "-o", svg])
        #expect(r.status == 0, "\(r.stderr)")
        let text = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(text.contains("<svg") && text.contains("threshold 0.5") && text.contains("finished"))
        let render = Process()
        render.executableURL = URL(fileURLWithPath: "/usr/bin/rsvg-convert")
        render.arguments = [svg, "-o", png]
        try render.run()
        render.waitUntilExit()
        #expect(render.terminationStatus == 0)
        let data = try #require(FileManager.default.contents(atPath: png))
        #expect(data.starts(with: [0x89, 0x50, 0x4E, 0x47]), "a PNG came out")
        #expect(data.count > 5000)
    }
}
