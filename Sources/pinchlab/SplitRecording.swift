import Foundation
import GestureKit

/// The old split form of an evemu recording (`X.desc`, the description, and `X.events`, the
/// events): either half read alone says how to read the pair, naming the other half when it lies
/// beside it.
enum SplitRecording {
    /// `path` with its extension `from` replaced by `to` (`bug.desc` -> `bug.events`), when that
    /// file exists; nil otherwise.
    static func otherHalf(of path: String, from: String, to: String) -> String? {
        guard path.lowercased().hasSuffix("." + from) else { return nil }
        let other = String(path.dropLast(from.count)) + to
        return FileManager.default.fileExists(atPath: other) ? other : nil
    }

    /// For a file with a description and no events.
    static func descriptionOnlyHint(_ name: String, path: String) -> String {
        let beside = otherHalf(of: path, from: "desc", to: "events")
        let example = beside.map { "--events \($0)" } ?? "--events FILE.events"
        return "\(name) holds a device description and no events: the .desc half of a split evemu recording? "
            + "Give its events with \(example)" + (beside != nil ? " (it lies beside it)" : "")
    }

    /// An evemu reader's error at line 1 for an event line where the description should begin:
    /// the `.events` half read alone.
    static func isEventsHalf(_ error: RecordingError) -> Bool {
        error.kind == .missingDescription && error.found.hasPrefix("'E:")
    }

    static func eventsHalfAdvice(_ path: String) -> String {
        let beside = otherHalf(of: path, from: "events", to: "desc")
        let desc = beside ?? "FILE.desc"
        return ". It begins with events: the .events half of a split evemu recording? Give the .desc half as the "
            + "recording and this one with --events: pinchlab replay \(desc) --events \(path)"
            + (beside != nil ? " (\(desc) lies beside it)" : "")
    }
}
