import Testing
import GestureCore
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

    @Test func eachPolicyReplaysAsAReplayUnderThatPolicyAlone() throws {
        let (device, events) = try Self.corpusFile("touchpad/pinch-in-quick-flick-01.evemu")
        for preset in CompletionPolicyPreset.allCases {
            var settings = LabSettings.default
            settings.policy = preset.policy
            var alone = try ReplayPipeline(device: device, transition: .pinchDismiss, settings: settings)
            var aloneSteps: [TransitionRecord] = []
            for event in events { alone.consume(event) { if case .transition(let s) = $0 { aloneSteps.append(s) } } }
            let aloneSummary = alone.finish { if case .transition(let s) = $0 { aloneSteps.append(s) } }
            var comparison = try PolicyComparison(device: device, transition: .pinchDismiss, settings: .default,
                                                  policies: [.init(preset)])
            var comparedSteps: [TransitionRecord] = []
            let collect: (Int, LabRecord) -> Void = { _, record in
                if case .transition(let step) = record { comparedSteps.append(step) }
            }
            for event in events { comparison.consume(event, emit: collect) }
            _ = comparison.finish(source: nil, emit: collect)
            #expect(comparison.summaries.first?.outcome == aloneSummary.outcome, "\(preset)")
            #expect(comparedSteps.map(\.progress) == aloneSteps.map(\.progress), "\(preset): the progress to overlay")
        }
    }
}
