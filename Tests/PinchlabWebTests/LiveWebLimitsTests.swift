import Foundation
import GestureCore
import GestureKit
import GestureLab
import InteractiveTransition
import LabReports
import PinchlabWeb
import PinchlabTestSupport
import Testing

/// The live server's limits in process: which Host names it answers, and the broadcast's bounds
/// (the CLI tests in LiveWebLimitsCLITests run the same through `pinchlab live --web`).
@Suite(.blocking) struct LiveWebLimitsTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures")

    @Test func theHostRules() {
        let loopback = AllowedHosts(bind: "127.0.0.1")
        #expect(loopback.allows("127.0.0.1:8765") && loopback.allows("[::1]") && loopback.allows("localhost:1"))
        #expect(!loopback.allows("192.168.1.5:8765") && !loopback.allows("evil.example") && !loopback.allows(nil))
        let named = AllowedHosts(bind: "192.168.1.5")
        #expect(named.allows("192.168.1.5:8765") && named.allows("localhost") && !named.allows("192.168.1.6"))
        let everywhere = AllowedHosts(bind: "0.0.0.0")
        #expect(everywhere.allows("192.168.1.6:8765") && everywhere.allows("[fe80::1]:80"), "any address, no name")
        #expect(!everywhere.allows("evil.example:8765") && !everywhere.allows("192.168.1.6.nip.io"))
        #expect(!loopback.allows("127.0.0.1:80:80") && !loopback.allows("[::1]x") && !loopback.allows("127.0.0.1:http"))
    }

    /// The catch-up and each page's queue stay within their bounds however long the session and
    /// however many pages stop reading; a page too far behind is disconnected and reported.
    @Test func theBroadcastStaysWithinItsBounds() async throws {
        let settings = LabSettings.default
        let spec = try TransitionCatalog().spec(.pinchDismiss)
        let header = ViewerDocument(live: true, title: "t", source: "s", device: try openRecording(path: Self.fixtures.appendingPathComponent("corpus/touchpad/pinch-in-quick-flick-01.evemu").path).device, settings: settings,
                                    spec: spec, policyName: "p", compare: nil)
        let broadcast = try LiveBroadcast(header: header, maximumQueuedBytes: 256 << 10, maximumKeptBytes: 1 << 20)
        final class Seen: @unchecked Sendable { let lock = NSLock(); var disconnected = 0; var dropReports: [Int] = [] }
        let seen = Seen()
        broadcast.onDrop = { watching in seen.lock.withLock { seen.dropReports.append(watching) } }
        let stalled = (0..<3).map { _ in
            broadcast.subscribe(disconnect: { seen.lock.withLock { seen.disconnected += 1 } })
        }
        // A page that reads: each message is written as it comes.
        let reader = broadcast.subscribe(disconnect: { Issue.record("the reading page was disconnected") })
        var readerIterator = reader.messages.makeAsyncIterator()
        var readBytes = 0
        let touches = (0..<2).map { ViewerTouch(id: UInt64($0), x: 12.345, y: 67.891) }
        for index in 0..<40_000 {
            broadcast.publish([.frame(time: Double(index) / 100, fingers: 2, touches: touches)], readAt: 0)
            let message = try #require(await readerIterator.next())
            reader.wrote(message.utf8.count)
            readBytes += message.utf8.count
        }
        #expect(readBytes > 1 << 20, "the reading page got every message")
        #expect(broadcast.keptBytes <= (1 << 20) + (64 << 10), "the catch-up is bounded: \(broadcast.keptBytes) bytes")
        #expect(broadcast.keptBytes > (1 << 20) - (64 << 10))
        #expect(seen.lock.withLock { seen.disconnected } == 3, "every page that never read was disconnected")
        #expect(seen.lock.withLock { seen.dropReports.count } == 3, "each drop reported")
        #expect(broadcast.subscriberCount == 1, "the reading page is still watching")
        let late = broadcast.subscribe(disconnect: {})
        let document = late.documentParts.joined()
        #expect(document.hasPrefix("event: document\ndata: {\"entries\":[[\"f\","), "\(document.prefix(80))")
        let json = try #require(document.split(separator: "\n").dropFirst().first).dropFirst("data: ".count)
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let entries = try #require(parsed["entries"] as? [[Any]])
        #expect(entries.count > 10_000 && entries.count < 40_000, "the last of the session: \(entries.count) entries")
        #expect((entries.last?[1] as? Double).map { abs($0 - 399.99) < 1e-9 } == true, "up to the newest")
        late.ended()
        for subscription in stalled + [reader] { subscription.ended() }
        #expect(broadcast.writingCount == 0)
    }

    /// The summary event is the line `replay --summary` prints (written by hand, keys sorted): the
    /// stream's encoder lost its sorted keys in `init`, so the same session's summary came in
    /// another key order on every run.
    @Test func theSummaryEventIsTheSummaryLine() async throws {
        let path = Self.fixtures.appendingPathComponent("corpus/touchpad/pinch-in-quick-flick-01.evemu").path
        let recording = try openRecording(path: path)
        let header = ViewerDocument(live: true, title: "t", source: "s", device: recording.device, settings: .default,
                                    spec: try TransitionCatalog().spec(.pinchDismiss), policyName: "p", compare: nil)
        let broadcast = try LiveBroadcast(header: header)
        var events = [InputEvent]()
        var source: any RecordingSource = recording
        while let event = try source.nextEvent() { events.append(event) }
        var run = try ReplayRun(device: recording.device, transition: .pinchDismiss, settings: .default)
        run.measuresMargins = true
        var list = EventList(device: recording.device, events: events)
        let summary = run.run(&list, name: path) { _ in }.summary
        #expect(summary.trialCount > 0 && !summary.gestures.isEmpty)
        broadcast.finish(summary: summary)

        var line = JSONLineBytes()
        try summary.appendJSON(to: &line)
        let json = String(decoding: line.bytes, as: UTF8.self)
        let late = broadcast.subscribe(disconnect: {})
        var messages = late.messages.makeAsyncIterator()
        #expect(await messages.next() == "event: summary\ndata: \(json)\n\n")
        #expect(late.documentParts.joined().hasSuffix("],\"summary\":\(json)}\n\n"))
        late.ended()
    }

    /// A page that the summary itself puts past its bound is disconnected and its stream ended, as
    /// a page too far behind is during the session (it was dropped from the list and left waiting).
    @Test func aPageTheSummaryPutsTooFarBehindIsEndedAndDisconnected() async throws {
        let header = ViewerDocument(live: true, title: "t", source: "s", device: try openRecording(path: Self.fixtures.appendingPathComponent("corpus/touchpad/pinch-in-quick-flick-01.evemu").path).device, settings: .default,
                                    spec: try TransitionCatalog().spec(.pinchDismiss), policyName: "p", compare: nil)
        let broadcast = try LiveBroadcast(header: header, maximumQueuedBytes: 64, maximumKeptBytes: 1 << 20)
        final class Seen: @unchecked Sendable { let lock = NSLock(); var disconnected = 0 }
        let seen = Seen()
        let page = broadcast.subscribe(disconnect: { seen.lock.withLock { seen.disconnected += 1 } })
        var source = try openRecording(path: Self.fixtures.appendingPathComponent("corpus/touchpad/pinch-in-quick-flick-01.evemu").path)
        let summary = try ReplayRun.run(&source, name: "s").summary
        broadcast.finish(summary: summary)  // far more than 64 bytes
        try #require(seen.lock.withLock { seen.disconnected } == 1, "the page is disconnected")
        // (Only then: a stream left open would wait here for ever.)
        var messages = page.messages.makeAsyncIterator()
        #expect(await messages.next() == nil, "its stream has ended")
        page.ended()
        #expect(broadcast.writingCount == 0)
    }
}
