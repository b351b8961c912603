extension TrialSummary {
    /// This trial's object by hand (its one field list as JSON), the bytes `JSONEncoder`
    /// (`.sortedKeys`) writes for the same fields (its margins included), as the summary line
    /// (`LabSummary.appendJSON`) writes it, for a fiftieth of the cost.
    func appendJSON(to out: inout JSONLineBytes) {
        // begin, decision, end, flip, gesture, grabbedCount, margins, outcome, reason, release
        out.raw("{\"begin\":")
        out.number(begin)
        if let decision {
            out.raw(",\"decision\":")
            decision.appendJSON(to: &out)
        }
        if let end {
            out.raw(",\"end\":")
            out.number(end)
        }
        if let flip {
            out.raw(",\"flip\":")
            flip.appendJSON(to: &out, outcome: false)
        }
        if let gesture {
            out.raw(",\"gesture\":")
            out.integer(gesture)
        }
        out.raw(",\"grabbedCount\":")
        out.integer(grabbedCount)
        if let margins {
            out.raw(",\"margins\":")
            margins.appendJSON(to: &out)
        }
        out.raw(",\"outcome\":")
        out.string(outcome.rawValue)
        if let reason {
            out.raw(",\"reason\":")
            out.string(reason.description)
        }
        if let release {
            out.raw(",\"release\":")
            out.number(release)
        }
        out.byte(UInt8(ascii: "}"))
    }
}

extension TrialSummary.Decision {
    /// `{"finish":…,"progress":…,"velocity":…}`, as a trial and the summary write it.
    func appendJSON(to out: inout JSONLineBytes) {
        out.raw("{\"finish\":")
        out.raw(finish ? "true" : "false")
        out.raw(",\"progress\":")
        out.number(progress)
        out.raw(",\"velocity\":")
        out.number(velocity)
        out.byte(UInt8(ascii: "}"))
    }
}
