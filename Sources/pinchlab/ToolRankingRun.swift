import ArgumentParser
import Foundation
import GestureLab
import GestureTools
import LibinputHarness

/// What `tune --for` takes: one tool, or `all` to rank them.
enum TuneTarget: Equatable, ExpressibleByArgument {
    case tool(GestureToolName)
    case all

    init?(argument: String) {
        if argument == "all" { self = .all } else if let tool = GestureToolName(argument: argument) { self = .tool(tool) } else { return nil }
    }

    static var allValueStrings: [String] { GestureToolName.allCases.map(\.rawValue) + ["all"] }
}

/// `tune CORPUS --for all`: each tunable tool tuned from its defaults on the same streams
/// (`ToolRanking`), one table, best held-out accuracy first; nothing written.
struct ToolRankingRun {
    let command: TuneCommand

    struct JSONReport: Encodable {
        var ranking: ToolRanking
        var libinput: String
        var source: String
    }

    func run() throws {
        let files = try LoadedRecording.loadCorpus(directory: command.corpus)
        let units = command.unitsOption.units(installed: LibinputBridge.installedVersion())
        let prepared = try ToolTuner.prepare(files, units: units)
        let ranking: ToolRanking
        do {
            ranking = try ToolRanking.rank(prepared, tools: ToolTuneRun.tunable) { command.crossValidation(files: $0) }
        } catch let error as CorpusError {
            throw CLIError(status: .usage, message: "\(command.corpus): \(error.message)")
        }
        if command.json {
            try JSONLineWriter().write(JSONReport(ranking: ranking, libinput: units.version.description, source: "pinchlab"))
            return
        }
        try printLine("the tools on \(files.count) recording\(files.count == 1 ? "" : "s") of \(oneLine(command.corpus)), "
                      + "each tuned from its defaults, best held-out accuracy first "
                      + "(fed by pinchlab's recognizer in libinput \(units.version)'s units):")
        let header = ["", "tool", "files", "defaults", "tuned", "pinchlab", "moved"]
        var table = [header]
        for (n, row) in ranking.rows.enumerated() {
            let r = row.report
            let held = r.heldOutFiles
            func fraction(_ correct: Int?) -> String {
                guard held > 0, let correct else { return "-" }
                return ToolTuneRun.fraction(correct, held)
            }
            let moved = r.changes.isEmpty ? "nothing"
                : r.changes.map { "\($0.key) \(ToolTuneRun.value($0.before)) -> \(ToolTuneRun.value($0.after))" }.joined(separator: ", ")
            table.append(["\(n + 1)", row.tool.rawValue, "\(r.files)", fraction(r.heldOutCorrectBefore), fraction(r.heldOutCorrectAfter),
                          fraction(r.pinchlabHeldOutCorrect),
                          r.files == 0 ? "(reads no device of the corpus)"
                              : held == 0 ? "(not ranked: no cross-validation on \(r.files) files; --folds K)" : moved])
        }
        let widths = header.indices.map { column in table.map { $0[column].count }.max() ?? 0 }
        for row in table {
            try printLine("  " + row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell.padding(widths[column] + 2)
            }.joined())
        }
        try printLine("")
        try printLine("defaults and tuned: held-out files right (each tuned without the files it is scored on); pinchlab: "
                      + "its default policy on the same files. lisgd reads touchscreens, the others touchpads: "
                      + "compare a row with its own pinchlab column. Tune one and write its file with --for TOOL --write FILE.")
    }
}
