import InteractiveTransition

/// How a point of the search (or a cross-validated search) scores on some files, in the order the
/// tuner ranks: fewest wrong files; then robustness, the smallest normalized margin over the
/// decisions of the files it gets right (larger is better: decisions away from their edges), equal
/// smallest margins compared by the next smallest and so on; then the lowest mean begin latency;
/// then the candidates' order (the defaults and the values nearest them first, so a tie keeps the
/// shipped settings).
struct SearchScore: Comparable {
    var wrong = 0
    /// Every normalized margin in steps of `Tuner.robustnessResolution`, smallest first. Most
    /// margins do not depend on the setting a move changes (another class's files, another rule):
    /// comparing the whole list from the smallest up lets the ones that do decide, where the
    /// smallest alone is often the same number for every candidate.
    var robustness: [Int] = []
    var latencyStep = 0
    var order = 0

    init(_ verdicts: some Sequence<FileVerdict>, order: Int) {
        var latencySum = 0.0, latencyCount = 0
        for verdict in verdicts {
            if !verdict.correct { wrong += 1 }
            if verdict.gestureCorrect, let ms = verdict.beginLatencyMS {
                latencySum += ms
                latencyCount += 1
            }
            for margin in verdict.margins { robustness.append(Int((margin / Tuner.robustnessResolution).rounded())) }
        }
        robustness.sort()
        latencyStep = latencyCount == 0 ? 0 : Int((latencySum / Double(latencyCount) / Tuner.latencyResolutionMS).rounded())
        self.order = order
    }

    /// -1 when `a` keeps its decisions farther from their edges than `b`, 1 when nearer, 0 when
    /// the same: at the first place the sorted margins differ, the larger wins; when one list is a
    /// prefix of the other, the shorter (fewer decisions near an edge) wins.
    static func compareRobustness(_ a: [Int], _ b: [Int]) -> Int {
        for (x, y) in zip(a, b) where x != y { return x > y ? -1 : 1 }
        return a.count == b.count ? 0 : a.count < b.count ? -1 : 1
    }

    static func < (a: SearchScore, b: SearchScore) -> Bool {
        if a.wrong != b.wrong { return a.wrong < b.wrong }
        let robustness = compareRobustness(a.robustness, b.robustness)
        if robustness != 0 { return robustness < 0 }
        return (a.latencyStep, a.order) < (b.latencyStep, b.order)
    }
}

/// One split of some files: search on `training`, score on `heldOut` (corpus indices).
struct Fold: Sendable {
    var training: [Int]
    var heldOut: [Int]
    /// The device left out (leave-one-device-out only).
    var device: String?
}

/// What a cross-validated search did: each held-out file's verdict with the settings searched
/// without it.
struct HeldOutResult {
    var verdicts: [Int: FileVerdict]

    var correct: Int { verdicts.values.filter(\.correct).count }
    /// In file order: the latencies' sum must not follow the dictionary's order, which changes from run to run.
    func score(order: Int) -> SearchScore { SearchScore(verdicts.keys.sorted().map { verdicts[$0]! }, order: order) }
}

/// The settings a selection let move, each with the held-out verdicts before and after it could.
struct SelectionStep {
    var setting: SearchedSetting
    var before: HeldOutResult
    var after: HeldOutResult
}

/// The tuner's search: a coordinate descent over some settings, and the cross-validated forward
/// selection that decides which settings the descent may move at all.
struct SettingSearch {
    let corpus: TuningCorpus

    /// Coordinate descent on the files at `indices` from the defaults, moving only the settings in
    /// `free`: each round scores every one-setting move from the point so far (replaying new
    /// recognizer settings in one parallel batch) and takes the best, only if it gets more files
    /// right. Robustness and latency choose among the moves that gain the same; a move that gains
    /// nothing is never taken, so a tie keeps the defaults.
    func descend(_ free: [SearchedSetting], on indices: [Int]) throws -> TuningPoint {
        var current = TuningPoint.defaults
        guard !free.isEmpty, !indices.isEmpty, let start = try corpus.verdicts(of: current, files: indices) else { return current }
        var currentWrong = SearchScore(start, order: 0).wrong
        while currentWrong > 0 {
            var moves: [(point: TuningPoint, order: Int)] = []
            var order = 0
            for setting in free {
                let here = setting.value(in: current)
                for value in setting.values {
                    order += 1
                    if value != here { moves.append((setting.moved(current, to: value), order)) }
                }
            }
            try corpus.prefetch(moves.map(\.point))
            var best: (point: TuningPoint, score: SearchScore)?
            for move in moves {
                guard let verdicts = try corpus.verdicts(of: move.point, files: indices) else { continue }
                let score = SearchScore(verdicts, order: move.order)
                if best == nil || score < best!.score { best = (move.point, score) }
            }
            guard let best, best.score.wrong < currentWrong else { break }
            (current, currentWrong) = (best.point, best.score.wrong)
        }
        return current
    }

    /// Each fold's files scored with the settings `descend` finds on its training files.
    func crossValidate(_ free: [SearchedSetting], folds: [Fold]) throws -> HeldOutResult {
        var result = HeldOutResult(verdicts: [:])
        for fold in folds {
            let point = try descend(free, on: fold.training)
            guard let verdicts = try corpus.verdicts(of: point, files: fold.heldOut) else {
                preconditionFailure("the descent returned a point it could not score")
            }
            for (index, verdict) in zip(fold.heldOut, verdicts) { result.verdicts[index] = verdict }
        }
        return result
    }

    /// Forward selection on the files of `folds`: starting with no setting free to move, each step
    /// cross-validates the descent with each further setting free (searched on the training
    /// files, scored on the held-out ones) and frees the best one, only if it gets more held-out
    /// files right; ties among those go to robustness, latency, then the settings' order. So a
    /// setting moves only when letting it move raises the cross-validated accuracy.
    func select(folds: [Fold]) throws -> (free: [SearchedSetting], steps: [SelectionStep]) {
        guard !folds.isEmpty else { return ([], []) }
        let indices = folds.flatMap(\.heldOut)
        let candidates = SearchedSetting.all.filter { corpus.concerns($0, files: indices) }
        var free: [SearchedSetting] = []
        var steps: [SelectionStep] = []
        var current = try crossValidate([], folds: folds)
        while current.correct < indices.count {
            var best: (setting: SearchedSetting, result: HeldOutResult, score: SearchScore)?
            for (order, candidate) in candidates.enumerated() where !free.contains(where: { $0.settingsKey == candidate.settingsKey }) {
                let result = try crossValidate(free + [candidate], folds: folds)
                let score = result.score(order: order)
                if best == nil || score < best!.score { best = (candidate, result, score) }
            }
            guard let best, best.result.correct > current.correct else { break }
            steps.append(SelectionStep(setting: best.setting, before: current, after: best.result))
            free.append(best.setting)
            current = best.result
        }
        return (free, steps)
    }
}
