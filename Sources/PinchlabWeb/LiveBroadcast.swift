import Foundation
import GestureLab

/// What the live pages receive, as server-sent events: on connecting, a `document` event with every
/// entry so far (a tab that connects late or reconnects catches up from the current state), then an
/// `entries` event per batch as it happens, and a `summary` event when the session ends.
///
/// The session's thread publishes; each tab's response reads its own stream. A tab that falls more
/// than `maximumQueuedEvents` behind is disconnected rather than fed a gap (its page reconnects
/// and catches up); the kept entries are capped at `maximumKeptEntries` (about an hour of a
/// touchpad at 100 frames a second), after which the oldest are dropped from the catch-up.
public final class LiveBroadcast: @unchecked Sendable {
    public static let maximumQueuedEvents = 10_000
    public static let maximumKeptEntries = 500_000

    /// The page every tab loads (its document has no entries: they come from the stream).
    public let pageHTML: String

    private let lock = NSLock()
    private let encoder = JSONEncoder()
    private var entries: [String] = []
    private var summaryJSON: String?
    private var subscribers: [UInt64: AsyncStream<String>.Continuation] = [:]
    private var nextSubscriber: UInt64 = 0
    private var ended = false

    /// Told the number of tabs watching each time one connects (from the server's threads).
    public var onConnect: (@Sendable (Int) -> Void)?

    public init(header: ViewerDocument) throws {
        var document = header
        document.live = true
        document.entries = []
        pageHTML = try ViewerPage.html(document)
        encoder.outputFormatting = [.withoutEscapingSlashes]
    }

    /// How many tabs are connected now.
    public var subscriberCount: Int { lock.withLock { subscribers.count } }

    /// Responses still writing a stream (the server waits for them to flush the summary before it stops).
    public var writingCount: Int { lock.withLock { writing } }
    private var writing = 0
    public func writingStarted() { lock.withLock { writing += 1 } }
    public func writingEnded() { lock.withLock { writing -= 1 } }

    /// Sends `batch` to every tab. `readAt`: when the first event of the batch was read, in
    /// milliseconds since 1970 (the page measures its latency from it).
    public func publish(_ batch: [ViewerEntry], readAt: Double) {
        guard !batch.isEmpty else { return }
        let behind = lock.withLock {
            let encoded = batch.map { String(decoding: (try? encoder.encode($0)) ?? Data("null".utf8), as: UTF8.self) }
            entries.append(contentsOf: encoded)
            if entries.count > Self.maximumKeptEntries { entries.removeFirst(entries.count - Self.maximumKeptEntries / 2) }
            return send(Self.event("entries", "{\"readAt\":\(readAt),\"entries\":[\(encoded.joined(separator: ","))]}"))
        }
        // Outside the lock: finishing a stream calls its termination handler, which takes the lock.
        for continuation in behind { continuation.finish() }
    }

    /// The session ended: every tab gets the summary, and its stream ends.
    public func finish(summary: LabSummary) {
        let all = lock.withLock {
            let json = (try? encoder.encode(summary)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
            summaryJSON = json
            ended = true
            _ = send(Self.event("summary", json))
            let all = Array(subscribers.values)
            subscribers.removeAll()
            return all
        }
        for continuation in all { continuation.finish() }
    }

    /// A new tab's stream: the catch-up document first, then what happens.
    public func subscribe() -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self,
                                                            bufferingPolicy: .bufferingOldest(Self.maximumQueuedEvents))
        lock.withLock {
            let summary = summaryJSON.map { ",\"summary\":\($0)" } ?? ""
            continuation.yield(Self.event("document", "{\"entries\":[\(entries.joined(separator: ","))]\(summary)}"))
            if ended {
                continuation.yield(Self.event("summary", summaryJSON ?? "null"))
                continuation.finish()
                return
            }
            let id = nextSubscriber
            nextSubscriber += 1
            subscribers[id] = continuation
            continuation.onTermination = { [weak self] _ in
                guard let self else { return }
                _ = self.lock.withLock { self.subscribers.removeValue(forKey: id) }
            }
            onConnect?(subscribers.count)
        }
        return stream
    }

    /// Call with the lock held. Returns the streams of tabs too far behind, taken off the list, for
    /// the caller to finish once it has let go of the lock.
    private func send(_ message: String) -> [AsyncStream<String>.Continuation] {
        var behind: [AsyncStream<String>.Continuation] = []
        for (id, continuation) in subscribers {
            if case .dropped = continuation.yield(message) {
                subscribers.removeValue(forKey: id)
                behind.append(continuation)
            }
        }
        return behind
    }

    /// One server-sent event. The data is JSON, which has no raw line breaks.
    static func event(_ name: String, _ data: String) -> String {
        "event: \(name)\ndata: \(data)\n\n"
    }
}
