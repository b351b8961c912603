import GestureKit
import GestureTools

extension ToolConfigurationError {
    /// `FILE:LINE: touchegg configuration: ...`, the file's name escaped.
    package var text: String {
        let place = TerminalText.escaped(file) + (line > 0 ? ":\(line)" : "")
        let said: String
        switch reason {
        case .malformed(let expected): said = "not well-formed: expected \(expected)"
        case .badValue(let setting, let value, let expected):
            said = "\(setting) is '\(TerminalText.escaped(value))': expected \(expected)"
        case .unknown(let what, let expected): said = "unknown \(TerminalText.escaped(what)): expected \(expected)"
        case .missingValue(let setting): said = "\(setting) has no value"
        }
        return "\(place): \(tool.rawValue) configuration: \(said)"
    }
}
