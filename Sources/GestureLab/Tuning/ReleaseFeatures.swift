import GestureKit
import InteractiveTransition

/// What a replay of one file produced up to the first release, with one recognizer configuration:
/// enough to score any finish/cancel policy without replaying again (the policy acts only there).
struct ReleaseFeatures: Sendable {
    enum FirstTrial: Sendable {
        /// No gesture of the transition's kind began.
        case none
        /// The gesture was cancelled (finger count changed, resync...): the transition cancels.
        case gestureCancelled
        /// Released: the policy decides from these.
        case released(progress: Double, velocity: Double)
    }

    var score: FileScore   // gesture part and latency; outcome filled per policy
    var firstTrial: FirstTrial

    func outcome(with policy: CompletionPolicy) -> CorpusLabel.Outcome {
        switch firstTrial {
        case .none: return .none
        case .gestureCancelled: return .cancel
        case .released(let progress, let velocity):
            return policy.decide(progress: progress, velocity: velocity).shouldFinish ? .finish : .cancel
        }
    }

    /// Replays `file` once with `settings` (its policy does not matter here).
    static func measure(_ file: LoadedRecording, settings: LabSettings) throws -> ReleaseFeatures {
        let (score, summary) = try CorpusRunner.score(file: file.entry.file, device: file.device, events: file.events,
                                                      label: file.entry.label, settings: settings)
        let first: FirstTrial
        if let trial = summary.trials.first {
            if let decision = trial.decision {
                first = .released(progress: decision.progress, velocity: decision.velocity)
            } else {
                first = .gestureCancelled
            }
        } else {
            first = .none
        }
        return ReleaseFeatures(score: score, firstTrial: first)
    }
}

/// A corpus file read into memory once, replayed many times.
public struct LoadedRecording: Sendable {
    public var entry: CorpusEntry
    public var device: DeviceDescription
    public var events: [InputEvent]

    /// Reads every file the manifest in `directory` (or in its one corpus subdirectory) lists.
    public static func loadCorpus(directory given: String) throws -> [LoadedRecording] {
        let directory = try CorpusFiles.corpusDirectory(in: given)
        let manifest = try CorpusFiles.loadManifest(directory: directory)
        return try manifest.entries.map { entry in
            var source = try openRecording(path: directory + "/" + entry.file)
            var events: [InputEvent] = []
            while let event = try source.nextEvent() { events.append(event) }
            return LoadedRecording(entry: entry, device: source.device, events: events)
        }
    }
}
