import Foundation
import InteractiveTransition
import SettingsTable
import Testing
@testable import GestureLab

/// The tuner on a slice of the shipped corpus (every third file, both device classes), which the
/// defaults get right: nothing may move.
@Suite struct TunerTests {
    static let slice: [LoadedRecording] = {
        let all = (try? LoadedRecording.loadCorpus(directory: CorpusFixtureTests.corpusDirectory)) ?? []
        return all.enumerated().filter { $0.offset % 3 == 0 }.map(\.element)
    }()

    @Test func withoutAGainOutOfSampleNothingMovesAndTheRunIsRepeatable() throws {
        try #require(Self.slice.count >= 12)
        let report = try Tuner().run(Self.slice, crossValidation: .kFold(3))
        #expect(report.defaults.correct == report.defaults.files, "the slice is one the defaults get right")
        #expect(!report.beatsDefaults && report.changes.isEmpty)
        #expect(report.best.settings == .default)
        let file = try JSONSerialization.jsonObject(with: report.best.settings.settingsFileData()) as? [String: Any]
        #expect(file?.isEmpty == true, "a settings file with no changed setting")
        #expect(report.best.correct == report.predictedCorrect, "the shortcut agrees with the full replay")
        let cv = try #require(report.crossValidation)
        #expect(cv.heldOutCorrect == cv.defaultsHeldOutCorrect && cv.perFold.allSatisfy(\.moved.isEmpty))
        let again = try Tuner().run(Self.slice, crossValidation: .kFold(3))
        #expect(again.best.settings == report.best.settings && again.crossValidation?.heldOutCorrect == cv.heldOutCorrect)
    }

    /// Without cross-validation nothing can be shown to generalize: the defaults are kept.
    @Test func withoutCrossValidationTheDefaultsAreKept() throws {
        let report = try Tuner().run(Self.slice)
        #expect(report.crossValidation == nil && !report.beatsDefaults && report.best.settings == .default)
        #expect(report.warnings.contains(.noHeldOutEstimate))
    }

    /// Every file is held out exactly once, by the whole corpus's folds and by the folds nested in
    /// each fold's training files.
    @Test func foldsHoldEveryFileOutOnceAndNestInTheTrainingFiles() throws {
        let folds = try CrossValidation.kFold(3).folds(of: Self.slice)
        #expect(folds.count == 3)
        #expect(folds.flatMap(\.heldOut).sorted() == Array(Self.slice.indices))
        for fold in folds {
            #expect(Set(fold.training).isDisjoint(with: fold.heldOut) && fold.training.count + fold.heldOut.count == Self.slice.count)
            let inner = CrossValidation.kFold(3).folds(of: fold.training, in: Self.slice)
            #expect(inner.count == 3 && inner.flatMap(\.heldOut).sorted() == fold.training)
        }
        #expect(CrossValidation.kFold(5).folds(of: [0], in: Self.slice).isEmpty, "one file cannot be split")
        let devices = CrossValidation.byDevice.folds(of: Array(Self.slice.indices), in: Self.slice)
        #expect(devices.count == 2 && devices.allSatisfy { $0.device != nil })
    }

    @Test func searchedSettingsComeFromTheTablesWithTheDefaultFirst() {
        let keys = SearchedSetting.all.map(\.settingsKey)
        #expect(keys.contains("touchpadRecognizer.minMoveMM") && keys.contains("touchscreenRecognizer.minMoveMM"))
        #expect(keys.contains("policy.progressThreshold") && keys.contains("policy.flickVelocity"))
        #expect(Set(keys).count == keys.count)
        for setting in SearchedSetting.all {
            #expect(setting.values.first == setting.value(in: .defaults), "\(setting.settingsKey): the default first")
            #expect(Set(setting.values.map { $0 ?? -1 }).count == setting.values.count)
            let moved = setting.moved(.defaults, to: setting.values.last!)
            #expect(setting.value(in: moved) == setting.values.last!)
            #expect(Tuner.moves(moved).map(\.key) == [setting.settingsKey], "a move changes that one setting")
        }
        let threshold = SearchedSetting.all.first { $0.settingsKey == "policy.progressThreshold" }!
        #expect(threshold.values.prefix(3) == [0.5, 0.45, 0.55], "nearest the default first, the lower first on a tie")
    }
}

/// The search's rules on made-up releases (no replay): four pinches per label, scored by the
/// policy alone, so which threshold wins is known exactly.
@Suite struct TunerSearchRuleTests {
    /// A touchscreen corpus of pinches released still at these progresses, labelled finish or cancel,
    /// and `misrecognized` more whose gesture is wrong whatever the policy.
    static func corpus(_ releases: [(progress: Double, finish: Bool)], misrecognized: Int = 0) -> TuningCorpus {
        // A budget of one configuration: the made-up one, so no recognizer move can be replayed.
        let tuning = TuningCorpus(files(releases.count + misrecognized), budget: 1)
        tuning.screens.store(releases.map { release in
            ReleaseFeatures(gestureCorrect: true, beginLatencyMS: 100,
                            expected: [GestureExpectation(kind: .pinch, fingers: 2, outcome: release.finish ? .finish : .cancel)],
                            releases: .one(.released(progress: release.progress, velocity: 0)), beganMargins: [], input: .touchscreen)
        } + Array(repeating: ReleaseFeatures(gestureCorrect: false, beginLatencyMS: nil, expected: [GestureExpectation(kind: .pinch)],
                                             releases: .none, beganMargins: [], input: .touchscreen), count: misrecognized), for: .touchscreen)
        return tuning
    }

    /// `count` touchscreen files with no events (their features are made up).
    static func files(_ count: Int) -> [LoadedRecording] {
        (0..<count).map { n in
            LoadedRecording(entry: CorpusEntry(file: "release-\(n).evemu", transition: "pinch-dismiss",
                                               expect: [GestureExpectation(kind: .pinch)]),
                            device: .presetTouchscreen, events: [], path: "release-\(n).evemu")
        }
    }

    static let threshold = SearchedSetting.all.first { $0.settingsKey == "policy.progressThreshold" }!

    /// Two recognizer moves each mend the one misrecognized file: the search takes the one whose
    /// beginnings (the decisions the labels rest on) stay farther from their edges, though the
    /// other comes first in the settings' order and the releases are the same.
    @Test func recognizerMarginsRankMovesThatGetTheSameFilesRight() throws {
        let settings = SearchedSetting.all.filter { $0.part == .touchscreen }
        let (first, second) = (settings[0], settings[1])
        let nearer = first.moved(.defaults, to: first.values[1]), farther = second.moved(.defaults, to: second.values[1])
        let tuning = TuningCorpus(Self.files(3), budget: 3)
        func features(mended: Bool, margin: Double) -> [ReleaseFeatures] {
            [(mended, margin), (true, 0.5), (true, 0.5)].map { correct, margin in
                ReleaseFeatures(gestureCorrect: correct, beginLatencyMS: 100,
                                expected: [GestureExpectation(kind: .pinch, fingers: 2, outcome: .finish)],
                                releases: .one(.released(progress: 0.9, velocity: 0)), beganMargins: correct ? [margin] : [],
                                input: .touchscreen)
            }
        }
        tuning.screens.store(features(mended: false, margin: 0), for: .touchscreen)
        tuning.screens.store(features(mended: true, margin: 0.02), for: nearer.touchscreen)
        tuning.screens.store(features(mended: true, margin: 0.3), for: farther.touchscreen)
        let scores = try [nearer, farther].map { SearchScore(try #require(try tuning.verdicts(of: $0, files: [0, 1, 2])), order: 0) }
        #expect(scores.allSatisfy { $0.wrong == 0 })
        #expect(scores.map(\.robustness) == [[20, 400, 400, 400, 500, 500], [300, 400, 400, 400, 500, 500]],
                "each file's beginning and its labelled release (0.4 from progressThreshold), in thousandths")
        #expect(try SettingSearch(corpus: tuning).descend([first, second], on: [0, 1, 2]) == farther)
    }

    /// Every release right with the default threshold (0.5), one file wrong that no threshold
    /// mends: no move is taken, though 0.55 would keep the releases farther from the edge.
    @Test func tiesKeepTheDefault() throws {
        let tuning = Self.corpus([(0.62, true), (0.66, true), (0.40, false), (0.46, false)], misrecognized: 1)
        let search = SettingSearch(corpus: tuning)
        #expect(try search.descend([Self.threshold], on: [0, 1, 2, 3, 4]) == .defaults)
        let at = { (value: Double) in SearchScore(try! tuning.verdicts(of: Self.threshold.moved(.defaults, to: value), files: [0, 1, 2, 3, 4])!, order: 0) }
        #expect(at(0.55).wrong == at(0.5).wrong && at(0.55) < at(0.5), "the move would be more robust, and still is not taken")
        let folds = CrossValidation.kFold(2).folds(of: [0, 1, 2, 3, 4], in: Self.files(5))
        #expect(try search.select(folds: folds).free.isEmpty)
    }

    /// Two cancels released at 0.55 and 0.56: thresholds 0.6, 0.65 and 0.7 all get every file right.
    /// The nearest, 0.6, leaves a cancel 0.04 from the edge; 0.7 keeps every release at least 0.1
    /// away (0.65: 0.09), so robustness takes 0.7.
    @Test func robustnessPrefersTheSettingFartherFromTheDecisionEdges() throws {
        let tuning = Self.corpus([(0.80, true), (0.82, true), (0.55, false), (0.56, false)])
        let point = try SettingSearch(corpus: tuning).descend([Self.threshold], on: [0, 1, 2, 3])
        #expect(point.policy.progressThreshold == 0.7)
        let scores = [0.6, 0.65, 0.7].map { value in
            SearchScore(try! tuning.verdicts(of: Self.threshold.moved(.defaults, to: value), files: [0, 1, 2, 3])!, order: 0)
        }
        #expect(scores.allSatisfy { $0.wrong == 0 })
        #expect(scores.map { $0.robustness.first } == [40, 90, 100], "smallest margins in thousandths of the range")
    }

    /// A threshold that only one file needs cannot be shown to help on files it was not tuned on
    /// (held out, that file's fold never learns it); a family of files that need it can.
    @Test func aSettingMovesOnlyWhenItRaisesTheHeldOutAccuracy() throws {
        let right: [(Double, Bool)] = [(0.9, true), (0.85, true), (0.2, false), (0.15, false), (0.88, true), (0.1, false)]
        let single = Self.corpus(right + [(0.58, false)])
        let search = SettingSearch(corpus: single)
        var folds = CrossValidation.kFold(3).folds(of: Array(0..<7), in: Self.files(7))
        #expect(try search.select(folds: folds).free.isEmpty)
        #expect(try search.descend([Self.threshold], on: Array(0..<7)).policy.progressThreshold > 0.58,
                "on all files the search would move it")

        let family = Self.corpus(right + [(0.58, false), (0.6, false), (0.57, false), (0.59, false), (0.61, false)])
        folds = CrossValidation.kFold(3).folds(of: Array(0..<11), in: Self.files(11))
        let selection = try SettingSearch(corpus: family).select(folds: folds)
        #expect(selection.free.map(\.settingsKey) == ["policy.progressThreshold"])
        let step = try #require(selection.steps.first)
        #expect(step.after.correct > step.before.correct)
    }
}
