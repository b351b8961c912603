import Foundation
import GestureCore
import InteractiveTransition
import SettingsTable

/// How one replay compares with its label: the expected gestures, in order, against the recognized
/// ones (kind, fingers, direction where the label gives one, and each trial's outcome).
package struct FileScore: Sendable, Hashable {
    package var file: String
    package var expected: [GestureExpectation]
    package var recognized: [RecognizedGesture]
    /// Milliseconds from the first finger down to the first recognized gesture's begin.
    package var beginLatencyMS: Double?
    /// The recording's mean frame interval while fingers were down, in ms (nil without frames):
    /// one frame, for a margin in time (`LabSummary.Touches.frameIntervalMS`).
    var frameIntervalMS: Double?
    /// The thresholds the replay's recognizer decided with (`LabSummary.recognizer`): what the
    /// recognized gestures' margins are measured against.
    package var recognizer: GestureRecognizerConfiguration?

    package var gestureCorrect: Bool {
        expected.count == recognized.count && zip(expected, recognized).allSatisfy { $0.matchesGesture($1) }
    }
    package var outcomeCorrect: Bool {
        expected.count == recognized.count && zip(expected, recognized).allSatisfy { $0.matchesOutcome($1.outcome) }
    }
    package var correct: Bool { gestureCorrect && outcomeCorrect }

    package init(file: String, entry: CorpusEntry, summary: LabSummary) {
        self.file = file
        expected = entry.expectedGestures
        recognized = RecognizedGesture.sequence(in: summary)
        // To the microsecond the event clock has, so the JSON shows 198.735, not 198.73499999999999.
        if let first = recognized.first, let touch = summary.firstTouch {
            beginLatencyMS = max(0, ((first.begin - touch) * 1_000_000).rounded() / 1000)
        }
        frameIntervalMS = summary.touches.frameIntervalMS
        recognizer = summary.recognizer
    }

    /// The decisions its label rests on, with how close each came to going the other way
    /// (`LabelledDecision.all`): the beginning of each recognized gesture matched to the label's
    /// (`GestureDecision.margin(in:)` with `recognizer`), and its release where the label gives an
    /// outcome (`RecognizedGesture.releaseMargin`). Made when asked: `check`'s fragility and the
    /// tuner's robustness read these and no other margins.
    var labelledMargins: [LabelledDecision] {
        LabelledDecision.all(expected: expected, recognized: recognized, recognizer: recognizer)
    }

    /// "expected pinch 2 fingers in, finish; got pan 2 fingers, none".
    package var mismatchText: String { Self.mismatchText(expected: expected, recognized: recognized) }

    /// "expected pinch 2 fingers in, finish; got pan 2 fingers, none", for any label and replay.
    package static func mismatchText(expected: [GestureExpectation], recognized: [RecognizedGesture]) -> String {
        let want = expected.isEmpty ? "no gesture" : expected.map(\.text).joined(separator: ", then ")
        return "expected \(want); got \(recognized.isEmpty ? "no gesture" : RecognizedGesture.text(of: recognized))"
    }

    /// "pinch 2 fingers in, finish, then pan 2 fingers, none"; "none" when nothing was recognized.
    package var recognizedText: String { RecognizedGesture.text(of: recognized) }

    /// The label's gestures and the replay's, named as the confusion matrices name them.
    var expectedName: String { expected.isEmpty ? "none" : expected.map(\.shortName).joined(separator: "+") }
    var recognizedName: String { recognized.isEmpty ? "none" : recognized.map(\.shortName).joined(separator: "+") }
    /// The first gesture's outcome (expected: `none` when the label gives no gesture, `any` when it
    /// gives a gesture and no outcome).
    var expectedOutcomeName: String { expected.first.map { $0.outcome?.rawValue ?? "any" } ?? "none" }
    var outcomeName: String { recognized.first?.outcome.rawValue ?? "none" }
}

extension FileScore: Encodable {
    enum CodingKeys: String, CodingKey {
        case file, expected, got, correct, expectedKind, expectedFingers, expectedOutcome, recognizedKind, recognizedFingers,
             outcome, beginLatencyMS
    }

    /// The first expected and recognized gesture flat (`expectedKind`, `recognizedKind`, ...) as
    /// before several gestures per file, plus `expected` and `got` in words for all of them.
    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(file, forKey: .file)
        try c.encode(expected.isEmpty ? "none" : expected.map(\.text).joined(separator: ", then "), forKey: .expected)
        try c.encode(recognizedText, forKey: .got)
        try c.encode(correct, forKey: .correct)
        try c.encode(expected.first?.kind.rawValue ?? "none", forKey: .expectedKind)
        try c.encodeIfPresent(expected.first?.fingers, forKey: .expectedFingers)
        try c.encode(expectedOutcomeName, forKey: .expectedOutcome)
        try c.encode(recognized.first?.kind.rawValue ?? "none", forKey: .recognizedKind)
        try c.encodeIfPresent(recognized.first?.fingers, forKey: .recognizedFingers)
        try c.encode(outcomeName, forKey: .outcome)
        try c.encodeIfPresent(beginLatencyMS, forKey: .beginLatencyMS)
    }
}

/// Replays labelled recordings with given settings.
package enum CorpusRunner {
    /// Replays `events` recorded on `device` through the entry's transition with `settings`.
    package static func score(file: String, device: DeviceDescription, events: [InputEvent], entry: CorpusEntry,
                             settings: LabSettings) throws -> (FileScore, LabSummary) {
        var source = EventList(device: device, events: events)
        return try score(file: file, source: &source, entry: entry, settings: settings)
    }

    /// Replays a source (a recording read as it streams, or events in memory) through the entry's
    /// transition with `settings` and the owner's device configuration (`ReplayRun`); a source that turns bad part-way throws its error.
    /// `emit` gets every record (with frames when `recordsFrames`: the gesture tools' stream is made from them).
    package static func score(file: String, source: inout some InputEventSource, entry: CorpusEntry,
                             settings: LabSettings, recordsFrames: Bool = false,
                             emit: (LabRecord) -> Void = { _ in }) throws -> (FileScore, LabSummary) {
        guard let transition = TransitionName(rawValue: entry.transition) else {
            throw TransitionError.unknownTransition(name: entry.transition)
        }
        let result = try ReplayRun.run(&source, name: file, transition: transition,
                                       settings: settings.configured(by: entry.deviceConfiguration), recordsFrames: recordsFrames,
                                       emit: emit)
        if let error = result.error { throw error }
        return (FileScore(file: file, entry: entry, summary: result.summary), result.summary)
    }
}
