import Glibc
import SystemPackage

/// A buffered file writer with the few printf conversions the recording formats need, written
/// straight into a reused byte buffer (no `String` per event).
///
/// The file is whole at each `flush()` (a writer calls it after its header and after each frame).
/// A recorder writes out at each one (`writesEachFlush`): what a device sent is on disk a frame
/// later, whatever stops the program. A converter, whose input stays and whose output is staged,
/// only marks the boundary and writes whole frames in 64 KiB blocks (one write per frame cost a
/// system call per 100-odd bytes).
/// When a write fails (a full disk, an I/O error), the file is cut back to the end of the last
/// whole frame written, so what is on disk still ends on a line and a frame boundary, and nothing
/// more is written.
final class ByteOutput {
    /// Written out early past this size so a stream with no `SYN_REPORT` still has bounded memory.
    static let flushThresholdBytes = 1 << 16

    let path: String
    private let fd: FileDescriptor
    private let writesEachFlush: Bool
    // The bytes not yet written: raw storage grown only when a line does not fit (a long name), so
    // appending a byte is a store and an index, with no array uniqueness or capacity check and no
    // dynamic exclusivity check (one thread uses a writer). Those were most of `convert`'s work.
    @exclusivity(unchecked) private var storage: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private var count = 0
    /// Where the last whole frame ends in the storage (not yet written when `writesEachFlush` is false).
    @exclusivity(unchecked) private var wholeInBuffer = 0
    private var isClosed = false
    /// The first write error; everything after it fails with it too.
    private var failure: RecordingError?
    /// Bytes written to the file so far, and at the last `flush()`.
    private var writtenBytes: Int64 = 0
    private var wholeBytes: Int64 = 0
    /// Lines written so far, for error messages.
    private(set) var lineCount = 0

    init(path: String, writesEachFlush: Bool = true) throws {
        self.path = path
        self.writesEachFlush = writesEachFlush
        do {
            fd = try FileDescriptor.openCloseOnExec(path, .writeOnly, options: [.create])
        } catch {
            throw RecordingError.system(.writing, path: path, line: 0, expected: "a writable file", errno: error)
        }
        // One writer a file: a regular file is locked before it is emptied, so a second `record -o`
        // (or `convert -o`) onto a file another one is writing is refused instead of interleaving
        // the two (its open must not truncate: that would cut the first one's recording). A
        // device, pipe or terminal is shared as it always was.
        let locked: Bool
        let opened = fd
        do throws(Errno) {
            if try opened.stat().type == .regular {
                locked = try opened.tryLockExclusive()
                if locked { try Errno.catching { try opened.resize(to: 0) } }
            } else {
                locked = true
            }
        } catch {
            try? fd.close()
            throw RecordingError.system(.writing, path: path, line: 0, expected: "a writable file", errno: error)
        }
        guard locked else {
            try? fd.close()
            throw RecordingError(path: path, line: 0, kind: .io, expected: "a file no other program is writing",
                                 found: "another one writing it (it holds the file's lock): choose another output",
                                 systemFailure: .init(operation: .writing, errno: .wouldBlock))
        }
        capacity = ByteOutput.flushThresholdBytes * 2
        storage = .allocate(capacity: capacity)
    }

    deinit {
        if !isClosed {
            if failure == nil { try? writeBuffer() }
            try? fd.close()
        }
        storage.deallocate()
    }

    /// Room for `extra` more bytes.
    @inline(__always) private func reserve(_ extra: Int) {
        if count + extra > capacity { grow(toHold: count + extra) }
    }

    private func grow(toHold needed: Int) {
        let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: max(needed, capacity * 2))
        larger.update(from: storage, count: count)
        storage.deallocate()
        storage = larger
        capacity = max(needed, capacity * 2)
    }

    /// The file is whole up to here: written out now (`writesEachFlush`), or when the buffer is full.
    func flush() throws {
        if writesEachFlush {
            try writeBuffer()
            wholeBytes = writtenBytes
            return
        }
        if let failure { throw failure }
        wholeInBuffer = count
        if count >= ByteOutput.flushThresholdBytes { try writeWholeFrames() }
    }

    /// Writes the buffer's whole frames and keeps the partial one after them.
    private func writeWholeFrames() throws {
        try writeOut(wholeInBuffer)
        wholeBytes = writtenBytes
    }

    /// Writes the buffer out (not a boundary: a frame may be half written).
    private func writeBuffer() throws {
        if let failure { throw failure }
        try writeOut(count)
    }

    /// Writes the buffer's first `length` bytes and moves the rest to its front; on failure, cuts
    /// the file back to its last whole frame and keeps the error for every later write.
    private func writeOut(_ length: Int) throws {
        var written = 0
        do {
            try fd.writeAll(from: UnsafeRawBufferPointer(start: storage, count: length)) { written = $0 }
        } catch {
            writtenBytes += Int64(written)
            let failure = RecordingError.system(.writing, path: path, line: lineCount, expected: "a successful write",
                                                errno: error)
            cutBackToWhole(after: failure)
            throw failure
        }
        writtenBytes += Int64(length)
        memmove(storage, storage + length, count - length)
        count -= length
        wholeInBuffer = max(0, wholeInBuffer - length)
    }

    /// After a failed write: drops what is not whole, on disk (a regular file is truncated to the
    /// last flush; a pipe cannot be) and in the buffer, and refuses further writes.
    private func cutBackToWhole(after error: RecordingError) {
        failure = error
        count = 0
        wholeInBuffer = 0
        if writtenBytes > wholeBytes, (try? fd.stat())?.type == .regular {
            try? fd.resize(to: wholeBytes)
        }
    }

    /// Runs `writeHeader`; when it fails (a disk full before the header fits), the file is closed
    /// and removed, as a regular file: a recording without its whole header is no recording, and
    /// a 0-byte file left behind would be read later as an empty one. A device or a pipe stays, and
    /// so does a name that is not itself that file: `-o /dev/stdout` with stdout redirected to a
    /// file is a symbolic link to it, and unlinking the name removed the system's `/dev/stdout`.
    func removingFileOnFailure(_ writeHeader: () throws -> Void) throws {
        do {
            try writeHeader()
        } catch {
            let written = try? fd.stat()
            let named = try? Stat(atPath: path, followingLinks: false)
            isClosed = true
            try? fd.close()
            if let written, let named, written.type == .regular, named.type == .regular,
               named.deviceID == written.deviceID, named.inode == written.inode {
                unlink(path)
            }
            throw error
        }
    }

    func close() throws {
        guard !isClosed else { return }
        if failure == nil {
            try writeBuffer()
            wholeBytes = writtenBytes
        }
        isClosed = true
        do {
            try fd.closeReportingErrno()
        } catch {
            throw RecordingError.system(.writing, path: path, line: lineCount, expected: "a successful close", errno: error)
        }
        if let failure { throw failure }
    }

    /// Called at each line end; flushes when the buffer is large.
    @inline(__always)
    func newline() throws {
        byte(0x0A)
        lineCount += 1
        guard count >= ByteOutput.flushThresholdBytes else { return }
        // Whole frames when there are some; otherwise (a frame past 64 KiB, a stream without
        // SYN_REPORT) the buffer as it is, so memory stays bounded.
        if wholeInBuffer > 0 { try writeWholeFrames() } else { try writeBuffer() }
    }

    @inline(__always) func byte(_ value: UInt8) {
        reserve(1)
        storage[count] = value
        count += 1
    }

    @inline(__always) func repeated(_ value: UInt8, _ times: Int) {
        guard times > 0 else { return }
        reserve(times)
        (storage + count).update(repeating: value, count: times)
        count += times
    }

    @inline(__always) private func bytes(_ start: UnsafePointer<UInt8>, _ length: Int) {
        reserve(length)
        (storage + count).update(from: start, count: length)
        count += length
    }

    /// Fixed text (a literal is a `StaticString` here: no `String` is made).
    @inline(__always) func text(_ value: StaticString) {
        bytes(value.utf8Start, value.utf8CodeUnitCount)
    }

    /// Text made at run time (a name, a comment).
    func string(_ value: String) {
        var value = value
        value.withUTF8 { if let base = $0.baseAddress { bytes(base, $0.count) } }
    }

    /// A C string as `%s` prints it, `(null)` for nil like glibc, padded on the right to `width`
    /// (`%-20s`).
    @inline(__always)
    func cString(_ value: UnsafePointer<CChar>?, leftAlignedWidth width: Int = 0) {
        guard let value else {
            text("(null)")
            repeated(0x20, width - 6)
            return
        }
        let length = strlen(value)
        value.withMemoryRebound(to: UInt8.self, capacity: length) { bytes($0, length) }
        repeated(0x20, width - length)
    }

    /// `%d` with width and flags: `zeroPad` is `%0Nd` (the sign counts in the width, so -1 at
    /// width 4 is `-001`), `plusSign` is `%+d`, otherwise spaces pad on the left (`%Nd`).
    @inline(__always)
    func decimal(_ value: Int64, width: Int = 0, zeroPad: Bool = false, plusSign: Bool = false) {
        let negative = value < 0
        var magnitude = value.magnitude
        var digitCount = 1
        var probe = magnitude
        while probe >= 10 { probe /= 10; digitCount += 1 }
        let signCount = (negative || plusSign) ? 1 : 0
        let padCount = max(0, width - digitCount - signCount)
        if !zeroPad { repeated(0x20, padCount) }
        if negative { byte(UInt8(ascii: "-")) } else if plusSign { byte(UInt8(ascii: "+")) }
        if zeroPad { repeated(UInt8(ascii: "0"), padCount) }
        reserve(digitCount)
        var index = count + digitCount - 1
        repeat {
            storage[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
            index -= 1
        } while magnitude > 0
        count += digitCount
    }

    /// `%0Nx`: lowercase hex, zero-padded to `width`.
    @inline(__always)
    func hex(_ value: UInt64, width: Int) {
        var digitCount = 1
        var probe = value
        while probe >= 16 { probe >>= 4; digitCount += 1 }
        repeated(UInt8(ascii: "0"), width - digitCount)
        reserve(digitCount)
        var remaining = value
        var index = count + digitCount - 1
        repeat {
            let nibble = UInt8(remaining & 0xf)
            storage[index] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
            remaining >>= 4
            index -= 1
        } while remaining > 0
        count += digitCount
    }

    /// `%#04x` as glibc prints it: `0x` prefix for non-zero values, all counted in the width.
    func alternateHex(_ value: UInt64, width: Int) {
        if value == 0 {
            repeated(UInt8(ascii: "0"), max(1, width))
            return
        }
        var digitCount = 1
        var probe = value
        while probe >= 16 { probe >>= 4; digitCount += 1 }
        text("0x")
        hex(value, width: max(digitCount, width - 2))
    }
}
