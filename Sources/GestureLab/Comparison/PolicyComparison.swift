import Foundation
import GestureCore
import GestureTools
import InteractiveTransition

/// The same recording decided under other finish/cancel policies, in the same pass: one more
/// `ReplayPipeline` per policy, fed every event the main replay gets (so a file, or a pipe, is read
/// once). A policy changes more than the releases' verdicts: a completion that runs longer or the
/// other way can be grabbed back by the next gesture, so each policy gets its own whole replay.
///
/// For the plot and the viewer: `consume` hands each policy's records to `emit` with the policy's
/// index, so another policy's progress can be drawn beside the one used.
package struct PolicyComparison: Sendable {
    package struct Policy: Sendable, Hashable {
        /// As the output names it: a preset's name.
        package var name: String
        package var policy: CompletionPolicy
        package init(name: String, policy: CompletionPolicy) { self.name = name; self.policy = policy }
        package init(_ preset: CompletionPolicyPreset) { self.init(name: preset.rawValue, policy: preset.policy) }
    }

    package let policies: [Policy]
    package private(set) var pipelines: [ReplayPipeline]
    /// Each policy's summary, once `finish` ran.
    package private(set) var summaries: [LabSummary] = []

    package init(device: DeviceDescription, transition: TransitionName, settings: LabSettings, policies: [Policy],
                recordsFrames: Bool = false) throws {
        self.policies = policies
        pipelines = try policies.map { compared in
            var other = settings
            other.policy = compared.policy
            return try ReplayPipeline(device: device, transition: transition, settings: other, recordsFrames: recordsFrames)
        }
    }

    /// Measure every release's margins in each policy's replay (`ReplayPipeline.measuresMargins`):
    /// set before the first event, for the plot's and the viewer's compared rows.
    package var measuresMargins: Bool {
        get { pipelines.first?.measuresMargins ?? false }
        set { for index in pipelines.indices { pipelines[index].measuresMargins = newValue } }
    }

    /// Feeds `event` to every policy's replay; `emit` gets each record with its policy's index.
    package mutating func consume(_ event: InputEvent, emit: (Int, LabRecord) -> Void = { _, _ in }) {
        for index in pipelines.indices {
            pipelines[index].consume(event) { emit(index, $0) }
        }
    }

    /// Ends every replay (`ReplayPipeline.finish`) and returns one row per attempt and policy, in
    /// policy order.
    package mutating func finish(source: String?, emit: (Int, LabRecord) -> Void = { _, _ in }) -> [PolicyComparisonRow] {
        var rows: [PolicyComparisonRow] = []
        for index in pipelines.indices {
            let summary = pipelines[index].finish(source: source) { emit(index, $0) }
            summaries.append(summary)
            for (trial, attempt) in summary.trials.enumerated() {
                rows.append(PolicyComparisonRow(policy: policies[index].name, trial: trial, outcome: attempt.outcome,
                                                reason: attempt.reason, decision: attempt.decision))
            }
        }
        return rows
    }
}

/// One attempt under one compared policy: summary key `"comparisons"`.
package struct PolicyComparisonRow: Sendable {
    package var policy: String
    /// The attempt's index in the summary's `trials` (of this policy's replay).
    package var trial: Int
    package var outcome: TrialSummary.Outcome
    /// Typed as `TrialSummary.reason` is; JSON writes its sentence, the table makes its text.
    package var reason: TrialReason?
    package var decision: TrialSummary.Decision?

    package init(policy: String, trial: Int, outcome: TrialSummary.Outcome, reason: TrialReason?, decision: TrialSummary.Decision?) {
        self.policy = policy
        self.trial = trial
        self.outcome = outcome
        self.reason = reason
        self.decision = decision
    }
}

/// A replay's summary with what was asked for beside it: `"comparisons"` (`--compare`),
/// `"libinput"` and `"agreement"` (`--with-libinput`); absent keys are not written.
package struct LabSummaryReport: Sendable {
    package var summary: LabSummary
    package var comparisons: [PolicyComparisonRow]?
    package var libinput: LibinputVerdict?
    package var agreement: LibinputAgreement?
    /// What each gesture tool asked for (`--tool`) would have done.
    package var tools: [ToolVerdict]?
    /// Debian's lisgd run beside the emulation (`--with-lisgd`).
    package var realLisgd: RealToolCheck?

    package init(summary: LabSummary, comparisons: [PolicyComparisonRow]? = nil, libinput: LibinputVerdict? = nil,
                tools: [ToolVerdict]? = nil, realLisgd: RealToolCheck? = nil) {
        self.summary = summary
        self.comparisons = comparisons
        self.libinput = libinput
        self.agreement = libinput.map { LibinputAgreement(pinchlab: summary.gestures, libinput: $0.gestures) }
        self.tools = tools
        self.realLisgd = realLisgd
    }

    /// The report's line without its line end: the summary's by hand (`LabSummary.appendJSON`) with
    /// the comparisons by hand and the other members through `JSONEncoder` (`.sortedKeys`,
    /// `.withoutEscapingSlashes`: their types' one field list is their `Encodable`), every key in
    /// sorted order, the invisible characters escaped (`JSONLineBytes.escapingInvisibles`).
    package func jsonLine() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        func encoded(_ value: some Encodable) throws -> [UInt8] { Array(try encoder.encode(value)) }
        var members: [(key: String, json: [UInt8])] = []
        if let comparisons {
            var rows = JSONLineBytes(reservingCapacity: 256 * comparisons.count + 2)
            rows.byte(UInt8(ascii: "["))
            for (index, row) in comparisons.enumerated() {
                if index > 0 { rows.byte(UInt8(ascii: ",")) }
                row.appendJSON(to: &rows)
            }
            rows.byte(UInt8(ascii: "]"))
            members.append(("comparisons", rows.bytes))
        }
        if let libinput { members.append(("libinput", try encoded(libinput))) }
        if let agreement { members.append(("agreement", try encoded(agreement))) }
        if let tools { members.append(("tools", try encoded(tools))) }
        if let realLisgd { members.append(("realLisgd", try encoded(realLisgd))) }
        var line = JSONLineBytes(reservingCapacity: 1 << 16)
        try summary.appendJSON(to: &line, with: members)
        // The summary's policy and the encoded members may hold invisible characters the encoder left.
        return Array(JSONLineBytes.escapingInvisibles(Data(line.bytes)))
    }
}

extension PolicyComparisonRow {
    /// `{"decision", "outcome", "policy", "reason", "trial"}` by hand, keys in sorted order, the
    /// decision as a trial's (`TrialSummary.Decision.appendJSON`), the reason its sentence.
    func appendJSON(to out: inout JSONLineBytes) {
        out.byte(UInt8(ascii: "{"))
        if let decision {
            out.key("decision")
            decision.appendJSON(to: &out)
            out.byte(UInt8(ascii: ","))
        }
        out.key("outcome")
        out.string(outcome.rawValue)
        out.raw(",\"policy\":")
        out.string(policy)
        if let reason {
            out.raw(",\"reason\":")
            out.string(reason.description)
        }
        out.raw(",\"trial\":")
        out.integer(trial)
        out.byte(UInt8(ascii: "}"))
    }
}
