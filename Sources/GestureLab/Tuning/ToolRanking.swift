import GestureTools

/// `tune --for all`: every tunable tool tuned from its defaults on the same streams (each file
/// replayed once, `ToolTuner.prepare`), ranked by held-out accuracy at its best settings.
///
/// Tools read different devices (lisgd touchscreens, the others touchpads), so two rows may be on
/// different files: each row carries pinchlab's own count on its files, the comparison that holds.
package struct ToolRanking: Sendable, Encodable {
    package struct Row: Sendable, Encodable {
        package var tool: GestureToolName
        package var report: ToolTuneReport
        /// Held-out files right at the tuned settings over held-out files; nil when none was held out.
        package var heldOutAccuracy: Double? {
            report.heldOutFiles == 0 ? nil : Double(report.heldOutCorrectAfter) / Double(report.heldOutFiles)
        }

        enum CodingKeys: String, CodingKey { case tool, heldOutAccuracy, report }
        package func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(tool, forKey: .tool)
            try c.encode(heldOutAccuracy, forKey: .heldOutAccuracy)
            try c.encode(report, forKey: .report)
        }
    }

    /// Best first: held-out accuracy, then more held-out files right, then the name; a tool with no
    /// held-out file last.
    package var rows: [Row]

    package static func rank(_ files: [ToolTuner.File], tools: [GestureToolName],
                            crossValidation: (_ files: Int) -> CrossValidation?) throws -> ToolRanking {
        var rows: [Row] = []
        for tool in tools {
            let tuner = ToolTuner(files: files, start: .defaults(tool))
            rows.append(Row(tool: tool, report: try tuner.run(crossValidation: crossValidation(tuner.files.count))))
        }
        rows.sort { a, b in
            switch (a.heldOutAccuracy, b.heldOutAccuracy) {
            case (let x?, let y?) where x != y: return x > y
            case (nil, _?): return false
            case (_?, nil): return true
            default:
                if a.report.heldOutCorrectAfter != b.report.heldOutCorrectAfter { return a.report.heldOutCorrectAfter > b.report.heldOutCorrectAfter }
                return a.tool.rawValue < b.tool.rawValue
            }
        }
        return ToolRanking(rows: rows)
    }
}
