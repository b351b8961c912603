/// A configuration file's lines, whatever ends them: "\n", or "\r\n" as a file written on Windows
/// ends them (one `Character` in Swift, which a split on "\n" never finds), or a lone "\r". Every
/// reader and writer of the tools' files splits them here, so a line number means one thing.
enum ConfigurationLines {
    /// The lines of `text`, empty ones kept (the last one is empty when the text ends its last line).
    static func split(_ text: String) -> [Substring] {
        text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
    }

    /// What ends `text`'s lines, to write it back as it came: "\r\n" when it holds one, else "\n".
    static func ending(of text: String) -> String {
        text.contains("\r\n") ? "\r\n" : "\n"
    }
}
