import Foundation

/// Why a settings file's text is not settings: the message, and the line and column when the
/// problem is the JSON's syntax. The caller names the file.
public struct LabSettingsFileError: Error, Sendable, CustomStringConvertible {
    /// 1-based line and column of a syntax error; nil for a problem of a key or a value.
    public let line: Int?
    public let column: Int?
    public let message: String

    init(_ message: String, line: Int? = nil, column: Int? = nil) {
        self.message = message
        self.line = line
        self.column = column
    }

    public var description: String { message }
}

// Reading a settings file (`--config`), every check in the order a user fixing the file needs them:
// its size, the JSON's syntax with line and column, unknown keys (a misspelt key would otherwise
// keep its default), each number's range and the figures numbers make together (from one table, so
// every message names key, value and range), then the decoder and the top-level rules.
extension LabSettings {
    /// The settings a settings file's `data` holds; every problem is a `LabSettingsFileError`.
    public init(settingsFile data: Data) throws(LabSettingsFileError) {
        guard data.count <= Self.fileBytesMax else {
            throw LabSettingsFileError("expected a settings file of at most \(Self.fileBytesMax / 1024) KiB "
                                       + "(one with every key is a few KiB), found a larger one")
        }
        if let syntax = JSONSyntax.firstError(in: data) {
            throw LabSettingsFileError("not valid JSON: \(syntax)", line: syntax.line, column: syntax.column)
        }
        if let unknown = try? Self.unknownKeys(inJSON: data), let first = unknown.first {
            let parent = first.split(separator: ".").dropLast().joined(separator: ".")
            throw LabSettingsFileError("unknown key '\(first)'"
                + (unknown.count > 1 ? " (and \(unknown.count - 1) more: \(unknown.dropFirst().joined(separator: ", ")))" : "")
                + "; known \(parent.isEmpty ? "keys" : "keys in '\(parent)'"): \(Self.knownKeys(at: parent).joined(separator: ", "))")
        }
        do {
            if let (at, problem) = try Self.rangeProblems(inJSON: data).first {
                throw LabSettingsFileError((at.isEmpty ? "" : "at '\(at)': ") + problem)
            }
            self = try JSONDecoder().decode(LabSettings.self, from: data)
        } catch let error as LabSettingsFileError {
            throw error
        } catch let DecodingError.dataCorrupted(context) where !context.codingPath.isEmpty {
            throw LabSettingsFileError("at '\(context.codingPath.map(\.stringValue).joined(separator: "."))': \(context.debugDescription)")
        } catch let DecodingError.dataCorrupted(context) {
            throw LabSettingsFileError("not a pinchlab settings file (JSON): \(context.debugDescription)")
        } catch let DecodingError.keyNotFound(key, _) {
            throw LabSettingsFileError("expected the key '\(key.stringValue)'")
        } catch let DecodingError.typeMismatch(_, context) {
            throw LabSettingsFileError("wrong type at '\(context.codingPath.map(\.stringValue).joined(separator: "."))': "
                                       + context.debugDescription)
        } catch {
            throw LabSettingsFileError("\(error)")
        }
        if let problem = validationError() { throw LabSettingsFileError(problem) }
    }
}
