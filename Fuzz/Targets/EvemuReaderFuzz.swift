import GestureKit

/// Arbitrary bytes as an evemu file: the reader must throw a RecordingError or read events, never
/// crash or loop. Format detection sees the same bytes. The file is read twice, with canonical
/// event lines read in one scan to their newline and with every line found first and then parsed,
/// and the two must tell the same (events, error with its line, warnings, contradictions, indented
/// lines, partial frame). It is read twice more through a 256-byte buffer, on this thread and read
/// ahead on another (`ReadAhead`), chunk boundaries everywhere, and those two must tell the same. What reads is then replayed through the whole pipeline (`FuzzReplay`), so
/// mutated description lines are fuzzed as far as they reach.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEvemuReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let path = FuzzInputFile.write(data, size)
    _ = try? RecordingInputFormat.detect(path: path)
    let oneScan = EvemuOutcome(path: path, readsLinesInOneScan: true)
    let lineByLine = EvemuOutcome(path: path, readsLinesInOneScan: false)
    precondition(oneScan == lineByLine, "read in one scan: \(oneScan); line by line: \(lineByLine)")
    let onThisThread = EvemuOutcome(path: path, bufferBytes: 256, readsAhead: false)
    let readAhead = EvemuOutcome(path: path, bufferBytes: 256, readsAhead: true)
    precondition(readAhead == onThisThread, "read ahead: \(readAhead); on this thread: \(onThisThread)")
    if let replayed = try? EvemuReader(path: path) { FuzzReplay.play(replayed) }
    return 0
}

/// What an evemu reader tells about a file, read to its end or its error.
private struct EvemuOutcome: Equatable, CustomStringConvertible {
    var events: [InputEvent] = []
    var error: String?
    var warnings: [String] = []
    var contradictions: [String] = []
    var indentedLines: String?
    var trailingPartialFrame: TrailingPartialFrame?

    init(path: String, readsLinesInOneScan: Bool = true, bufferBytes: Int? = nil, readsAhead: Bool = false) {
        do {
            let reader = try EvemuReader(path: path, readsLinesInOneScan: readsLinesInOneScan, bufferBytes: bufferBytes,
                                         readAheadMinimumFileBytes: readsAhead ? 0 : .max)
            _ = reader.device.geometry
            warnings = reader.descriptionWarnings.map { "\($0)" }
            defer {
                contradictions = reader.eventContradictions.map { "\($0)" }
                indentedLines = reader.indentedEventLines.map { "\($0)" }
                trailingPartialFrame = reader.trailingPartialFrame
            }
            while let event = try reader.nextEvent() {
                events.append(event)
                precondition(event.time.microseconds >= 0 && event.time.microseconds < 1_000_000,
                             "evemu reader produced microseconds out of range: \(event.time)")
                precondition(events.count < fuzzMaximumEvents, "evemu reader did not stop on the input")
            }
        } catch {
            self.error = "\(error)"
        }
    }

    var description: String {
        "\(events.count) events, error \(error ?? "none"), \(warnings.count) warnings, \(contradictions), "
            + "indented \(indentedLines ?? "none"), partial \(trailingPartialFrame.map { "\($0)" } ?? "none")"
    }
}
