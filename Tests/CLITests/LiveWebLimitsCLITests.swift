import Foundation
import Testing
import PinchlabTestSupport

/// `live --web` against hostile or careless clients: other Host names, pages that never read, a
/// burst of connections at Ctrl-C. Everything goes to 127.0.0.1 only.
@Suite(.blocking, .needs(.fuse), .serialized) struct LiveWebLimitsCLITests {
    static func port(of url: String) throws -> Int { try #require(URL(string: url)?.port) }

    /// A name a web page could point at 127.0.0.1 (DNS rebinding) gets 421 for the page and the
    /// stream; loopback names and the listening address get the page.
    @Test func onlyLoopbackNamesAndTheListeningAddressAreAnswered() throws {
        let (serve, live, url) = try LiveWebCLITests.startLive("corpus/touchpad/pinch-in-quick-flick-01.evemu",
                                                               transition: "pinch-dismiss", speed: "1", idle: "20")
        defer { serve.process.interrupt(); live.process.interrupt() }
        let port = try Self.port(of: url)
        for host in ["127.0.0.1:\(port)", "127.0.0.1", "localhost:\(port)", "LocalHost.", "[::1]:\(port)", "127.1.2.3:\(port)",
                     "app.localhost:\(port)"] {
            #expect(try LoopbackHTTP.get(port: port, "/", host: host) == 200, "Host: \(host)")
        }
        for host in ["evil.example", "evil.example:\(port)", "127.0.0.1.evil.example", "localhost.evil.example:\(port)",
                     "10.0.0.1:\(port)", "127.0.0.1:\(port)@evil.example", ""] {
            #expect(try LoopbackHTTP.get(port: port, "/", host: host) == 421, "Host: \(host)")
            #expect(try LoopbackHTTP.get(port: port, "/events", host: host) == 421, "Host: \(host)")
        }
        #expect(try LoopbackHTTP.get(port: port, "/", host: nil) == 421, "no Host at all")
        // Two Host lines (#42 17: 200 when the first was good): 400, as RFC 9112 requires, for
        // the page and the stream, whichever comes first, the same name twice too.
        for hosts in [["127.0.0.1:\(port)", "evil.example"], ["evil.example", "127.0.0.1:\(port)"],
                      ["localhost", "localhost"], ["127.0.0.1", "127.0.0.1", "127.0.0.1"]] {
            #expect(try LoopbackHTTP.get(port: port, "/", hosts: hosts) == 400, "Host: \(hosts)")
            #expect(try LoopbackHTTP.get(port: port, "/events", hosts: hosts) == 400, "Host: \(hosts)")
        }
        #expect(try LoopbackHTTP.get(port: port, "/", hosts: ["127.0.0.1:\(port)"]) == 200, "one is still answered")
        live.process.interrupt()
        let r = try live.finish(timeout: 30)
        #expect(r.status == 0, "\(r.stderr)")
    }

    /// A page that asks for the stream and never reads is disconnected once it is more than
    /// --page-buffer behind (after what the kernel's socket buffers take), and stderr says so.
    /// (LiveWebLimitsTests checks in process that a page that reads is never disconnected.)
    ///
    /// The device serves 50 pinches one after another per pass, as fast as live reads: a loop of
    /// the one pinch waited serve's pause between passes (0.5 s) after every 0.8 s pinch, and
    /// filling the page's buffer and the sockets' then took some 100 passes, near a minute.
    @Test func aPageThatNeverReadsIsDisconnected() throws {
        let dir = DeviceCLITests.mountDirectory("serve-web-slow")
        let pinches = try BoundedMemoryCLITests.repeated("corpus/touchpad/pinch-in-slow-finish-01.evemu", times: 50, gap: 0.5)
        let serve = try CLI.Running(["serve", pinches, "--at", dir, "--loop", "--fast"])
        defer { serve.process.interrupt() }
        try #require(CLI.waitFor(20) { FileManager.default.fileExists(atPath: dir + "/event0") }, "\(serve.stderrSoFar)")
        let live = try CLI.Running(["live", dir + "/event0", "--json", "--web", "--port", "0", "--page-buffer", "64"])
        defer { live.process.interrupt() }
        let port = try Self.port(of: try LiveWebCLITests.url(of: live))
        let stalled = try LoopbackHTTP(port: port, receiveBuffer: 2048)
        try stalled.sendGet("/events", host: "127.0.0.1")
        let drop = "pinchlab: a page fell more than 64 KiB behind and was disconnected (0 watching; a browser reconnects and catches up)"
        #expect(CLI.waitFor(150) { live.stderrSoFar.contains(drop) }, "\(live.stderrSoFar)")
        // The server closed the connection: what the socket buffers held, then the end of the stream.
        #expect(stalled.read().hasPrefix("HTTP/1.1 200 OK"))
        #expect(stalled.closedByServer, "the stalled page's connection was closed")
        live.process.interrupt()
        let r = try live.finish(timeout: 30)
        #expect(r.status == 0, "\(r.stderr)")
    }

    /// Ctrl-C right after a burst of connections (some asking for the stream and never reading,
    /// some sending nothing) ends live cleanly, every time: the server shuts down gracefully
    /// instead of cancelling, which trapped in NIOAsyncWriter's deinit on a connection accepted
    /// but not yet served.
    @Test func ctrlCAfterABurstOfConnectionsEndsCleanly() throws {
        for attempt in 1...3 {
            let (serve, live, url) = try LiveWebCLITests.startLive("corpus/touchpad/pinch-in-slow-finish-01.evemu",
                                                                   transition: "pinch-dismiss", speed: "1", idle: "60")
            defer { serve.process.interrupt() }
            let port = try Self.port(of: url)
            var clients: [LoopbackHTTP] = []
            for index in 0..<96 {
                guard let client = try? LoopbackHTTP(port: port, receiveBuffer: 2048) else { continue }
                if index % 3 != 2 { try? client.sendGet(index % 3 == 0 ? "/events" : "/", host: "127.0.0.1") }
                clients.append(client)
            }
            live.process.interrupt()
            let r = try live.finish(timeout: 40)
            #expect(r.status == 0, "attempt \(attempt): status \(r.status): \(r.stderr.suffix(1500))")
            #expect(r.lines.last.map { $0.contains("\"type\":\"summary\"") } == true, "attempt \(attempt)")  // a JSON line
            withExtendedLifetime(clients) {}
        }
    }
}
