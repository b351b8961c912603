/// pinchlab's own data in a `libinput record` file, under the top-level key `pinchlab:` (before
/// `devices:`): texts by name and lists of texts by name. libinput's tools look keys up by name and
/// pass over it; pinchlab's reader keeps it (`LibinputRecordReader.extras`). A flight recorder's
/// dump keeps its settings, version and live lines here.
///
///     pinchlab:
///       settings: "{\"policy\": ...}"
///       lines:
///       - "{\"type\":\"gesture\", ...}"
public struct PinchlabExtras: Sendable, Equatable {
    /// The top-level key.
    public static let key = "pinchlab"
    /// Texts read at most per file, and bytes per text: a hostile file must not grow memory.
    public static let entriesMax = 1 << 20
    /// The most bytes one text may have.
    public static let textBytesMax = 1 << 20

    /// Texts by key.
    public var texts: [String: String] = [:]
    /// Lists of texts by key.
    public var lists: [String: [String]] = [:]

    /// Extras from their texts and lists.
    public init(texts: [String: String] = [:], lists: [String: [String]] = [:]) {
        self.texts = texts
        self.lists = lists
    }

    /// Whether there is nothing to write.
    public var isEmpty: Bool { texts.isEmpty && lists.isEmpty }
}
