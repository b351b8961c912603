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
/// is nowhere left to report it, and the exit status still tells. Control characters are shown
/// escaped (`TerminalText`): a message may quote a device's name or a file's text.
func printError(_ message: String) {
    try? StandardStream.error.write((TerminalText.escaped(message) + "\n").utf8)
}

/// JSON Lines on stdout: one object a line, keys sorted so output is byte-for-byte repeatable,
/// written per line so a consumer reading a pipe sees each line as it happens.
struct JSONLineWriter {
    fileprivate let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    func write<T: Encodable>(_ value: T) throws {
        var data = Self.escapingC1Controls(try encoder.encode(value))
        data.append(0x0A)
        try StandardStream.output.write(data)
    }

    /// `json` with the C1 control characters (U+0080...U+009F, which some terminals act on as
    /// they do on ESC sequences: U+009B is CSI) written as `\u0080`...: JSONEncoder escapes C0 only.
    /// They can stand only inside strings, where the escape means the same character.
    static func escapingC1Controls(_ json: Data) -> Data {
        // UTF-8 of U+0080...U+009F: 0xC2 then 0x80...0x9F.
        let hasC1 = json.withUnsafeBytes { bytes in
            bytes.indices.dropLast().contains { bytes[$0] == 0xC2 && (0x80...0x9F).contains(bytes[$0 + 1]) }
        }
        guard hasC1 else { return json }
        var escaped = Data(capacity: json.count + 16)
        var index = json.startIndex
        while index < json.endIndex {
            let byte = json[index]
            if byte == 0xC2, index + 1 < json.endIndex, (0x80...0x9F).contains(json[index + 1]) {
                escaped.append(contentsOf: Array("\\u00\(String(json[index + 1], radix: 16))".utf8))
                index += 2
            } else {
                escaped.append(byte)
                index += 1
            }
        }
        return escaped
    }
}

/// One line of plain text on stdout, written at once (output may be a pipe to a script or to
/// `less`). Control characters and line breaks in it are shown escaped (`TerminalText`): a line
/// may hold a device's name or other text from a recording, which must not drive the terminal.
func printLine(_ text: String) throws {
    try StandardStream.output.write((TerminalText.escaped(text) + "\n").utf8)
}

extension JSONLineWriter {
    /// A record's JSON line without its newline, as `write` prints it; nil for what is not printed.
    func text(for record: LabRecord) throws -> String? {
        let data: Data
        switch record {
        case .frame, .stateChange: return nil
        case .gesture(let gesture): data = try encoder.encode(gesture)
        case .transition(let step): data = try encoder.encode(step)
        case .button(let button): data = try encoder.encode(button)
        }
        return String(decoding: Self.escapingC1Controls(data), as: UTF8.self)
    }

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
