import GestureLab
import InteractiveTransition

/// `replay --compare`'s table: one row per attempt and policy, the policy used first.
///
///     policy        attempt  outcome    reason
///     (used)        1        finished   finish: flick, |velocity| 2.948/s >= 1.5/s, towards completion
///     gnome         1        finished   finish: GNOME, |velocity| 0.887 units/ms >= 0.6, ...
package enum PolicyComparisonTable {
    package static func lines(used: CompletionPolicy, summary: LabSummary, rows: [PolicyComparisonRow]) -> [String] {
        let usedName = CompletionPolicyPreset(matching: used).map { "\($0.rawValue) (used)" } ?? "configured (used)"
        let usedRows = summary.trials.enumerated().map { index, trial in
            PolicyComparisonRow(policy: usedName, trial: index, outcome: trial.outcome, reason: trial.reason, decision: trial.decision)
        }
        let all = usedRows + rows
        let width = max(6, all.map(\.policy.count).max() ?? 0)
        func pad(_ text: String, _ count: Int) -> String { text + String(repeating: " ", count: max(0, count - text.count)) }
        var lines = ["compared policies:", "  " + pad("policy", width) + "  attempt  " + pad("outcome", 9) + "  reason"]
        for row in all {
            lines.append("  " + pad(row.policy, width) + "  " + pad("\(row.trial + 1)", 7) + "  "
                         + pad(row.outcome.rawValue, 9) + "  " + oneLine(row.reason.map { "\($0)" } ?? "-"))
        }
        if all.isEmpty { lines.append("  (no attempt: no gesture drove the transition)") }
        return lines
    }

    /// Reasons come from pinchlab's own text, but keep the table one line per row whatever they hold.
    private static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline || $0 == "\t" ? " " : $0 })
    }
}
