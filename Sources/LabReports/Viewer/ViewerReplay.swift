import GestureCore
import GestureLab
import InteractiveTransition

/// A recording replayed for the viewer: `ReplayRun`'s records as viewer entries and, with a
/// compared policy, that policy's `PolicyComparison` replay fed the same events in the same pass
/// (so a file, or a pipe, is read once) whose transition steps become the ghost's.
package struct ViewerReplay {
    private var replay: ReplayRun
    private var recorder: ViewerRecorder
    private var comparison: PolicyComparison?
    private var comparedRecorder: ViewerRecorder?
    package let comparedPolicy: (name: String, policy: CompletionPolicy)?
    /// The recognizer's thresholds the replay decides by (what a decision's margin is measured against).
    package var recognizerConfiguration: GestureRecognizerConfiguration { replay.pipeline.recognizerConfiguration }

    package init(device: DeviceDescription, transition: TransitionName, settings: LabSettings,
                compare: (name: String, policy: CompletionPolicy)? = nil) throws {
        // Frames for the fingers, state changes for the touches the recognizer leaves out (thumbs).
        replay = try ReplayRun(device: device, transition: transition, settings: settings, recordsFrames: true,
                               recordsStateChanges: true)
        replay.measuresMargins = true
        recorder = ViewerRecorder(spec: replay.pipeline.driver.spec, policy: settings.policy)
        comparedPolicy = compare
        if let compare {
            comparison = try PolicyComparison(device: device, transition: transition, settings: settings,
                                              policies: [.init(name: compare.name, policy: compare.policy)])
            comparison?.measuresMargins = true
            comparedRecorder = ViewerRecorder(spec: replay.pipeline.driver.spec, policy: compare.policy, compared: true)
        }
    }

    /// Replays `source` as `ReplayRun.run` does (to its end, or to the event that fails) and returns
    /// the page's document with the run's result (its summary, and how it ended); `source` names it
    /// in the document.
    /// `tap` sees every record of the main replay too (the gesture tools' stream, `view --tool`).
    package mutating func run<Source: InputEventSource>(_ source: inout Source, title: String, source name: String,
                                                       policyName: String, tap: ((LabRecord) -> Void)? = nil)
        -> (document: ViewerDocument, result: ReplayRun.Result) {
        var entries = ThinnedEntries()
        var recorder = recorder, comparison = comparison, comparedRecorder = comparedRecorder
        let result = replay.run(&source, name: name, afterEvent: { event in
            comparison?.consume(event) { _, record in
                if let entry = comparedRecorder!.entry(for: record) { entries.append(entry) }
            }
        }, emit: { record in
            tap?(record)
            if let entry = recorder.entry(for: record) { entries.append(entry) }
        })
        _ = comparison?.finish(source: name) { _, record in
            if let entry = comparedRecorder!.entry(for: record) { entries.append(entry) }
        }
        (self.recorder, self.comparison, self.comparedRecorder) = (recorder, comparison, comparedRecorder)
        let pipeline = replay.pipeline
        let document = ViewerDocument(live: false, title: title, source: name, device: pipeline.device,
                                      settings: pipeline.settings, spec: pipeline.driver.spec, policyName: policyName,
                                      compare: comparedPolicy, entries: entries.entries, summary: result.summary,
                                      compareSummary: comparison?.summaries.first)
        var thinned = document
        thinned.frameStride = entries.frameStride > 1 ? entries.frameStride : nil
        thinned.gestureUpdateStride = entries.gestureUpdateStride > 1 ? entries.gestureUpdateStride : nil
        thinned.transitionStepStride = entries.transitionStepStride > 1 ? entries.transitionStepStride : nil
        thinned.comparedStepStride = entries.comparedStepStride > 1 ? entries.comparedStepStride : nil
        thinned.gestureStride = entries.gestureStride > 1 ? entries.gestureStride : nil
        thinned.attemptStride = entries.attemptStride > 1 ? entries.attemptStride : nil
        thinned.comparedAttemptStride = entries.comparedAttemptStride > 1 ? entries.comparedAttemptStride : nil
        return (thinned, result)
    }
}
