import GestureCore
import Glibc

/// Runs an evemu reader on a thread of its own, a few thousand events ahead of the one who takes
/// them: reading, the fields of every line and the checks every event gets happen on the other core
/// while this thread recognizes the events before them (`pinchlab replay`).
///
/// Why: replaying a large recording spent a third of its time in the reader on the thread that also
/// recognizes; the reader's own read-ahead (`ReadAhead`) moves only the reading and the fields.
///
/// What is read is unchanged, only where: the same events in the same order, then the reader's end
/// or its error after the last event before it (events up to a bad line are still replayed, and the
/// error is thrown where the reader would have thrown it). The reader is the thread's until `stop()`
/// returns: only then may its warnings and partial frame be read.
///
/// Only for regular files of 4 MiB and more (`LineInput.isWorthReadingAhead`): such a read never
/// waits for a writer, so `stop()` never has to interrupt one. The reader is best opened with
/// `openRecording(..., readAhead: .events)`: its lines are then read on this thread too, not handed
/// over from a third.
package final class EventReadAhead: InputEventSource, @unchecked Sendable {
    package let device: DeviceDescription
    private let reader: EvemuReader

    /// A batch of events read on the thread, and whether the reader ended after them (or threw).
    private struct Batch {
        var events: UnsafeMutablePointer<InputEvent>
        var count = 0
        var isLast = false
        var error: (any Error)?
    }

    /// 4096 events (96 KB) a batch: the threads meet every 0.3 ms or so (replay), and three batches in flight
    /// keep either side from waiting for the other's every step.
    static let defaultBatchEvents = 4096
    private static let batchCount = 3
    private let batchEvents: Int
    private let buffers: [UnsafeMutablePointer<InputEvent>]
    private let ahead = AheadThread()
    // Guarded by `ahead`'s lock.
    private var empty: [UnsafeMutablePointer<InputEvent>]
    private var filled: [Batch] = []
    /// The taking thread's: the batch it takes events from, and how that batch ended. Behind a
    /// pointer, so that taking an event is a few loads and a store: the stored properties of a class
    /// are checked for exclusive access at every use, which cost more than the rest of the taking.
    private struct Taking {
        var events: UnsafeMutablePointer<InputEvent>?
        var count = 0
        var cursor = 0
        var isLast = false
        var error: (any Error)?
    }
    private let taking = UnsafeMutablePointer<Taking>.allocate(capacity: 1)
    #if DEBUG
    /// Debug builds: `nextEvents`' body is running (it must not read from this source).
    private var handingOver = false
    #endif

    /// Starts reading `source` on another thread when it is an evemu reader that reads a large
    /// regular file ahead; nil otherwise (read it on this thread). Until `stop()`, nothing else may
    /// touch `source`.
    /// - Parameters:
    ///   - source: the reader, as `openRecording(..., readAhead: .events)` opened it.
    ///   - batchEvents: how many events the thread reads before it hands them over (tests make it
    ///     small, to cross many batch boundaries).
    package static func reading(_ source: any RecordingSource, batchEvents: Int = defaultBatchEvents) -> EventReadAhead? {
        guard let evemu = source as? EvemuReader, evemu.isWorthReadingAhead else { return nil }
        return EventReadAhead(evemu, batchEvents: max(1, batchEvents))
    }

    private init?(_ reader: EvemuReader, batchEvents: Int) {
        self.reader = reader
        self.batchEvents = batchEvents
        device = reader.device
        buffers = (0..<Self.batchCount).map { _ in .allocate(capacity: batchEvents) }
        empty = buffers
        filled.reserveCapacity(Self.batchCount + 1)
        taking.initialize(to: Taking())
        guard ahead.start({ [unowned self] in run() }) else { return nil }
    }

    deinit {
        stop()
        taking.deinitialize(count: 1)
        taking.deallocate()
        for buffer in buffers { buffer.deallocate() }
    }

    @inline(__always)
    package func nextEvent() throws -> InputEvent? {
        let t = taking
        #if DEBUG
        precondition(!handingOver, "EventReadAhead read from inside nextEvents' body")
        #endif
        if t.pointee.cursor >= t.pointee.count {
            guard try takeNextBatch() else { return nil }
        }
        let index = t.pointee.cursor
        t.pointee.cursor = index + 1
        return t.pointee.events?[index]
    }

    /// The rest of the batch being taken, or the next batch that has events, in one call.
    ///
    /// - Parameter body: reads the events, and must not read from this source: the span is a batch
    ///   buffer, which the next read hands back to the reader's thread.
    /// - Returns: what `body` returned, or nil at the end of the stream.
    package func nextEvents(_ body: (Span<InputEvent>) -> Bool) throws -> Bool? {
        let t = taking
        #if DEBUG
        precondition(!handingOver, "EventReadAhead read from inside nextEvents' body")
        handingOver = true
        defer { handingOver = false }
        #endif
        if t.pointee.cursor >= t.pointee.count {
            guard try takeNextBatch() else { return nil }
        }
        guard let events = t.pointee.events else { return nil }
        let rest = UnsafeBufferPointer(start: UnsafePointer(events + t.pointee.cursor),
                                       count: t.pointee.count - t.pointee.cursor)
        t.pointee.cursor = t.pointee.count
        return body(rest.span)
    }

    /// Hands the batch taken back to the reader's thread and takes the next that has events, from
    /// its first; false at the reader's end (its error thrown, once) or after `stop()`.
    private func takeNextBatch() throws -> Bool {
        let t = taking
        while true {
            if t.pointee.isLast {
                // Thrown once, as the reader would; after that the stream has ended.
                if let error = t.pointee.error {
                    t.pointee.error = nil
                    throw error
                }
                return false
            }
            ahead.lock()
            if let events = t.pointee.events {
                empty.append(events)
                t.pointee.events = nil
                t.pointee.count = 0
            }
            ahead.broadcast()
            // The thread's last batch says how the reading ended, so there is always one more to
            // wait for until then (`stop()` ends the taking before this: `isLast`).
            while filled.isEmpty { ahead.wait() }
            let batch = filled.removeFirst()
            ahead.unlock()
            t.pointee = Taking(events: batch.events, count: batch.count, cursor: 0, isLast: batch.isLast, error: batch.error)
            if batch.count > 0 { return true }
        }
    }

    /// Ends the thread (it finishes the batch it is reading) and waits for it. Idempotent. Events not
    /// taken yet are dropped: `nextEvent()` returns nil after it, and of the reader (up to three
    /// batches past the last event taken) only its warnings and end mean anything.
    ///
    /// Required: the running thread holds this object, so `deinit` comes only after the thread
    /// ended (its `stop()` then only joins). Only the taking thread calls it.
    package func stop() {
        ahead.stop()
        taking.pointee = Taking(isLast: true)
    }

    private func run() {
        while true {
            guard let events = ahead.take(when: { !empty.isEmpty }, { empty.removeLast() }) else { return }
            var batch = Batch(events: events)
            do {
                while batch.count < batchEvents {
                    guard let event = try reader.nextEvent() else {
                        batch.isLast = true
                        break
                    }
                    batch.events[batch.count] = event
                    batch.count += 1
                }
            } catch {
                batch.isLast = true
                batch.error = error
            }
            ahead.lock()
            filled.append(batch)
            ahead.broadcast()
            ahead.unlock()
            if batch.isLast { return }
        }
    }
}
