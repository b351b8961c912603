/// Why a recording could not be read or written, with the place in the file.
///
/// Printed as `path:line: expected X, found Y`, the shape compilers use, so an editor can jump to
/// the line. `line` is 1-based; 0 means the problem is not tied to a line (a missing file).
public struct RecordingError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: String, Equatable, Sendable {
        /// The file could not be opened, read or written.
        case io
        /// The file has no bytes (or only blank lines).
        case emptyFile
        /// NUL bytes or text that is not UTF-8 where text is required.
        case binaryData
        /// A line or YAML node does not have the expected shape.
        case malformedLine
        /// A line longer than the reader's buffer (not a text recording).
        case lineTooLong
        /// An event type or code the kernel does not define.
        case unknownEventCode
        /// `N:`/`I:` missing, or events before the description.
        case missingDescription
        /// An event earlier than the one before it.
        case timeWentBackwards
        /// A file-format version this reader does not know.
        case unsupportedVersion
        /// YAML, but not a `libinput record` file.
        case notALibinputRecord
        /// Neither evemu nor libinput record.
        case unknownFormat
        /// The requested device is not in the file.
        case noSuchDevice
        /// An event that cannot be written (a negative time).
        case unwritableEvent
    }

    public var path: String
    public var line: Int
    public var kind: Kind
    public var expected: String
    public var found: String

    public init(path: String, line: Int, kind: Kind, expected: String, found: String) {
        self.path = path
        self.line = line
        self.kind = kind
        self.expected = expected
        self.found = found
    }

    public var description: String {
        let place = line > 0 ? "\(path):\(line)" : path
        return "\(place): expected \(expected), found \(found)"
    }

    /// The longest excerpt of a bad line quoted in a message.
    static let excerptMaxCharacters = 60

    /// A bad line quoted for a message: invalid UTF-8 replaced, control characters escaped, long
    /// lines shortened, so a message never carries raw binary junk.
    static func quote(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        var text = ""
        var count = 0
        for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
            if count == excerptMaxCharacters { text += "..."; break }
            switch scalar {
            case "\0": text += "\\0"
            case "\t": text += "\\t"
            case "\r": text += "\\r"
            case _ where scalar.value < 0x20 || scalar.value == 0x7f:
                text += "\\u{\(String(scalar.value, radix: 16))}"
            default: text.unicodeScalars.append(scalar)
            }
            count += 1
        }
        return "'" + text + "'"
    }
}
