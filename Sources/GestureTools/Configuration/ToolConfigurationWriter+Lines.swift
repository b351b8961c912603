// The line-based files (lisgd's flags, libinput-gestures.conf, fusuma's and InputActions' YAML):
// the user's lines are edited in place and written back with the line ending they came with,
// headed by this run's `# pinchlab tune:` comment lines.
extension ToolConfigurationWriter {
    /// The user's file as lines to edit; a new file is one empty line, as a file whose last line
    /// is ended leaves after it.
    static func editableLines(_ original: String?) -> [String] {
        original.map { ConfigurationLines.split($0).map(String.init) } ?? [""]
    }

    /// Whether `line` is a comment line of an earlier run, which this run's replace.
    static func isEarlierNote(_ line: String) -> Bool { line.hasPrefix("# \(mark)") }

    /// Where a line added at the end of `lines` goes: before the empty last line a final line end
    /// leaves.
    static func endOfFile(_ lines: [String]) -> Int { lines.last == "" ? lines.count - 1 : lines.count }

    /// The file to write: `header` as comment lines, then `lines`, ended as `original`'s lines are.
    static func written(_ lines: [String], header: [String], endingLike original: String?) -> String {
        (header.map { "# \(mark) \($0)" } + lines).joined(separator: ConfigurationLines.ending(of: original ?? ""))
    }
}
