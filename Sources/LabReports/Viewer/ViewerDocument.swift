import GestureCore
import GestureLab
import InteractiveTransition

/// Everything a viewer page shows, as the JSON embedded in it (or, live, sent to it first): the
/// recording's device, the transition's container and end scenes, the policies, and the entries.
package struct ViewerDocument: Sendable, Encodable {
    package static let formatVersion = 1

    package struct Device: Sendable, Encodable {
        package var name: String
        package var `class`: String
        package var widthMM: Double
        package var heightMM: Double
        package var resolutionEstimated: Bool
    }

    package struct Transition: Sendable, Encodable {
        package var name: String
        package var role: String
        package var container: [Double]
        /// The scene at progress 0 and 1, as entries carry it (see `ViewerEntry`).
        package var fromScene: [Double]
        package var toScene: [Double]
        /// Names of the scene's extras, in the order entries carry them.
        package var extras: [String]
    }

    package struct Policy: Sendable, Encodable {
        /// `default`, `seed`, `fluid`, or `configured` (from --config or --threshold).
        package var name: String
        package var text: String
        package var threshold: Double
    }

    package var format = ViewerDocument.formatVersion
    /// The page receives its entries from `events` (a live server) instead of this document.
    package var live: Bool
    /// A live page offers a dump button (`live`'s flight recorder is on); nil elsewhere.
    package var dumps: Bool?
    package var title: String
    package var source: String
    package var device: Device
    /// The touchpad's thumb band along the bottom edge (mm), when the recognizer keeps one.
    package var thumbBandMM: Double?
    package var transition: Transition
    package var policy: Policy
    package var compare: Policy?
    package var entries: [ViewerEntry]
    /// The replay's summary and the compared policy's, written by hand (`summaryMembers`): not in
    /// `CodingKeys`, as a summary has no `Encodable` form.
    package var summary: LabSummary?
    package var compareSummary: LabSummary?
    /// A very long recording's frames are thinned for the page: 1 in this many is kept (nil: all).
    package var frameStride: Int?
    /// ... and 1 in this many of a gesture's updates (its begin and end are all kept; nil: all).
    package var gestureUpdateStride: Int?
    /// ... and 1 in this many transition steps that only move the progress on (every attempt's
    /// first step, change of state, release and end are all kept; nil: all), the compared
    /// policy's counted apart.
    package var transitionStepStride: Int?
    package var comparedStepStride: Int?
    /// ... and 1 in this many gestures, and attempts of each replay, kept whole (the others left
    /// out with all their entries; nil: all).
    package var gestureStride: Int?
    package var attemptStride: Int?
    package var comparedAttemptStride: Int?
    /// The gesture tools judged (`view --tool`), by name, their firings among `entries`; nil: none.
    package var tools: [String]?

    package init(live: Bool, title: String, source: String, device description: DeviceDescription,
                settings: LabSettings, spec: TransitionSpec, policyName: String, compare: (name: String, policy: CompletionPolicy)?,
                entries: [ViewerEntry] = [], summary: LabSummary? = nil, compareSummary: LabSummary? = nil) {
        self.live = live
        self.title = title
        self.source = source
        let geometry = description.geometry
        device = Device(name: description.name, class: description.deviceClass.rawValue,
                        widthMM: geometry?.widthMM ?? 100, heightMM: geometry?.heightMM ?? 60,
                        resolutionEstimated: geometry?.isEstimated ?? true)
        let recognizer = settings.recognizerConfiguration(for: description)
        thumbBandMM = description.deviceClass == .touchpad && recognizer.suppressRestingThumb
            ? recognizer.restingThumbAreaMM : nil
        transition = Transition(
            name: spec.name, role: spec.role.rawValue,
            container: [spec.containerBounds.x, spec.containerBounds.y, spec.containerBounds.width, spec.containerBounds.height],
            fromScene: Self.numbers(spec.fromState), toScene: Self.numbers(spec.toState), extras: spec.fromState.extraNames)
        policy = Policy(name: policyName, text: settings.policy.description, threshold: settings.policy.progressThreshold)
        self.compare = compare.map { Policy(name: $0.name, text: $0.policy.description, threshold: $0.policy.progressThreshold) }
        self.entries = entries
        self.summary = summary
        self.compareSummary = compareSummary
    }

    /// Every key but the summaries' (`summaryMembers` writes them); `ViewerTests` holds the two
    /// lists to the stored properties.
    enum CodingKeys: String, CodingKey, CaseIterable {
        case format, live, dumps, title, source, device, thumbBandMM, transition, policy, compare, entries, frameStride,
             gestureUpdateStride, transitionStepStride, comparedStepStride, gestureStride, attemptStride, comparedAttemptStride,
             tools
    }

    /// `"summary"` and `"compareSummary"` as members for `JSONLineBytes.inserting`, written as the
    /// summary line is (`LabSummary.appendJSON`) but with invisible characters as JSONEncoder leaves
    /// them, like the rest of the document (`ViewerPage` escapes what the page needs).
    func summaryMembers() throws -> [(key: String, json: [UInt8])] {
        try [("summary", summary), ("compareSummary", compareSummary)].compactMap { key, summary in
            guard let summary else { return nil }
            var out = JSONLineBytes(reservingCapacity: 1 << 16)
            out.escapesInvisibles = false
            try summary.appendJSON(to: &out)
            return (key, out.bytes)
        }
    }

    static func numbers(_ scene: SceneState) -> [Double] {
        [scene.frame.x, scene.frame.y, scene.frame.width, scene.frame.height, scene.cornerRadius, scene.alpha, scene.scale]
            + scene.extras.map(\.value)
    }
}
