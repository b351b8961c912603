import GestureKit
import InteractiveTransition

/// How one replay compares with its label.
public struct FileScore: Sendable, Hashable, Codable {
    public var file: String
    public var expectedKind: CorpusLabel.Kind
    public var expectedFingers: Int?
    public var expectedOutcome: CorpusLabel.Outcome
    public var recognizedKind: CorpusLabel.Kind
    public var recognizedFingers: Int?
    public var outcome: CorpusLabel.Outcome
    /// Milliseconds from the first finger down to the recognized gesture's begin.
    public var beginLatencyMS: Double?

    public var gestureCorrect: Bool {
        recognizedKind == expectedKind && (expectedFingers == nil || recognizedFingers == expectedFingers)
    }
    public var outcomeCorrect: Bool { outcome == expectedOutcome }
    public var correct: Bool { gestureCorrect && outcomeCorrect }

    public init(file: String, label: CorpusLabel, summary: LabSummary) {
        self.file = file
        expectedKind = label.kind
        expectedFingers = label.fingers
        expectedOutcome = label.outcome
        if let primary = summary.primaryGesture {
            recognizedKind = primary.kind == .pinch ? .pinch : .pan
            recognizedFingers = primary.fingers
            // To the microsecond the event clock has, so the JSON shows 198.735, not 198.73499999999999.
            if let touch = summary.firstTouch { beginLatencyMS = max(0, ((primary.begin - touch) * 1_000_000).rounded() / 1000) }
        } else {
            recognizedKind = .none
        }
        switch summary.outcome {
        case .finished: outcome = .finish
        case .cancelled: outcome = .cancel
        case .none: outcome = .none
        }
    }
}

/// Replays labelled recordings (held in memory) with given settings.
public enum CorpusRunner {
    /// Replays `events` recorded on `device` through `label.transition` with `settings`.
    public static func score(file: String, device: DeviceDescription, events: [InputEvent], label: CorpusLabel,
                             settings: LabSettings) throws -> (FileScore, LabSummary) {
        guard let transition = TransitionName(rawValue: label.transition) else {
            throw TransitionError.unknownTransition(name: label.transition)
        }
        var source = EventList(device: device, events: events)
        let summary = try ReplayRun.run(&source, name: file, transition: transition, settings: settings).summary
        return (FileScore(file: file, label: label, summary: summary), summary)
    }
}
