import GestureLab
import GestureTools
import InteractiveTransition

extension TimelinePlot {
    /// The plot's words: made here, from typed values, and nowhere before.
    enum Facts {
        /// Attempts and gestures listed in the facts; more are counted.
        static let listedTrials = 6
        static let listedGestures = 6

        static func seconds(_ value: Double) -> String { FixedPoint.string(value, decimals: 2) }
        static func number(_ value: Double) -> String { FixedPoint.string(value, decimals: 3, trimmingZeros: true) }
        static func velocity(_ value: Double) -> String { FixedPoint.string(value, decimals: 2, trimmingZeros: true) + "/s" }

        /// "3 attempts: 1 finished, 2 cancelled".
        static func attemptsTotal(_ t: ReplayTimeline) -> String {
            let count = t.summary?.trialCount ?? t.trials.count
            guard count > 0 else { return "no attempt: \(t.transition) never started" }
            let finished = t.trials.filter { $0.outcome == .finished }.count
            let cancelled = t.trials.filter { $0.outcome == .cancelled }.count
            var parts = ["\(finished) finished", "\(cancelled) cancelled"]
            let open = t.trials.count - finished - cancelled
            if open > 0 { parts.append("\(open) unfinished") }
            return "\(count) attempt\(count == 1 ? "" : "s") at \(t.transition): " + parts.joined(separator: ", ")
        }

        /// What decided a release, beside it: the rule and the numbers it compared, and (unless
        /// `margin` takes its room) where and how fast it was released.
        static func releaseText(_ r: ReplayTimeline.Release, grabbedBack: Bool = false, margin: String? = nil) -> String {
            let name = "attempt \(r.trial + 1)"
            let grabbed = (grabbedBack ? "; grabbed back" : "") + (margin.map { "; " + $0 } ?? "")
            guard let decision = r.decision else {
                return "\(name): cancelled with its gesture at progress \(number(r.progress))\(grabbed)"
            }
            let verdict = decision.shouldFinish ? "finish" : "cancel"
            let compare = decision.shouldFinish ? ">" : "≤"
            let v = r.velocity ?? 0
            switch decision.reason {
            case .projected(let projected, let threshold):
                return "\(name): \(verdict), projected progress \(number(projected)) \(compare) threshold \(number(threshold))"
                    + (margin == nil ? " (released at \(number(r.progress)), \(velocity(v)))" : "") + grabbed
            case .flick(let flickVelocity, let limit):
                return "\(name): \(verdict), flick, |velocity| \(velocity(abs(flickVelocity))) ≥ \(velocity(limit))"
                    + " \(flickVelocity > 0 ? "towards completion" : "backwards")"
                    + (margin == nil ? " (released at \(number(r.progress)))" : "") + grabbed
            case .progress(let progress, let threshold):
                return "\(name): \(verdict), progress \(number(progress)) \(compare) threshold \(number(threshold))"
                    + (margin == nil ? " (\(velocity(v)) not used)" : "") + grabbed
            case .kwin, .gnome, .hyprland, .androidBack:
                // A desktop's rule: its own sentence names the rule and what it compared.
                return "\(name): \(decision)" + (margin == nil ? " (released at \(number(r.progress)), \(velocity(v)))" : "") + grabbed
            }
        }

        static func releaseShort(_ r: ReplayTimeline.Release) -> String {
            "A\(r.trial + 1) " + (r.decision.map { $0.shouldFinish ? "finish" : "cancel" } ?? "cancelled")
        }

        static func lines(_ t: ReplayTimeline, window: PlotWindow, seconds shown: ClosedRange<Double>) -> [String] {
            var lines: [String] = []
            // Attempts: the one asked for, else those in the window (all of them uncropped).
            let indices: [Int]
            if let trial = window.trial {
                indices = [trial - 1]
            } else {
                indices = t.trials.indices.filter { index in
                    let trial = t.trials[index]
                    return trial.begin <= shown.upperBound && (trial.end ?? t.duration) >= shown.lowerBound
                }
            }
            for index in indices.prefix(listedTrials) {
                lines.append(trialLine(t, index))
            }
            if indices.count > listedTrials { lines.append("and \(indices.count - listedTrials) more attempts") }
            // Each compared policy's releases, as that policy decided them and what would have flipped them.
            for overlay in t.overlays {
                let decided = overlay.releases.filter { release in
                    release.margins != nil && shown.contains(release.time) && (window.trial == nil || window.trial == release.trial + 1)
                }
                for release in decided.prefix(listedTrials) {
                    guard let margins = release.margins else { continue }
                    lines.append("\(overlay.name), attempt \(release.trial + 1): \(margins.flip.sentence(at: margins.progress))")
                }
            }
            if t.trials.isEmpty, let kind = t.drivingKind {
                lines.append("\(t.transition) follows \(kind.rawValue) gestures: none began")
                // On the picture too, not only on stderr: an empty pinch chart over a pan says why.
                if let hint = t.summary?.hint { lines.append("hint: \(hint.text)") }
            }
            let shownGestures = t.gestures.indices.filter { t.gestures[$0].end >= shown.lowerBound && t.gestures[$0].begin <= shown.upperBound }
            // Holds that motion cancelled in one line (drawn in the holds lane, not labelled).
            let gestures = shownGestures.filter { !t.gestures[$0].isHoldCancelledByMotion }
            for index in gestures.prefix(listedGestures) {
                lines.append("G\(index + 1): \(t.gestures[index].text)")
            }
            if gestures.count > listedGestures { lines.append("and \(gestures.count - listedGestures) more gestures") }
            if let holds = LabSummary.Gesture.holdsCancelledByMotionText(shownGestures.map { t.gestures[$0] }) { lines.append(holds) }
            // What each gesture tool did in the window, in its own words (`replay --tool`'s lines).
            for verdict in t.tools {
                let fired = verdict.fired.filter { $0.end >= shown.lowerBound && $0.begin <= shown.upperBound }
                if fired.isEmpty { lines.append("\(verdict.name.rawValue) fired nothing here") }
                for gesture in fired.prefix(listedGestures) { lines.append("\(verdict.name.rawValue): \(gesture.text)") }
                if fired.count > listedGestures { lines.append("and \(fired.count - listedGestures) more of \(verdict.name.rawValue)'s") }
            }
            if let summary = t.summary {
                if summary.gestureCount == 0 { lines.append("no gesture recognized") }
                if let note = summary.pointerMotionNote { lines.append(note) }
                lines.append("policy: \(summary.policy)")
                lines.append("device: \(summary.device.text)")
                if t.thinning.isThinned { lines.append(thinningText(t.thinning)) }
                if let error = summary.error { lines.append("stopped early: \(error)") }
            }
            return lines
        }

        /// "attempt 2 (G3 pan, 4.10 s): released at 4.62 s, progress 0.594, -1.61/s: cancel, projected
        /// progress 0.131 ≤ threshold 0.5; cancelled at 4.95 s".
        /// "thinned for drawing (a long recording): 1,000 of 1,000,000 touches, 1 in 8 finger positions, 1 in 2 values".
        static func thinningText(_ thinning: ReplayTimeline.Thinning) -> String {
            var parts: [String] = []
            if thinning.tracksDrawn < thinning.touches { parts.append("\(thinning.tracksDrawn) of \(thinning.touches) touches") }
            if thinning.frameStride > 1 { parts.append("1 in \(thinning.frameStride) finger positions") }
            if thinning.seriesStride > 1 { parts.append("1 in \(thinning.seriesStride) values") }
            if thinning.attemptStride > 1 { parts.append("1 in \(thinning.attemptStride) attempts marked") }
            if thinning.gestureStride > 1 { parts.append("1 in \(thinning.gestureStride) gestures marked") }
            return "thinned for drawing (a long recording): " + parts.joined(separator: ", ")
        }

        static func trialLine(_ t: ReplayTimeline, _ index: Int) -> String {
            let trial = t.trials[index]
            var text = "attempt \(index + 1)"
            let gesture = trial.gesture.map { g in "G\(g + 1)" + (g < t.gestures.count ? " \(t.gestures[g].kind.rawValue)" : "") }
            text += " (" + [gesture, "\(seconds(trial.begin)) s"].compactMap { $0 }.joined(separator: ", ") + ")"
            if let release = t.releases.last(where: { $0.trial == index }), trial.release != nil {
                text += ": released at \(seconds(release.time)) s, progress \(number(release.progress))"
                if let v = release.velocity { text += ", \(velocity(v))" }
                if let decision = release.decision {
                    text += "; " + (decision.shouldFinish ? "finish" : "cancel") + " by " + ruleName(decision.reason)
                    if let margins = release.margins { text += " (" + margins.flip.wouldHave + ")" }
                } else {
                    text += "; the gesture was cancelled"
                }
            }
            if let end = trial.end { text += "; \(trial.outcome.rawValue) at \(seconds(end)) s" }
            if trial.grabbedCount > 0 { text += "; grabbed back \(trial.grabbedCount)x" }
            return text
        }

        static func ruleName(_ reason: CompletionReason) -> String {
            switch reason {
            case .flick: return "flick"
            case .projected(let projected, _): return "projection to \(number(projected))"
            case .progress: return "progress"
            case .kwin, .gnome, .hyprland, .androidBack: return reason.rule
            }
        }
    }
}
