import InteractiveTransition
import SettingsTable

extension Tuner {
    /// Settings with their score on the corpus.
    package struct Scored: Sendable, Encodable {
        package var settings: LabSettings
        package var accuracy: Double
        package var correct: Int
        package var files: Int
        package var wrongGesture: Int
        /// Files whose gestures were right and an outcome wrong (with `correct` and `wrongGesture`,
        /// every file once).
        package var wrongOutcome: Int
        package var meanBeginLatencyMS: Double?
        /// The right decision nearest its edge: the file and its margin.
        package var nearestEdge: NearestEdge?
        package var confusion: ConfusionMatrix
        package var perFile: [FileScore]

        /// The smallest normalized margin (`DecisionMargin.normalized`) over the decisions the
        /// labels of the files these settings get right rest on (`nearestEdge`'s): how near the
        /// nearest right decision came to going the other way, as a fraction of its setting's
        /// usual range. nil when none has a margin.
        package var robustness: Double? { nearestEdge?.margin.normalized }

        enum CodingKeys: String, CodingKey {
            case settings, accuracy, correct, files, wrongGesture, wrongOutcome, meanBeginLatencyMS, robustness, nearestEdge,
                 confusion, perFile
        }

        package func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(settings, forKey: .settings)
            try c.encode(accuracy, forKey: .accuracy)
            try c.encode(correct, forKey: .correct)
            try c.encode(files, forKey: .files)
            try c.encode(wrongGesture, forKey: .wrongGesture)
            try c.encode(wrongOutcome, forKey: .wrongOutcome)
            try c.encodeIfPresent(meanBeginLatencyMS, forKey: .meanBeginLatencyMS)
            try c.encodeIfPresent(robustness, forKey: .robustness)
            try c.encodeIfPresent(nearestEdge, forKey: .nearestEdge)
            try c.encode(confusion, forKey: .confusion)
            try c.encode(perFile, forKey: .perFile)
        }
    }

    /// The right decision nearest its edge: the file, and the margin of the decision (JSON: `file`
    /// with the margin's `key`, `value`, `threshold`, `unit` and `normalized`).
    package struct NearestEdge: Sendable, Encodable {
        package var file: String
        package var margin: DecisionMargin

        enum CodingKeys: String, CodingKey { case file, key, value, threshold, unit, normalized }

        package func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(file, forKey: .file)
            try c.encode(margin.key, forKey: .key)
            try c.encode(margin.value, forKey: .value)
            try c.encode(margin.threshold, forKey: .threshold)
            try c.encode(margin.unit, forKey: .unit)
            try c.encodeIfPresent(margin.normalized, forKey: .normalized)
        }
    }

    /// Rows are what the labels say, columns what the replay did.
    package struct ConfusionMatrix: Sendable, Encodable, Hashable {
        package var outcome: [String: [String: Int]] = [:]
        package var gesture: [String: [String: Int]] = [:]

        mutating func add(_ score: FileScore) {
            outcome[score.expectedOutcomeName, default: [:]][score.outcomeName, default: 0] += 1
            gesture[score.expectedName, default: [:]][score.recognizedName, default: 0] += 1
        }
    }

    /// A setting the tuner moved from its default, with the evidence that it generalizes.
    package struct SettingChange: Sendable, Encodable {
        /// As a settings file spells it: `touchpadRecognizer.minMoveMM`, `policy.progressThreshold`.
        package var key: String
        /// The shipped value and the tuned one (nil: the rule is off).
        package var defaultValue: Double?
        package var value: Double?
        package var heldOut: HeldOutEffect

        enum CodingKeys: String, CodingKey, HeldOutEffectKeys {
            case key, defaultValue = "default", value, heldOutCorrectBefore, heldOutCorrectAfter, heldOutFiles, heldOutGain, fixes, breaks
        }

        /// Every key is written, an off rule as `null`.
        package func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(key, forKey: .key)
            try c.encode(defaultValue, forKey: .defaultValue)
            try c.encode(value, forKey: .value)
            try heldOut.encode(into: &c)
        }
    }

    /// A setting a fold's search moved (`FoldReport.moved`).
    package struct SettingMove: Sendable, Encodable, Hashable {
        package var key: String
        package var value: Double?

        enum CodingKeys: String, CodingKey { case key, value }

        /// An off rule as `null`.
        package func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(key, forKey: .key)
            try c.encode(value, forKey: .value)
        }
    }

    package struct Report: Sendable, Encodable {
        /// The settings `tune` writes: the defaults with the settings in `changes` moved, or the
        /// defaults themselves when the search does not beat them on held-out files.
        package var best: Scored
        package var defaults: Scored
        package var seedRule: Scored
        /// The default recognizer settings with each policy preset (the desktops' rules among
        /// them), by preset name, in `CompletionPolicyPreset.allCases` order.
        package var baselines: [Baseline]
        /// Whether `best` differs from the defaults: the search, cross-validated as a whole, gets
        /// more held-out files right than the defaults.
        package var beatsDefaults: Bool
        /// The settings the search on every file moved, each with its cross-validated gain: always
        /// listed; applied and written to the settings file only when `beatsDefaults`.
        package var changes: [SettingChange]
        /// Settings the search could move (each class's recognizer thresholds with tuning values,
        /// the policy's numbers).
        package var searchedSettings: Int
        /// Recognizer configurations replayed (both classes) and replays run (one file each).
        package var recognizerCandidates: Int
        package var replays: Int
        /// Correct files the search predicted for `best` from the recorded releases; the full replay
        /// in `best.correct` must agree (a check on the shortcut).
        package var predictedCorrect: Int
        /// The best settings' confusion matrices (also inside `best`).
        package var confusion: ConfusionMatrix
        /// Held-out accuracy of the whole search: each fold's files scored with the settings the
        /// search (with its own nested cross-validation) chose on the other folds.
        package var crossValidation: CrossValidationReport?
        package var warnings: [TuneWarning]
        /// Agreement with libinput of the best settings and of the defaults (`--with-libinput`).
        package var libinput: [LibinputCorpusAgreement]? = nil
    }

    package struct Baseline: Sendable, Encodable {
        package var preset: String
        package var scored: Scored
    }
}
