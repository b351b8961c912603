/// Lines among an evemu file's events that begin with blank space (`  E: 0.1 0003 0035 0329`):
/// libevemu (`evemu_read_event`, so evemu-play) reads only lines that begin with `E:` and passes
/// over every other one, so it never plays them. pinchlab reads the file as libevemu does, so a
/// replay, a conversion and evemu-play agree on the events, and says so: one warning with the
/// first such line and how many there were.
public struct IndentedEventLines: Hashable, Sendable, CustomStringConvertible {
    /// The file they are in.
    public var path: String
    /// The first one's line.
    public var firstLine: Int
    /// The first one's text, for the message.
    public var firstText: String
    /// How many there are.
    public var count: Int

    /// `FILE:LINE: '  E: ...' begins with blank space, and libevemu (evemu-play) reads no such line (2 lines)`
    public var description: String {
        "\(path):\(firstLine): \(firstText) begins with blank space, and libevemu (evemu-play) reads no such line "
            + "(\(count == 1 ? "1 line" : "\(count) lines"))"
    }

    /// What became of them.
    public static let rule = "skipped, as libevemu skips them"
}

/// Counts the indented lines a reader passes over.
struct IndentedLineCounter {
    private(set) var found: IndentedEventLines?

    mutating func note(path: String, line: Int, text: UnsafeBufferPointer<UInt8>) {
        if found != nil {
            found!.count += 1
        } else {
            found = IndentedEventLines(path: path, firstLine: line, firstText: RecordingError.quote(text), count: 1)
        }
    }
}
