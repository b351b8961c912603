import GestureKit

/// Arbitrary bytes as a `libinput record` YAML file: a RecordingError or events, never a crash.
/// The first touch device is then replayed through the whole pipeline (`FuzzReplay`), so mutated
/// `absinfo:` and `codes:` entries are fuzzed as far as they reach.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLibinputRecordReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let path = FuzzInputFile.write(data, size)
    for selector in [RecordingDeviceSelector.firstTouchDevice, .index(1)] {
        guard let reader = try? LibinputRecordReader(path: path, selecting: selector) else { continue }
        var count = 0
        _ = reader.device.geometry
        while count < fuzzMaximumEvents, (try? reader.nextEvent()) != nil { count += 1 }
        precondition(count < fuzzMaximumEvents, "libinput record reader did not stop on a \(size)-byte input")
    }
    if let replayed = try? LibinputRecordReader(path: path) { FuzzReplay.play(replayed) }
    return 0
}
