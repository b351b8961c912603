import GestureCore
import Glibc

/// Reads the selected device's `events:` list of a `libinput record` file straight from its
/// lines, without libyaml, while they are in the layout `libinput record` writes: each frame a
/// `- evdev:` line at the list's column, its events one `CanonicalRecordEventLine` each, two
/// columns further in; comment and blank lines anywhere. libyaml costs about 14,000 instructions
/// an event line; this, under 1,000 (docs/reference/performance.md).
///
/// How it shares the file with libyaml, and why this way. libyaml reads the description and
/// everything up to the list's start; it has then read ahead of that (`resumedAt`, up to one of
/// its reads). This starts again at the list's first line (`LineInput` keeps the bytes) and reads
/// lines until one is not canonical, the file ends, or an odd byte is near (`PlainTextScan`). Then
/// it gives the rest back to the same libyaml parser, which continues where it stopped reading
/// with a `YAMLStandIn` for the lines taken here and then the file, from the first line not taken
/// (or from the event line before it: see `held`), in the same raw reads it would have made. libyaml therefore parses every byte it would have
/// parsed from that line on, in the same state (open mappings and lists, with the lines they began
/// on) and with the same line numbers, so every error, warning and event after it is the one it
/// would have given; the reader passes over the events libyaml sees again before that line. This
/// keeps error positions exact where the alternatives do not: starting a second libyaml parser at
/// the odd line would need the document's open structure rebuilt around it, and handing back whole
/// frames (a stand-in per frame) costs libyaml's per-frame work every frame. Nothing here reports
/// an error: a line this does not take, or an event it takes but that the reader refuses
/// (`refuseLastEvent()`), is libyaml's to read and to report.
///
/// Keys: every `- evdev:` line taken here opens a mapping of its own, so no key is taken twice in
/// one mapping; a line that could repeat one (`evdev:` without its dash, a second `events:`) is
/// not canonical and goes to libyaml, whose reader refuses a duplicate at its line (`YAMLEventReader`).
///
/// Only for a regular file (libyaml's reads are then whole, `YAMLEventReader.fillsEachRead`), in
/// UTF-8, whose description has no line breaks but `\n` (libyaml counts `\r`, NEL, LS and PS as
/// line ends too) and whose list is in block style; otherwise libyaml reads every line, as before.
struct CanonicalRecordLines {
    enum Step {
        /// An event and its line number: its line as `LibinputRecordReader.parseEvent` reads one, the
        /// event not yet checked against the kernel's codes and the events before it (the reader
        /// does that, and calls `refuseLastEvent()` when it fails).
        case event(InputEvent, line: Int)
        /// The file ended after canonical lines only: every open mapping and list closes there.
        case endOfFile
        /// libyaml reads on, from the line `standIn()` names.
        case handBack
    }

    /// The longest line taken here: a canonical line is under 100 bytes; this bounds the copy of
    /// the line libyaml stopped in.
    static let lineBytesMax = 4096
    /// Bytes of comment and blank lines in a row taken here: libyaml's limit on one YAML value
    /// (1 MiB) measures from the last YAML event, so long runs of them are libyaml's. Half of what
    /// `LineInput` keeps behind its position, so a held event's line (before such a run) is still
    /// buffered when libyaml is to read from it.
    static let quietBytesMax = YAMLEventReader.retainedBytes / 2
    /// Bytes kept buffered ahead of the next line, for `PlainTextScan`.
    static let lookahead = 2 * Int(PlainTextScan.margin)

    private let input: LineInput
    /// The column of each frame's `- evdev:`; its event lines' `-` is two columns further in.
    private let entryIndent: Int
    /// Where libyaml stopped reading: it has every byte before.
    private let resumedAt: Int64
    /// The bytes from `resumedAt` to the end of the line it falls in (with its line break), nil
    /// when that line is too long to be taken here, and the first line libyaml has no byte of.
    private let restOfLine: [UInt8]?
    private let firstUnseenLine: Int
    /// A file offset minus libyaml's character index for the same byte, in the lines taken here
    /// (all ASCII: one byte, one character).
    private let characterShift: Int64
    /// libyaml's read size (its raw buffer).
    private let readSize: Int64

    private var plain: PlainTextScan
    /// The line `next()` reads next, and where it begins.
    private var nextLine: Int
    private var nextLineOffset: Int64
    /// The last `- evdev:` line taken, and the first event line after it (0: none yet).
    private var lastEntryLine = 0
    private var firstEventLineOfEntry = 0
    /// Where the last YAML event of the lines taken ends: after `evdev` or `]`.
    private var lastEventEnd: Int64
    /// Bytes of comment and blank lines since the last entry or event line.
    private var quietBytes = 0
    /// Set at the end of the file when its last line has no line break.
    private var lastLineHasNoBreak = false

    /// The first line libyaml reads, where it begins, where the last YAML event before it ends, and
    /// the `- evdev:` line and first event line of the frame it is in (as `lastEntryLine` and
    /// `firstEventLineOfEntry` were when `next()` came to that line).
    private struct Place {
        var line: Int
        var offset: Int64
        var lastEventEnd: Int64
        var entryLine: Int
        var firstEventLineOfEntry: Int
    }

    /// An event line read but not handed out yet. To hand out the event on a line,
    /// libyaml scans on to the first token after it (the list's `[` might be a mapping key until
    /// then), and an error there or in what that token makes it read stops it before that event.
    /// So an event is handed out only once the next line with YAML on it is taken here too (a
    /// frame's `- evdev:` or an event line, whose `-` libyaml reads without an error); otherwise
    /// libyaml reads from the held event's line.
    private var held: (event: InputEvent, place: Place)?
    /// Where libyaml is to read from, once decided; nil while lines are taken.
    private var handBackPlace: Place?
    /// The line of the event `next()` handed out last, for `refuseLastEvent()`.
    private var handedOutPlace: Place?
    private var isAtEnd = false

    /// Takes over at the start of the events list, the current YAML event of `yaml` (a block
    /// sequence's start); nil, and nothing changed, when the file or the list does not allow it.
    init?(input: LineInput, yaml: YAMLEventReader) {
        guard yaml.fillsEachRead, yaml.readsUTF8, !yaml.sawOtherLineBreak, yaml.isBlockSequenceStart,
              yaml.readSize > 0, yaml.line > 1 else { return nil }
        let listLine = yaml.line
        let indent = yaml.column
        let resumedAt = input.offset
        let (bytes, bytesOffset) = input.buffered
        // The list's first line begins after the (listLine - 1)th line break libyaml was given.
        var breaksToPass = yaml.suppliedLineBreaks - (listLine - 1) + 1
        var index = Int(resumedAt - bytesOffset)
        while breaksToPass > 0 && index > 0 {
            index -= 1
            if bytes[index] == 0x0A { breaksToPass -= 1 }
        }
        guard breaksToPass == 0 else { return nil }
        let listStart = bytesOffset + Int64(index + 1)
        let dash = Int(listStart - bytesOffset) + indent
        guard resumedAt - listStart <= Int64(YAMLEventReader.retainedBytes), Int64(dash) < resumedAt - bytesOffset,
              bytes[Int(listStart - bytesOffset)..<dash].allSatisfy({ $0 == 0x20 }), bytes[dash] == UInt8(ascii: "-")
        else { return nil }
        let linesBefore = bytes[dash..<Int(resumedAt - bytesOffset)].count(where: { $0 == 0x0A })
        let resumedLine = listLine + linesBefore
        // The rest of the line libyaml stopped in (none when it stopped at a line's start).
        var restOfLine: [UInt8]? = []
        var firstUnseenLine = resumedLine
        if bytes[Int(resumedAt - bytesOffset) - 1] != 0x0A {
            firstUnseenLine = resumedLine + 1
            do { try input.bufferAhead(Self.lineBytesMax + 1) } catch { return nil }
            let ahead = input.bufferedAhead
            let searched = min(ahead.count, Self.lineBytesMax + 1)
            if let newline = ahead.prefix(searched).firstIndex(of: 0x0A) {
                restOfLine = Array(ahead.prefix(newline + 1))
            } else if input.hasBufferedToEnd && ahead.count <= Self.lineBytesMax {
                restOfLine = Array(ahead)
            } else {
                restOfLine = nil
            }
        }
        guard input.move(to: listStart, lineNumber: listLine - 1) else { return nil }
        plain = PlainTextScan(from: listStart)
        plain.scan(input)
        self.input = input
        entryIndent = indent
        self.resumedAt = resumedAt
        self.restOfLine = restOfLine
        self.firstUnseenLine = firstUnseenLine
        characterShift = listStart + Int64(indent) - Int64(yaml.characterIndex)
        readSize = Int64(yaml.readSize)
        nextLine = listLine
        nextLineOffset = listStart
        lastEventEnd = listStart + Int64(indent) + 1
    }

    /// The next event, or the end, or where libyaml takes over. Passes over entry, comment and
    /// blank lines.
    mutating func next() -> Step {
        if handBackPlace != nil { return .handBack }
        if isAtEnd { return .endOfFile }
        while true {
            nextLineOffset = input.offset
            nextLine = input.lineNumber + 1
            let here = Place(line: nextLine, offset: nextLineOffset, lastEventEnd: lastEventEnd, entryLine: lastEntryLine,
                             firstEventLineOfEntry: firstEventLineOfEntry)
            // Lines are at most `lineBytesMax`, so with this much buffered `advance()` does not
            // read, and every byte up to a line's end and `PlainTextScan.margin` is scanned.
            if input.bufferedAhead.count < Self.lookahead && !input.hasBufferedToEnd {
                do { try input.bufferAhead(Self.lookahead) } catch { return handBack(at: held?.place ?? here) }
                plain.scan(input)
            }
            do {
                guard try input.advance() else {
                    let (bytes, bytesOffset) = input.buffered
                    let lastByte = Int(input.offset - bytesOffset) - 1
                    lastLineHasNoBreak = lastByte >= 0 && bytes[lastByte] != 0x0A
                    isAtEnd = true
                    if let held {
                        self.held = nil
                        return handOut(held)
                    }
                    return .endOfFile
                }
            } catch {
                return handBack(at: held?.place ?? here)
            }
            let line = input.line
            guard line.count <= Self.lineBytesMax, plain.isClear(lineEnd: nextLineOffset + Int64(line.count)),
                  let p = line.baseAddress else { return handBack(at: held?.place ?? here) }
            var spaces = 0
            while spaces < line.count && p[spaces] == 0x20 { spaces += 1 }
            if spaces == line.count || p[spaces] == UInt8(ascii: "#") {
                quietBytes += line.count + 1
                guard quietBytes <= Self.quietBytesMax, lastEntryLine > 0 else { return handBack(at: held?.place ?? here) }
                continue
            }
            if spaces == entryIndent + 2, lastEntryLine > 0,
               let (fields, yamlEnd) = CanonicalRecordEventLine.read(line, indent: spaces) {
                // A line libyaml reads without an error up to its `-`: the held event can go.
                let ready = held
                held = (Self.event(fields), here)
                if firstEventLineOfEntry == 0 { firstEventLineOfEntry = nextLine }
                lastEventEnd = nextLineOffset + Int64(yamlEnd)
                quietBytes = 0
                if let ready { return handOut(ready) }
                continue
            }
            guard spaces == entryIndent, Self.isEntry(line, indent: spaces) else { return handBack(at: held?.place ?? here) }
            lastEntryLine = nextLine
            firstEventLineOfEntry = 0
            lastEventEnd = nextLineOffset + Int64(spaces + 7)  // after `- evdev`
            quietBytes = 0
            if let ready = held {
                held = nil
                return handOut(ready)
            }
        }
    }

    private mutating func handBack(at place: Place) -> Step {
        handBackPlace = place
        held = nil
        return .handBack
    }

    /// `ready`'s event, noting its place for `refuseLastEvent()`.
    @inline(__always)
    private mutating func handOut(_ ready: (event: InputEvent, place: Place)) -> Step {
        handedOutPlace = ready.place
        return .event(ready.event, line: ready.place.line)
    }

    /// The reader refused the event `next()` handed out last: libyaml reads from its line, parses
    /// it again and reports the error there. (The event was held until the next line was taken, so
    /// libyaml reads the lines after it from the file too.)
    mutating func refuseLastEvent() {
        guard let place = handedOutPlace else { preconditionFailure("no event was handed out") }
        handBackPlace = place
        held = nil
    }

    /// The event on a canonical line (`CanonicalRecordEventLine` keeps every field in range).
    @inline(__always)
    private static func event(_ fields: CanonicalEventLine) -> InputEvent {
        InputEvent(time: EventTime(seconds: Int64(fields.seconds), microseconds: Int32(fields.microseconds)),
                   type: EventType(rawValue: UInt16(fields.type)), code: EventCode(rawValue: UInt16(fields.code)), value: fields.value)
    }

    /// `- evdev:` at `indent`, then the end, spaces, or spaces and a comment. (Only spaces: after
    /// `:` libyaml takes a tab for the start of a token.)
    private static func isEntry(_ line: UnsafeBufferPointer<UInt8>, indent: Int) -> Bool {
        let entry: StaticString = "- evdev:"
        let length = entry.utf8CodeUnitCount
        guard line.count >= indent + length,
              memcmp(line.baseAddress! + indent, entry.utf8Start, length) == 0 else { return false }
        var index = indent + length
        guard index < line.count else { return true }
        guard line[index] == 0x20 else { return false }
        while index < line.count && line[index] == 0x20 { index += 1 }
        return index == line.count || line[index] == UInt8(ascii: "#")
    }

    /// Gives the rest of the file back to libyaml from the line `next()` stopped at: moves the
    /// input to where libyaml reads the file again and returns what it reads before that, and the
    /// first line it reads that was not taken here (events on earlier lines were handed out).
    func standIn() -> (standIn: YAMLStandIn, firstLine: Int) {
        // At the end of the file (no `handBackPlace`): libyaml reads from there.
        let place = handBackPlace ?? Place(line: nextLine, offset: nextLineOffset, lastEventEnd: lastEventEnd,
                                           entryLine: lastEntryLine, firstEventLineOfEntry: firstEventLineOfEntry)
        let fileOffset = place.offset
        guard fileOffset > resumedAt else {
            // libyaml has read that far already: it goes on with the real bytes.
            let moved = input.move(to: resumedAt, lineNumber: 0)
            precondition(moved, "the bytes libyaml stopped at are buffered")
            return (YAMLStandIn(pieces: [], fileOffset: resumedAt, firstReadEnd: nil, region: nil), place.line)
        }
        // Taken here, so not longer than `lineBytesMax`.
        guard let restOfLine else { preconditionFailure("a line longer than lineBytesMax was taken") }
        var pieces: [YAMLStandIn.Piece] = [.bytes(restOfLine)]
        var line = firstUnseenLine
        func emptyLines(upTo target: Int) {
            if target > line { pieces.append(.lineBreaks(target - line)) }
            line = max(line, target)
        }
        // The last frame's `- evdev:` line and its first event line, if libyaml has not seen them:
        // the mapping and the list they begin are open, and an error's message names their lines.
        // (Lines after the place are not libyaml's to be given here: the held event's line and on.)
        if place.entryLine >= firstUnseenLine && place.entryLine < place.line {
            emptyLines(upTo: place.entryLine)
            pieces.append(.bytes(Array(repeating: 0x20, count: entryIndent) + Array("- evdev:\n".utf8)))
            line += 1
        }
        if place.firstEventLineOfEntry >= firstUnseenLine && place.firstEventLineOfEntry < place.line {
            emptyLines(upTo: place.firstEventLineOfEntry)
            pieces.append(.bytes(Array(repeating: 0x20, count: entryIndent + 2) + Array("- []\n".utf8)))
            line += 1
        }
        emptyLines(upTo: place.line)
        // At the end of a file whose last line has no line break, neither has the stand-in's: libyaml
        // then ends the stream on a line of its own, as in the file.
        if lastLineHasNoBreak && handBackPlace == nil && line > firstUnseenLine {
            switch pieces.removeLast() {
            case .lineBreaks(let count):
                if count > 1 { pieces.append(.lineBreaks(count - 1)) }
                pieces.append(.bytes([0x20]))
            case .bytes(let bytes):
                pieces.append(.bytes(Array(bytes.dropLast())))
            }
        }
        // libyaml's reads from `resumedAt` end every `readSize` bytes while the bytes are ASCII:
        // the first read from the file again ends where the one covering `fileOffset` would have.
        let readsToFile = (fileOffset - resumedAt + readSize - 1) / readSize
        let readEnd = resumedAt + readsToFile * readSize
        let endIndex = Int(resumedAt - characterShift) + YAMLStandIn.byteCount(pieces)
        let standIn = YAMLStandIn(pieces: pieces, fileOffset: fileOffset, firstReadEnd: readEnd > fileOffset ? readEnd : nil,
                                  region: .init(endIndex: endIndex, lastEventEndIndex: endIndex - Int(fileOffset - place.lastEventEnd)))
        let moved = input.move(to: fileOffset, lineNumber: 0)
        precondition(moved, "the line libyaml reads next is buffered")
        return (standIn, place.line)
    }
}
