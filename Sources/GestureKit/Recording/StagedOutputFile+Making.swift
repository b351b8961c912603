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

    /// Copies `source` to `path` in 64 KiB blocks (`BufferedFileWriter`: its failures name `path`).
    private static func copy(_ source: String, to path: String) throws {
        let input: FileDescriptor
        do {
            input = try FileDescriptor.openCloseOnExec(source, .readOnly)
        } catch {
            throw RecordingError.system(.reading, path: source, line: 0, expected: "the file just made", errno: error)
        }
        defer { try? input.close() }
        let output = try BufferedFileWriter(path: path)
        var block = [UInt8](repeating: 0, count: BufferedFileWriter.blockBytes)
        while true {
            let count: Int
            do {
                count = try block.withUnsafeMutableBytes { try input.read(into: $0) }
            } catch {
                throw RecordingError.system(.reading, path: source, line: 0, expected: "the file just made",
                                            errno: error as? Errno ?? .ioError)
            }
            if count == 0 { break }
            try output.write(block[..<count])
        }
        try output.close()
    }
}
