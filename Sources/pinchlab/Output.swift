import Foundation
import GestureKit
import GestureLab

/// The process's standard streams, written with write(2) directly: Foundation's
/// `FileHandle.write(_:)` traps when the write fails (a full disk, a closed terminal), and a failed
/// write must become exit status 74 with a message, never a crash.
enum StandardStream {
    case output, error

    private var descriptor: FileDescriptor { self == .output ? .standardOutput : .standardError }

    /// Writes all of `bytes` (`FileDescriptor.writeAll`: short writes continued, `EINTR` retried);
    /// throws `CLIError(.ioError)` on failure.
    /// A line of output (`Data`, a `String`'s UTF-8) is written from its own storage, not copied.
    func write(_ bytes: some Sequence<UInt8>) throws {
        if try bytes.withContiguousStorageIfAvailable({ try write(UnsafeRawBufferPointer($0)) }) == nil {
            try Array(bytes).withUnsafeBytes { try write($0) }
        }
    }

    private func write(_ buffer: UnsafeRawBufferPointer) throws {
        do {
            try descriptor.writeAll(buffer)
        } catch {
            throw CLIError(status: .ioError, message: "writing to standard \(self == .output ? "output" : "error"): \(error)")
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

extension JSONLineWriter {
    /// A record as its JSON line; frames are not printed (they are for pictures and views).
    func write(_ record: LabRecord) throws {
        switch record {
        case .frame: break
        case .gesture(let gesture): try write(gesture)
        case .transition(let step): try write(step)
        case .stateChange: break
        case .button(let button): try write(button)
        }
    }
}
