import GestureCore
import GestureKit
import InteractiveTransition

/// What a replay of one file produced at each release, with one recognizer configuration: enough
/// to score any finish/cancel policy without replaying again (the policy acts only there), and the
/// margins of the beginnings its label rests on. Kept small, without the replay's gesture list: the
/// tuner stores one per file and configuration tried.
struct ReleaseFeatures: Sendable {
    enum Trial: Sendable {
        /// The gesture was cancelled (finger count changed, resync...): the transition cancels.
        case gestureCancelled
        /// Released: the policy decides from these.
        case released(progress: Double, velocity: Double)
    }

    /// Per recognized gesture, the trial it started (nil: none); most files have one gesture, held inline.
    enum Releases: Sendable {
        case none
        case one(Trial?)
        case several([Trial?])

        var count: Int {
            switch self {
            case .none: return 0
            case .one: return 1
            case .several(let trials): return trials.count
            }
        }

        subscript(index: Int) -> Trial? {
            switch self {
            case .none: preconditionFailure("no recognized gesture")
            case .one(let trial): return trial
            case .several(let trials): return trials[index]
            }
        }
    }

    /// The recognized gestures match the label's (kind, fingers, direction).
    var gestureCorrect: Bool
    /// Milliseconds from the first finger down to the first recognized gesture's begin.
    var beginLatencyMS: Double?
    /// The label's gestures (the entry's own array, shared, not copied).
    var expected: [GestureExpectation]
    var releases: Releases
    /// The normalized margins of the beginnings the label rests on (`FileScore.labelledMargins`),
    /// made once per configuration and file; the releases' are made per policy.
    var beganMargins: [Double]
    /// What the policy's rule reads the releases as (a touchscreen's figures or a touchpad's).
    var input: CompletionInput

    /// How this file scores with `policy` (on the recognizer configuration it was replayed with),
    /// with the normalized margins its label rests on when it is right: the beginnings', and each
    /// release's under `policy` where the label gives an outcome (as `FileScore.labelledMargins`
    /// picks them). Each release is decided once, for its outcome and its margin. The outcomes are
    /// exact for the first trial; a later one is decided on the releases this replay measured,
    /// though another policy's completion could have been grabbed back by it (the full replay of
    /// the best settings checks the shortcut).
    func verdict(policy: CompletionPolicy) -> FileVerdict {
        let wrong = FileVerdict(correct: false, gestureCorrect: gestureCorrect, beginLatencyMS: beginLatencyMS, margins: [])
        guard gestureCorrect, expected.count == releases.count else { return wrong }
        var margins = beganMargins
        for index in expected.indices {
            let outcome: GestureExpectation.Outcome
            var decision: CompletionDecision?
            switch releases[index] {
            case nil: outcome = .none
            case .gestureCancelled: outcome = .cancel
            case .released(let progress, let velocity):
                let decided = policy.decide(progress: progress, velocity: velocity)
                decision = decided
                outcome = decided.shouldFinish ? .finish : .cancel
            }
            guard expected[index].matchesOutcome(outcome) else { return wrong }
            if expected[index].restsOnRelease, let margin = decision?.margin(input: input)?.normalized { margins.append(margin) }
        }
        return FileVerdict(correct: true, gestureCorrect: gestureCorrect, beginLatencyMS: beginLatencyMS, margins: margins)
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
        let releases: Releases = trials.isEmpty ? .none : trials.count == 1 ? .one(trials[0]) : .several(trials)
        let beganMargins = score.labelledMargins.compactMap { $0.decision == .release ? nil : $0.margin.normalized }
        return ReleaseFeatures(gestureCorrect: score.gestureCorrect, beginLatencyMS: score.beginLatencyMS,
                               expected: file.entry.expectedGestures, releases: releases, beganMargins: beganMargins,
                               input: CompletionInput(file.device.deviceClass))
    }
}

/// How one file scores with one point of the search.
struct FileVerdict: Sendable {
    /// The gestures and the outcomes match the label.
    var correct: Bool
    var gestureCorrect: Bool
    var beginLatencyMS: Double?
    /// The normalized margins of its decisions when it is correct (none when it is not).
    var margins: [Double]
}

/// A corpus file read into memory once, replayed many times.
package struct LoadedRecording: Sendable {
    package var entry: CorpusEntry
    package var device: DeviceDescription
    package var events: [InputEvent]
    /// The path it was read from.
    package var path: String

    /// Reads every file the manifest `given` names (see `CorpusFiles.locate`) lists.
    package static func loadCorpus(directory given: String) throws -> [LoadedRecording] {
        let location = try CorpusFiles.locate(given)
        let manifest = try CorpusFiles.loadManifest(at: location)
        return try manifest.entries.map { try load($0, in: location) }
    }

    package static func load(_ entry: CorpusEntry, in location: CorpusLocation) throws -> LoadedRecording {
        let path = location.path(of: entry.file)
        var source = try location.openRecording(of: entry)
        var events: [InputEvent] = []
        while let event = try source.nextEvent() { events.append(event) }
        return LoadedRecording(entry: entry, device: source.device, events: events, path: path)
    }
}
