import Foundation
import Testing
import PinchlabTestSupport

/// `live --web`'s dump button: the page in headless chromium presses it, live writes the flight
/// recorder's dump, and the page shows the file it was written to, as text (the path is data).
@Suite(.blocking, .needs(.fuse), .serialized) struct LiveWebDumpCLITests {
    /// The page opened at `#dump` presses its button once connected (the one way a headless
    /// chromium run without a debugging client clicks); the dump lands in --dump-dir, whose name
    /// holds HTML, and the page's status line shows its path as text, not markup.
    @Test(.needs(.chromium)) func thePagesButtonDumpsAndShowsTheFile() throws {
        let (serve, node) = try FlightRecorderCLITests.serve(FlightRecorderCLITests.pinch)
        defer { serve.process.interrupt() }
        let dir = try CLI.temporaryDirectory().appendingPathComponent("<b>dumps&\"</b>")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let live = try CLI.Running(["live", node, "--json", "--keep", "5", "--dump-dir", dir.path, "--web", "--port", "0"])
        defer { if live.process.isRunning { live.process.interrupt() } }
        let url = try LiveWebCLITests.url(of: live)
        // A live process and its page: output read while it runs, the page's DOM, JSON lines.
        #expect(CLI.waitFor(40) { live.stdoutSoFar.contains("\"state\":\"ended\"") }, "\(live.stderrSoFar)")

        // Not from the page (no header): refused, and nothing is dumped.
        let forged = try Self.post(url + "dump", header: false)
        #expect(forged.status == 403, "\(forged.body)")

        // The tab runs until the session ends (Ctrl-C below, once the dump is written) and its stream closes.
        final class Box: @unchecked Sendable { var dom: Result<String, any Error>? }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            box.dom = Result { try Chromium.dumpDOM(url + "#dump", virtualTimeBudgetMS: 30_000, timeout: 120) }
            done.signal()
        }
        #expect(CLI.waitFor(60) { !FlightRecorderCLITests.dumps(in: dir).isEmpty }, "\(live.stderrSoFar)")
        // (a live process and its page, as above)
        #expect(CLI.waitFor(20) { live.stderrSoFar.contains("pinchlab: dumped ") }, "\(live.stderrSoFar)")
        usleep(500_000)
        live.process.interrupt()
        let r = try live.finish(timeout: 30)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(done.wait(timeout: .now() + 120) == .success)
        let dom = try #require(box.dom).get()
        #expect(dom.contains("id=\"dump\""), "the page has the button")
        let dumps = FlightRecorderCLITests.dumps(in: dir)
        #expect(dumps.count == 1, "one dump, from the button: \(dumps) \(r.stderr)")
        let dump = try #require(dumps.first)
        #expect(r.stderr.contains("(the page's dump button;"), "\(r.stderr)")  // live's stderr: timing
        let status = try #require(Self.spanText(dom, id: "dump-status"))
        #expect(status == "dumped to " + dump, "the page shows the file: \(status)")
        #expect(!dom.contains("<b>dumps"), "the path is shown as text, never as markup")  // the DOM

        let replay = try CLI.run(["replay", dump, "--json"])
        #expect(replay.status == 0 && replay.stdout.contains("\"type\":\"gesture\""), "\(replay.stderr)")  // JSON lines
    }

    /// With the flight recorder off there is no button, and the route is not there.
    @Test func noRecorderNoButton() throws {
        let (serve, node) = try FlightRecorderCLITests.serve(FlightRecorderCLITests.pinch)
        defer { serve.process.interrupt() }
        let live = try CLI.Running(["live", node, "--json", "--keep", "0", "--web", "--port", "0"])
        defer { if live.process.isRunning { live.process.interrupt() } }
        let url = try LiveWebCLITests.url(of: live)
        let page = try LiveWebCLITests.get(url)
        #expect(page.status == 200 && !page.body.contains("\"dumps\":true"), "the page offers no dump")  // the page's data
        #expect(try Self.post(url + "dump", header: true).status == 404)
        live.process.interrupt()
        _ = try live.finish()
    }

    /// The text of `<span id="ID">` in a dumped DOM (entities decoded).
    static func spanText(_ dom: String, id: String) -> String? {
        guard let open = dom.range(of: "<span id=\"\(id)\">"),
              let close = dom.range(of: "</span>", range: open.upperBound..<dom.endIndex) else { return nil }
        return Chromium.decodeEntities(String(dom[open.upperBound..<close.lowerBound]))
    }

    /// POST `url`, with the page's header or without: status and body.
    static func post(_ url: String, header: Bool) throws -> (status: Int, body: String) {
        try LiveWebCLITests.request(url, method: "POST", headers: header ? ["X-Pinchlab-Dump": "1"] : [:])
    }
}
