import Foundation
import GestureKit
import InteractiveTransition

/// Searches recognizer thresholds and the finish/cancel policy for the settings that decide a
/// labelled corpus best.
///
/// The policy acts only at the release, so each recognizer candidate is replayed once per file and
/// the release (progress, velocity) recorded; every policy is then scored on those numbers exactly,
/// without replaying. Touchpad and touchscreen files are tuned separately for the recognizer (their
/// own configuration each) and together for the policy. Candidates are evaluated on all cores; the
/// result depends only on the corpus and the budget.
public struct Tuner: Sendable {
    /// Recognizer candidates per device class in the default search (the defaults are always one).
    public static let defaultBudget = 48

    public var budget: Int
    public var seed: UInt64

    public init(budget: Int = defaultBudget, seed: UInt64 = StandardCorpus.masterSeed) {
        self.budget = max(1, budget)
        self.seed = seed
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
            outcome[score.expectedOutcome.rawValue, default: [:]][score.outcome.rawValue, default: 0] += 1
            let expected = score.expectedKind.rawValue + (score.expectedFingers.map { "\($0)" } ?? "")
            let got = score.recognizedKind.rawValue + (score.recognizedFingers.map { "\($0)" } ?? "")
            gesture[expected, default: [:]][got, default: 0] += 1
        }
    }

    public struct Report: Sendable, Encodable {
        public var best: Scored
        public var defaults: Scored
        public var seedRule: Scored
        public var recognizerCandidates: Int
        public var policyCandidates: Int
        public var replays: Int
        /// Correct files the search predicted for `best` from the recorded releases; the full replay
        /// in `best.correct` must agree (a check on the shortcut).
        public var predictedCorrect: Int
        /// The best settings' confusion matrices (also inside `best`).
        public var confusion: ConfusionMatrix
    }

    /// The policy grid: thresholds, deceleration rates (none = progress only) and flick velocities,
    /// nearest the shipped default first. Ties are broken by this order, so the tuner only moves
    /// away from the defaults as far as a measured improvement takes it.
    public static func policyCandidates() -> [CompletionPolicy] {
        let thresholds = stride(from: 0.30, through: 0.701, by: 0.05).map { ($0 * 100).rounded() / 100 }
        let rates: [Double?] = [nil, 0.99, 0.995, 0.997, 0.998, 0.999]
        let flicks: [Double?] = [nil, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0]
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

    /// Recognizer candidates for a device class: the defaults first, then seeded draws from a grid of
    /// the thresholds that decide pinch versus pan.
    public func recognizerCandidates(for deviceClass: DeviceClass) -> [GestureRecognizerConfiguration] {
        var base = GestureRecognizerConfiguration.default
        if deviceClass == .touchscreen { base = .touchscreen }
        var result = [base]
        var random = SeededRandom(seed: seed ^ (deviceClass == .touchscreen ? 0x5C : 0x7A))
        func pick<T>(_ values: [T]) -> T { values[Int(random.next() % UInt64(values.count))] }
        var seen = Set<GestureRecognizerConfiguration>([base])
        var attempts = 0
        while result.count < budget && attempts < budget * 20 {
            attempts += 1
            var c = base
            c.minMoveMM = pick([1.0, 1.25, 1.5, 2.0])
            c.maxMoveMM = pick([3.0, 4.0, 5.0, 6.0])
            c.undecidedMoveMM = pick([0.5, 1.0])
            c.panSlopMM = pick([2.0, 3.0, 4.0])
            c.pinchSpanSlopMM = pick([0.5, 1.0, 1.5, 2.0])
            c.scrollDecisionTimeoutMS = pick([100.0, 150.0, 200.0])
            c.pinchCorrectionWindowMS = pick([200.0, 300.0, 400.0])
            c.velocity.horizonMS = pick([60.0, 80.0, 100.0, 150.0])
            c.velocity.polynomialDegree = pick([1, 2])
            c.pinchOpposingMinMoveMM = pick([0.75, 1.0, 1.25])
            c.oneSidedPinchMaximumAngleDegrees = pick([20.0, 30.0, 40.0])
            if seen.insert(c).inserted { result.append(c) }
        }
        return result
    }

    public func run(_ corpus: [LoadedRecording], progress: (@Sendable (Int, Int) -> Void)? = nil) throws -> Report {
        let pads = corpus.filter { $0.device.deviceClass != .touchscreen }
        let screens = corpus.filter { $0.device.deviceClass == .touchscreen }
        let padCandidates = recognizerCandidates(for: .touchpad)
        let screenCandidates = recognizerCandidates(for: .touchscreen)

        // Replay each (candidate, file) once; in parallel, results stored by index.
        let jobs = padCandidates.map { ($0, DeviceClass.touchpad) } + screenCandidates.map { ($0, DeviceClass.touchscreen) }
        let results = ResultSlots<[ReleaseFeatures]>(count: jobs.count)
        let done = Counter()
        let failure = ResultSlots<Error>(count: 1)
        DispatchQueue.concurrentPerform(iterations: jobs.count) { index in
            let (candidate, deviceClass) = jobs[index]
            let files = deviceClass == .touchscreen ? screens : pads
            var settings = LabSettings.default
            settings.touchpadRecognizer = candidate
            settings.touchscreenRecognizer = candidate
            do {
                results[index] = try files.map { try ReleaseFeatures.measure($0, settings: settings) }
            } catch {
                failure[0] = error
            }
            progress?(done.increment(), jobs.count)
        }
        if let error = failure[0] { throw error }
        let padFeatures = (0..<padCandidates.count).map { results[$0]! }
        let screenFeatures = (padCandidates.count..<jobs.count).map { results[$0]! }

        // For each policy the best recognizer per class is independent of the other class.
        var best: (key: ScoreKey, policy: CompletionPolicy, pad: Int, screen: Int)?
        let policies = Self.policyCandidates()
        for (policyIndex, policy) in policies.enumerated() {
            let pad = Self.bestCandidate(padFeatures, policy: policy)
            let screen = Self.bestCandidate(screenFeatures, policy: policy)
            let key = ScoreKey.combine(pad.key, screen.key, order: policyIndex)
            if best == nil || key < best!.key { best = (key, policy, pad.index, screen.index) }
        }
        guard let best else { throw CorpusError(path: "", message: "the corpus is empty") }

        var bestSettings = LabSettings.default
        bestSettings.policy = best.policy
        bestSettings.touchpadRecognizer = pads.isEmpty ? nil : padCandidates[best.pad]
        bestSettings.touchscreenRecognizer = screens.isEmpty ? nil : screenCandidates[best.screen]
        var seedSettings = LabSettings.default
        seedSettings.policy = .seed
        let bestScored = try Self.evaluate(corpus, settings: bestSettings)
        return Report(
            best: bestScored,
            defaults: try Self.evaluate(corpus, settings: .default),
            seedRule: try Self.evaluate(corpus, settings: seedSettings),
            recognizerCandidates: padCandidates.count + screenCandidates.count,
            policyCandidates: policies.count,
            replays: padCandidates.count * pads.count + screenCandidates.count * screens.count,
            predictedCorrect: corpus.count - best.key.wrong,
            confusion: bestScored.confusion)
    }

    /// Replays the whole corpus with `settings` (full pipeline, no shortcuts) and scores it.
    public static func evaluate(_ corpus: [LoadedRecording], settings: LabSettings) throws -> Scored {
        var scores: [FileScore] = []
        var confusion = ConfusionMatrix()
        for file in corpus {
            let (score, _) = try CorpusRunner.score(file: file.entry.file, device: file.device, events: file.events,
                                                    label: file.entry.label, settings: settings)
            scores.append(score)
            confusion.add(score)
        }
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

    /// Ranks by correct files, then fewer wrong gestures, then lower begin latency, then the order of
    /// the candidates (the defaults come first, so a tie keeps the defaults).
    struct ScoreKey: Comparable {
        var wrong: Int
        var wrongGesture: Int
        var latencyMS: Double
        var order: Int

        static func < (a: ScoreKey, b: ScoreKey) -> Bool {
            (a.wrong, a.wrongGesture, a.latencyMS, a.order) < (b.wrong, b.wrongGesture, b.latencyMS, b.order)
        }

        static func combine(_ a: ScoreKey, _ b: ScoreKey, order: Int) -> ScoreKey {
            ScoreKey(wrong: a.wrong + b.wrong, wrongGesture: a.wrongGesture + b.wrongGesture,
                     latencyMS: a.latencyMS + b.latencyMS, order: order)
        }
    }

    static func bestCandidate(_ candidates: [[ReleaseFeatures]], policy: CompletionPolicy) -> (key: ScoreKey, index: Int) {
        var best = (key: ScoreKey(wrong: 0, wrongGesture: 0, latencyMS: 0, order: 0), index: -1)
        for (index, files) in candidates.enumerated() {
            var wrong = 0, wrongGesture = 0, latency = 0.0
            for file in files {
                let gestureOK = file.score.gestureCorrect
                if !gestureOK { wrongGesture += 1 }
                if !gestureOK || file.outcome(with: policy) != file.score.expectedOutcome { wrong += 1 }
                if gestureOK, let ms = file.score.beginLatencyMS { latency += ms }
            }
            let key = ScoreKey(wrong: wrong, wrongGesture: wrongGesture, latencyMS: latency, order: index)
            if best.index < 0 || key < best.key { best = (key, index) }
        }
        return best
    }
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

final class Counter: @unchecked Sendable {
    private var value = 0
    private let lock = NSLock()
    func increment() -> Int { lock.lock(); defer { lock.unlock() }; value += 1; return value }
}
