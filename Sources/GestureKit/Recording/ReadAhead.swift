import Glibc
import SystemPackage

/// Reads a regular file ahead of its parser, on a thread of its own, a chunk at a time into
/// buffers the parser then takes whole (`LineInput` in read-ahead mode).
///
/// Why: `read` copies every byte from the page cache, and `LineInput` searched each buffer for a
/// NUL; for a 66 MB recording that was about 6 ms of the 40 ms `pinchlab stats` took, all on the
/// thread that parses. Here both happen on the other core while the parser reads the chunk before.
/// Buffers are swapped, not copied: each has `headroom` bytes before its chunk, where the parser
/// puts the unfinished line the previous chunk ended in (shorter than a chunk, or it is an error).
///
/// The thread also reads the chunk's canonical event lines (`CanonicalEventLine.line(at:available:)`,
/// the very function the parser calls) into a table beside it, `ParsedLine`s in file order: the
/// parser then takes such a line from the table, at its offset, instead of reading its fields. A
/// line the table lacks (the one the chunk begins in the middle of, any other line) the parser reads
/// as before, so the table changes what is computed where, never what is read. A chunk holding a
/// NUL gets no table (the parser words that error line by line).
///
/// The thread reads only the first `parseShare` of each chunk's lines, so that neither thread waits
/// for the other: `next()` lowers the share when the parser had to wait for a chunk and raises it
/// when one was ready. (`stats` does little more than read lines, and ends near two thirds;
/// `replay` runs its whole reader on a thread of its own instead: `EventReadAhead`.)
///
/// Only for regular files: a read from one never waits for a writer, so stopping never has to
/// interrupt the thread. Signals other than faults are blocked on it (`startSignalFreeThread`).
final class ReadAhead: @unchecked Sendable {
    /// A canonical event line of a chunk, read on the thread: what `CanonicalEventLine.line(at:
    /// available:)` returned for the bytes at `offset` (an index in the chunk's buffer).
    struct ParsedLine {
        var offset: Int32
        /// The line's length without its line end.
        var length: Int32
        /// Where the next line begins.
        var next: Int32
        var fields: CanonicalEventLine
    }

    /// A chunk of the file, or its end (no `buffer`: after the last bytes, or an error).
    struct Chunk {
        var buffer: UnsafeMutablePointer<UInt8>?
        /// The chunk's canonical event lines, in order; `parsedCount` of them.
        var parsed: UnsafeMutablePointer<ParsedLine>?
        var parsedCount = 0
        /// Bytes read, at `buffer + headroom`.
        var count = 0
        var hasNul = false
        /// Why reading stopped before the end of the file (a chunk without `buffer`).
        var error: Errno?
    }

    let chunkBytes: Int
    /// Room before each chunk for the line the chunk before ended in.
    let headroom: Int
    private let fd: FileDescriptor
    /// Two buffers: the parser reads one while this thread fills the other. Each has its table.
    private let buffers: [UnsafeMutablePointer<UInt8>]
    private let tables: [UnsafeMutablePointer<ParsedLine>]
    /// More than the canonical lines a chunk can hold: the shortest is 23 bytes and a newline.
    private let tableCapacity: Int
    private let ahead = AheadThread()
    // Guarded by `ahead`'s lock.
    private var empty: [UnsafeMutablePointer<UInt8>]
    private var filled: [Chunk] = []
    /// The part of each chunk (by bytes) whose lines the thread reads into the table.
    private var parseShare = 1.0
    /// How much `parseShare` moves at each chunk.
    private static let parseShareStep = 1.0 / 16

    /// Starts reading `fd` from where it is. `fd` stays open and is not read by anyone else until `stop()`.
    init?(fd: FileDescriptor, chunkBytes: Int) {
        guard chunkBytes <= Int(Int32.max) / 2 else { return nil }  // a table's offsets are Int32
        self.fd = fd
        self.chunkBytes = chunkBytes
        headroom = chunkBytes
        buffers = (0..<2).map { _ in .allocate(capacity: chunkBytes * 2) }
        tableCapacity = chunkBytes / 23 + 1
        tables = (0..<2).map { [tableCapacity] _ in .allocate(capacity: tableCapacity) }
        empty = buffers
        filled.reserveCapacity(4)
        guard ahead.start({ [unowned self] in run() }) else { return nil }  // LineInput reads on its own thread then
    }

    deinit {
        stop()
        for buffer in buffers { buffer.deallocate() }
        for table in tables { table.deallocate() }
    }

    /// The next chunk, waiting for it if it is not read yet. After the end (no `buffer`), do not call again.
    func next() -> Chunk {
        ahead.lock()
        // Waiting means this thread has less to do per chunk than the other: give it more lines.
        parseShare = filled.isEmpty ? max(0, parseShare - Self.parseShareStep) : min(1, parseShare + Self.parseShareStep)
        while filled.isEmpty { ahead.wait() }
        let chunk = filled.removeFirst()
        ahead.unlock()
        return chunk
    }

    /// Gives back a buffer `next()` returned, once nothing reads from it any more.
    func recycle(_ buffer: UnsafeMutablePointer<UInt8>) {
        ahead.lock()
        empty.append(buffer)
        ahead.broadcast()
        ahead.unlock()
    }

    /// Ends the thread (it finishes the chunk it is reading) and waits for it. Idempotent. Required
    /// (`LineInput` calls it): the running thread holds this object, so `deinit` comes after it ended.
    func stop() { ahead.stop() }

    /// Reads the canonical event lines of the chunk of `count` bytes at `buffer + headroom` into
    /// `table`, from the first line that begins in it to the last that begins before byte `limit`;
    /// returns how many.
    private func parseLines(_ buffer: UnsafeMutablePointer<UInt8>, count: Int, upTo limit: Int,
                            into table: UnsafeMutablePointer<ParsedLine>) -> Int {
        let end = headroom + count
        let last = headroom + limit
        guard let firstNewline = memchr(buffer + headroom, 0x0A, count) else { return 0 }
        var at = UnsafeMutablePointer<UInt8>(firstNewline.assumingMemoryBound(to: UInt8.self)) - buffer + 1
        var parsed = 0
        while at < last && parsed < tableCapacity {
            let available = end - at
            if let (fields, length, newline) = CanonicalEventLine.line(at: buffer + at, available: available) {
                // Offsets within a buffer of at most twice `chunkBytes` (a `LineInput` buffer, a few MB).
                table[parsed] = ParsedLine(offset: Int32(truncatingIfNeeded: at), length: Int32(truncatingIfNeeded: length),
                                           next: Int32(truncatingIfNeeded: at + newline + 1), fields: fields)
                parsed += 1
                at += newline + 1
            } else {
                guard let newline = memchr(buffer + at, 0x0A, available) else { break }
                at = UnsafeMutablePointer<UInt8>(newline.assumingMemoryBound(to: UInt8.self)) - buffer + 1
            }
        }
        return parsed
    }

    private func run() {
        while true {
            guard let (buffer, share) = ahead.take(when: { !empty.isEmpty }, { (empty.removeLast(), parseShare) }) else { return }

            var chunk = Chunk(buffer: buffer, parsed: tables[buffers.firstIndex(of: buffer)!])
            var atEnd = false
            while chunk.count < chunkBytes {
                do throws(Errno) {
                    let n = try Errno.catching { try fd.read(into: UnsafeMutableRawBufferPointer(start: buffer + headroom + chunk.count,
                                                                            count: chunkBytes - chunk.count)) }
                    if n == 0 {
                        atEnd = true
                        break
                    }
                    chunk.count += n
                } catch {
                    chunk.error = error
                    break
                }
            }
            chunk.hasNul = chunk.count > 0 && memchr(buffer + headroom, 0, chunk.count) != nil
            if !chunk.hasNul {
                chunk.parsedCount = parseLines(buffer, count: chunk.count, upTo: Int(Double(chunk.count) * share), into: chunk.parsed!)
            }
            let end = Chunk(error: chunk.error)
            chunk.error = nil
            ahead.lock()
            if chunk.count > 0 { filled.append(chunk) } else { empty.append(buffer) }
            if atEnd || end.error != nil { filled.append(end) }
            ahead.broadcast()
            ahead.unlock()
            if atEnd || end.error != nil { return }
        }
    }
}
