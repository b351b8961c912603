import GestureKit

/// Arbitrary bytes as an evemu file: the reader must throw a RecordingError or read events, never
/// crash or loop. Format detection sees the same bytes. What reads is then replayed through the
/// whole pipeline (`FuzzReplay`), so mutated description lines are fuzzed as far as they reach.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEvemuReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let path = FuzzInputFile.write(data, size)
    _ = try? RecordingInputFormat.detect(path: path)
    guard let reader = try? EvemuReader(path: path) else { return 0 }
    var count = 0
    _ = reader.device.geometry
    while count < fuzzMaximumEvents, let event = try? reader.nextEvent() {
        count += 1
        precondition(event.time.microseconds >= 0 && event.time.microseconds < 1_000_000,
                     "evemu reader produced microseconds out of range: \(event.time)")
    }
    precondition(count < fuzzMaximumEvents, "evemu reader did not stop on a \(size)-byte input")
    if let replayed = try? EvemuReader(path: path) { FuzzReplay.play(replayed) }
    return 0
}
