import Foundation
import GestureCore
import GestureKit
import SettingsTable

/// One corpus entry replayed and compared with its label: what `check` prints of it and no more (a
/// corpus of 300,000 entries holds 300,000 of these). The replay's recognized gestures are kept,
/// not its whole `FileScore` with the recognizer's configuration; a fragile decision or a reading
/// error, which few entries have, is held apart from the result's own bytes.
package struct CheckResult: Sendable {
    package enum Status: String, Sendable, Codable {
        /// The replay is what the label says.
        case match
        /// It is not.
        case mismatch
        /// It is not, and the manifest says why (`knownMismatch`): reported apart, not a failure.
        case knownMismatch = "known-mismatch"
        /// Marked as a known mismatch but matching now: a failure, so the stale marker is removed
        /// (like pytest's strict xfail).
        case unexpectedMatch = "unexpected-match"
        /// The recording could not be read (missing, malformed, cut short): status 65.
        case unreadable

        var isFailure: Bool { self == .mismatch || self == .unexpectedMatch || self == .unreadable }
    }

    /// Whether this file fails the check: its status, or with `strict` a fragile match too.
    package func fails(strict: Bool) -> Bool { status.isFailure || (strict && fragile != nil) }

    package var entry: CorpusEntry
    package var status: Status
    /// What the replay recognized, in order; nil only for an unreadable recording.
    package var recognized: [RecognizedGesture]?
    /// An empty array (no allocation) for the many results without one.
    private var errorStorage: [RecordingError]
    private var fragileStorage: [FragileDecision]

    package init(entry: CorpusEntry, status: Status, recognized: [RecognizedGesture]? = nil, error: RecordingError? = nil,
                fragile: FragileDecision? = nil) {
        self.entry = entry
        self.status = status
        self.recognized = recognized
        errorStorage = error.map { [$0] } ?? []
        fragileStorage = fragile.map { [$0] } ?? []
    }

    /// Why the recording could not be read.
    package var error: RecordingError? { errorStorage.first }

    /// For a match, the decision its label rests on that came within a small margin of going the
    /// other way, and past which the label fails: the file is fragile (`check --strict` fails it).
    package var fragile: FragileDecision? { fragileStorage.first }

    /// "pinch 2 fingers in, finish, then pan 2 fingers, none"; nil for an unreadable recording.
    package var recognizedText: String? { recognized.map(RecognizedGesture.text(of:)) }

    /// "expected pinch 2 fingers in, finish; got pan 2 fingers, none" (`FileScore.mismatchText`).
    package var mismatchText: String? {
        recognized.map { FileScore.mismatchText(expected: entry.expectedGestures, recognized: $0) }
    }
}

/// Replays every entry of a corpus (streaming each recording from disk, files in parallel) and
/// compares it with its label.
package enum CorpusCheck {
    package static func run(_ manifest: CorpusManifest, at location: CorpusLocation, settings: LabSettings) throws -> [CheckResult] {
        try parallelMap(manifest.entries) { entry in
            do {
                var source: any InputEventSource = try location.openRecording(of: entry)
                let (score, _) = try CorpusRunner.score(file: entry.file, source: &source, entry: entry, settings: settings)
                let status: CheckResult.Status
                switch (score.correct, entry.knownMismatch != nil) {
                case (true, false): status = .match
                case (false, false): status = .mismatch
                case (false, true): status = .knownMismatch
                case (true, true): status = .unexpectedMatch
                }
                let fragile = status == .match ? try fragileDecision(of: score, entry: entry, at: location, settings: settings) : nil
                return CheckResult(entry: entry, status: status, recognized: score.recognized, fragile: fragile)
            } catch let error as RecordingError {
                return CheckResult(entry: entry, status: .unreadable, error: error)
            }
        }
    }

    /// The closest decision of a matching file whose margin is small (`FragileDecision.candidates`)
    /// and that really tips the label: the file replayed once per such decision, with the setting
    /// its margin names moved just past the margin (`LabSettings.movedPast`), until the label
    /// fails. A margin marks where the deciding *rule* changes, which need not change what the
    /// label checks (a pinch that opposing-fingers no longer begins may begin by
    /// different-directions a frame later, a release's flick edge may be no tipping point): such
    /// a margin is no fragility. Only small margins are replayed, so a robust corpus costs no
    /// replay beyond its own.
    static func fragileDecision(of score: FileScore, entry: CorpusEntry, at location: CorpusLocation,
                                settings: LabSettings) throws -> FragileDecision? {
        for (decision, smallness) in FragileDecision.candidates(of: score) {
            // A setting its valid range does not let past the value: no setting change tips it. Any
            // other problem (a margin naming no setting) is pinchlab's bug, and is thrown.
            let moved: LabSettings
            do {
                moved = try settings.movedPast(decision.margin)
            } catch let problem as SettingsProblem {
                guard case .outOfRange = problem.reason else { throw problem }
                continue
            }
            var source: any InputEventSource = try location.openRecording(of: entry)
            let (flipped, _) = try CorpusRunner.score(file: entry.file, source: &source, entry: entry, settings: moved)
            if !flipped.correct { return FragileDecision(labelled: decision, smallness: smallness, becomes: flipped.recognized) }
        }
        return nil
    }

    /// Counts of each status, in `Status` order.
    package static func totals(_ results: [CheckResult]) -> [CheckResult.Status: Int] {
        Dictionary(grouping: results, by: \.status).mapValues(\.count)
    }
}
