import GestureLab

/// The summary's parts in words, as the terminal summary and the plot's facts both show them.
extension LabSummary.Gesture {
    /// `pinch, 2 fingers, 0.211-0.843 s, ended, scale 0.33, rotation -4.8°`.
    package var text: String {
        var text = "\(kind.rawValue), \(fingers) finger\(fingers == 1 ? "" : "s"), "
            + "\(FixedPoint.string(begin, decimals: 3))-\(FixedPoint.string(end, decimals: 3)) s, \(ended.rawValue)"
        if let scale { text += ", scale \(FixedPoint.string(scale, decimals: 2))" }
        if let rotation { text += ", rotation \(FixedPoint.string(rotation, decimals: 1))°" }
        if let t = translation {
            text += ", translation (\(FixedPoint.string(t.x, decimals: 1)), \(FixedPoint.string(t.y, decimals: 1))) mm"
        }
        return text
    }
}

extension LabSummary.Gesture {
    /// A hold the fingers' motion cancelled: a touch that settled long enough for a hold and then
    /// moved on (libinput's quick 40 ms hold makes one of nearly every touch of a touchpad session).
    /// The outputs count them in one line instead of one line or label each.
    package var isHoldCancelledByMotion: Bool { kind == .hold && ended == .cancelled && rule == .motionEndsHold }

    /// `11 holds cancelled by motion (1 finger, 10-481 ms)` for the holds among `gestures` that
    /// motion cancelled; nil when there are none.
    package static func holdsCancelledByMotionText(_ gestures: some Sequence<LabSummary.Gesture>) -> String? {
        let holds = gestures.filter(\.isHoldCancelledByMotion)
        guard !holds.isEmpty else { return nil }
        func range(_ values: [Int], _ unit: String) -> String {
            let low = values.min()!, high = values.max()!
            return low == high ? "\(low)\(unit)" : "\(low)-\(high)\(unit)"
        }
        let fingers = holds.map(\.fingers)
        let fingerWords = range(fingers, "") + (fingers.allSatisfy { $0 == 1 } ? " finger" : " fingers")
        let lengths = holds.map { Int((($0.end - $0.begin) * 1000).rounded()) }
        let count = holds.count == 1 ? "1 hold" : "\(holds.count) holds"
        return "\(count) cancelled by motion (\(fingerWords), \(range(lengths, " ms")))"
    }
}

extension LabSummary.Device {
    /// `"pinchlab virtual touchpad" (touchpad, 100.0 x 60.0 mm, 4 slots)`.
    package var text: String {
        var size = ""
        if let widthMM, let heightMM {
            size = ", \(FixedPoint.string(widthMM, decimals: 1)) x \(FixedPoint.string(heightMM, decimals: 1)) mm"
        }
        return "\"\(name)\" (\(self.class)\(size)"
            + (resolutionEstimated ? ", size estimated: no resolution" : "") + ", \(slots) slots)"
    }
}

extension LabSummary {
    /// `45 contacts, at most 1 finger at once, down 21.6 s`; `none` when no finger touched.
    package var touchesText: String {
        guard touches.count > 0 || touches.maxFingers > 0 else { return "none" }
        return "\(touches.count) contact\(touches.count == 1 ? "" : "s"), at most \(touches.maxFingers) "
            + "finger\(touches.maxFingers == 1 ? "" : "s") at once, down \(FixedPoint.string(touches.seconds, decimals: 1)) s"
    }

    /// Why a touchpad recording of one finger at a time has no pan or pinch: that finger moved the
    /// pointer. Nil when a pan or pinch was recognized, on a touchscreen, or with more fingers.
    package var pointerMotionNote: String? {
        guard device.class == "touchpad", touches.maxFingers == 1,
              !gestures.contains(where: { $0.kind != .hold }) else { return nil }
        return "one finger at a time: on a touchpad that moves the pointer; pans and pinches take 2 fingers or more"
    }

    /// `3 attempts: 1 finished, 2 cancelled` (every trial, also those past `maximumListed`).
    package var attemptsText: String {
        var text = "\(trialCount) attempt\(trialCount == 1 ? "" : "s"): \(outcomes.finished) finished, "
            + "\(outcomes.cancelled) cancelled"
        let open = trialCount - outcomes.finished - outcomes.cancelled
        if open > 0 { text += ", \(open) not ended" }
        return text
    }

    /// One line per listed trial: `attempt 2  at 3.210 s  pan, 2 fingers  cancelled (cancel: projected
    /// progress 0.131 <= threshold 0.5)`; numbered from 1 as people count, the JSON index plus one.
    package var attemptLines: [String] {
        trials.enumerated().map { index, trial in
            var line = "attempt \(index + 1)  at \(FixedPoint.string(trial.begin, decimals: 3)) s"
            if let g = trial.gesture, g < gestures.count {
                let gesture = gestures[g]
                line += "  \(gesture.kind.rawValue), \(gesture.fingers) finger\(gesture.fingers == 1 ? "" : "s")"
            }
            if let release = trial.release { line += ", released at \(FixedPoint.string(release, decimals: 3)) s" }
            line += "  \(trial.outcome == .none ? "not ended" : trial.outcome.rawValue)"
            if let reason = trial.reason { line += " (\(reason))" }
            if trial.grabbedCount > 0 {
                line += ", grabbed back \(trial.grabbedCount) time\(trial.grabbedCount == 1 ? "" : "s")"
            }
            return line
        }
    }
}

extension TransitionHint {
    /// `2 pans, no pinch: try --transition pan-dismiss`.
    package var text: String { "\(self): try --transition \(suggested)" }
}
