import GestureKit
import InteractiveTransition

/// The last line of a replay (`"type": "summary"`): what was recognized and how the transition ended.
public struct LabSummary: Sendable, Encodable {
    /// A summary lists at most this many gestures and trials (the counts cover all of them), so a
    /// replay of millions of events runs in memory that does not grow with the file.
    public static let maximumListed = 1000

    public struct Device: Sendable, Encodable {
        public var name: String
        public var `class`: String
        public var widthMM: Double?
        public var heightMM: Double?
        public var resolutionEstimated: Bool
        public var slots: Int
    }

    public struct Gesture: Sendable, Hashable, Encodable {
        public var kind: GestureKind
        public var fingers: Int
        public var begin: Double
        public var end: Double
        /// `ended` or `cancelled`.
        public var ended: GestureState
        /// Pinch: the final scale and rotation (degrees).
        public var scale: Double?
        public var rotation: Double?
        /// Pan: the final translation (mm).
        public var translation: PointMM?
        /// The rule that ended or cancelled it (`all-lifted`, `finger-count-change`, ...).
        public var rule: GestureRule? = nil

        enum CodingKeys: String, CodingKey { case kind, fingers, begin, end, ended, scale, rotation, translation, rule }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(kind.rawValue, forKey: .kind)
            try c.encode(fingers, forKey: .fingers)
            try c.encode(rounded(begin), forKey: .begin)
            try c.encode(rounded(end), forKey: .end)
            try c.encode(ended.rawValue, forKey: .ended)
            try c.encodeIfPresent(scale.map(rounded), forKey: .scale)
            try c.encodeIfPresent(rotation.map(rounded), forKey: .rotation)
            try c.encodeIfPresent(translation.map(RoundedPoint.init), forKey: .translation)
            try c.encodeIfPresent(rule, forKey: .rule)
        }
    }

    public var source: String?
    public var device: Device
    public var transition: String
    /// The first trial's outcome: `finished`, `cancelled`, or `none` when no gesture started it.
    public var outcome: TrialSummary.Outcome
    /// Why the policy decided as it did (or why the transition was cancelled).
    public var reason: String?
    public var decision: TrialSummary.Decision?
    public var gestures: [Gesture]
    public var gestureCount: Int
    public var trials: [TrialSummary]
    public var trialCount: Int
    public var events: Int
    public var frames: Int
    public var duration: Double
    /// Seconds from the first event to the first finger down.
    public var firstTouch: Double?
    public var policy: CompletionPolicy
    /// Why the recording could not be read to its end (`FILE:LINE: expected ...`); nil when it was.
    /// The summary then covers the events before the bad one.
    public var error: String?
    /// (state, input) pairs the recognizer did not expect (`TouchGestureRecognizer.bugCount`):
    /// 0 unless pinchlab has a bug. Printed only when not 0.
    public var recognizerBugs = 0

    enum CodingKeys: String, CodingKey {
        case type, source, device, transition, outcome, reason, decision, gestures, gestureCount, trials, trialCount, events, frames, duration, firstTouch, policy, error, recognizerBugs
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode("summary", forKey: .type)
        try c.encodeIfPresent(source, forKey: .source)
        try c.encode(device, forKey: .device)
        try c.encode(transition, forKey: .transition)
        try c.encode(outcome.rawValue, forKey: .outcome)
        try c.encodeIfPresent(reason, forKey: .reason)
        try c.encodeIfPresent(decision, forKey: .decision)
        try c.encode(gestures, forKey: .gestures)
        try c.encode(gestureCount, forKey: .gestureCount)
        try c.encode(trials, forKey: .trials)
        try c.encode(trialCount, forKey: .trialCount)
        try c.encode(events, forKey: .events)
        try c.encode(frames, forKey: .frames)
        try c.encode(rounded(duration), forKey: .duration)
        try c.encodeIfPresent(firstTouch.map(rounded), forKey: .firstTouch)
        try c.encode(policy, forKey: .policy)
        try c.encodeIfPresent(error, forKey: .error)
        if recognizerBugs > 0 { try c.encode(recognizerBugs, forKey: .recognizerBugs) }
    }
}

extension LabSummary {
    /// The gesture a person would say was recognized: among those that ended normally the one that
    /// ended last; if every gesture was cancelled, the longest. A scroll cancelled so that a pinch
    /// could begin does not count, nor does a hold (it drives nothing).
    public var primaryGesture: Gesture? {
        let moving = gestures.filter { $0.kind != .hold }
        let ended = moving.filter { $0.ended == .ended }
        if let last = ended.max(by: { $0.end < $1.end }) { return last }
        return moving.max { ($0.end - $0.begin) < ($1.end - $1.begin) }
    }
}
