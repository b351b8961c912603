import GestureCore
import GestureKit

/// What a recording reader tells about a file, read to its end or its error: the events, the error,
/// the description's warnings, the contradictions, the indented lines and the partial frame. The
/// reader targets compare two ways of reading one input by it.
struct ReadingOutcome<Reader: RecordingSource>: Equatable, CustomStringConvertible {
    var events: [InputEvent] = []
    var error: String?
    var warnings: [String] = []
    var contradictions: [String] = []
    var indentedLines: String?
    var trailingPartialFrame: TrailingPartialFrame?
    /// What the target also compares of its reader at the end (the libinput record reader's device count).
    var extra: String?

    /// Opens with `open` and reads to the end; `extra` says what else to compare, once reading stopped.
    init(_ what: String, open: () throws -> Reader, extra: (Reader) -> String? = { _ in nil }) {
        do {
            var reader = try open()
            _ = reader.device.geometry
            warnings = reader.descriptionWarnings.map { "\($0)" }
            defer {
                contradictions = reader.eventContradictions.map { "\($0)" }
                indentedLines = reader.indentedEventLines.map { "\($0)" }
                trailingPartialFrame = reader.trailingPartialFrame
                self.extra = extra(reader)
            }
            while let event = try reader.nextEvent() {
                events.append(event)
                precondition(event.time.microseconds >= 0 && event.time.microseconds < 1_000_000,
                             "\(what) produced microseconds out of range: \(event.time)")
                precondition(events.count < fuzzMaximumEvents, "\(what) did not stop on the input")
            }
        } catch {
            self.error = "\(error)"
        }
    }

    static func == (a: Self, b: Self) -> Bool {
        a.events == b.events && a.error == b.error && a.warnings == b.warnings && a.contradictions == b.contradictions
            && a.indentedLines == b.indentedLines && a.trailingPartialFrame == b.trailingPartialFrame && a.extra == b.extra
    }

    var description: String {
        "\(events.count) events, error \(error ?? "none"), \(warnings.count) warnings, \(contradictions), "
            + "indented \(indentedLines ?? "none"), partial \(trailingPartialFrame.map { "\($0)" } ?? "none")"
            + (extra.map { ", \($0)" } ?? "")
    }
}
