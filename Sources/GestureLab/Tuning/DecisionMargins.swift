import GestureKit
import InteractiveTransition
import SettingsTable

/// One replay of a corpus file as far as its decisions go: what the tuner's robustness is measured on.
struct FileDecisions {
    /// The recognizer's decisions that began, ended or cancelled a gesture, in order.
    var recognizer: [GestureDecision]
    /// The recognizer settings those decisions were made with (the device's class names the section).
    var configuration: GestureRecognizerConfiguration
    /// The policy's decision at each release, in order (a cancelled gesture is no release).
    var releases: [CompletionDecision]
    var policy: CompletionPolicy
}

/// How far each decision of a replay was from going the other way: the tuner's robustness is the
/// smallest normalized margin over the decisions of the files it gets right.
///
/// This is the seam between the tuner and the margins of #22. `margins(of:)` is the only function
/// the tuner calls (`ReleaseFeatures.verdict` in the search, `Tuner.evaluate` for the report); the
/// two it calls are stopgaps made from what the decisions carry today. MERGE: when the recognizer's
/// rule margins (issue-22-recognizer) and the release policy's (issue-22-release) land, their
/// functions replace the two calls in `margins(of:)` (and the stopgaps are deleted); nothing else in
/// the tuner changes. Whatever replaces them should leave out a value that is at its threshold by
/// construction: a timer fires on the first frame (or at the instant) past its timeout, and a
/// motion rule on the first frame past its distance, so "waited vs timeout" and "moved vs the
/// distance that triggered" are under one frame whatever the fingers did, and would give every
/// candidate the same frame-sized smallest margin.
enum DecisionMargins {
    static func margins(of file: FileDecisions) -> [DecisionMargin] {
        let section = file.configuration.device.deviceClass == .touchscreen ? "touchscreenRecognizer" : "touchpadRecognizer"
        var margins: [DecisionMargin] = []
        for decision in file.recognizer {
            margins += recognizerMargins(decision, configuration: file.configuration, section: section)
        }
        for release in file.releases {
            if let margin = releaseMargin(release) { margins.append(margin) }
        }
        return margins
    }

    /// Stopgap until the recognizer's own margins: the evidence's value/limit pairs that say *what*
    /// the fingers did (how far apart their directions were, how far apart side by side, how still
    /// a finger stayed), not *when* a threshold was crossed. The unit and the scale (the width of
    /// the valid range) are the setting's, from the recognizer's table.
    private static func recognizerMargins(_ decision: GestureDecision, configuration: GestureRecognizerConfiguration,
                                          section: String) -> [DecisionMargin] {
        let e = decision.evidence
        var margins: [DecisionMargin] = []
        /// `threshold` nil: the configuration's value of the setting (the evidence does not repeat it).
        func add(_ value: Double?, _ threshold: Double?, _ key: String) {
            guard let value, value.isFinite, let setting = GestureRecognizerConfiguration.settings.setting(forKey: key) else { return }
            let limit = threshold ?? setting.number(in: configuration)
            guard limit.isFinite else { return }
            margins.append(DecisionMargin(value: value, threshold: limit, key: section + "." + key, unit: setting.unit,
                                          scale: setting.range.map { $0.upper - $0.lower }))
        }
        switch decision.rule {
        case .opposingFingers: add(e.angleDegrees, e.angleLimitDegrees, "pinchOpposingMinimumAngleDegrees")
        case .oneSidedPinch: add(e.angleDegrees, e.angleLimitDegrees, "oneSidedPinchMaximumAngleDegrees")
        case .sideBySideTimeout:
            add(e.horizontalSpreadMM, nil, "scrollMaxHorizontalSpreadMM")
            add(e.verticalSpreadMM, nil, "scrollMaxVerticalSpreadMM")
        case .holdTimeout: add(e.movedMM, e.moveLimitMM, "holdMaxMoveMM")
        // The finger that rested stayed under the distance the others moved past.
        case .restingFinger: add([e.movedMM, e.otherMovedMM].compactMap { $0 }.min(), e.moveLimitMM, "minMoveMM")
        case .touchJump: add(e.jumpMM, e.moveLimitMM, "jumpDistanceMM")
        case .edgeScroll: add(e.fromRightMM ?? e.fromBottomMM, e.edgeWidthMM, "edgeScrollWidthMM")
        default: break
        }
        return margins
    }

    /// Stopgap until the release policy's own margins: when the threshold decided (progress or
    /// projected progress against `progressThreshold`), how far the progress was from it. A flick
    /// is decided by speed alone; its margin (the velocity that would have flipped it) is the
    /// release developer's.
    private static func releaseMargin(_ decision: CompletionDecision) -> DecisionMargin? {
        let progress: Double, threshold: Double
        switch decision.reason {
        case .projected(let projected, let t): (progress, threshold) = (projected, t)
        case .progress(let p, let t): (progress, threshold) = (p, t)
        default: return nil
        }
        guard let setting = CompletionPolicy.settings.setting(forKey: "progressThreshold"), let range = setting.range else { return nil }
        return DecisionMargin(value: progress, threshold: threshold, key: "policy.progressThreshold", unit: "progress",
                              scale: range.upper - range.lower)
    }
}
