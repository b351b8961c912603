import SystemPackage

/// Writes a file in 64 KiB blocks from text and bytes handed to it piece by piece, so a large
/// output (a page, a JSON log) is never whole in memory. A failed write is `RecordingError`
/// (status 74 at the command line), naming the file.
package final class BufferedFileWriter {
    static let blockBytes = 1 << 16

    package let path: String
    private let fd: FileDescriptor
    private var buffer: [UInt8] = []
    private var isClosed = false

    /// Opens `path` for writing from its start (created, or emptied).
    package init(path: String) throws {
        self.path = path
        do {
            fd = try FileDescriptor.openCloseOnExec(path, .writeOnly, options: [.create, .truncate])
        } catch {
            throw RecordingError.system(.writing, path: path, line: 0, expected: "a writable file", errno: error)
        }
        buffer.reserveCapacity(Self.blockBytes * 2)
    }

    deinit { if !isClosed { try? fd.close() } }

    package func write(_ text: String) throws {
        var text = text
        try text.withUTF8 { try write(UnsafeRawBufferPointer($0)) }
    }

    package func write(_ bytes: some Sequence<UInt8>) throws {
        buffer.append(contentsOf: bytes)
        if buffer.count >= Self.blockBytes { try writeBuffer() }
    }

    /// Writes what is buffered and closes the file; nothing is written after.
    package func close() throws {
        guard !isClosed else { return }
        defer { isClosed = true }
        do {
            try writeBuffer()
        } catch {
            try? fd.close()
            throw error
        }
        do {
            try fd.closeReportingErrno()
        } catch {
            throw RecordingError.system(.writing, path: path, line: 0, expected: "a successful close", errno: error)
        }
    }

    private func writeBuffer() throws {
        do {
            try fd.writeAll(buffer[...])
        } catch {
            throw RecordingError.system(.writing, path: path, line: 0, expected: "a successful write", errno: error)
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
