import Foundation
import GestureLab
import LabReports

/// What the live pages receive, as server-sent events: on connecting, a `document` event with the
/// entries so far (a tab that connects late or reconnects catches up from the current state), then
/// an `entries` event per batch as it happens, and a `summary` event when the session ends.
///
/// Memory stays bounded whatever the tabs do. The catch-up keeps the last `maximumKeptBytes` (init) of
/// entries, in blocks every tab shares (`CatchUpBlocks`); each batch is encoded once and queued
/// to every tab as the same text. A tab whose queue holds more than `maximumQueuedBytes` (it stopped
/// reading, or reads slower than the session writes) is disconnected, and told by `onDrop`: a
/// browser's page reconnects by itself and catches up.
package final class LiveBroadcast: @unchecked Sendable {
    /// The catch-up's bound, unless told otherwise: at a touchpad's 100 frames a second about an hour of frames.
    package static let defaultMaximumKeptBytes = 32 << 20
    /// How far one tab may fall behind before it is disconnected, unless told otherwise.
    package static let defaultMaximumQueuedBytes = 4 << 20
    /// How far one tab may fall behind before it is disconnected: the bytes of stream waiting for it.
    package let maximumQueuedBytes: Int

    /// The page every tab loads (its document has no entries: they come from the stream).
    package let pageHTML: String

    private let lock = NSLock()
    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        // Sorted keys: the same bytes for the same state on every run.
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
    private var catchUp: CatchUpBlocks
    private var summaryJSON: String?
    private var subscribers: [UInt64: Subscriber] = [:]
    /// Every stream still being written (subscribed or not), with how to disconnect it.
    private var writers: [UInt64: @Sendable () -> Void] = [:]
    private var nextID: UInt64 = 0
    private var ended = false

    private struct Subscriber {
        let continuation: AsyncStream<String>.Continuation
        let disconnect: @Sendable () -> Void
        var queuedBytes = 0
    }

    /// Told the number of tabs watching each time one connects (from the server's threads).
    package var onConnect: (@Sendable (Int) -> Void)?
    /// Told the number of tabs still watching each time a tab too far behind is disconnected.
    package var onDrop: (@Sendable (Int) -> Void)?

    package init(header: ViewerDocument, maximumQueuedBytes: Int = LiveBroadcast.defaultMaximumQueuedBytes,
                maximumKeptBytes: Int = LiveBroadcast.defaultMaximumKeptBytes) throws {
        self.maximumQueuedBytes = maximumQueuedBytes
        catchUp = CatchUpBlocks(maximumBytes: maximumKeptBytes)
        var document = header
        document.live = true
        document.entries = []
        pageHTML = try ViewerPage.html(document)
    }

    /// How many tabs are connected now.
    package var subscriberCount: Int { lock.withLock { subscribers.count } }

    /// Responses still writing a stream (the server waits for them to flush the summary before it stops).
    package var writingCount: Int { lock.withLock { writers.count } }

    /// The catch-up text kept now, in bytes.
    package var keptBytes: Int { lock.withLock { catchUp.keptBytes } }

    /// Sends `batch` to every tab. `readAt`: when the first event of the batch was read, in
    /// milliseconds since 1970 (the page measures its latency from it).
    package func publish(_ batch: [ViewerEntry], readAt: Double) {
        guard !batch.isEmpty else { return }
        // Encoded outside the lock: the server's threads take it for every message they write.
        let encoded = batch.map { String(decoding: (try? encoder.encode($0)) ?? Data("null".utf8), as: UTF8.self) }
        let message = Self.event("entries", "{\"readAt\":\(readAt),\"entries\":[\(encoded.joined(separator: ","))]}")
        let (behind, watching) = lock.withLock {
            for entry in encoded { catchUp.append(entry) }
            return (send(message), subscribers.count)
        }
        // Outside the lock: finishing a stream calls its termination handler, which takes the lock.
        for subscriber in behind {
            subscriber.continuation.finish()
            subscriber.disconnect()
            onDrop?(watching)
        }
    }

    /// The session ended: every tab gets the summary, and its stream ends.
    package func finish(summary: LabSummary) {
        // The summary line `replay --summary` prints, written by hand (`LabSummary.appendJSON`).
        var line = JSONLineBytes(reservingCapacity: 1 << 16)
        let json = (try? summary.appendJSON(to: &line)).map { String(decoding: line.bytes, as: UTF8.self) } ?? "null"
        let (behind, rest) = lock.withLock {
            summaryJSON = json
            ended = true
            // A tab the summary puts too far behind leaves `subscribers` in `send`: it is finished
            // and disconnected here, as in `publish` (left alone, its stream waited for ever).
            let behind = send(Self.event("summary", json))
            let rest = Array(subscribers.values)
            subscribers.removeAll()
            return (behind, rest)
        }
        for subscriber in rest { subscriber.continuation.finish() }
        for subscriber in behind {
            subscriber.continuation.finish()
            subscriber.disconnect()
        }
    }

    /// Tells every tab what became of a flight recorder dump (a `dump` event: the file written, or
    /// why none was). Not kept for tabs that connect later.
    package func announceDump(_ notice: DumpNotice) {
        guard let json = try? encoder.encode(notice) else { return }
        let message = Self.event("dump", String(decoding: json, as: UTF8.self))
        let (behind, watching) = lock.withLock { (send(message), subscribers.count) }
        for subscriber in behind {
            subscriber.continuation.finish()
            subscriber.disconnect()
            onDrop?(watching)
        }
    }

    /// Disconnects every stream still being written (the server is stopping and will not wait longer).
    package func disconnectAll() {
        let all = lock.withLock { Array(writers.values) }
        for disconnect in all { disconnect() }
    }

    /// A new tab's stream. `disconnect` closes its connection (a tab too far behind, or the server
    /// stopping). Call `Subscription.ended()` when done writing it.
    package func subscribe(disconnect: @escaping @Sendable () -> Void) -> Subscription {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self)
        return lock.withLock {
            let id = nextID
            nextID += 1
            writers[id] = disconnect
            let subscription = Subscription(id: id, broadcast: self, catchUp: catchUp.snapshot,
                                            catchUpTail: summaryJSON.map { "],\"summary\":\($0)}\n\n" } ?? "]}\n\n",
                                            messages: stream)
            if ended {
                continuation.yield(Self.event("summary", summaryJSON ?? "null"))
                continuation.finish()
                return subscription
            }
            subscribers[id] = Subscriber(continuation: continuation, disconnect: disconnect)
            continuation.onTermination = { [weak self] _ in
                guard let self else { return }
                _ = self.lock.withLock { self.subscribers.removeValue(forKey: id) }
            }
            onConnect?(subscribers.count)
            return subscription
        }
    }

    /// One tab's stream: its catch-up document in parts, then its messages as they come.
    package struct Subscription: Sendable {
        let id: UInt64
        let broadcast: LiveBroadcast
        /// The catch-up's blocks, each a comma-joined run of entries (shared with the broadcast).
        let catchUp: [String]
        let catchUpTail: String
        package let messages: AsyncStream<String>

        /// The `document` event, in parts to write one after another: every part but the first
        /// and last is a block of the catch-up, so no part is larger than a block.
        package var documentParts: [String] {
            var parts = ["event: document\ndata: {\"entries\":["]
            for (index, block) in catchUp.enumerated() { parts.append(index == 0 ? block : "," + block) }
            parts.append(catchUpTail)
            return parts
        }

        /// `bytes` of a message were written: they no longer count against the tab's queue.
        package func wrote(_ bytes: Int) {
            broadcast.lock.withLock { broadcast.subscribers[id]?.queuedBytes -= bytes }
        }

        /// The stream is no longer being written (ended, failed, or disconnected). When it was the
        /// last, the memory the streams' buffers took is handed back to the system: glibc keeps
        /// what the server's threads freed in their arenas, and RSS stayed high after pages left.
        package func ended() {
            let last = broadcast.lock.withLock {
                broadcast.writers.removeValue(forKey: id)
                return broadcast.writers.isEmpty
            }
            if last { _ = malloc_trim(0) }
        }
    }

    /// Call with the lock held. Returns the tabs too far behind, taken off the list, for the caller
    /// to finish and disconnect once it has let go of the lock.
    private func send(_ message: String) -> [Subscriber] {
        var behind: [Subscriber] = []
        let bytes = message.utf8.count
        for (id, subscriber) in subscribers {
            if subscriber.queuedBytes + bytes > maximumQueuedBytes {
                subscribers.removeValue(forKey: id)
                behind.append(subscriber)
            } else {
                subscriber.continuation.yield(message)
                subscribers[id]?.queuedBytes += bytes
            }
        }
        return behind
    }

    /// One server-sent event. The data is JSON, which has no raw line breaks.
    static func event(_ name: String, _ data: String) -> String {
        "event: \(name)\ndata: \(data)\n\n"
    }
}

/// What the pages are told of a dump: the file it was written to, or why it was not.
package struct DumpNotice: Sendable, Encodable, Equatable {
    package var file: String?
    package var problem: String?

    package static func written(_ file: String) -> DumpNotice { DumpNotice(file: file, problem: nil) }
    package static func notMade(_ problem: String) -> DumpNotice { DumpNotice(file: nil, problem: problem) }
}

/// glibc's malloc_trim(3) (malloc.h is not in Swift's Glibc module): returns the free memory of
/// every arena to the system.
@_silgen_name("malloc_trim")
private func malloc_trim(_ pad: Int) -> Int32
