import Foundation

/// Writes to stderr without buffering.
func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// JSON Lines on stdout: one object a line, keys sorted so output is byte-for-byte repeatable,
/// flushed per line so a consumer reading a pipe sees each line as it happens.
struct JSONLineWriter {
    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    func write<T: Encodable>(_ value: T) throws {
        var data = try encoder.encode(value)
        data.append(0x0A)
        FileHandle.standardOutput.write(data)
    }
}

/// Plain text on stdout, flushed at once (output may be a pipe to a script or to `less`).
func printLine(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
}
