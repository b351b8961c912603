import GestureKit
import InteractiveTransition

/// A recording replayed for the viewer: the pipeline's records as viewer entries and, with a
/// compared policy, that policy's `PolicyComparison` replay fed the same events in the same pass
/// (so a file, or a pipe, is read once) whose transition steps become the ghost's.
public struct ViewerReplay {
    public private(set) var pipeline: ReplayPipeline
    private var recorder: ViewerRecorder
    private var comparison: PolicyComparison?
    private var comparedRecorder: ViewerRecorder?
    public let comparedPolicy: (name: String, policy: CompletionPolicy)?
    public private(set) var entries: [ViewerEntry] = []

    public init(device: DeviceDescription, transition: TransitionName, settings: LabSettings,
                compare: (name: String, policy: CompletionPolicy)? = nil) throws {
        pipeline = try ReplayPipeline(device: device, transition: transition, settings: settings, recordsFrames: true)
        pipeline.recordsStateChanges = true  // the touches the recognizer leaves out (thumbs)
        recorder = ViewerRecorder(spec: pipeline.driver.spec, policy: settings.policy)
        comparedPolicy = compare
        if let compare {
            comparison = try PolicyComparison(device: device, transition: transition, settings: settings,
                                              policies: [.init(name: compare.name, policy: compare.policy)])
            comparedRecorder = ViewerRecorder(spec: pipeline.driver.spec, policy: compare.policy, compared: true)
        }
    }

    public mutating func consume(_ event: InputEvent) {
        pipeline.consume(event) { record in
            if let entry = recorder.entry(for: record) { entries.append(entry) }
        }
        comparison?.consume(event) { _, record in
            if let entry = comparedRecorder!.entry(for: record) { entries.append(entry) }
        }
    }

    /// Ends both replays (see `ReplayPipeline.finish`) and returns the page's document.
    public mutating func finish(title: String, source: String, policyName: String) -> ViewerDocument {
        let summary = pipeline.finish(source: source) { record in
            if let entry = recorder.entry(for: record) { entries.append(entry) }
        }
        _ = comparison?.finish(source: source) { _, record in
            if let entry = comparedRecorder!.entry(for: record) { entries.append(entry) }
        }
        let comparedSummary = comparison?.summaries.first
        return ViewerDocument(live: false, title: title, source: source, device: pipeline.device,
                              settings: pipeline.settings, spec: pipeline.driver.spec, policyName: policyName,
                              compare: comparedPolicy, entries: entries, summary: summary, compareSummary: comparedSummary)
    }
}
