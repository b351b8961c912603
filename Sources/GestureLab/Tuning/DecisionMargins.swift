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
/// `margins(of:)` is the only function the tuner calls (`ReleaseFeatures.verdict` in the search,
/// `Tuner.evaluate` for the report). The margins are the ones every output prints: the recognizer
/// rule's (`GestureDecision.margin(in:)`, which leaves out a value at its threshold by construction,
/// such as a timer that fired on the first frame past its timeout) and the release policy's deciding
/// rule (`CompletionDecision.margin(input:)`), each normalized by its setting's usual range.
enum DecisionMargins {
    static func margins(of file: FileDecisions) -> [DecisionMargin] {
        var margins: [DecisionMargin] = []
        for decision in file.recognizer {
            if let margin = decision.margin(in: file.configuration) { margins.append(margin) }
        }
        let input: CompletionInput = file.configuration.device.deviceClass == .touchscreen ? .touchscreen : .touchpad
        for release in file.releases {
            if let margin = release.margin(input: input) { margins.append(margin) }
        }
        return margins
    }
}
