import Foundation
import GestureKit
import InteractiveTransition

/// Searches recognizer thresholds and the finish/cancel policy for the settings that decide a
/// labelled corpus best.
///
/// The policy acts only at the release, so each recognizer candidate is replayed once per file and
/// the release (progress, velocity) recorded; every policy is then scored on those numbers exactly,
/// without replaying. Recognizer candidates come from a coordinate descent that starts at the
/// defaults: each round tries every one-threshold move from the current settings (in parallel) and
/// takes the best only if it scores better, so a threshold that changes nothing stays where it was
/// and the result says which thresholds matter. Touchpad and touchscreen files are tuned separately
/// for the recognizer (their own configuration each) and together for the policy. The result
/// depends only on the corpus and the budget.
public struct Tuner: Sendable {
    /// Recognizer candidates per device class the descent may replay (the defaults are always one).
    public static let defaultBudget = 96
    /// Fewer files than this are too few to tune on: the search (11 thresholds per class and a grid
    /// of 432 policies) can fit a few files by chance, and 5 held-out folds need 4 files each for
    /// one file to move a fold's accuracy by no more than 25%.
    public static let minimumFiles = 20
    /// A device class with fewer files has its recognizer settings fitted on too few.
    public static let minimumFilesPerClass = 10
    /// Folds when the corpus is large enough and none are asked for.
    public static let defaultFolds = 5
    /// How many recognizer thresholds the search moves.
    public static var searchedThresholdCount: Int { TunableThreshold.all.count }
    /// Mean begin latencies that differ by less than this count as equal: saving a millisecond is not
    /// worth another changed threshold.
    public static let latencyResolutionMS = 2.0

    public var budget: Int

    public init(budget: Int = defaultBudget) {
        self.budget = max(1, budget)
    }

    /// Settings with their score on the corpus.
    public struct Scored: Sendable, Encodable {
        public var settings: LabSettings
        public var accuracy: Double
        public var correct: Int
        public var files: Int
        public var wrongGesture: Int
        public var wrongOutcome: Int
        public var meanBeginLatencyMS: Double?
        public var confusion: ConfusionMatrix
        public var perFile: [FileScore]
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

    public struct Report: Sendable, Encodable {
        public var best: Scored
        public var defaults: Scored
        public var seedRule: Scored
        /// The default recognizer settings with each policy preset (the desktops' rules among
        /// them), by preset name, in `CompletionPolicyPreset.allCases` order.
        public var baselines: [Baseline]
        public var recognizerCandidates: Int
        public var policyCandidates: Int
        public var replays: Int
        /// Correct files the search predicted for `best` from the recorded releases; the full replay
        /// in `best.correct` must agree (a check on the shortcut).
        public var predictedCorrect: Int
        /// The best settings' confusion matrices (also inside `best`).
        public var confusion: ConfusionMatrix
        /// Held-out accuracy: each fold's files scored with the settings tuned without them.
        public var crossValidation: CrossValidationReport?
        public var warnings: [TuneWarning]
        /// Agreement with libinput of the best settings and of the defaults (`--with-libinput`).
        public var libinput: [LibinputCorpusAgreement]? = nil
    }

    public struct Baseline: Sendable, Encodable {
        public var preset: String
        public var scored: Scored
    }

    /// The policy grid: thresholds, deceleration rates (none = progress only) and flick velocities,
    /// each its setting's tuning values in `CompletionPolicy.settings` (off first where the setting
    /// may be off), nearest the shipped default first. Ties are broken by this order, so the tuner
    /// only moves away from the defaults as far as a measured improvement takes it.
    public static func policyCandidates() -> [CompletionPolicy] {
        func grid(_ key: String) -> [Double?] {
            guard let setting = CompletionPolicy.settings.setting(forKey: key) else { return [] }
            return (setting.tuningTriesOff ? [nil] : []) + setting.tuningValues.map(Optional.some)
        }
        let thresholds = grid("progressThreshold").compactMap { $0 }
        let rates = grid("decelerationRatePerMS")
        let flicks = grid("flickVelocity")
        let d = CompletionPolicy.default
        func position<T: Equatable>(_ values: [T], _ value: T) -> Int { values.firstIndex(of: value) ?? values.count }
        let home = (position(thresholds, d.progressThreshold), position(rates, d.decelerationRatePerMS),
                    position(flicks, d.flickVelocity))
        var result: [(steps: Int, policy: CompletionPolicy)] = []
        for (t, threshold) in thresholds.enumerated() {
            for (r, rate) in rates.enumerated() {
                for (f, flick) in flicks.enumerated() {
                    if let policy = try? CompletionPolicy(progressThreshold: threshold, decelerationRatePerMS: rate,
                                                          flickVelocity: flick) {
                        result.append((abs(t - home.0) + abs(r - home.1) + abs(f - home.2), policy))
                    }
                }
            }
        }
        // A stable sort: equal distances keep the grid's order.
        return result.enumerated().sorted { ($0.element.steps, $0.offset) < ($1.element.steps, $1.offset) }.map(\.element.policy)
    }

    /// A recognizer configuration the search replayed, with the releases it measured.
    struct Evaluated {
        var configuration: GestureRecognizerConfiguration
        var features: [ReleaseFeatures]
        /// Searched thresholds that differ from the class's defaults.
        var changes: Int
    }

    /// The coordinate descent for one device class on the files at `positions` of its cache: the
    /// defaults, then rounds of one-threshold moves from the best so far, until no move scores
    /// better or the budget is spent. Returns every configuration tried, the defaults first.
    func search(_ cache: FeatureCache, positions: [Int], base: GestureRecognizerConfiguration,
                policies: [CompletionPolicy], progress: () -> Void) throws -> [Evaluated] {
        func replay(_ candidates: [GestureRecognizerConfiguration]) throws -> [Evaluated] {
            let features = try cache.features(for: candidates)
            return zip(candidates, features).map { candidate, features in
                progress()
                return Evaluated(configuration: candidate, features: positions.map { features[$0] },
                                 changes: TunableThreshold.changes(from: base, to: candidate))
            }
        }
        /// A candidate's score under the policy that suits it best.
        func key(_ candidate: Evaluated) -> ScoreKey {
            policies.map { Self.score(candidate, policy: $0, order: 0) }.min()!
        }
        var evaluated = try replay([base])
        var seen: Set<GestureRecognizerConfiguration> = [base]
        var current = evaluated[0]
        var currentKey = key(current)
        while evaluated.count < budget {
            let moves = TunableThreshold.neighbours(of: current.configuration).filter { seen.insert($0).inserted }
                .prefix(budget - evaluated.count)
            guard !moves.isEmpty else { break }
            let round = try replay(Array(moves))
            evaluated += round
            guard let best = round.map({ ($0, key($0)) }).min(by: { $0.1 < $1.1 }), best.1 < currentKey else { break }
            (current, currentKey) = best
        }
        return evaluated
    }

    /// The best settings for the training files, with what the search tried.
    struct Tuned {
        var settings: LabSettings
        /// Training files the shortcut (recorded releases) predicts right with `settings`.
        var predictedCorrect: Int
        var recognizerCandidates: Int
    }

    /// The corpus split by device class, each class's replays memoized per recognizer configuration.
    struct Classes {
        var padIndices: [Int] = []
        var screenIndices: [Int] = []
        let pads: FeatureCache
        let screens: FeatureCache

        init(_ corpus: [LoadedRecording]) {
            for (index, file) in corpus.enumerated() {
                if file.device.deviceClass == .touchscreen { screenIndices.append(index) } else { padIndices.append(index) }
            }
            pads = FeatureCache(files: padIndices.map { corpus[$0] })
            screens = FeatureCache(files: screenIndices.map { corpus[$0] })
        }
    }

    /// Searches recognizer settings per class and the policy on the files whose corpus indices are
    /// in `training`.
    func tune(_ classes: Classes, training: Set<Int>, policies: [CompletionPolicy], progress: () -> Void) throws -> Tuned {
        let padPositions = classes.padIndices.indices.filter { training.contains(classes.padIndices[$0]) }
        let screenPositions = classes.screenIndices.indices.filter { training.contains(classes.screenIndices[$0]) }
        let padSearch = padPositions.isEmpty ? []
            : try search(classes.pads, positions: padPositions, base: .default, policies: policies, progress: progress)
        let screenSearch = screenPositions.isEmpty ? []
            : try search(classes.screens, positions: screenPositions, base: .touchscreen, policies: policies, progress: progress)

        // For each policy the best recognizer per class is independent of the other class.
        let choices = try parallelMap(Array(policies.enumerated())) { policyIndex, policy in
            let pad = Self.bestCandidate(padSearch, policy: policy)
            let screen = Self.bestCandidate(screenSearch, policy: policy)
            var key = ScoreKey.combine(pad?.key ?? .empty, screen?.key ?? .empty)
            key.order = policyIndex
            return (key: key, policy: policy, pad: pad?.index, screen: screen?.index)
        }
        guard let best = choices.min(by: { $0.key < $1.key }) else {
            throw CorpusError(path: "", message: "the corpus is empty")
        }
        var settings = LabSettings.default
        settings.policy = best.policy
        settings.touchpadRecognizer = best.pad.map { padSearch[$0].configuration }
        settings.touchscreenRecognizer = best.screen.map { screenSearch[$0].configuration }
        return Tuned(settings: settings, predictedCorrect: training.count - best.key.wrong,
                     recognizerCandidates: padSearch.count + screenSearch.count)
    }

    public func run(_ corpus: [LoadedRecording], crossValidation: CrossValidation? = nil,
                    progress: (@Sendable (Int, Int) -> Void)? = nil) throws -> Report {
        guard !corpus.isEmpty else { throw CorpusError(path: "", message: "the corpus is empty") }
        let classes = Classes(corpus)
        let policies = Self.policyCandidates()
        let folds = try crossValidation.map { try $0.folds(of: corpus) } ?? []
        let classCount = [classes.padIndices, classes.screenIndices].filter { !$0.isEmpty }.count
        let total = budget * classCount * (1 + folds.count)
        var done = 0
        let step = { done += 1; progress?(min(done, total), total) }

        let everything = Set(corpus.indices)
        let tuned = try tune(classes, training: everything, policies: policies, progress: step)
        var seedSettings = LabSettings.default
        seedSettings.policy = .seed
        let bestScored = try Self.evaluate(corpus, settings: tuned.settings)

        var crossValidationReport: CrossValidationReport?
        if let crossValidation, !folds.isEmpty {
            var perFold: [FoldReport] = []
            for (number, fold) in folds.enumerated() {
                let heldOut = Set(fold.heldOut)
                let foldTuned = try tune(classes, training: everything.subtracting(heldOut), policies: policies, progress: step)
                let scored = try Self.evaluate(fold.heldOut.map { corpus[$0] }, settings: foldTuned.settings)
                let trainingCount = corpus.count - heldOut.count
                perFold.append(FoldReport(
                    fold: number + 1, heldOutDevice: fold.device, trainingFiles: trainingCount,
                    heldOutFiles: heldOut.count, heldOutCorrect: scored.correct, heldOutAccuracy: scored.accuracy,
                    trainingAccuracy: trainingCount == 0 ? 0 : Double(foldTuned.predictedCorrect) / Double(trainingCount),
                    wrong: scored.perFile.filter { !$0.correct }.map(\.file)))
            }
            let correct = perFold.map(\.heldOutCorrect).reduce(0, +)
            let files = perFold.map(\.heldOutFiles).reduce(0, +)
            crossValidationReport = CrossValidationReport(
                method: crossValidation.name, folds: perFold.count, files: files, heldOutCorrect: correct,
                heldOutAccuracy: files == 0 ? 0 : Double(correct) / Double(files), perFold: perFold)
        }
        progress?(total, total)
        return Report(
            best: bestScored,
            defaults: try Self.evaluate(corpus, settings: .default),
            seedRule: try Self.evaluate(corpus, settings: seedSettings),
            baselines: try CompletionPolicyPreset.allCases.map { preset in
                var settings = LabSettings.default
                settings.policy = preset.policy
                return Baseline(preset: preset.rawValue, scored: try Self.evaluate(corpus, settings: settings))
            },
            recognizerCandidates: tuned.recognizerCandidates,
            policyCandidates: policies.count,
            replays: classes.pads.replays + classes.screens.replays,
            predictedCorrect: tuned.predictedCorrect,
            confusion: bestScored.confusion,
            crossValidation: crossValidationReport,
            warnings: Self.warnings(classes, crossValidation: crossValidation, folds: folds.count))
    }

    /// What makes the figures of this corpus weak, said before anyone trusts them.
    static func warnings(_ classes: Classes, crossValidation: CrossValidation?, folds: Int) -> [TuneWarning] {
        var warnings: [TuneWarning] = []
        let files = classes.padIndices.count + classes.screenIndices.count
        if files < minimumFiles { warnings.append(.corpusTooSmall(files: files, minimum: minimumFiles)) }
        for (name, count) in [("touchpad", classes.padIndices.count), ("touchscreen", classes.screenIndices.count)]
        where count > 0 && count < minimumFilesPerClass {
            warnings.append(.classTooSmall(deviceClass: name, files: count, minimum: minimumFilesPerClass))
        }
        if crossValidation == nil { warnings.append(.noHeldOutEstimate) }
        return warnings
    }

    /// Replays the whole corpus with `settings` (full pipeline, no shortcuts, files in parallel) and scores it.
    public static func evaluate(_ corpus: [LoadedRecording], settings: LabSettings) throws -> Scored {
        let scores = try parallelMap(corpus) { file in
            try CorpusRunner.score(file: file.entry.file, device: file.device, events: file.events,
                                   entry: file.entry, settings: settings).0
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
            wrongOutcome: scores.filter { !$0.outcomeCorrect }.count,
            meanBeginLatencyMS: latencies.isEmpty ? nil : (latencies.reduce(0, +) / Double(latencies.count) * 10).rounded() / 10,
            confusion: confusion, perFile: scores)
    }

    /// Ranks by wrong files, then wrong gestures, then mean begin latency (in steps of
    /// `latencyResolutionMS`), then fewer changed thresholds, then the order of the candidates (the
    /// defaults and the policies nearest them come first, so a tie keeps the defaults).
    struct ScoreKey: Comparable {
        var wrong = 0
        var wrongGesture = 0
        var latencySumMS = 0.0
        var latencyCount = 0
        var changes = 0
        var order = 0

        static let empty = ScoreKey()

        var latencyStep: Int {
            latencyCount == 0 ? 0 : Int((latencySumMS / Double(latencyCount) / Tuner.latencyResolutionMS).rounded())
        }

        static func < (a: ScoreKey, b: ScoreKey) -> Bool {
            (a.wrong, a.wrongGesture, a.latencyStep, a.changes, a.order) < (b.wrong, b.wrongGesture, b.latencyStep, b.changes, b.order)
        }

        static func combine(_ a: ScoreKey, _ b: ScoreKey) -> ScoreKey {
            ScoreKey(wrong: a.wrong + b.wrong, wrongGesture: a.wrongGesture + b.wrongGesture,
                     latencySumMS: a.latencySumMS + b.latencySumMS, latencyCount: a.latencyCount + b.latencyCount,
                     changes: a.changes + b.changes, order: 0)
        }
    }

    static func score(_ candidate: Evaluated, policy: CompletionPolicy, order: Int) -> ScoreKey {
        var key = ScoreKey(changes: candidate.changes, order: order)
        for file in candidate.features {
            let gestureOK = file.gestureCorrect
            if !gestureOK { key.wrongGesture += 1 }
            if !gestureOK || !file.outcomeCorrect(with: policy) { key.wrong += 1 }
            if gestureOK, let ms = file.beginLatencyMS {
                key.latencySumMS += ms
                key.latencyCount += 1
            }
        }
        return key
    }

    static func bestCandidate(_ candidates: [Evaluated], policy: CompletionPolicy) -> (key: ScoreKey, index: Int)? {
        candidates.indices.map { (score(candidates[$0], policy: policy, order: $0), $0) }.min { $0.0 < $1.0 }
    }
}

/// `transform` applied to every element on all cores (`DispatchQueue.concurrentPerform`), the
/// results in the elements' order; the first error thrown is rethrown once all have run.
func parallelMap<Element: Sendable, Result>(_ elements: [Element], _ transform: @Sendable (Element) throws -> Result) throws -> [Result] {
    let slots = ResultSlots<Swift.Result<Result, Error>>(count: elements.count)
    DispatchQueue.concurrentPerform(iterations: elements.count) { index in
        slots[index] = Swift.Result { try transform(elements[index]) }
    }
    return try elements.indices.map { try slots[$0]!.get() }
}

/// Slots written once each from concurrent iterations, read after they all finish.
final class ResultSlots<T>: @unchecked Sendable {
    private var values: [T?]
    private let lock = NSLock()
    init(count: Int) { values = Array(repeating: nil, count: count) }
    subscript(index: Int) -> T? {
        get { lock.lock(); defer { lock.unlock() }; return values[index] }
        set { lock.lock(); values[index] = newValue; lock.unlock() }
    }
}
