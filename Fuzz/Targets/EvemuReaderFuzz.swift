import GestureKit

/// Arbitrary bytes as an evemu file: the reader must throw a RecordingError or read events, never
/// crash or loop. Format detection sees the same bytes. The file is read twice, with canonical
/// event lines read in one scan to their newline and with every line found first and then parsed,
/// and the two must tell the same (events, error with its line, warnings, contradictions, indented
/// lines, partial frame: `ReadingOutcome`). It is read twice more through a 256-byte buffer, on
/// this thread and read ahead on another (`ReadAhead`), chunk boundaries everywhere, and those two
/// must tell the same. What reads is then replayed through the whole pipeline (`FuzzReplay`), so
/// mutated description lines are fuzzed as far as they reach.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEvemuReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let path = FuzzInputFile.write(data, size)
    _ = try? RecordingInputFormat.detect(path: path)
    let oneScan = evemuOutcome(path, readsLinesInOneScan: true)
    let lineByLine = evemuOutcome(path, readsLinesInOneScan: false)
    precondition(oneScan == lineByLine, "read in one scan: \(oneScan); line by line: \(lineByLine)")
    let onThisThread = evemuOutcome(path, bufferBytes: 256, readsAhead: false)
    let readAhead = evemuOutcome(path, bufferBytes: 256, readsAhead: true)
    precondition(readAhead == onThisThread, "read ahead: \(readAhead); on this thread: \(onThisThread)")
    if let replayed = try? EvemuReader(path: path) { FuzzReplay.play(replayed) }
    return 0
}

/// `path` read by an evemu reader made with the given ways of reading.
private func evemuOutcome(_ path: String, readsLinesInOneScan: Bool = true, bufferBytes: Int? = nil,
                          readsAhead: Bool = false) -> ReadingOutcome<EvemuReader> {
    ReadingOutcome("evemu reader") {
        try EvemuReader(path: path, readsLinesInOneScan: readsLinesInOneScan, bufferBytes: bufferBytes,
                        readAheadMinimumFileBytes: readsAhead ? 0 : .max)
    }
}
