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
        let direct = ReadOutcome(path: path, selector: selector, readsCanonicalLines: true)
        let libyaml = ReadOutcome(path: path, selector: selector, readsCanonicalLines: false)
        precondition(direct == libyaml, "read directly: \(direct); by libyaml alone: \(libyaml)")
    }
    if let replayed = try? LibinputRecordReader(path: path) { FuzzReplay.play(replayed) }
    return 0
}

/// What a reader tells about a file, read to its end or its error.
private struct ReadOutcome: Equatable, CustomStringConvertible {
    var events: [InputEvent] = []
    var error: String?
    var warnings: [String] = []
    var contradictions: [String] = []
    var trailingPartialFrame: TrailingPartialFrame?
    var deviceCount: Int?

    init(path: String, selector: RecordingDeviceSelector, readsCanonicalLines: Bool) {
        do {
            let reader = try LibinputRecordReader(path: path, selecting: selector, readsCanonicalLines: readsCanonicalLines)
            _ = reader.device.geometry
            warnings = reader.descriptionWarnings.map { "\($0)" }
            defer {
                contradictions = reader.eventContradictions.map { "\($0)" }
                trailingPartialFrame = reader.trailingPartialFrame
                deviceCount = reader.deviceCount
            }
            while let event = try reader.nextEvent() {
                events.append(event)
                precondition(events.count < fuzzMaximumEvents, "libinput record reader did not stop on the input")
            }
        } catch {
            self.error = "\(error)"
        }
    }

    var description: String {
        "\(events.count) events, error \(error ?? "none"), \(warnings.count) warnings, \(contradictions), "
            + "partial \(trailingPartialFrame.map { "\($0)" } ?? "none"), \(deviceCount.map { "\($0)" } ?? "?") devices"
    }
}
