/// The recorded-gesture file formats pinchlab reads and writes.
public enum RecordingFormat: String, CaseIterable, Sendable, Hashable {
    /// evemu (`evemu-record`, `evemu-describe`), text lines `N:`, `I:`, ..., `E:`.
    case evemu
    /// `libinput record` YAML, version 1.
    case libinputRecord = "libinput-record"

    /// File extensions, without the dot; the first is the one to write.
    public var fileExtensions: [String] {
        switch self {
        case .evemu: return ["evemu", "desc", "events"]
        case .libinputRecord: return ["yml", "yaml"]
        }
    }

    /// The extension a file of this format gets by default.
    public var preferredFileExtension: String { fileExtensions[0] }

    /// The format a file name's extension implies, or nil.
    public init?(pathExtensionOf path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        let ext = path[path.index(after: dot)...].lowercased()
        guard let format = RecordingFormat.allCases.first(where: { $0.fileExtensions.contains(ext) }) else { return nil }
        self = format
    }
}
