import GestureKit
import InteractiveTransition

/// What a replay of one file produced at each release, with one recognizer configuration: enough
/// to score any finish/cancel policy without replaying again (the policy acts only there).
struct ReleaseFeatures: Sendable {
    enum Trial: Sendable {
        /// The gesture was cancelled (finger count changed, resync...): the transition cancels.
        case gestureCancelled
        /// Released: the policy decides from these.
        case released(progress: Double, velocity: Double)
    }

    /// Gesture part and latency; outcomes re-decided per policy.
    var score: FileScore
    /// Per recognized gesture, the trial it started (nil: none).
    var trials: [Trial?]

    /// The recognized gestures' outcomes under `policy`. Exact for the first trial; a later one is
    /// decided on the releases this replay measured, though another policy's completion could have
    /// been grabbed back by it (the full replay of the best settings checks the shortcut).
    func outcome(of index: Int, with policy: CompletionPolicy) -> GestureExpectation.Outcome {
        switch trials[index] {
        case nil: return .none
        case .gestureCancelled: return .cancel
        case .released(let progress, let velocity):
            return policy.decide(progress: progress, velocity: velocity).shouldFinish ? .finish : .cancel
        }
    }

    func outcomeCorrect(with policy: CompletionPolicy) -> Bool {
        let expected = score.expected
        guard expected.count == trials.count else { return false }
        return expected.indices.allSatisfy { expected[$0].matchesOutcome(outcome(of: $0, with: policy)) }
    }

    /// Replays `file` once with `settings` (its policy does not matter here).
    static func measure(_ file: LoadedRecording, settings: LabSettings) throws -> ReleaseFeatures {
        let (score, summary) = try CorpusRunner.score(file: file.entry.file, device: file.device, events: file.events,
                                                      entry: file.entry, settings: settings)
        let trials: [Trial?] = score.recognized.map { gesture in
            guard let index = gesture.trial else { return nil }
            guard let decision = summary.trials[index].decision else { return .gestureCancelled }
            return .released(progress: decision.progress, velocity: decision.velocity)
        }
        return ReleaseFeatures(score: score, trials: trials)
    }
}

/// A corpus file read into memory once, replayed many times.
public struct LoadedRecording: Sendable {
    public var entry: CorpusEntry
    public var device: DeviceDescription
    public var events: [InputEvent]
    /// The path it was read from.
    public var path: String

    /// Reads every file the manifest `given` names (see `CorpusFiles.locate`) lists.
    public static func loadCorpus(directory given: String) throws -> [LoadedRecording] {
        let location = try CorpusFiles.locate(given)
        let manifest = try CorpusFiles.loadManifest(at: location)
        return try manifest.entries.map { try load($0, in: location) }
    }

    public static func load(_ entry: CorpusEntry, in location: CorpusLocation) throws -> LoadedRecording {
        let path = location.path(of: entry.file)
        var source = try openRecording(path: path)
        var events: [InputEvent] = []
        while let event = try source.nextEvent() { events.append(event) }
        return LoadedRecording(entry: entry, device: source.device, events: events, path: path)
    }
}
