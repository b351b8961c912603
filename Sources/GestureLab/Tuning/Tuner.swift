import Foundation
import InteractiveTransition
import SettingsTable

/// Searches recognizer thresholds and the finish/cancel policy for settings that decide a labelled
/// corpus better than the defaults on recordings they were not tuned on, and moves a setting only
/// when that is shown.
///
/// The policy acts only at the release, so each recognizer configuration is replayed once per file
/// and the release (progress, velocity) and the margins of the beginnings its label rests on recorded; any policy is then
/// scored on those numbers without replaying. The search is a coordinate descent from the defaults
/// over the settings it is allowed to move; which settings those are is decided by a
/// cross-validated forward selection: a setting is let move only if the descent, searched on the
/// training folds and scored on the held-out one, then gets more held-out files right. The whole
/// of that (selection and descent, with folds of its own inside each training set) is
/// cross-validated once more for the report's held-out accuracy, and the settings are written
/// only when it beats the defaults'. The result depends only on the corpus, the folds and the budget.
package struct Tuner: Sendable {
    /// Recognizer configurations each device class may replay (the defaults are always one).
    package static let defaultBudget = 192
    /// Fewer files than this are too few to tune on: 5 held-out folds need 4 files each for one
    /// file to move a fold's accuracy by no more than 25%.
    package static let minimumFiles = 20
    /// A device class with fewer files has its recognizer settings fitted on too few.
    static let minimumFilesPerClass = 10
    /// Folds when the corpus is large enough and none are asked for.
    package static let defaultFolds = 5
    /// How many recognizer thresholds of one device class the search may move.
    package static var searchedThresholdCount: Int { SearchedSetting.all.filter { $0.part == .touchpad }.count }
    /// How many of the policy's settings the search may move.
    package static var searchedPolicySettingCount: Int { SearchedSetting.all.filter { $0.part == .policy }.count }
    /// Mean begin latencies that differ by less than this count as equal: saving a millisecond is
    /// no reason to prefer one setting to another.
    static let latencyResolutionMS = 2.0
    /// Robustness (a normalized margin) that differs by less than this counts as equal: a
    /// thousandth of a setting's range.
    static let robustnessResolution = 0.001

    package var budget: Int

    package init(budget: Int = defaultBudget) {
        self.budget = max(1, budget)
    }

    /// Tunes on `corpus` and reports the settings to write with the evidence for each.
    ///
    /// - Parameters:
    ///   - corpus: the labelled recordings, read into memory.
    ///   - crossValidation: how to hold files out; nil: none, and then no setting can be shown to
    ///     generalize, so the defaults are kept.
    ///   - progress: called with (searches done, searches in all) as each cross-validated search ends.
    package func run(_ corpus: [LoadedRecording], crossValidation: CrossValidation? = nil,
                    progress: (@Sendable (Int, Int) -> Void)? = nil) throws -> Report {
        guard !corpus.isEmpty else { throw CorpusError(path: "", message: "the corpus is empty") }
        let tuning = TuningCorpus(corpus, budget: budget)
        let search = SettingSearch(corpus: tuning)
        let everything = Array(corpus.indices)
        let folds = try crossValidation.map { try $0.folds(of: corpus) } ?? []
        let total = folds.isEmpty ? 0 : 1 + folds.count
        let defaults = try Self.evaluate(corpus, settings: .default)

        // The search on every file, its settings let move by the folds: what would be written.
        let selection = try search.select(folds: folds)
        let chosen = try search.descend(selection.free, on: everything)
        if total > 0 { progress?(1, total) }

        // The whole search cross-validated: each fold's files scored with what the same search
        // (its own selection, on folds of the fold's training files) chose without them.
        var crossValidationReport: CrossValidationReport?
        if let crossValidation, !folds.isEmpty {
            var perFold: [FoldReport] = []
            for (number, fold) in folds.enumerated() {
                let inner = try search.select(folds: crossValidation.folds(of: fold.training, in: corpus))
                let point = try search.descend(inner.free, on: fold.training)
                let scored = try Self.evaluate(fold.heldOut.map { corpus[$0] }, settings: point.settings)
                let training = try tuning.verdicts(of: point, files: fold.training) ?? []
                perFold.append(FoldReport(
                    fold: number + 1, heldOutDevice: fold.device, trainingFiles: fold.training.count,
                    heldOutFiles: fold.heldOut.count, heldOutCorrect: scored.correct, heldOutAccuracy: scored.accuracy,
                    trainingAccuracy: fold.training.isEmpty ? 0 : Double(training.filter(\.correct).count) / Double(fold.training.count),
                    moved: Self.moves(point), wrong: scored.perFile.filter { !$0.correct }.map(\.file)))
                progress?(number + 2, total)
            }
            let correct = perFold.map(\.heldOutCorrect).reduce(0, +)
            let files = perFold.map(\.heldOutFiles).reduce(0, +)
            let defaultsCorrect = folds.flatMap(\.heldOut).filter { defaults.perFile[$0].correct }.count
            crossValidationReport = CrossValidationReport(
                method: crossValidation.name, folds: perFold.count, files: files, heldOutCorrect: correct,
                heldOutAccuracy: files == 0 ? 0 : Double(correct) / Double(files),
                defaultsHeldOutCorrect: defaultsCorrect,
                defaultsHeldOutAccuracy: files == 0 ? 0 : Double(defaultsCorrect) / Double(files), perFold: perFold)
        }

        let beatsDefaults = crossValidationReport.map { $0.heldOutCorrect > $0.defaultsHeldOutCorrect } ?? false
        let written = beatsDefaults ? chosen : .defaults
        let best = written == .defaults ? defaults : try Self.evaluate(corpus, settings: written.settings)
        let predicted = try tuning.verdicts(of: written, files: everything) ?? []
        var seedSettings = LabSettings.default
        seedSettings.policy = .seed
        let seedRule = try Self.evaluate(corpus, settings: seedSettings)
        return Report(
            best: best,
            defaults: defaults,
            seedRule: seedRule,
            baselines: try CompletionPolicyPreset.allCases.map { preset in
                var settings = LabSettings.default
                settings.policy = preset.policy
                // The default and uikit-seed presets are the settings scored above: not replayed again.
                let scored = settings == .default ? defaults : settings == seedSettings ? seedRule
                    : try Self.evaluate(corpus, settings: settings)
                return Baseline(preset: preset.rawValue, scored: scored)
            },
            beatsDefaults: beatsDefaults,
            changes: Self.changes(selection.steps, chosen: chosen, corpus: corpus),
            searchedSettings: SearchedSetting.all.filter { tuning.concerns($0, files: everything) }.count,
            recognizerCandidates: tuning.configurationsReplayed,
            replays: tuning.replays,
            predictedCorrect: predicted.filter(\.correct).count,
            confusion: best.confusion,
            crossValidation: crossValidationReport,
            warnings: Self.warnings(tuning, crossValidation: crossValidation))
    }

    /// The settings `point` moves from the defaults, in the search's order.
    static func moves(_ point: TuningPoint) -> [SettingMove] {
        SearchedSetting.all.compactMap { setting in
            let value = setting.value(in: point)
            return value == setting.value(in: .defaults) ? nil : SettingMove(key: setting.settingsKey, value: value)
        }
    }

    /// Each setting the selection let move and the search on every file moved, with the held-out
    /// files its step turned right and wrong.
    static func changes(_ steps: [SelectionStep], chosen: TuningPoint, corpus: [LoadedRecording]) -> [SettingChange] {
        steps.compactMap { step in
            let value = step.setting.value(in: chosen), home = step.setting.value(in: .defaults)
            guard value != home else { return nil }
            let heldOut = HeldOutEffect(before: step.before.verdicts.mapValues(\.correct),
                                        after: step.after.verdicts.mapValues(\.correct)) { corpus[$0].entry.file }
            return SettingChange(key: step.setting.settingsKey, defaultValue: home, value: value, heldOut: heldOut)
        }
    }

    /// What makes the figures of this corpus weak, said before anyone trusts them.
    static func warnings(_ tuning: TuningCorpus, crossValidation: CrossValidation?) -> [TuneWarning] {
        var warnings: [TuneWarning] = []
        let files = tuning.padCount + tuning.screenCount
        if files < minimumFiles { warnings.append(.corpusTooSmall(files: files, minimum: minimumFiles)) }
        for (name, count) in [("touchpad", tuning.padCount), ("touchscreen", tuning.screenCount)]
        where count > 0 && count < minimumFilesPerClass {
            warnings.append(.classTooSmall(deviceClass: name, files: count, minimum: minimumFilesPerClass))
        }
        if crossValidation == nil { warnings.append(.noHeldOutEstimate) }
        return warnings
    }

    /// Replays the whole corpus with `settings` (full pipeline, no shortcuts, files in parallel) and
    /// scores it, with the margins of the decisions the labels of the files it gets right rest on
    /// (`FileScore.labelledMargins`). The margins only break ties between settings that get the
    /// same files right, so they are not replayed to see whether each really tips its label (as
    /// `check` does for its fragile files).
    ///
    /// - Parameters:
    ///   - corpus: the labelled recordings.
    ///   - settings: the settings to replay them with.
    package static func evaluate(_ corpus: [LoadedRecording], settings: LabSettings) throws -> Scored {
        let results = try parallelMap(corpus) { file -> (FileScore, [DecisionMargin]) in
            let (score, _) = try CorpusRunner.score(file: file.entry.file, device: file.device, events: file.events,
                                                    entry: file.entry, settings: settings)
            return (score, score.correct ? score.labelledMargins.map(\.margin) : [])
        }
        let scores = results.map(\.0)
        var nearest: NearestEdge?
        for (score, margins) in results {
            for margin in margins {
                guard let normalized = margin.normalized, normalized < nearest?.margin.normalized ?? .infinity else { continue }
                nearest = NearestEdge(file: score.file, margin: margin)
            }
        }
        var confusion = ConfusionMatrix()
        for score in scores { confusion.add(score) }
        let latencies = scores.compactMap { $0.gestureCorrect ? $0.beginLatencyMS : nil }
        let correct = scores.filter(\.correct).count
        return Scored(
            settings: settings,
            accuracy: scores.isEmpty ? 0 : Double(correct) / Double(scores.count),
            correct: correct, files: scores.count,
            wrongGesture: scores.filter { !$0.gestureCorrect }.count,
            // Of the files whose gestures were right: a wrong gesture is counted once, as that.
            wrongOutcome: scores.filter { $0.gestureCorrect && !$0.outcomeCorrect }.count,
            meanBeginLatencyMS: latencies.isEmpty ? nil : (latencies.reduce(0, +) / Double(latencies.count) * 10).rounded() / 10,
            nearestEdge: nearest,
            confusion: confusion, perFile: scores)
    }
}
