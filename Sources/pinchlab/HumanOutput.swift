import GestureCore
import GestureLab
import InteractiveTransition
import LabReports

/// The readable form of a replay or live run: gesture begins and ends, the transition's progress in
/// steps of 10%, the policy's decision with its reason, and the end of the animation.
struct HumanOutput {
    private var lastDecile = -1
    /// `--explain`: gesture lines say why (one sentence per decision) instead of their values, and
    /// decisions that emitted no gesture (a touch left out) get a line of their own.
    var explains = false
    /// `--trace`: every state change of the recognizer, with its time, input, rule and evidence.
    var traces = false
    /// With `--explain`, the recognizer's thresholds: each decision's sentence names its margin.
    var margins: GestureRecognizerConfiguration?
    /// The end line of a release that was also the end (at 0 or 1), held while explaining until
    /// the release's margins (the record that follows it in an explaining run, which measures
    /// them) are said: the sentence follows the release line, as it does for every other release.
    private var heldEnd: String?

    static func seconds(_ t: Double) -> String { format(t, decimals: 3).leftPadding(8) + " s" }

    /// The lines `record` prints: none, or one (two for a release that is also the end).
    mutating func lines(for record: LabRecord) -> [String] {
        if let end = heldEnd {
            heldEnd = nil
            let after = lines(for: record)
            if case .releaseMargins = record { return after + [end] }
            return [end] + after
        }
        if case .transition(let t) = record, t.state == .finished || t.state == .cancelled, let reason = t.reason {
            // Released exactly at 0 or 1: the decision and the end are one step.
            lastDecile = -1
            if explains && reason.decision != nil {
                heldEnd = Self.ended(t)
                return [Self.released(t, reason)]
            }
            return [Self.released(t, reason), Self.ended(t)]
        }
        return line(for: record).map { [$0] } ?? []
    }

    private mutating func line(for record: LabRecord) -> String? {
        switch record {
        case .frame:
            return nil
        case .gesture(let g):
            let e = g.event
            switch e.state {
            case .changed:
                return nil
            case .began, .ended, .cancelled:
                if explains, let sentence = e.explanation(margins: margins) { return "\(Self.seconds(g.time))  \(sentence)" }
                // Kinds and states padded to one width ("cancelled" and a space), "finger" to
                // "fingers": the values line up in a column down a long session.
                return "\(Self.seconds(g.time))  \(e.kind.rawValue.padding(6))\(e.state.rawValue.padding(10))"
                    + "\(e.fingerCount) finger\(e.fingerCount == 1 ? " " : "s")  " + Self.values(e)
            }
        case .button(let b):
            return "\(Self.seconds(b.time))  button \(b.button.name) \(b.state.rawValue)"
        case .releaseMargins(let m):
            return explains ? "\(Self.seconds(m.time))  \(m.transition) \(m.margins.sentence)" : nil
        case .stateChange(let change, let time):
            if traces { return "\(Self.seconds(time))  state \(change.traceText)" }
            if explains, let sentence = change.explanationWithoutGesture(margins: margins) {
                return "\(Self.seconds(time))  \(sentence)"
            }
            return nil
        case .transition(let t):
            switch t.state {
            case .interactive:
                let decile = Int((t.progress * 10).rounded(.down))
                defer { lastDecile = decile }
                if lastDecile < 0 || decile != lastDecile {
                    return "\(Self.seconds(t.time))  \(t.name) \(Self.bar(t.progress))"
                }
                return nil
            case .finishing, .cancelling:
                guard let reason = t.reason else { return nil }
                lastDecile = -1
                return Self.released(t, reason)
            case .finished, .cancelled:
                lastDecile = -1
                return Self.ended(t)
            case .idle:
                return nil
            }
        }
    }

    private static func released(_ t: TransitionRecord, _ reason: TrialReason) -> String {
        "\(seconds(t.time))  \(t.name) released at \(percent(t.progress)): \(reason)"
    }

    private static func ended(_ t: TransitionRecord) -> String {
        "\(seconds(t.time))  \(t.name) \(t.state.rawValue) \(bar(t.progress))"
    }

    static func values(_ e: GestureEvent) -> String {
        switch e.kind {
        case .pinch:
            return "scale \(format(e.scale, decimals: 2))  rotation \(format(e.rotationDegrees, decimals: 1))°  "
                + "velocity \(format(e.scaleVelocity, decimals: 2))/s"
        case .pan:
            return "translation (\(format(e.translationMM.x, decimals: 1)), \(format(e.translationMM.y, decimals: 1))) mm  "
                + "velocity (\(format(e.velocityMMPerSecond.x, decimals: 0)), \(format(e.velocityMMPerSecond.y, decimals: 0))) mm/s"
        case .hold:
            return "at (\(format(e.centerMM.x, decimals: 1)), \(format(e.centerMM.y, decimals: 1))) mm"
        }
    }

    static func bar(_ progress: Double, width: Int = 20) -> String {
        let p = min(max(progress.isFinite ? progress : 0, 0), 1)
        let filled = Int((p * Double(width)).rounded())
        return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] " + percent(p)
    }

    static func percent(_ p: Double) -> String { "\(Int((p * 100).rounded()))%" }

    /// The end of a replay or live run: the device, counts, gestures, every attempt at the
    /// transition with its decision, the total, and a hint when the gestures drove another transition.
    static func summary(_ s: LabSummary) -> [String] {
        var lines = ["", "device: \(s.device.text)"]
        lines.append("events: \(s.events), frames: \(s.frames), duration \(format(s.duration, decimals: 3)) s")
        lines.append("touches: \(s.touchesText)")
        if s.gestures.isEmpty { lines.append("gestures: none recognized") }
        // Holds that motion cancelled are counted in one line: a touchpad session has one per touch.
        for g in s.gestures where !g.isHoldCancelledByMotion { lines.append("gesture: \(g.text)") }
        if let holds = LabSummary.Gesture.holdsCancelledByMotionText(s.gestures) { lines.append("gesture: \(holds)") }
        if s.gestureCount > s.gestures.count { lines.append("gesture: and \(s.gestureCount - s.gestures.count) more") }
        if let note = s.pointerMotionNote { lines.append("note: \(note)") }
        lines += s.attemptLines
        if s.trialCount > s.trials.count { lines.append("attempt: and \(s.trialCount - s.trials.count) more") }
        if s.trialCount == 0 {
            // Not "outcome: pinch-dismiss none": say that nothing started it, and what would have.
            let kind = TransitionBinding(s.transition).kind.rawValue
            lines.append("outcome: \(s.transition) never started (no \(kind) began)")
        } else if s.trialCount > 1 {
            lines.append("outcome: \(s.transition) \(s.attemptsText); the first \(s.outcome.rawValue)")
        } else {
            lines.append("outcome: \(s.transition) \(s.outcome.rawValue)" + (s.reason.map { " (\($0))" } ?? ""))
        }
        if let hint = s.hint { lines.append("hint: \(hint.text)") }
        if s.error != nil { lines.append("stopped early: the rest of the recording could not be read (error below)") }
        if s.recognizerBugs > 0 {
            lines.append("recognizer bugs: \(s.recognizerBugs) unexpected (state, input) pairs (see --trace; please report)")
        }
        return lines
    }
}

/// Fixed-point formatting without Foundation's locale-dependent `String(format:)`.
func format(_ value: Double, decimals: Int) -> String { FixedPoint.string(value, decimals: decimals) }
