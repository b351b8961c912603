import Glibc

/// The readers take a path, so each fuzz input is written to one file per process first (the
/// readers' own file handling is then fuzzed too, as it is used).
enum FuzzInputFile {
    static let path: String = {
        let directory = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        return "\(directory)/pinchlab-fuzz-\(getpid()).input"
    }()

    /// Writes `size` bytes at `data` to `path`; returns the path.
    static func write(_ data: UnsafePointer<UInt8>, _ size: Int) -> String {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        precondition(fd >= 0, "cannot write the fuzz input to \(path)")
        var offset = 0
        while offset < size {
            let written = Glibc.write(fd, data + offset, size - offset)
            precondition(written > 0 || errno == EINTR, "cannot write the fuzz input to \(path)")
            if written > 0 { offset += written }
        }
        close(fd)
        return path
    }
}

/// An input that makes a reader produce more events than this is cut short (a fuzz input is at most
/// a few KiB, so only a reader that loops without consuming input would get here).
let fuzzMaximumEvents = 1_000_000
