/// Why a tool's configuration file was refused: the file, the line (1-based; 0 when the problem
/// is the whole file) and what was expected. The CLI prints it and exits 65.
package struct ToolConfigurationError: Error, Sendable, Hashable {
    package var tool: GestureToolName
    package var file: String
    package var line: Int
    package var reason: Reason

    package init(tool: GestureToolName, file: String, line: Int, reason: Reason) {
        self.tool = tool
        self.file = file
        self.line = line
        self.reason = reason
    }

    package enum Reason: Sendable, Hashable {
        /// The file is not well-formed in its format (XML, YAML...): what the reader expected.
        case malformed(expected: String)
        /// A setting the tool reads has a value it would refuse or misread.
        case badValue(setting: String, value: String, expected: String)
        /// A flag, directive or key the tool does not know.
        case unknown(String, expected: String)
        /// A flag or directive that needs a value and has none.
        case missingValue(setting: String)
    }
}
