import Foundation
import GestureCore
import GestureKit
import GestureLab
import SystemPackage

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
            try descriptor.writeAll(from: buffer)
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
    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    func write<T: Encodable>(_ value: T) throws {
        try StandardStream.output.write(try line(value))
    }

    /// A summary line, written by hand (`LabSummary.appendJSON`): the bytes the encoder writes.
    func write(_ summary: LabSummary) throws {
        try StandardStream.output.write(try line(summary))
    }

    /// A summary with what was compared beside it (`LabSummaryReport.jsonLine`).
    func write(_ report: LabSummaryReport) throws {
        var line = try report.jsonLine()
        line.append(0x0A)
        try StandardStream.output.write(line)
    }

    /// The summary's JSON line with its line end, as `write` prints it.
    func line(_ summary: LabSummary) throws -> Data {
        var out = JSONLineBytes(reservingCapacity: 1 << 16)
        try summary.appendJSON(to: &out)
        out.byte(0x0A)
        return Data(out.bytes)
    }

    /// `value`'s JSON line with its line end, as `write` prints it.
    func line<T: Encodable>(_ value: T) throws -> Data {
        var data = JSONLineBytes.escapingInvisibles(try encoder.encode(value))
        data.append(0x0A)
        return data
    }
}

/// One line of plain text on stdout, written at once (output may be a pipe to a script or to
/// `less`). Control characters and line breaks in it are shown escaped (`TerminalText`): a line
/// may hold a device's name or other text from a recording, which must not drive the terminal.
func printLine(_ text: String) throws {
    try StandardStream.output.write((TerminalText.escaped(text) + "\n").utf8)
}

/// A replay's or a live run's lines on stdout (JSON records or readable text), in one reused buffer,
/// written when it is full and when the run ends: one write(2) per 64 KiB instead of one per line
/// (a million-event replay prints hundreds of thousands of lines). With `eachLine` (a replay paced
/// in real time, or reading a pipe that may be live) every line is written as it is made, so a
/// consumer sees it as it happens. Only the replay loop's thread uses it. The lines go to stdout,
/// or to a file (`report`'s JSON log and summary).
final class BufferedLines {
    static let flushThresholdBytes = 1 << 16

    /// Where the gathered lines are written.
    enum Sink {
        case standardOutput
        case file(BufferedFileWriter)
    }

    @exclusivity(unchecked) private var buffer = JSONLineBytes(reservingCapacity: BufferedLines.flushThresholdBytes + 4096)
    private let eachLine: Bool
    private let sink: Sink

    /// The recognizer's thresholds: each decision's JSON line carries its margin (nil: none).
    private let margins: GestureRecognizerConfiguration?

    init(eachLine: Bool, margins: GestureRecognizerConfiguration? = nil, sink: Sink = .standardOutput) {
        self.eachLine = eachLine
        self.margins = margins
        self.sink = sink
    }

    /// Inlined into the replay's record closure, which calls it for every record, frames included
    /// (each a `false` from `appendJSONLine`): as a call it cost `replay --json` about 1.4
    /// instructions an event (and inlined, the larger closure costs `--summary` 0.3).
    @inline(__always) func write(_ record: LabRecord) throws {
        guard record.appendJSONLine(to: &buffer, margins: margins) else { return }
        try flushIfDue()
    }

    /// Any other value as one JSON line (sorted keys, as `JSONLineWriter` writes it), in turn with the records.
    func writeEncodable<T: Encodable>(_ value: T) throws {
        let data = try JSONLineWriter().line(value)
        buffer.append(utf8: String(decoding: data, as: UTF8.self))
        try flushIfDue()
    }

    /// The summary's JSON line (`LabSummary.appendJSON`), in turn with the records.
    func write(_ summary: LabSummary) throws {
        try summary.appendJSON(to: &buffer)
        buffer.byte(0x0A)
        try flushIfDue()
    }

    /// One line of readable text, escaped as `printLine` escapes it.
    func line(_ text: String) throws {
        buffer.append(utf8: TerminalText.escaped(text))
        buffer.byte(0x0A)
        try flushIfDue()
    }

    @inline(__always) private func flushIfDue() throws {
        if eachLine || buffer.count >= Self.flushThresholdBytes { try flush() }
    }

    /// Writes out what is gathered (call it when the run ends, before anything else is printed).
    func flush() throws {
        guard buffer.count > 0 else { return }
        defer { buffer.removeAll() }
        switch sink {
        case .standardOutput: try StandardStream.output.write(buffer.bytes)
        case .file(let file): try file.write(buffer.bytes)
        }
    }
}
