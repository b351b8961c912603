import GestureKit

/// Arbitrary bytes as a `libinput record` YAML file: a RecordingError or events, never a crash.
/// Each selection is read twice, with the canonical event lines read directly and with libyaml
/// alone, and the two must tell the same (events, error, warnings, partial frames, device count).
/// The first touch device is then replayed through the whole pipeline (`FuzzReplay`), so mutated
/// `absinfo:` and `codes:` entries are fuzzed as far as they reach.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLibinputRecordReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let path = FuzzInputFile.write(data, size)
    for selector in [RecordingDeviceSelector.firstTouchDevice, .index(1)] {
        let direct = libinputOutcome(path, selector: selector, readsCanonicalLines: true)
        let libyaml = libinputOutcome(path, selector: selector, readsCanonicalLines: false)
        precondition(direct == libyaml, "read directly: \(direct); by libyaml alone: \(libyaml)")
    }
    if let replayed = try? LibinputRecordReader(path: path) { FuzzReplay.play(replayed) }
    return 0
}

/// `path` read by a libinput record reader, its canonical lines read directly or by libyaml alone.
private func libinputOutcome(_ path: String, selector: RecordingDeviceSelector,
                             readsCanonicalLines: Bool) -> ReadingOutcome<LibinputRecordReader> {
    ReadingOutcome("libinput record reader", open: {
        try LibinputRecordReader(path: path, selecting: selector, readsCanonicalLines: readsCanonicalLines)
    }, extra: { reader in reader.deviceCount.map { "\($0) devices" } })
}
