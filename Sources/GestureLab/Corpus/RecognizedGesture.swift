import GestureCore
import InteractiveTransition
import SettingsTable

/// One gesture a replay recognized, in the terms a label uses (kind, fingers, direction, outcome).
package struct RecognizedGesture: Sendable, Hashable, Codable {
    package var kind: GestureExpectation.Kind
    package var fingers: Int
    package var direction: GestureExpectation.Direction?
    /// The outcome of the transition trial this gesture started (`none`: it started none).
    package var outcome: GestureExpectation.Outcome
    /// Seconds from the first event.
    package var begin: Double
    /// The index of the trial it started, if any (the tuner re-decides its outcome per policy).
    package var trial: Int?
    /// The decision that began it: what a label's kind rests on (its margin:
    /// `GestureDecision.margin(in:)` with the summary's `recognizer`).
    var beganDecision: GestureDecision?
    /// How close its release came to the other outcome, under the replay's policy: what a label's
    /// outcome rests on. The policy's decision's margin (`CompletionDecision.margin(input:)`, with
    /// the device's input: a touchscreen's rule reads its own figures), whether or not the run
    /// measured the flips (`check` does not pay for the presets' flips); nil when the gesture was
    /// cancelled (no policy was asked) or no setting decided.
    var releaseMargin: DecisionMargin?

    enum CodingKeys: String, CodingKey { case kind, fingers, direction, outcome, begin, trial }

    /// A pan shorter than this has no direction worth checking.
    static let minimumPanTravelMM = 1.0

    /// "pan 2 fingers down, none".
    package var text: String {
        var words = [kind.rawValue, fingers == 1 ? "1 finger" : "\(fingers) fingers"]
        if let direction { words.append(direction.rawValue) }
        return words.joined(separator: " ") + ", " + outcome.rawValue
    }

    /// Gestures in a row: "pinch 2 fingers in, finish, then pan 2 fingers, none"; "none" for no gesture.
    package static func text(of gestures: [RecognizedGesture]) -> String {
        gestures.isEmpty ? "none" : gestures.map(\.text).joined(separator: ", then ")
    }

    var shortName: String { kind.rawValue + "\(fingers)" }

    /// The gestures of a replay as a person would list them: every recognized gesture in order, less
    /// a gesture the recognizer cancelled only to replace it at once by another kind (a scroll that
    /// turned out to be a pinch: libinput's correction), less a hold that motion cancelled (the
    /// fingers were only resting before they moved), and less a hold lifted before the fingers had
    /// been down `RecordingEvidence.holdSeconds` (a tap: libinput reports its quick hold and the tap,
    /// and the person tapped): a person never saw any of these as a gesture of its own.
    package static func sequence(in summary: LabSummary) -> [RecognizedGesture] {
        let gestures = summary.gestures
        let input = CompletionInput(summary.recognizer?.device.deviceClass ?? .touchpad)
        var trialOf: [Int: Int] = [:]
        for (index, trial) in summary.trials.enumerated() {
            if let gesture = trial.gesture, trialOf[gesture] == nil { trialOf[gesture] = index }
        }
        var result: [RecognizedGesture] = []
        for (index, gesture) in gestures.enumerated() {
            // By name: GestureKit's kinds may grow (holds), and a label's kinds follow them.
            if gesture.kind.rawValue == GestureExpectation.Kind.hold.rawValue {
                if gesture.ended == .cancelled { continue }
                if let down = gesture.fingersDown, gesture.end - down < RecordingEvidence.holdSeconds { continue }
            }
            if gesture.ended == .cancelled, index + 1 < gestures.count {
                let next = gestures[index + 1]
                if next.kind != gesture.kind && next.begin <= gesture.end { continue }
            }
            let trial = trialOf[index]
            result.append(RecognizedGesture(
                kind: GestureExpectation.Kind(rawValue: gesture.kind.rawValue) ?? .none,
                fingers: gesture.fingers,
                direction: direction(of: gesture),
                outcome: trial.map { Self.outcome(summary.trials[$0].outcome) } ?? .none,
                begin: gesture.begin,
                trial: trial,
                beganDecision: gesture.beganDecision,
                releaseMargin: trial.flatMap { summary.trials[$0].reason?.decision?.margin(input: input) }))
        }
        return result
    }

    static func outcome(_ outcome: TrialSummary.Outcome) -> GestureExpectation.Outcome {
        switch outcome {
        case .finished: return .finish
        case .cancelled: return .cancel
        case .none: return .none
        }
    }

    /// A pinch's direction from its final scale; a pan's from the larger component of its travel.
    static func direction(of gesture: LabSummary.Gesture) -> GestureExpectation.Direction? {
        switch gesture.kind {
        case .pinch:
            guard let scale = gesture.scale, scale != 1 else { return nil }
            return scale < 1 ? .in : .out
        case .pan:
            guard let t = gesture.translation, (t.x * t.x + t.y * t.y).squareRoot() >= minimumPanTravelMM else { return nil }
            if abs(t.x) > abs(t.y) { return t.x > 0 ? .right : .left }
            return t.y > 0 ? .down : .up
        default:
            return nil
        }
    }
}

extension GestureExpectation {
    /// Whether `gesture` is what this expectation describes (keys left out are not checked).
    func matchesGesture(_ gesture: RecognizedGesture) -> Bool {
        gesture.kind == kind && (fingers == nil || fingers == gesture.fingers)
            && (direction == nil || direction == gesture.direction)
    }

    func matchesOutcome(_ outcome: GestureExpectation.Outcome) -> Bool {
        self.outcome == nil || self.outcome == outcome
    }
}

extension CompletionInput {
    /// The input a device of `deviceClass` gives the policy: a touchscreen's own, else a touchpad's.
    package init(_ deviceClass: DeviceClass) {
        self = deviceClass == .touchscreen ? .touchscreen : .touchpad
    }
}
