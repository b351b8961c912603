import Foundation
import GestureCore
import GestureKit
import InteractiveTransition
import Testing
@testable import GestureLab
import LabReports
import PinchlabTestSupport

/// Issue #22's "done when": on every recording under `Fixtures/` and `../shared/recordings/`, under
/// every transition, each release's `flip.threshold` is exact. The library pipeline runs in-process
/// here (the same `ReplayRun` `replay` runs; about 100 files x 3 transitions, and two more replays per
/// release): replayed with the threshold 0.005 past it the release decides the other way, 0.005
/// short of it the same way; where there is none, neither end of the threshold's range flips it.
/// `ReleaseMarginCLITests` does the same through the command line on a sample.
@Suite struct ReleaseMarginExactnessTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let shared = root.deletingLastPathComponent().appendingPathComponent("shared/recordings")

    /// Every recording under `directory` (`.evemu`, `.yml`).
    static func recordings(under directory: URL) -> [String] {
        let walk = FileManager.default.enumerator(atPath: directory.path)?.compactMap { $0 as? String } ?? []
        return walk.filter { $0.hasSuffix(".evemu") || $0.hasSuffix(".yml") }.map { directory.appendingPathComponent($0).path }.sorted()
    }

    /// The fixtures' recordings.
    static let fixtureRecordings = recordings(under: root.appendingPathComponent("Fixtures"))
    /// ../shared/recordings's (tests that read them need `.needs(.sharedRecordings)`).
    static var sharedRecordings: [String] { recordings(under: shared) }

    /// The events before the first bad one (a file cut mid-frame replays up to it, as `replay` does).
    static func events(_ path: String) throws -> (DeviceDescription, [InputEvent]) {
        var source = try openRecording(path: path)
        var events: [InputEvent] = []
        do { while let event = try source.nextEvent() { events.append(event) } } catch {}
        return (source.device, events)
    }

    static func replay(_ device: DeviceDescription, _ events: [InputEvent], _ transition: TransitionName,
                       policy preset: CompletionPolicyPreset, threshold: Double? = nil) throws -> (summary: LabSummary, explained: [Int]) {
        var settings = LabSettings.default
        settings.policy = preset.policy
        if let threshold {
            let policy = settings.policy
            settings.policy = try CompletionPolicy(progressThreshold: threshold, decelerationRatePerMS: policy.decelerationRatePerMS,
                                                   flickVelocity: policy.flickVelocity)
        }
        var run = try ReplayRun(device: device, transition: transition, settings: settings)
        run.measuresMargins = true
        var source = EventList(device: device, events: events)
        var explained: [Int] = []
        let result = run.run(&source, name: nil) { record in
            if case .releaseMargins(let m) = record, m.margins.sentence.contains(" would have ") { explained.append(m.trial) }
        }
        return (result.summary, explained)
    }

    @Test func theCorpusIsThere() {
        #expect(Self.fixtureRecordings.filter { $0.contains("/Fixtures/corpus/") }.count >= 49)
    }

    @Test(.needs(.sharedRecordings)) func theSharedRecordingsAreThere() {
        #expect(Self.sharedRecordings.count >= 42)
    }

    /// pinchlab's own presets: `--threshold` sets their threshold (`--policy uikit-seed --threshold T`).
    @Test(arguments: [CompletionPolicyPreset.default, .fluid, .uikitSeed])
    func everyReleasesFlipThresholdIsExact(policy: CompletionPolicyPreset) throws {
        let (releases, withThreshold) = try Self.expectEveryFlipThresholdExact(Self.fixtureRecordings, policy: policy)
        // 82 releases, 45 to 50 of them flipped by a threshold (by policy).
        #expect(releases >= 80 && withThreshold >= 40, "\(releases) releases, \(withThreshold) with a threshold")
    }

    @Test(.needs(.sharedRecordings), arguments: [CompletionPolicyPreset.default, .fluid, .uikitSeed])
    func everyReleasesFlipThresholdIsExactOnTheSharedRecordings(policy: CompletionPolicyPreset) throws {
        let (releases, withThreshold) = try Self.expectEveryFlipThresholdExact(Self.sharedRecordings, policy: policy)
        // 12 releases, 8 of them flipped by a threshold.
        #expect(releases >= 10 && withThreshold >= 6, "\(releases) releases, \(withThreshold) with a threshold")
    }

    /// Each release of each of `paths` under each transition: the numbers of releases and of those
    /// with a flip threshold.
    static func expectEveryFlipThresholdExact(_ paths: [String], policy: CompletionPolicyPreset) throws -> (releases: Int, withThreshold: Int) {
        var releases = 0, withThreshold = 0
        for path in paths {
            let (device, events) = try Self.events(path)
            for transition in TransitionName.allCases {
                let (summary, explained) = try Self.replay(device, events, transition, policy: policy)
                let name = "\((path as NSString).lastPathComponent) \(transition) \(policy.rawValue)"
                for (index, trial) in summary.trials.enumerated() {
                    guard let decision = trial.decision else { continue }
                    releases += 1
                    #expect(explained.contains(index), "\(name) attempt \(index + 1): no \"would have\" sentence")
                    let flip = try #require(trial.flip, "\(name) attempt \(index + 1): released without a flip")
                    #expect(flip.finishes == decision.finish)
                    // Either side of the flip (or both ends of the range when there is none): the
                    // same release, as the run with that threshold decides it.
                    let probes: [(threshold: Double, flips: Bool)]
                    if let point = flip.flip.threshold {
                        withThreshold += 1
                        let past = point.otherSide == .above ? point.value + 0.005 : point.value - 0.005
                        let short = point.otherSide == .above ? point.value - 0.005 : point.value + 0.005
                        probes = [(past, true), (short, false)].filter { (0...1).contains($0.threshold) }
                    } else {
                        probes = [(0, false), (1, false)]
                    }
                    for probe in probes {
                        let other = try Self.replay(device, events, transition, policy: policy, threshold: probe.threshold).summary
                        guard index < other.trials.count, other.trials[index].begin == trial.begin,
                              other.trials[index].release == trial.release, let otherDecision = other.trials[index].decision else {
                            Issue.record("\(name) attempt \(index + 1): with threshold \(probe.threshold) the attempts differ before it")
                            continue
                        }
                        #expect((otherDecision.finish != decision.finish) == probe.flips,
                                "\(name) attempt \(index + 1) at \(decision.progress), flip \(flip.flip.threshold.map { "\($0)" } ?? "none"): threshold \(probe.threshold) \(probe.flips ? "should flip" : "should keep") it")
                    }
                }
            }
        }
        return (releases, withThreshold)
    }
}
