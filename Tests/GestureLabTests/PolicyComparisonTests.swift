import Testing
import GestureKit
import InteractiveTransition
@testable import GestureLab

/// `PolicyComparison`: other policies' decisions for the same events, as a replay under each alone.
@Suite struct PolicyComparisonTests {
    static func corpusFile(_ name: String) throws -> (DeviceDescription, [InputEvent]) {
        let path = CorpusFixtureTests.corpusDirectory + "/" + name
        var source = try openRecording(path: path)
        var events: [InputEvent] = []
        while let event = try source.nextEvent() { events.append(event) }
        return (source.device, events)
    }

    @Test func decideMatchesAReplayUnderThatPolicy() throws {
        let (device, events) = try Self.corpusFile("touchpad/pinch-in-quick-flick-01.evemu")
        for preset in CompletionPolicyPreset.allCases {
            var settings = LabSettings.default
            settings.policy = preset.policy
            var alone = try ReplayPipeline(device: device, transition: .pinchDismiss, settings: settings)
            var aloneSteps: [TransitionRecord] = []
            for event in events { alone.consume(event) { if case .transition(let s) = $0 { aloneSteps.append(s) } } }
            let aloneSummary = alone.finish { if case .transition(let s) = $0 { aloneSteps.append(s) } }
            let decided = try PolicyComparison.decide(events: events, device: device, transition: .pinchDismiss,
                                                      settings: .default, policy: .init(preset))
            #expect(decided.summary.outcome == aloneSummary.outcome, "\(preset)")
            #expect(decided.steps.map(\.progress) == aloneSteps.map(\.progress), "\(preset): the progress to overlay")
        }
    }
}
