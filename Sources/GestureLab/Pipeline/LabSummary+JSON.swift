import Foundation
import InteractiveTransition

extension LabSummary {
    /// The policy's encoder, made here and not passed in: its keys must be sorted as the line's are
    /// (a caller's encoder without `.sortedKeys` once made `live --web`'s summary change from run
    /// to run).
    private static let policyEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// The summary line (without its line end) by hand: the bytes `JSONEncoder` (`.sortedKeys`,
    /// `.withoutEscapingSlashes`) writes for the same fields, the invisible characters escaped
    /// (`escapingInvisibles`; as they are when `out.escapesInvisibles` is false). The summary's one
    /// field list as JSON: it has no `Encodable` form.
    ///
    /// Why: the encoder spent some 60 million instructions on a summary of a thousand gestures and
    /// trials, a tenth of a 300,000-event replay. Only the policy, one small value whose shape
    /// depends on its kind, still goes through an encoder (`policyEncoder`). `ReleaseMarginTests`
    /// compares this with the encoder's bytes for the fields docs/reference/json-lines.md documents
    /// (a test-side `ExpectedSummaryLine`) on every recording, so a key missing or extra fails.
    package func appendJSON(to out: inout JSONLineBytes) throws {
        // decision, device, duration, error, events, firstTouch, frames, gestureCount, gestures, hint,
        // outcome, outcomes, policy, reason, recognizerBugs, source, touches, transition, trialCount,
        // trials, type
        out.byte(UInt8(ascii: "{"))
        if let decision {
            out.key("decision")
            decision.appendJSON(to: &out)
            out.byte(UInt8(ascii: ","))
        }
        out.key("device")
        device.appendJSON(to: &out)
        out.raw(",\"duration\":")
        out.number(rounded(duration))
        if let error {
            out.raw(",\"error\":")
            out.string("\(error)")
        }
        out.raw(",\"events\":")
        out.integer(events)
        if let firstTouch {
            out.raw(",\"firstTouch\":")
            out.number(rounded(firstTouch))
        }
        out.raw(",\"frames\":")
        out.integer(frames)
        out.raw(",\"gestureCount\":")
        out.integer(gestureCount)
        out.raw(",\"gestures\":[")
        for (index, gesture) in gestures.enumerated() {
            if index > 0 { out.byte(UInt8(ascii: ",")) }
            gesture.appendJSON(to: &out)
        }
        out.byte(UInt8(ascii: "]"))
        if let hint {
            out.raw(",\"hint\":{\"pans\":")
            out.integer(hint.pans)
            out.raw(",\"pinches\":")
            out.integer(hint.pinches)
            out.raw(",\"transition\":")
            out.string(hint.suggested.rawValue)
            out.byte(UInt8(ascii: "}"))
        }
        out.raw(",\"outcome\":")
        out.string(outcome.rawValue)
        out.raw(",\"outcomes\":{\"cancelled\":")
        out.integer(outcomes.cancelled)
        out.raw(",\"finished\":")
        out.integer(outcomes.finished)
        out.raw("},\"policy\":")
        let policyBytes = try Self.policyEncoder.encode(policy)
        policyBytes.withUnsafeBytes { out.append(raw: $0) }
        if let reason {
            out.raw(",\"reason\":")
            out.string(reason.description)
        }
        if recognizerBugs > 0 {
            out.raw(",\"recognizerBugs\":")
            out.integer(recognizerBugs)
        }
        if let source {
            out.raw(",\"source\":")
            out.string(source)
        }
        out.raw(",\"touches\":{\"count\":")
        out.integer(touches.count)
        out.raw(",\"maxFingers\":")
        out.integer(touches.maxFingers)
        out.raw(",\"seconds\":")
        out.number(rounded(touches.seconds))
        out.raw("},\"transition\":")
        out.string(transition.rawValue)
        out.raw(",\"trialCount\":")
        out.integer(trialCount)
        out.raw(",\"trials\":[")
        for (index, trial) in trials.enumerated() {
            if index > 0 { out.byte(UInt8(ascii: ",")) }
            trial.appendJSON(to: &out)
        }
        out.raw("],\"type\":\"summary\"}")
    }
}

extension LabSummary {
    /// The summary line (without its line end) with `members` beside its own keys, each where its key
    /// sorts (`JSONLineBytes.inserting`): what `LabSummaryReport` adds, already written.
    package func appendJSON(to out: inout JSONLineBytes, with members: [(key: String, json: [UInt8])]) throws {
        var own = JSONLineBytes(reservingCapacity: 1 << 16)
        own.escapesInvisibles = out.escapesInvisibles
        try appendJSON(to: &own)
        out.append(json: members.isEmpty ? own.bytes : JSONLineBytes.inserting(members, into: own.bytes))
    }
}

extension LabSummary.Device {
    func appendJSON(to out: inout JSONLineBytes) {
        // class, heightMM, name, resolutionEstimated, slots, widthMM
        out.raw("{\"class\":")
        out.string(`class`)
        if let heightMM {
            out.raw(",\"heightMM\":")
            out.number(heightMM)
        }
        out.raw(",\"name\":")
        out.string(name)
        out.raw(",\"resolutionEstimated\":")
        out.raw(resolutionEstimated ? "true" : "false")
        out.raw(",\"slots\":")
        out.integer(slots)
        if let widthMM {
            out.raw(",\"widthMM\":")
            out.number(widthMM)
        }
        out.byte(UInt8(ascii: "}"))
    }
}

extension LabSummary.Gesture {
    func appendJSON(to out: inout JSONLineBytes) {
        // begin, end, ended, fingers, fingersDown, kind, rotation, rule, scale, translation
        out.raw("{\"begin\":")
        out.number(rounded(begin))
        out.raw(",\"end\":")
        out.number(rounded(end))
        out.raw(",\"ended\":")
        out.string(ended.rawValue)
        out.raw(",\"fingers\":")
        out.integer(fingers)
        if let fingersDown {
            out.raw(",\"fingersDown\":")
            out.number(rounded(fingersDown))
        }
        out.raw(",\"kind\":")
        out.string(kind.rawValue)
        if let rotation {
            out.raw(",\"rotation\":")
            out.number(rounded(rotation))
        }
        if let rule {
            out.raw(",\"rule\":")
            out.string(rule.rawValue)
        }
        if let scale {
            out.raw(",\"scale\":")
            out.number(rounded(scale))
        }
        if let translation {
            out.raw(",\"translation\":")
            out.point(RoundedPoint(translation))
        }
        out.byte(UInt8(ascii: "}"))
    }
}
