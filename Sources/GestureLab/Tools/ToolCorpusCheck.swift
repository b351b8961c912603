import GestureCore
import GestureKit
import GestureTools

/// One corpus file scored under a gesture tool.
package struct ToolCheckResult: Sendable {
    package enum Status: String, Sendable, Encodable {
        case match, mismatch
        /// The tool reads another kind of device: nothing to score.
        case notApplicable = "not-applicable"
        case unreadable
    }

    package var entry: CorpusEntry
    package var status: Status
    package var expected: [ToolExpectation]
    /// What the tool fired, as compared (`ToolLabels.compared`).
    package var fired: [FiredGesture]
    package var error: (any Error & Sendable)?
    /// The smallest margin of a matching file's gestures, when it is within a tenth of its setting's
    /// usual range: a small change of that setting could flip the file.
    package var fragile: FiredGesture?
}

/// Scores a labelled corpus under a tool: each file replayed by pinchlab's recognizer standing in
/// for libinput, its stream judged by the tool, and what the tool fired compared with the label
/// in the tool's words (`ToolLabels`), in order.
package enum ToolCorpusCheck {
    /// Below this normalized margin a matching file is fragile (as `check` calls its own decisions).
    static let fragileMargin = 0.1

    package static func run(_ manifest: CorpusManifest, at location: CorpusLocation, settings: LabSettings, tool: GestureToolSettings,
                           units: LibinputUnits) throws -> [ToolCheckResult] {
        try parallelMap(manifest.entries) { entry in
            do {
                var source: any InputEventSource = try location.openRecording(of: entry)
                let stream = try ToolStreamBuilder.replay(&source, entry: entry, settings: settings, units: units).stream
                return score(entry, verdict: tool.judge(stream), device: stream.device.kind)
            } catch let error as RecordingError {
                return ToolCheckResult(entry: entry, status: .unreadable, expected: [], fired: [], error: error)
            }
        }
    }

    static func score(_ entry: CorpusEntry, verdict: ToolVerdict, device kind: ToolDevice.Kind) -> ToolCheckResult {
        let expected = entry.expect.compactMap { ToolLabels.expectation($0, tool: verdict.name, device: kind) }
        let fired = ToolLabels.compared(verdict.fired, tool: verdict.name)
        guard verdict.note == nil else {
            return ToolCheckResult(entry: entry, status: .notApplicable, expected: expected, fired: fired)
        }
        let matches = expected.count == fired.count && zip(expected, fired).allSatisfy { $0.admits($1) }
        var result = ToolCheckResult(entry: entry, status: matches ? .match : .mismatch, expected: expected, fired: fired)
        if matches {
            result.fragile = fired.filter { ($0.margin?.normalized ?? 1) < fragileMargin }
                .min { ($0.margin?.normalized ?? 1) < ($1.margin?.normalized ?? 1) }
        }
        return result
    }
}
