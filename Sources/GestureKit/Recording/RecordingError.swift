import Glibc
import SystemPackage

/// Why a recording could not be read or written, with the place in the file.
///
/// Printed as `path:line: expected X, found Y`, the shape compilers use, so an editor can jump to
/// the line. `line` is 1-based; 0 means the problem is not tied to a line (a missing file).
public struct RecordingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong, by category.
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
        /// A device description the output format cannot hold (an evemu name with a line break).
        case unwritableDescription
        /// A description no device can have (more slots than the kernel allows, a position axis
        /// with no range): `DescriptionLimits`.
        case implausibleDescription
    }

    /// What the system said about a failed `.io` operation, kept as a typed `Errno` so a caller
    /// decides by its kind (permission, missing file, full disk) rather than by the wording of the
    /// message.
    public struct SystemFailure: Equatable, Sendable {
        /// Whether the file was being read or written.
        public enum Operation: String, Equatable, Sendable {
            /// Opening or reading a recording.
            case reading
            /// Creating, writing or renaming an output file.
            case writing
        }

        /// Reading or writing.
        public var operation: Operation
        /// The `errno` of the failed call.
        public var errno: Errno

        /// A failure from its operation and the system's error number.
        public init(operation: Operation, errno: Errno) {
            self.operation = operation
            self.errno = errno
        }
    }

    /// The file.
    public var path: String
    /// The line, 1-based; 0 when the error is not about one line.
    public var line: Int
    /// The category.
    public var kind: Kind
    /// What the reader expected there.
    public var expected: String
    /// What it found instead.
    public var found: String
    /// Set for `.io` errors that come from a failed system call.
    public var systemFailure: SystemFailure?

    /// An error from its place, category and what was expected and found.
    public init(path: String, line: Int, kind: Kind, expected: String, found: String,
                systemFailure: SystemFailure? = nil) {
        self.path = path
        self.line = line
        self.kind = kind
        self.expected = expected
        self.found = found
        self.systemFailure = systemFailure
    }

    /// An `.io` error for a failed system call, found: its `strerror` text.
    static func system(_ operation: SystemFailure.Operation, path: String, line: Int, expected: String,
                       errno: Errno) -> RecordingError {
        RecordingError(path: path, line: line, kind: .io, expected: expected, found: errno.description,
                       systemFailure: SystemFailure(operation: operation, errno: errno))
    }

    /// `FILE:LINE: expected ..., found ...`.
    public var description: String {
        let place = line > 0 ? "\(path):\(line)" : path
        return "\(place): expected \(expected), found \(found)"
    }

    /// The longest excerpt of a bad line quoted in a message.
    static let excerptMaxCharacters = 60

    /// A bad line quoted for a message: invalid UTF-8 replaced, control characters escaped, long
    /// lines shortened, so a message never carries raw binary junk.
    static func quote(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        quote(String(decoding: bytes, as: UTF8.self))
    }

    /// `text` quoted as `quote(_:)` quotes a line: invisible characters named, long text
    /// shortened. For names from a file or a device in a message.
    public static func quote(_ text: String) -> String {
        var quoted = ""
        var count = 0
        for scalar in text.unicodeScalars {
            if count == excerptMaxCharacters { quoted += "..."; break }
            if scalar == "\u{FEFF}" { quoted += "\\u{feff} (a byte order mark)" } else { TerminalText.append(scalar, to: &quoted) }
            count += 1
        }
        return "'" + quoted + "'"
    }
}
