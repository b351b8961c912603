/// What libyaml reads in place of lines that `CanonicalRecordLines` read itself, when that scanner
/// hands the rest of a `libinput record` file back to libyaml (at a line that is not canonical, or
/// at the end of the file when the document still needs checking).
///
/// libyaml stopped reading at some byte `resumedAt` inside those lines (it reads ahead of what it
/// parsed). Continuing there with the real bytes would make it parse again, slowly, every event
/// line the scanner already read. Instead it reads: the rest of the line it stopped in, as it is;
/// then one empty line for each line up to the line it is to read from, except for the last
/// frame's `- evdev:` line and that frame's first event line, rewritten in their canonical
/// columns; then the file again, from that line. Its parser is then in the same state, with the
/// same marks (line numbers of the open mappings and lists that an error message names), as after
/// parsing the real lines: the lines it does not see were whole canonical entries and event lines
/// (balanced, no anchors, no tags), comments and blank lines. Line numbers are kept (one line break
/// per line), so every later message names the same line.
///
/// Byte positions are not kept (the stand-in is shorter), which matters in two places, both
/// corrected here: libyaml reads in raw chunks of its buffer's size and decodes (and checks for
/// bad UTF-8 or control characters) a whole chunk at once, so the first read from the file again
/// stops where the chunk of the real stream would have ended, and later chunks cover the same bytes
/// as they would have; and the reader's limit on the length of one YAML value measures from where
/// the last YAML event ended, so it is told where that was in the real stream (`Region`).
struct YAMLStandIn {
    enum Piece {
        case bytes([UInt8])
        case lineBreaks(Int)
    }

    /// Where libyaml's own measure of characters puts the lines it did not see, and the last YAML
    /// event in them, in its stream (which is shorter than the file by the lines left out).
    struct Region {
        /// libyaml's character index where the file is read again.
        var endIndex: Int
        /// The character index, in libyaml's stream, as far before `endIndex` as the end of the
        /// last YAML event in the lines left out is before them in the file.
        var lastEventEndIndex: Int
    }

    private var pieces: [Piece]
    private var pieceIndex = 0
    /// How much of the current piece has been handed out.
    private var pieceOffset = 0
    /// Where libyaml reads the file again (as `LineInput.offset` counts).
    let fileOffset: Int64
    /// Where the first read from the file must end to end where libyaml's read would have ended in
    /// the real stream; nil when reading from `fileOffset` on in full reads already does.
    let firstReadEnd: Int64?
    let region: Region?

    init(pieces: [Piece], fileOffset: Int64, firstReadEnd: Int64?, region: Region?) {
        self.pieces = pieces
        self.fileOffset = fileOffset
        self.firstReadEnd = firstReadEnd
        self.region = region
    }

    /// How many bytes `pieces` hand out.
    static func byteCount(_ pieces: [Piece]) -> Int {
        pieces.reduce(0) { total, piece in
            switch piece {
            case .bytes(let bytes): return total + bytes.count
            case .lineBreaks(let count): return total + count
            }
        }
    }

    var isExhausted: Bool { pieceIndex == pieces.count }

    /// Copies up to `maxCount` of the stand-in bytes not yet handed out to `destination`; returns
    /// how many.
    mutating func write(into destination: UnsafeMutablePointer<UInt8>, maxCount: Int) -> Int {
        var written = 0
        while written < maxCount, pieceIndex < pieces.count {
            let count: Int
            switch pieces[pieceIndex] {
            case .bytes(let bytes):
                count = min(bytes.count - pieceOffset, maxCount - written)
                bytes.withUnsafeBufferPointer { source in
                    (destination + written).update(from: source.baseAddress! + pieceOffset, count: count)
                }
                pieceOffset += count
                if pieceOffset == bytes.count { nextPiece() }
            case .lineBreaks(let total):
                count = min(total - pieceOffset, maxCount - written)
                (destination + written).update(repeating: 0x0A, count: count)
                pieceOffset += count
                if pieceOffset == total { nextPiece() }
            }
            written += count
        }
        return written
    }

    private mutating func nextPiece() {
        pieceIndex += 1
        pieceOffset = 0
    }
}
