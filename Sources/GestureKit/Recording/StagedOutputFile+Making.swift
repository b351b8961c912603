import SystemPackage

extension StagedOutputFile {
    /// Makes the file at `path` whole or not at all with `make`, which writes a complete file at the
    /// path it is given: the staging file beside `path`, renamed over it once `make` returns, or,
    /// where nothing can be staged (a device, a FIFO, `/dev/stdout`), a temporary file in `$TMPDIR`
    /// copied there in 64 KiB blocks once whole. For an output too large to hold in memory
    /// (`report`'s archive), made on disk piece by piece.
    package static func write(to path: String, making make: (String) throws -> Void) throws {
        if canStage(path) {
            let staged = try StagedOutputFile(destination: path)
            defer { staged.discard() }
            try make(staged.stagingPath)
            try staged.commit()
            return
        }
        let whole = try TemporaryFile(prefix: "pinchlab-output", suffix: "")
        try make(whole.path)
        try copy(whole.path, to: path)
    }

    private static func copy(_ source: String, to path: String) throws {
        let input: FileDescriptor, output: FileDescriptor
        do {
            input = try FileDescriptor.openCloseOnExec(source, .readOnly)
        } catch {
            throw RecordingError.system(.reading, path: source, line: 0, expected: "the file just made", errno: error)
        }
        defer { try? input.close() }
        do {
            output = try FileDescriptor.openCloseOnExec(path, .writeOnly, options: [.create, .truncate])
        } catch {
            throw RecordingError.system(.writing, path: path, line: 0, expected: "a writable file", errno: error)
        }
        var block = [UInt8](repeating: 0, count: 1 << 16)
        do {
            while true {
                let count: Int
                do {
                    count = try block.withUnsafeMutableBytes { try input.read(into: $0) }
                } catch {
                    throw RecordingError.system(.reading, path: source, line: 0, expected: "the file just made",
                                                errno: error as? Errno ?? .ioError)
                }
                if count == 0 { break }
                do {
                    try output.writeAll(block[..<count])
                } catch {
                    throw RecordingError.system(.writing, path: path, line: 0, expected: "a successful write", errno: error)
                }
            }
        } catch {
            try? output.close()
            throw error
        }
        do {
            try output.closeReportingErrno()
        } catch {
            throw RecordingError.system(.writing, path: path, line: 0, expected: "a successful close", errno: error)
        }
    }
}
