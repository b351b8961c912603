import Foundation
import GestureLab
import GestureTools
import LabReports
import LibinputHarness

/// `tune CORPUS --for TOOL`: the tool's own thresholds tuned on the corpus (`ToolTuner`), the
/// report, and `--write`/`--diff` in the tool's own format (`ToolConfigurationWriter`).
struct ToolTuneRun {
    static let tunable: [GestureToolName] = [.lisgd, .touchegg, .libinputGestures, .fusuma, .inputactions]

    let command: TuneCommand
    let tool: GestureToolName

    func units() -> LibinputUnits { command.unitsOption.units(installed: LibinputBridge.installedVersion()) }

    /// The user's configuration (its text too, to write it back), or the tool's defaults.
    func start() throws -> (settings: GestureToolSettings, text: String?) {
        guard let file = command.toolConfig else { return (GestureToolSettings.defaults(tool), nil) }
        let (settings, text) = try readToolConfiguration(tool, path: file)
        return (settings, text)
    }

    struct JSONReport: Encodable {
        var report: ToolTuneReport
        var libinput: String
        var source: String
        var written: String?
    }

    func run() throws {
        let files = try LoadedRecording.loadCorpus(directory: command.corpus)
        if let write = command.write {
            let location = try CorpusFiles.locate(command.corpus)
            try OutputFile.refuse(write, option: "--write", overwriting: location.inputPaths(of: files.map(\.entry)),
                                  doing: "saving the configuration")
        }
        let units = units()
        let (settings, original) = try start()
        let prepared = try ToolTuner.prepare(files, units: units)
        let tuner = ToolTuner(files: prepared, start: settings)
        let report: ToolTuneReport
        do {
            report = try tuner.run(crossValidation: command.crossValidation(files: tuner.files.count))
        } catch let error as CorpusError {
            throw CLIError(status: .usage, message: "\(command.corpus): \(error.message)")
        }
        var output: String?
        if report.moved {
            output = ToolConfigurationWriter.write(report.tuned, keys: report.changes.map(\.key), original: original,
                                                   header: header(report, units: units))
        }
        if let write = command.write, let output { try OutputFile.write(output, to: write, what: "the \(tool.rawValue) configuration") }
        if command.json {
            try JSONLineWriter().write(JSONReport(report: report, libinput: units.version.description, source: "pinchlab",
                                                  written: output == nil ? nil : command.write))
        } else {
            try printHuman(report, units: units)
            if let write = command.write {
                try printLine(output == nil ? "nothing moved: \(write) not written"
                                            : "\(tool.rawValue) configuration written to \(write)")
            }
        }
        if command.diff {
            if let output, let original, let path = command.toolConfig {
                try StandardStream.output.write(ToolConfigurationWriter.diff(old: original, new: output, path: path).utf8)
            } else if !command.json {
                printError("nothing moved: no patch")
            }
        }
    }

    /// The comment lines of the written file: what was measured.
    func header(_ r: ToolTuneReport, units: LibinputUnits) -> [String] {
        var lines = ["tuned by pinchlab tune --for \(tool.rawValue) on \(Self.recordings(r)) of \(command.corpus)",
                     "held out (\(r.crossValidation ?? "none"), \(r.folds) folds): \(r.heldOutCorrectBefore)/\(r.heldOutFiles) before, "
                         + "\(r.heldOutCorrectAfter)/\(r.heldOutFiles) after",
                     "units: libinput \(units.version)" + (tool == .lisgd ? " touch events, lisgd's screen units (-w/-h)" : "")]
        for change in r.changes { lines.append("\(change.key) \(Self.value(change.before)) -> \(Self.value(change.after))") }
        return lines
    }

    /// "11 touchscreen recordings", "49 recordings (24 touchpad, 25 touchscreen)".
    static func recordings(_ r: ToolTuneReport) -> String {
        if r.touchpadFiles == 0 { return "\(r.files) touchscreen recording\(r.files == 1 ? "" : "s")" }
        if r.touchpadFiles == r.files { return "\(r.files) touchpad recording\(r.files == 1 ? "" : "s")" }
        return "\(r.files) recordings (\(r.touchpadFiles) touchpad, \(r.files - r.touchpadFiles) touchscreen)"
    }

    static func value(_ v: Double?) -> String { v.map(ToolConfigurationWriter.number) ?? "(the device's own)" }

    static func fraction(_ correct: Int, _ files: Int) -> String {
        "\(correct)/\(files) (\(format(files == 0 ? 0 : Double(correct) / Double(files) * 100, decimals: 1))%)"
    }

    /// The report in words; with --diff on stderr, so that stdout is the patch alone.
    func printHuman(_ r: ToolTuneReport, units: LibinputUnits) throws {
        let line: (String) throws -> Void = command.diff ? { printError($0) } : { try printLine($0) }
        try line("\(tool.rawValue) tuned on \(Self.recordings(r))"
                      + (r.skippedFiles > 0 ? " (\(r.skippedFiles) more skipped: \(tool.rawValue) does not read their device)" : "")
                      + ", fed by pinchlab's recognizer in libinput \(units.version)'s units")
        guard r.files > 0 else {
            try line("no recording of the corpus is of a device \(tool.rawValue) reads: nothing to tune")
            return
        }
        guard r.crossValidation != nil else {
            try line("no cross-validation: no setting can be shown to do better on files it was not tuned on; "
                          + "nothing moved (use --folds K)")
            return
        }
        try line("held out (\(r.crossValidation!), \(r.folds) folds): current \(Self.fraction(r.heldOutCorrectBefore, r.heldOutFiles))"
                      + " -> tuned \(Self.fraction(r.heldOutCorrectAfter, r.heldOutFiles))")
        try line("")
        try line("settings (before -> after):")
        let width = (r.settings.map(\.key.count).max() ?? 0) + 2
        for s in r.settings {
            var row = "  " + s.key.padding(width) + Self.value(s.before)
            if let change = r.changes.first(where: { $0.key == s.key }) {
                row += " -> \(Self.value(change.after)): " + change.heldOut.sentence(listing: Self.list)
            } else {
                row += " (kept)"
            }
            try line(row)
        }
        if !r.moved {
            try line("")
            try line("the current settings are as good as anything found on held-out files: nothing moved, nothing to write")
            for change in r.searchWouldChange {
                try line("  (on all files the search would set \(change.key) \(Self.value(change.after)), "
                              + "but that does not beat the current settings held out)")
            }
        }
        try line("")
        try line("per gesture class (current -> tuned, each file held out):")
        let classWidth = (r.classes.map(\.gestureClass.count).max() ?? 0) + 2
        for c in r.classes {
            try line("  " + c.gestureClass.padding(classWidth) + "\(c.correctBefore)/\(c.files) -> \(c.heldOutCorrectAfter)/\(c.files)")
        }
        if let pinchlab = r.pinchlabHeldOutCorrect {
            try line("")
            let best = max(r.heldOutCorrectBefore, r.heldOutCorrectAfter)
            if r.pinchlabBeatsTool {
                try line("\(tool.rawValue) \(Self.limit(tool)): its best gets \(best)/\(r.heldOutFiles); "
                              + "pinchlab's default policy gets \(pinchlab)/\(r.heldOutFiles) (pinchlab check)")
            } else {
                try line("pinchlab's default policy gets \(pinchlab)/\(r.heldOutFiles) on the same files (pinchlab check); "
                              + "\(tool.rawValue) at its best \(best)/\(r.heldOutFiles)")
            }
        }
    }

    /// What the tool's rule cannot see, that pinchlab's can.
    static func limit(_ tool: GestureToolName) -> String {
        switch tool {
        case .touchegg: "has no velocity (a position-only threshold)"
        case .libinputGestures: "decides by distance at the end only"
        case .fusuma: "decides on the rate of its last 10 events alone"
        case .lisgd: "decides by distance, angle and time only"
        case .inputactions: "decides by direction over a window and distance, not by velocity at the end"
        default: "cannot express pinchlab's rule"
        }
    }

    /// At most 8 names, then how many more (`--json` lists them all).
    static func list(_ files: [String]) -> String {
        guard !files.isEmpty else { return "nothing" }
        let shown = files.prefix(8).map(oneLine).joined(separator: ", ")
        return files.count > 8 ? shown + " and \(files.count - 8) more" : shown
    }
}
