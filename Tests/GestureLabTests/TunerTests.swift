import GestureKit
import InteractiveTransition
import Testing
@testable import GestureLab

/// The tuner's search on a slice of the shipped corpus (every third file, both device classes).
@Suite struct TunerTests {
    static let slice: [LoadedRecording] = {
        let all = (try? LoadedRecording.loadCorpus(directory: CorpusFixtureTests.corpusDirectory)) ?? []
        return all.enumerated().filter { $0.offset % 3 == 0 }.map(\.element)
    }()

    @Test func theBestIsNoWorseThanTheDefaultsAndTheSearchIsRepeatable() throws {
        try #require(Self.slice.count >= 12)
        let tuner = Tuner(budget: 40)
        let report = try tuner.run(Self.slice)
        #expect(report.best.correct >= report.defaults.correct)
        #expect(report.best.correct == report.predictedCorrect, "the shortcut agrees with the full replay")
        #expect(report.seedRule.files == Self.slice.count)
        let again = try tuner.run(Self.slice)
        #expect(again.best.settings == report.best.settings)
    }

    /// Coordinate descent keeps a threshold away from its default only because the move paid: each
    /// changed threshold put back (the rest of the best settings as they are) scores worse.
    @Test func everyChangedThresholdEarnsItsPlace() throws {
        let report = try Tuner(budget: 40).run(Self.slice)
        let policy = report.best.settings.policy
        for deviceClass in [DeviceClass.touchpad, .touchscreen] {
            let files = Self.slice.filter { ($0.device.deviceClass == .touchscreen) == (deviceClass == .touchscreen) }
            let base: GestureRecognizerConfiguration = deviceClass == .touchscreen ? .touchscreen : .default
            let chosen = (deviceClass == .touchscreen ? report.best.settings.touchscreenRecognizer
                                                      : report.best.settings.touchpadRecognizer) ?? base
            func key(_ configuration: GestureRecognizerConfiguration) throws -> Tuner.ScoreKey {
                var settings = LabSettings.default
                settings.touchpadRecognizer = configuration
                settings.touchscreenRecognizer = configuration
                let features = try files.map { try ReleaseFeatures.measure($0, settings: settings) }
                let evaluated = Tuner.Evaluated(configuration: configuration, features: features,
                                                changes: TunableThreshold.changes(from: base, to: configuration))
                return Tuner.score(evaluated, policy: policy, order: 0)
            }
            let chosenKey = try key(chosen)
            for threshold in TunableThreshold.all where threshold.read(chosen) != threshold.read(base) {
                var reverted = chosen
                threshold.write(&reverted, threshold.read(base))
                #expect(chosenKey < (try key(reverted)), "\(deviceClass): \(threshold.name) changed for nothing")
            }
        }
    }

    /// Every file is held out exactly once, and the folds reuse the full search's replays: the
    /// memoized replays are fewer than the searches would run one by one.
    @Test func crossValidationHoldsEveryFileOutOnceAndReusesReplays() throws {
        let report = try Tuner(budget: 12).run(Self.slice, crossValidation: .kFold(3))
        let cv = try #require(report.crossValidation)
        #expect(cv.perFold.count == 3)
        #expect(cv.perFold.map(\.heldOutFiles).reduce(0, +) == Self.slice.count)
        #expect(cv.perFold.allSatisfy { $0.trainingFiles + $0.heldOutFiles == Self.slice.count })
        let folds = try CrossValidation.kFold(3).folds(of: Self.slice)
        #expect(Set(folds.flatMap(\.heldOut)) == Set(Self.slice.indices))
        #expect(report.replays < 4 * report.recognizerCandidates * Self.slice.count, "folds reuse the memoized replays")
        let again = try Tuner(budget: 12).run(Self.slice, crossValidation: .kFold(3))
        #expect(again.crossValidation?.heldOutCorrect == cv.heldOutCorrect)
    }

    @Test func neighboursMoveExactlyOneThreshold() {
        let base = GestureRecognizerConfiguration.default
        let neighbours = TunableThreshold.neighbours(of: base)
        #expect(neighbours.count == TunableThreshold.all.map { t in t.values.filter { $0 != t.read(base) }.count }.reduce(0, +))
        #expect(neighbours.allSatisfy { TunableThreshold.changes(from: base, to: $0) == 1 })
        #expect(Set(neighbours).count == neighbours.count)
    }
}
