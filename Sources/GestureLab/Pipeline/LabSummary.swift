import GestureCore
import InteractiveTransition

/// The last line of a replay (`"type": "summary"`): what was recognized and how the transition ended.
/// Written by hand (`appendJSON`), its one field list as JSON; no `Encodable` form.
public struct LabSummary: Sendable {
    /// A summary lists at most this many gestures and trials (the counts cover all of them), so a
    /// replay of millions of events runs in memory that does not grow with the file.
    package static let maximumListed = 1000

    package struct Device: Sendable {
        package var name: String
        package var `class`: String
        package var widthMM: Double?
        package var heightMM: Double?
        package var resolutionEstimated: Bool
        package var slots: Int
    }

    package struct Gesture: Sendable, Hashable {
        package var kind: GestureKind
        package var fingers: Int
        package var begin: Double
        package var end: Double
        /// `ended` or `cancelled`.
        package var ended: GestureState
        /// Pinch: the final scale and rotation (degrees).
        package var scale: Double?
        package var rotation: Double?
        /// Pan: the final translation (mm).
        package var translation: PointMM?
        /// The rule that ended or cancelled it (`all-lifted`, `finger-count-change`, ...).
        package var rule: GestureRule? = nil
        /// Hold: when its fingers came down (or last changed count); it began a hold timeout later.
        package var fingersDown: Double? = nil
        /// The decision that began it, with its evidence (not in the JSON summary: the began line
        /// has it): what its margin is made from (`GestureDecision.margin(in:)` with `recognizer`).
        var beganDecision: GestureDecision? = nil
    }

    /// How many trials ended each way (all of them, also those past `maximumListed`).
    public struct Outcomes: Sendable, Hashable {
        /// Trials that finished.
        public var finished: Int
        /// Trials that cancelled.
        public var cancelled: Int
        /// Counts from their two numbers.
        public init(finished: Int, cancelled: Int) { self.finished = finished; self.cancelled = cancelled }
    }

    /// What the fingers did, gesture or not: how many contacts touched down, the most fingers down
    /// at once, and for how long any finger was down. A session of pointer motion that no gesture
    /// explains is still described.
    package struct Touches: Sendable, Hashable {
        package var count = 0
        package var maxFingers = 0
        package var seconds = 0.0
        /// Steps from a frame with fingers down to the next frame (the lifting one included, a
        /// step of no time left out): what `seconds` is made of, frame by frame. Not written.
        var frameIntervals = 0

        /// The mean time from one frame to the next while fingers were down, in ms; nil without a step.
        var frameIntervalMS: Double? {
            frameIntervals > 0 && seconds > 0 ? seconds * 1000 / Double(frameIntervals) : nil
        }
    }

    /// The recording's name, as given to the run.
    public var source: String?
    package var device: Device
    /// The transition the gestures drove.
    public var transition: TransitionName
    /// The first trial's outcome: `finished`, `cancelled`, or `none` when no gesture started it.
    /// `outcomes` counts every trial.
    public var outcome: TrialSummary.Outcome
    /// Why the first trial's policy decided as it did (or why its transition was cancelled).
    public var reason: TrialReason?
    /// The first trial's release figures and verdict.
    public var decision: TrialSummary.Decision?
    package var gestures: [Gesture]
    /// How many gestures the recognizer recognized.
    public var gestureCount: Int
    /// The first `maximumListed` trials, in order.
    public var trials: [TrialSummary]
    /// How many trials there were, listed or not.
    public var trialCount: Int
    /// How many trials finished and how many cancelled.
    public var outcomes: Outcomes
    /// Set when no gesture drove the transition but some would drive another one.
    package var hint: TransitionHint?
    /// How many evdev events were read.
    public var events: Int
    /// How many touch frames they made.
    public var frames: Int
    /// Seconds from the first event to the last.
    public var duration: Double
    /// Seconds from the first event to the first finger down.
    package var firstTouch: Double?
    package var touches = Touches()
    package var policy: CompletionPolicy
    /// Why the recording could not be read to its end (a `RecordingError`: `FILE:LINE: expected
    /// ...`); nil when it was. The summary then covers the events before the bad one.
    public var error: (any Error)?
    /// (state, input) pairs the recognizer did not expect (`TouchGestureRecognizer.bugCount`):
    /// 0 unless pinchlab has a bug. Printed only when not 0.
    package var recognizerBugs = 0
    /// The thresholds the recognizer decided with (`ReplayPipeline.recognizerConfiguration`): what
    /// the decisions' margins are measured against. Not printed.
    package var recognizer: GestureRecognizerConfiguration? = nil
}

extension LabSummary {
    /// The gesture a person would say was recognized: among those that ended normally the one that
    /// ended last; if every gesture was cancelled, the longest. A scroll cancelled so that a pinch
    /// could begin does not count, nor does a hold (it drives nothing).
    var primaryGesture: Gesture? {
        let moving = gestures.filter { $0.kind != .hold }
        let ended = moving.filter { $0.ended == .ended }
        if let last = ended.max(by: { $0.end < $1.end }) { return last }
        return moving.max { ($0.end - $0.begin) < ($1.end - $1.begin) }
    }
}

/// A recording whose gestures never drove the chosen transition, though they would drive another:
/// "2 pans, no pinch" and the transition that follows pans. The command line turns it into advice.
package struct TransitionHint: Sendable, Hashable, CustomStringConvertible {
    /// Gestures recognized, by kind (all of them).
    package var pinches: Int
    package var pans: Int
    /// The transition the chosen one was (it follows the other kind).
    package var chosen: TransitionName
    /// A transition these gestures would drive.
    package var suggested: TransitionName

    /// The hint for a run of `chosen` that never started a trial, or nil when none applies.
    package static func make(chosen: TransitionName, trialCount: Int, pinches: Int, pans: Int) -> TransitionHint? {
        guard trialCount == 0 else { return nil }
        let kind = TransitionBinding(chosen).kind
        let other: GestureKind = kind == .pinch ? .pan : .pinch
        guard (other == .pan ? pans : pinches) > 0,
              let suggested = TransitionBinding.transitions(drivenBy: other).first else { return nil }
        return TransitionHint(pinches: pinches, pans: pans, chosen: chosen, suggested: suggested)
    }

    /// "2 pans, no pinch".
    package var description: String {
        func count(_ n: Int, _ noun: String, _ plural: String) -> String { n == 0 ? "no \(noun)" : "\(n) \(n == 1 ? noun : plural)" }
        let pinchText = count(pinches, "pinch", "pinches")
        let panText = count(pans, "pan", "pans")
        return TransitionBinding(chosen).kind == .pinch ? "\(panText), \(pinchText)" : "\(pinchText), \(panText)"
    }
}
