import GestureCore
import SettingsTable

// The sentences of `pinchlab replay --explain` and the lines of `--trace`: made here, where they are
// printed from, out of the typed rule and its evidence.

extension GestureDecision {
    /// Why, in one clause: "fingers moved 171° apart (>= 135°) after 1.0 and 1.1 mm (>= 1 mm)".
    package var reasonText: String {
        if let motion = MotionEvidence(self) { return motion.reasonText }
        let e = evidence
        let touch = e.touch.map { "touch \($0)" } ?? "a touch"
        let fromBottom = e.fromBottomMM.map { ", \(format($0, decimals: 1)) mm from the bottom edge" } ?? ""
        switch rule {
        case .opposingFingers, .sideBySideTimeout, .oneSidedPinch, .restingThumb, .oneFingerMoved, .restingFinger,
             .thumbPinch, .pinchUnavailable, .sameDirection, .differentDirections:
            // A motion rule's decision without its evidence (read from a file, where only the rule is).
            return "\(rule.rawValue), its evidence not recorded"
        case .scrollToPinchCorrection:
            return "the scroll moved the fingers \(deg(e.angleDegrees)) apart after \(mm(e.movedMM)) and \(mm(e.otherMovedMM)) mm "
                + "(>= \(limitMM(e.moveLimitMM)) mm), \(ms(e.waitedMS)) after they came down (< \(ms(e.timeoutMS))): corrected to a pinch"
        case .centroidMoved:
            return "the fingers' centre moved \(mm(e.movedMM)) mm (>= \(limitMM(e.moveLimitMM)) mm)"
        case .panUnavailable:
            let n = e.fingersAfter.map { $0 == 1 ? "1 finger" : "\($0) fingers" } ?? "these fingers"
            return "\(n) moved \(mm(e.movedMM)) mm (>= \(limitMM(e.moveLimitMM)) mm) but may not pan here "
                + "(panMinimumFingerCount, panMaximumFingerCount; on a touchpad one finger moves the pointer)"
        case .edgeScroll:
            let edge = e.fromRightMM.map { "\(format($0, decimals: 1)) mm from the right edge" }
                ?? e.fromBottomMM.map { "\(format($0, decimals: 1)) mm from the bottom edge" } ?? "in an edge"
            let landed = "\(touch) landed \(edge) (< \(limitMM(e.edgeWidthMM)) mm)"
            guard e.timeoutMS != nil else {
                return "\(landed) and moved \(mm(e.movedMM)) mm along it (>= \(limitMM(e.moveLimitMM)) mm): edge scrolling"
            }
            return "\(landed), stayed \(ms(e.waitedMS)) (>= \(ms(e.timeoutMS)) locks it in) and moved along it "
                + "(\(mm(e.movedMM)) mm since it landed): edge scrolling"
        case .thumbBand:
            return "\(touch) rests in the thumb band\(fromBottom), moved \(mm(e.movedMM)) mm (< \(limitMM(e.moveLimitMM)) mm)"
        case .holdTimeout:
            return "fingers still for \(ms(e.waitedMS)) (>= \(ms(e.timeoutMS))), moved at most \(mm(e.movedMM)) mm "
                + "(< \(limitMM(e.moveLimitMM)) mm)"
        case .motionEndsHold:
            let moved = max(e.movedMM ?? 0, e.otherMovedMM ?? 0)
            return "a finger moved \(format(moved, decimals: 1)) mm"
                + (e.moveLimitMM.map { " (>= \(trimmed($0)) mm)" } ?? "")
        case .fingerCountChange:
            let before = e.fingersBefore.map { $0 == 1 ? "1 finger" : "\($0) fingers" } ?? "the fingers"
            let count = "\(before) became \(e.fingersAfter.map(String.init) ?? "?")"
            return e.waitedMS == nil ? count : "\(count) for \(ms(e.waitedMS)) (>= \(ms(e.timeoutMS)))"
        case .fingersReplaced:
            return "a finger was replaced by another within one frame"
        case .touchJump:
            return "\(touch) jumped \(mm(e.jumpMM)) mm in one frame (normalized to 12 ms), more than a finger moves "
                + "(> \(limitMM(e.moveLimitMM)) mm, or \(limitMM(e.increaseLimitMM)) mm more than the "
                + (e.previousStepMM.map { "\(mm($0)) mm of the frame before)" } ?? "frame before)")
        case .resync:
            return "the kernel dropped events (SYN_DROPPED): positions restart"
        case .badNumbers:
            return e.waitedMS.map { "time went backwards by \(format(-$0, decimals: 3)) ms" }
                ?? "a touch position was not a number or out of range"
        case .clickpadPressed:
            let n = e.fingersBefore.map { $0 == 1 ? "1 finger" : "\($0) fingers" } ?? "fingers"
            let above = e.fromBottomMM.map { ", the highest \(format($0, decimals: 1)) mm from the bottom edge, above the thumb band" } ?? ""
            return "the clickpad was pressed with \(n) down\(above): no gesture until it is released, as in libinput"
        case .allLifted:
            switch e.fingersBefore {
            case 1?: return "the finger lifted"
            case let n?: return "all \(n) fingers lifted"
            case nil: return "all fingers lifted"
            }
        case .endOfStream:
            return "the recording ended with fingers down"
        }
    }

    /// The evidence as `key=value` pairs, units in the keys (the trace's form).
    package var evidenceText: String {
        evidence.entries.map { entry in
            let whole = entry.key == "fingersBefore" || entry.key == "fingersAfter" || entry.key == "touch"
            return "\(entry.key)=\(whole ? String(Int(entry.value)) : format(entry.value, decimals: 2))"
        }.joined(separator: " ")
    }
}

extension MotionEvidence {
    /// A motion rule's clause, from the fields its rule records.
    package var reasonText: String {
        switch self {
        case .opposingFingers(let p):
            return "fingers moved \(deg(p.angle.degrees)) apart (>= \(deg(p.angle.limitDegrees))) after \(both(p.moves)) "
                + "(>= \(limitMM(p.moves.moveLimitMM)) mm)"
        case .differentDirections(let d):
            return "fingers moved in directions \(deg(d.angleDegrees)) apart, not neighbouring compass points, after \(both(d.moves)) "
                + "(>= \(limitMM(d.moves.moveLimitMM)) mm), the span changing by \(mm(d.spanChangeMM)) mm"
        case .oneSidedPinch(let p):
            return "one finger moved \(mm(p.moves.larger)) mm (>= \(limitMM(p.moves.moveLimitMM)) mm) "
                + "within \(deg(p.angle.degrees)) (<= \(deg(p.angle.limitDegrees))) of the line to the still one "
                + "(\(mm(p.moves.smaller)) mm)"
        case .thumbPinch(let t):
            return "the lowest touch moved \(mm(t.moves.otherMovedMM)) mm while every finger rested (< \(limitMM(t.moves.moveLimitMM)) mm)"
        case .sameDirection(let d):
            return "fingers moved the same way (\(deg(d.angleDegrees)) apart) after \(both(d.moves)) (>= \(limitMM(d.moves.moveLimitMM)) mm)"
        case .pinchUnavailable(let d):
            return "fingers moved \(both(d.moves)) (>= \(limitMM(d.moves.moveLimitMM)) mm) and may not pinch (their count, or a touchpad "
                + "that cannot track each finger): they scroll"
        case .sideBySideTimeout(let s):
            return "fingers side by side (\(mm(s.horizontalSpreadMM)) mm across, \(mm(s.verticalSpreadMM)) mm up and down) "
                + "still undecided after \(ms(s.waitedMS)) (> \(ms(s.timeoutMS)))"
        case .oneFingerMoved(let o):
            return "one finger moved \(mm(o.moves.larger)) mm (>= \(limitMM(o.moves.moveLimitMM)) mm) "
                + "while the other rested (\(mm(o.moves.smaller)) mm), not towards it"
        case .restingFinger(let r):
            return "touch \(r.touch) rested while the other fingers moved along together (>= \(limitMM(r.moves.moveLimitMM)) mm)"
        case .restingThumb(let r):
            let fromBottom = r.fromBottomMM.map { ", \(format($0, decimals: 1)) mm from the bottom edge" } ?? ""
            return "touch \(r.touch) is a resting thumb: it moved \(mm(r.moves.otherMovedMM)) mm (< \(limitMM(r.moves.moveLimitMM)) mm) "
                + "while the other moved \(mm(r.moves.movedMM)) mm\(fromBottom)"
        }
    }

    private func both(_ moves: PairMoves) -> String { "\(mm(moves.movedMM)) and \(mm(moves.otherMovedMM)) mm" }
}

extension GestureEvent {
    /// "pinch began: fingers moved 171° apart (>= 135°) after 1.0 and 1.1 mm (>= 1 mm)"; nil for
    /// `changed` events, which decide nothing.
    package var explanation: String? {
        guard let decision else { return nil }
        return "\(kind.rawValue) \(state.rawValue) (\(fingerCount) \(fingerCount == 1 ? "finger" : "fingers")): "
            + decision.reasonText
    }
}

extension GestureEvent {
    /// `explanation` with the decision's margin under `margins` (the recognizer's thresholds):
    /// "...; margin 41.3° above pinchOpposingMinimumAngleDegrees 135°".
    package func explanation(margins: GestureRecognizerConfiguration?) -> String? {
        guard let explanation else { return nil }
        return explanation + (margins.flatMap { decision?.margin(in: $0) }.map(\.explanationClause) ?? "")
    }
}

extension DecisionMargin {
    /// "; margin 41.3° above pinchOpposingMinimumAngleDegrees 135°": the sentence's clause.
    package var explanationClause: String { "; margin " + distanceText }

    /// "41.3° above pinchOpposingMinimumAngleDegrees 135°": how far the measured value was from the
    /// setting (named as in its settings section) that would have decided otherwise.
    package var distanceText: String {
        let setting = key.split(separator: ".", maxSplits: 1).last.map(String.init) ?? key
        let side = value > threshold ? "above" : value < threshold ? "below" : "at"
        let decimals = switch unit { case "degrees", "ms": 1; case "mm": 2; default: 3 }
        let (amount, limit) = (format(distance, decimals: decimals), trimmed(threshold))
        switch unit {
        case "degrees": return "\(amount)° \(side) \(setting) \(limit)°"
        // Progress is a plain fraction: "0.085 above progressThreshold 0.5".
        case "progress": return "\(amount) \(side) \(setting) \(limit)"
        default: return "\(amount) \(unit) \(side) \(setting) \(limit) \(unit)"
        }
    }
}

extension RecognizerStateChange {
    /// `explanationWithoutGesture` with the decision's margin under `margins`.
    package func explanationWithoutGesture(margins: GestureRecognizerConfiguration?) -> String? {
        guard let sentence = explanationWithoutGesture else { return nil }
        return sentence + (margins.flatMap { decision?.margin(in: $0) }.map(\.explanationClause) ?? "")
    }

    /// A decision that emitted no gesture event (a touch left out, a silent pan), as a sentence;
    /// nil when a gesture event explains the change, or when nothing was decided.
    package var explanationWithoutGesture: String? {
        // An edge scroll's own changes are explained by its pan's began and ended lines.
        guard let decision, !isBug, edgeScroll == nil else { return nil }
        switch decision.rule {
        case .restingThumb, .thumbBand:
            return "touch left out: \(decision.reasonText)"
        case .restingFinger where to == .undecided:
            return "touch left out: \(decision.reasonText)"
        case .panUnavailable:
            return "no gesture: \(decision.reasonText)"
        case .clickpadPressed where from == .idle || from == .undecided:
            return "no gesture: \(decision.reasonText)"
        default:
            return nil
        }
    }

    /// One line of `--trace`: "undecided -> pinch  (motion, 2 fingers) opposing-fingers angleDegrees=171.00 ...".
    package var traceText: String {
        if isBug {
            return "RECOGNIZER BUG: \(input.rawValue) is not expected in state \(from.rawValue) (\(fingers) fingers); ignored"
        }
        var line = switch edgeScroll {
        case nil: "\(from.rawValue) -> \(to.rawValue)"
        case .began?: "edge scroll: none -> scrolling"
        case .stopped?: "edge scroll: scrolling -> none"
        }
        line += "  (\(input.rawValue), \(fingers) \(fingers == 1 ? "finger" : "fingers"))"
        if let decision {
            line += "  \(decision.rule.rawValue)"
            let evidence = decision.evidenceText
            if !evidence.isEmpty { line += "  " + evidence }
        }
        return line
    }
}

private func mm(_ v: Double?) -> String { v.map { format($0, decimals: 1) } ?? "?" }
private func limitMM(_ v: Double?) -> String { v.map { trimmed($0) } ?? "?" }
private func deg(_ v: Double?) -> String { v.map { "\(format($0, decimals: 0))°" } ?? "?" }
private func ms(_ v: Double?) -> String { v.map { "\(format($0, decimals: 0)) ms" } ?? "?" }

/// A limit as written in a settings file: no trailing zeros ("1", "1.5").
private func trimmed(_ value: Double) -> String { FixedPoint.string(value, decimals: 2, trimmingZeros: true) }

private func format(_ value: Double, decimals: Int) -> String { FixedPoint.string(value, decimals: decimals) }
