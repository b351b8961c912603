import InteractiveTransition
import SettingsTable

extension Tuner {
    /// Settings with their score on the corpus.
    public struct Scored: Sendable, Encodable {
        public var settings: LabSettings
        public var accuracy: Double
        public var correct: Int
        public var files: Int
        public var wrongGesture: Int
        /// Files whose gestures were right and an outcome wrong (with `correct` and `wrongGesture`,
        /// every file once).
        public var wrongOutcome: Int
        public var meanBeginLatencyMS: Double?
        /// The right decision nearest its edge: the file and its margin.
        public var nearestEdge: NearestEdge?
        public var confusion: ConfusionMatrix
        public var perFile: [FileScore]

        /// The smallest normalized margin (`DecisionMargin.normalized`) over the decisions the
        /// labels of the files these settings get right rest on (`nearestEdge`'s): how near the
        /// nearest right decision came to going the other way, as a fraction of its setting's
        /// usual range. nil when none has a margin.
        public var robustness: Double? { nearestEdge?.margin.normalized }

        enum CodingKeys: String, CodingKey {
            case settings, accuracy, correct, files, wrongGesture, wrongOutcome, meanBeginLatencyMS, robustness, nearestEdge,
                 confusion, perFile
        }

        public func encode(to encoder: any Encoder) throws {
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
    public struct NearestEdge: Sendable, Encodable {
        public var file: String
        public var margin: DecisionMargin

        enum CodingKeys: String, CodingKey { case file, key, value, threshold, unit, normalized }

        public func encode(to encoder: any Encoder) throws {
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
    public struct ConfusionMatrix: Sendable, Encodable, Hashable {
        public var outcome: [String: [String: Int]] = [:]
        public var gesture: [String: [String: Int]] = [:]

        mutating func add(_ score: FileScore) {
            outcome[score.expectedOutcomeName, default: [:]][score.outcomeName, default: 0] += 1
            gesture[score.expectedName, default: [:]][score.recognizedName, default: 0] += 1
        }
    }

    /// A setting the tuner moved from its default, with the evidence that it generalizes.
    public struct SettingChange: Sendable, Encodable {
        /// As a settings file spells it: `touchpadRecognizer.minMoveMM`, `policy.progressThreshold`.
        public var key: String
        /// The shipped value and the tuned one (nil: the rule is off).
        public var defaultValue: Double?
        public var value: Double?
        /// Held-out files right before and after the search could move this setting (each file
        /// scored by settings searched without it), of `heldOutFiles`.
        public var heldOutCorrectBefore: Int
        public var heldOutCorrectAfter: Int
        public var heldOutFiles: Int
        /// Held-out files it turned right and wrong.
        public var fixes: [String]
        public var breaks: [String]

        /// The cross-validated gain in accuracy (a fraction of the files).
        public var heldOutGain: Double {
            heldOutFiles == 0 ? 0 : Double(heldOutCorrectAfter - heldOutCorrectBefore) / Double(heldOutFiles)
        }

        enum CodingKeys: String, CodingKey {
            case key, defaultValue = "default", value, heldOutCorrectBefore, heldOutCorrectAfter, heldOutFiles, heldOutGain, fixes, breaks
        }

        /// Every key is written, an off rule as `null`.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(key, forKey: .key)
            try c.encode(defaultValue, forKey: .defaultValue)
            try c.encode(value, forKey: .value)
            try c.encode(heldOutCorrectBefore, forKey: .heldOutCorrectBefore)
            try c.encode(heldOutCorrectAfter, forKey: .heldOutCorrectAfter)
            try c.encode(heldOutFiles, forKey: .heldOutFiles)
            try c.encode(heldOutGain, forKey: .heldOutGain)
            try c.encode(fixes, forKey: .fixes)
            try c.encode(breaks, forKey: .breaks)
        }
    }

    /// A setting a fold's search moved (`FoldReport.moved`).
    public struct SettingMove: Sendable, Encodable, Hashable {
        public var key: String
        public var value: Double?

        enum CodingKeys: String, CodingKey { case key, value }

        /// An off rule as `null`.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(key, forKey: .key)
            try c.encode(value, forKey: .value)
        }
    }

    public struct Report: Sendable, Encodable {
        /// The settings `tune` writes: the defaults with the settings in `changes` moved, or the
        /// defaults themselves when the search does not beat them on held-out files.
        public var best: Scored
        public var defaults: Scored
        public var seedRule: Scored
        /// The default recognizer settings with each policy preset (the desktops' rules among
        /// them), by preset name, in `CompletionPolicyPreset.allCases` order.
        public var baselines: [Baseline]
        /// Whether `best` differs from the defaults: the search, cross-validated as a whole, gets
        /// more held-out files right than the defaults.
        public var beatsDefaults: Bool
        /// The settings the search on every file moved, each with its cross-validated gain: always
        /// listed; applied and written to the settings file only when `beatsDefaults`.
        public var changes: [SettingChange]
        /// Settings the search could move (each class's recognizer thresholds with tuning values,
        /// the policy's numbers).
        public var searchedSettings: Int
        /// Recognizer configurations replayed (both classes) and replays run (one file each).
        public var recognizerCandidates: Int
        public var replays: Int
        /// Correct files the search predicted for `best` from the recorded releases; the full replay
        /// in `best.correct` must agree (a check on the shortcut).
        public var predictedCorrect: Int
        /// The best settings' confusion matrices (also inside `best`).
        public var confusion: ConfusionMatrix
        /// Held-out accuracy of the whole search: each fold's files scored with the settings the
        /// search (with its own nested cross-validation) chose on the other folds.
        public var crossValidation: CrossValidationReport?
        public var warnings: [TuneWarning]
        /// Agreement with libinput of the best settings and of the defaults (`--with-libinput`).
        public var libinput: [LibinputCorpusAgreement]? = nil
    }

    public struct Baseline: Sendable, Encodable {
        public var preset: String
        public var scored: Scored
    }
}
