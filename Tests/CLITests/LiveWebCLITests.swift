import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import VirtualEvdev
import PinchlabTestSupport

/// `pinchlab live --web` on a recording served through the virtual device (FUSE): pages in a real
/// browser (headless chromium) follow the session and end where `replay` ends.
@Suite(.blocking, .needs(.fuse), .serialized) struct LiveWebCLITests {
    /// Starts `live --web --port 0` on a served recording and returns both processes and the URL.
    static func startLive(_ fixture: String, transition: String, speed: String, idle: String = "2",
                          extra: [String] = []) throws -> (serve: CLI.Running, live: CLI.Running, url: String) {
        let dir = DeviceCLITests.mountDirectory("serve-web")
        let serve = try CLI.Running(["serve", CLI.fixture(fixture), "--at", dir, "--speed", speed])
        try #require(CLI.waitFor(20) { FileManager.default.fileExists(atPath: dir + "/event0") }, "\(serve.stderrSoFar)")
        let live = try CLI.Running(["live", dir + "/event0", "--json", "--transition", transition, "--web", "--port", "0",
                                    "--exit-after-idle", idle] + extra)
        let found = try url(of: live)
        return (serve, live, found)
    }

    /// The page loaded during the gesture ends in the state the replay of the file ends in, in two
    /// tabs at once. The virtual device holds the second half of the gesture back until both tabs
    /// have connected (live says so on stderr), so "during" does not depend on the machine's speed.
    @Test(.needs(.chromium), arguments: [("corpus/touchpad/pinch-in-slow-finish-01.evemu", "pinch-dismiss"),
                      ("corpus/touchscreen/pan-down-finish-01.evemu", "pan-dismiss")])
    func pagesLoadedDuringTheGestureEndWhereTheReplayEnds(fixture: String, transition: String) throws {
        let replay = try ViewerCLITests.replay(fixture, ["--transition", transition])
        let last = try #require(replay.transitions.last)
        let (description, events) = try DeviceCLITests.events(of: fixture)
        let began = try #require(replay.transitions.first?["time"] as? Double)
        let firstTime = try #require(events.first?.time.totalMicroseconds)
        // Cut after the first whole frame past the gesture's begin: the tabs come in mid-gesture.
        let cut = try #require(events.indices.first { events[$0].isSynReport
            && Double(events[$0].time.totalMicroseconds - firstTime) / 1e6 > began + 0.05 }) + 1
        let device = try VirtualEvdevDevice(description: description, directory: DeviceCLITests.mountDirectory("web"), options: .inTests)
        defer { device.stop() }
        let live = try CLI.Running(["live", device.path, "--json", "--transition", transition, "--web", "--port", "0",
                                    "--exit-after-idle", "60"])
        defer { live.process.interrupt() }
        try #require(device.waitUntilReading(clients: 1, timeoutSeconds: 20))
        device.enqueue(events[..<cut])
        let url = try Self.url(of: live)

        final class Box: @unchecked Sendable { var doms: [Result<String, any Error>] = []; let lock = NSLock() }
        let box = Box()
        let group = DispatchGroup()
        for _ in 0..<2 {
            group.enter()
            DispatchQueue.global().async {
                let dom = Result { try Chromium.dumpDOM(url, virtualTimeBudgetMS: 30_000, timeout: 120) }
                box.lock.withLock { box.doms.append(dom) }
                group.leave()
            }
        }
        // A live process: its output is read while it runs.
        try #require(CLI.waitFor(90) { live.stderrSoFar.contains("pinchlab: a page connected (2 watching)") },
                     "both tabs connected: \(live.stderrSoFar)")
        device.enqueue(events[cut...])
        // The completion plays on the live clock; stop once live has printed the replay's last step.
        let lastLine = CLI.canonicalJSON(last)
        try #require(CLI.waitFor(60) {
            live.stdoutSoFar.split(separator: "\n").contains { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8))).map { CLI.canonicalJSON($0) } == lastLine
            }
        }, "live reached the replay's last step: \(live.stdoutSoFar.suffix(400))")
        live.process.interrupt()
        let r = try live.finish(timeout: 30)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(group.wait(timeout: .now() + 120) == .success, "the tabs finished")

        try #require(box.doms.count == 2)
        for dom in box.doms {
            let state = try #require(try Chromium.preJSON(try dom.get(), id: "pinchlab-state") as? [String: Any])
            let web = try #require(state["live"] as? [String: Any])
            #expect(web["ended"] as? Bool == true, "the page saw the session end")
            let caughtUp = try #require(web["caughtUp"] as? Int), entries = try #require(web["entries"] as? Int)
            #expect(caughtUp > 0 && caughtUp < entries, "loaded mid-gesture: \(caughtUp) of \(entries) entries came in the catch-up")
            #expect(abs((state["progress"] as? Double ?? -1) - (last["progress"] as? Double ?? -2)) <= 1e-6)
            #expect(state["transitionState"] as? String == last["state"] as? String)
            let trials = replay.summary["trials"] as? [[String: Any]] ?? []
            #expect(state["trial"] as? Int == trials.count - 1)
            #expect(abs((state["time"] as? Double ?? -1) - (last["time"] as? Double ?? -2)) <= 1e-6, "the page follows to the end")
        }
    }

    /// The URL `live --web` prints first (on stderr).
    static func url(of live: CLI.Running) throws -> String {
        var url: String?
        CLI.waitFor(20) {
            guard let line = live.stderrSoFar.split(separator: "\n").first(where: { $0.hasPrefix("pinchlab: watch at ") }) else {
                return false
            }
            url = String(line.dropFirst("pinchlab: watch at ".count))
            return true
        }
        let found = try #require(url, "live printed its URL: \(live.stdoutSoFar) \(live.stderrSoFar)")
        #expect(found.hasPrefix("http://127.0.0.1:"), "loopback by default: \(found)")
        return found
    }

    /// A tab that connects after the gesture is over (the session still running) gets everything
    /// so far in its first event and shows the end state.
    @Test(.needs(.chromium)) func aLateTabCatchesUp() throws {
        let fixture = "corpus/touchpad/pinch-in-quick-flick-01.evemu"
        let replay = try ViewerCLITests.replay(fixture)
        let last = try #require(replay.transitions.last)
        let (serve, live, url) = try Self.startLive(fixture, transition: "pinch-dismiss", speed: "4", idle: "12")
        defer { serve.process.interrupt(); live.process.interrupt() }
        // The recording lasts well under a second at 4x; the completion about one more.
        usleep(3_000_000)
        let html = try Self.get(url)
        #expect(html.status == 200 && html.body.contains("id=\"pinchlab-data\""))  // the page's HTML
        let missing = try Self.get(url + "nope")
        #expect(missing.status == 404, "other paths are 404")
        // The tab connects now; its page runs until the session ends (Ctrl-C below) and the stream closes.
        final class Box: @unchecked Sendable { var dom: Result<String, any Error>? }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            box.dom = Result { try Chromium.dumpDOM(url, virtualTimeBudgetMS: 30_000, timeout: 90) }
            done.signal()
        }
        usleep(4_000_000)
        live.process.interrupt()  // Ctrl-C: the pages get the summary, the server stops, status 0
        let r = try live.finish(timeout: 30)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.lines.last.map { $0.contains("\"type\":\"summary\"") } == true)  // a JSON line
        #expect(done.wait(timeout: .now() + 90) == .success)
        let dom = try #require(box.dom).get()
        let state = try #require(try Chromium.preJSON(dom, id: "pinchlab-state") as? [String: Any])
        let web = try #require(state["live"] as? [String: Any])
        #expect(web["ended"] as? Bool == true)
        #expect((web["entries"] as? Int ?? 0) > 0 && web["caughtUp"] as? Int == web["entries"] as? Int,
                "everything came in the catch-up: \(web)")
        #expect(abs((state["progress"] as? Double ?? -1) - (last["progress"] as? Double ?? -2)) <= 1e-6)
        #expect(state["transitionState"] as? String == last["state"] as? String)
        let after = try? Self.get(url)
        #expect(after == nil || after?.status != 200, "the server stopped with live")
    }

    /// With --json, stdout holds JSON Lines only: the URL and the server's notes go to stderr.
    @Test func jsonStdoutHoldsOnlyJSONLines() throws {
        let (serve, live, _) = try Self.startLive("corpus/touchpad/pinch-in-quick-flick-01.evemu", transition: "pinch-dismiss",
                                                  speed: "4", idle: "1")
        defer { serve.process.interrupt() }
        let r = try live.finish(timeout: 30)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.lines.count > 2, "\(r.stdout)")
        for line in r.lines {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) is [String: Any], "not a JSON line: \(line)")
        }
        #expect(r.stderr.contains("pinchlab: watch at http://127.0.0.1:"), "\(r.stderr)")  // a random port
    }

    /// A port in use is status 69 with a clear message.
    @Test func aPortInUseIsUnavailable() throws {
        let fixture = "corpus/touchpad/pinch-in-quick-flick-01.evemu"
        let (serve, live, url) = try Self.startLive(fixture, transition: "pinch-dismiss", speed: "1", idle: "10")
        defer { serve.process.interrupt(); live.process.interrupt() }
        let port = try #require(URL(string: url)?.port)
        let dir = DeviceCLITests.mountDirectory("serve-web-busy")
        let serve2 = try CLI.Running(["serve", CLI.fixture(fixture), "--at", dir])
        defer { serve2.process.interrupt() }
        try #require(CLI.waitFor(20) { FileManager.default.fileExists(atPath: dir + "/event0") })
        let second = try CLI.run(["live", dir + "/event0", "--web", "--port", String(port), "--exit-after-idle", "1"], timeout: 30)
        #expect(second.status == 69, "\(second.stderr)")
        #expect(second.stderr.contains("cannot listen on 127.0.0.1:\(port): the port is in use"), "\(second.stderr)")  // a random port
        let usage = try CLI.run(["live", dir + "/event0", "--port", "9000"])
        #expect(usage.status == 64, "\(usage.stderr)")
        try Golden.expect(usage, is: "errors-live-port-without-web", normalising: [dir: "$MOUNT"])
    }

    /// GET `url`: status and body.
    static func get(_ url: String) throws -> (status: Int, body: String) {
        try request(url)
    }

    /// `method` `url` with `headers`: status and body.
    static func request(_ url: String, method: String = "GET", headers: [String: String] = [:]) throws -> (status: Int, body: String) {
        final class Box: @unchecked Sendable { var status = 0; var body = Data(); var error: (any Error)? }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.timeoutInterval = 10
        let task = URLSession.shared.dataTask(with: request) { data, response, error in
            box.status = (response as? HTTPURLResponse)?.statusCode ?? 0
            box.body = data ?? Data()
            box.error = error
            done.signal()
        }
        task.resume()
        if done.wait(timeout: .now() + 15) == .timedOut { task.cancel(); _ = done.wait(timeout: .now() + 5) }
        if let error = box.error { throw error }
        return (box.status, String(decoding: box.body, as: UTF8.self))
    }
}
