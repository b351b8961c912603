import Foundation
import Glibc

/// The process's standard streams, written with write(2) directly: Foundation's
/// `FileHandle.write(_:)` traps when the write fails (a full disk, a closed terminal), and a failed
/// write must become exit status 74 with a message, never a crash.
enum StandardStream {
    case output, error

    private var descriptor: Int32 { self == .output ? STDOUT_FILENO : STDERR_FILENO }

    /// Writes all of `bytes`, retrying short writes and `EINTR`; throws `CLIError(.ioError)` on failure.
    func write(_ bytes: some Sequence<UInt8>) throws {
        let buffer = Array(bytes)
        var written = 0
        while written < buffer.count {
            let result = buffer.withUnsafeBytes { raw in
                Glibc.write(descriptor, raw.baseAddress! + written, raw.count - written)
            }
            if result < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                throw CLIError(status: .ioError, message: "writing to standard \(self == .output ? "output" : "error"): \(reason)")
            }
            written += result
        }
    }
}

/// Writes a line to stderr without buffering. Best effort: when stderr itself cannot be written there
/// is nowhere left to report it, and the exit status still tells.
func printError(_ message: String) {
    try? StandardStream.error.write((message + "\n").utf8)
}

/// JSON Lines on stdout: one object a line, keys sorted so output is byte-for-byte repeatable,
/// written per line so a consumer reading a pipe sees each line as it happens.
struct JSONLineWriter {
    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    func write<T: Encodable>(_ value: T) throws {
        var data = try encoder.encode(value)
        data.append(0x0A)
        try StandardStream.output.write(data)
    }
}

/// Plain text on stdout, written at once (output may be a pipe to a script or to `less`).
func printLine(_ text: String) throws {
    try StandardStream.output.write((text + "\n").utf8)
}
