import ArgumentParser
import Foundation
import GestureLab
import InteractiveTransition
import LabReports
import GestureTools

struct TuneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tune",
        abstract: "Search recognizer thresholds and the finish/cancel policy for settings that do better on recordings they were not tuned on.",
        usage: "pinchlab tune <corpus> [--folds <k> | --by-device] [<options>]",
        discussion: """
        Every recording in CORPUS (listed with its label in CORPUS/manifest.json) is replayed with \
        recognizer settings (per device class) and finish/cancel policies found by a search that \
        starts at the defaults and moves one setting at a time. Settings are ranked by the files \
        they get right (the recognized gesture and the transition's outcome match the label), then \
        by robustness (the smallest margin by which a right decision cleared its threshold, as a \
        fraction of the setting's range), then by earlier begins (in steps of 2 ms). A setting is \
        let move only when that raises the accuracy on held-out files (cross-validation: searched \
        on the other folds); a tie keeps the default. The whole search is cross-validated once \
        more, and the settings are written only when it beats the defaults on held-out files; \
        otherwise the report says so and --write saves a file with no changed setting. \
        Deterministic; uses all cores.

        With --for TOOL (lisgd, touchegg, libinput-gestures, fusuma, inputactions), the tool's own thresholds are tuned \
        instead, the same way, from --tool-config (or the tool's defaults): each file's libinput \
        stream is made once and judged by the tool at every setting tried; --write writes the \
        tool's own file (only when something moved), --diff a patch of --tool-config.

        Examples:
          pinchlab tune Fixtures/corpus
          pinchlab tune Fixtures/real-recordings.json --write t.json
          pinchlab tune mine --by-device --write t.json
          pinchlab replay bug.evemu --config t.json
          pinchlab tune mine --for touchegg --tool-config t.conf --diff
        """
    )

    @Argument(help: "A corpus directory with manifest.json (e.g. Fixtures/corpus).", completion: .directory)
    var corpus: String

    @Flag(help: "Print one JSON object: best (the settings written), defaults, seedRule, baselines, changes, crossValidation.")
    var json = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Recognizer configurations the search may replay per device class (the defaults are always one).", valueName: "n"))
    var budget: Int = Tuner.defaultBudget

    @Option(help: ArgumentHelp("Save the tuned settings here (only what changed; none when nothing beats the defaults held out), for `replay`/`live --config`.", valueName: "file"), completion: .file(extensions: ["json"]))
    var write: String?

    @Option(help: ArgumentHelp("Cross-validate with K folds (default: \(Tuner.defaultFolds) when the corpus has \(Tuner.minimumFiles) files or more; 0: none, and then no setting moves).",
                               valueName: "k"))
    var folds: Int?

    @Flag(name: .customLong("by-device"), help: "Cross-validate leaving one device (by name) out at a time, instead of K folds.")
    var byDevice = false

    @Option(name: .customLong("fail-under"),
            help: ArgumentHelp("Exit 1 when the tuned settings' accuracy is below this fraction (0 to 1, e.g. 0.95).", valueName: "accuracy"))
    var failUnder: Double?

    @Flag(name: .customLong("with-libinput"),
          help: "Also run Debian's libinput on each touchpad recording (in real time, about as long as the recordings) and report how the best settings and the defaults agree with it.")
    var withLibinput = false

    @Option(name: .customLong("for"), help: ArgumentHelp(
        "Tune this gesture tool's own thresholds instead of pinchlab's: lisgd, touchegg, libinput-gestures, fusuma or inputactions; all: rank them.",
        discussion: "Starts from --tool-config (or the tool's defaults); --write writes the tool's own format. `all` tunes each from its defaults and ranks them by held-out accuracy in one table. See docs/reference/tuner.md.",
        valueName: "tool"),
        completion: .list(ToolTuneRun.tunable.map(\.rawValue) + ["all"]))
    var forTool: TuneTarget?

    @Option(name: .customLong("tool-config"), help: ArgumentHelp(
        "With --for: the tool's current configuration (touchegg.conf, libinput-gestures.conf, lisgd's flags in a file), the search's start.",
        valueName: "file"), completion: .file())
    var toolConfig: String?

    @OptionGroup var unitsOption: LibinputUnitsOption

    @Flag(help: "With --for and --tool-config: print a unified patch of the configuration instead of writing it.")
    var diff = false

    func validate() throws {
        if case .tool(let tool)? = forTool, !ToolTuneRun.tunable.contains(tool) {
            throw ValidationError("--for \(tool.rawValue): tune tunes \(ToolTuneRun.tunable.map(\.rawValue).joined(separator: ", ")) so far")
        }
        if forTool == .all && (toolConfig != nil || write != nil || diff) {
            throw ValidationError("--for all ranks the tools, each tuned from its defaults, and writes nothing: "
                                  + "--tool-config, --write and --diff go with --for TOOL")
        }
        if forTool == nil && (toolConfig != nil || diff || unitsOption.libinputVersion != nil) {
            throw ValidationError("--tool-config, --diff and --libinput-version go with --for TOOL")
        }
        if diff && toolConfig == nil { throw ValidationError("--diff needs --tool-config: the file to patch") }
        if diff && write != nil { throw ValidationError("--diff prints a patch; --write writes the file: give one") }
        if forTool != nil && withLibinput { throw ValidationError("--with-libinput does not go with --for yet") }
        if forTool != nil && failUnder != nil { throw ValidationError("--fail-under does not go with --for yet") }
        if diff && json { throw ValidationError("--diff prints a patch, --json a report: give one") }
        guard budget >= 1 && budget <= 100_000 else { throw ValidationError("--budget must be within 1...100000") }
        if let folds, folds == 1 || folds < 0 { throw ValidationError("--folds must be 0 (none) or 2 or more") }
        if byDevice && folds != nil { throw ValidationError("--by-device and --folds are two ways to cross-validate: give one") }
        if let failUnder, !(0...1).contains(failUnder) {
            throw ValidationError("--fail-under is a fraction of files from 0 to 1 (0.95 for 95%)")
        }
    }

    /// --by-device, --folds K, or by default K-fold once the corpus is large enough to hold folds out.
    func crossValidation(files: Int) -> CrossValidation? {
        if byDevice { return .byDevice }
        if let folds { return folds == 0 ? nil : .kFold(folds) }
        return files >= Tuner.minimumFiles ? .kFold(Tuner.defaultFolds) : nil
    }

    func run() throws {
        switch forTool {
        case .tool(let tool)?: return try reportingErrors { try ToolTuneRun(command: self, tool: tool).run() }
        case .all?: return try reportingErrors { try ToolRankingRun(command: self).run() }
        case nil: break
        }
        try reportingErrors {
            let files = try LoadedRecording.loadCorpus(directory: corpus)
            if let write { try refuseToOverwriteCorpus(with: write, files: files) }
            let progress = TuneProgress(onTerminal: isatty(STDERR_FILENO) != 0)
            var report: Tuner.Report
            do {
                report = try Tuner(budget: budget).run(files, crossValidation: crossValidation(files: files.count)) { done, total in
                    progress.report(done, of: total)
                }
            } catch let error as CorpusError {
                throw CLIError(status: .usage, message: "\(corpus): \(error.message)")
            }
            if withLibinput {
                report.libinput = try Self.libinputAgreements(files: files, settings: [("best", report.best.settings), ("defaults", .default)])
            }
            if let write { try LabSettingsFile.save(report.best.settings, path: write) }
            if json {
                try JSONLineWriter().write(report)
            } else {
                try printHuman(report, files: files)
                if let write {
                    try printLine(report.beatsDefaults ? "tuned settings written to \(write)"
                                                       : "\(write): a settings file with no changed setting (it reads as the defaults)")
                }
            }
            for warning in report.warnings { printError("pinchlab: warning: " + Self.text(warning)) }
            if let failUnder, report.best.accuracy < failUnder {
                printError("pinchlab: the tuned settings score \(format(report.best.accuracy * 100, decimals: 1))%, "
                           + "below --fail-under \(format(failUnder * 100, decimals: 1))%")
                throw ExitCode(1)
            }
        }
    }

    /// libinput's gestures on each touchpad file (run once per file) against each settings' gestures.
    static func libinputAgreements(files: [LoadedRecording], settings: [(name: String, settings: LabSettings)]) throws
        -> [LibinputCorpusAgreement] {
        let pads = files.filter { $0.device.deviceClass != .touchscreen }
        let seconds = pads.reduce(0.0) { total, file in
            total + Double((file.events.last?.time.totalMicroseconds ?? 0) - (file.events.first?.time.totalMicroseconds ?? 0)) / 1e6 + 1
        }
        printError("pinchlab: running libinput on \(pads.count) touchpad recordings (about \(Int(seconds.rounded(.up))) s)")
        var verdicts: [LibinputVerdict] = []
        for file in pads { verdicts.append(try libinputVerdict(events: file.events, device: file.device)) }
        let late = verdicts.filter { $0.timing?.late == true }.count
        let version = verdicts.first?.version ?? "unknown"
        return try settings.map { name, settings in
            let agreements = try zip(pads, verdicts).map { file, verdict in
                let (_, summary) = try CorpusRunner.score(file: file.entry.file, device: file.device, events: file.events,
                                                          entry: file.entry, settings: settings)
                return LibinputAgreement(pinchlab: summary.gestures, libinput: verdict.gestures)
            }
            return LibinputCorpusAgreement(settings: name, version: version, agreements: agreements, lateFiles: late)
        }
    }

    /// A warning in words: what is too small and why it matters.
    static func text(_ warning: TuneWarning) -> String {
        switch warning {
        case .corpusTooSmall(let files, let minimum):
            return "\(files) recording\(files == 1 ? " is" : "s are") too few to tune on (fewer than \(minimum)): the search "
                + "(\(Tuner.searchedThresholdCount) thresholds per device class, \(Tuner.searchedPolicySettingCount) of the policy) can fit that many "
                + "files by chance, and a few held-out files say little about new recordings; "
                + "label more (pinchlab label) before trusting the thresholds"
        case .classTooSmall(let deviceClass, let files, let minimum):
            return "only \(files) \(deviceClass) recording\(files == 1 ? "" : "s") (fewer than \(minimum)): "
                + "the \(deviceClass) recognizer settings are fitted on too few to generalize"
        case .noHeldOutEstimate:
            return "no cross-validation: no setting can be shown to do better on recordings it was not tuned on, so none moved "
                + "(use --folds K or --by-device)"
        }
    }

    /// `--write` naming the manifest or a recording (either half of a split one) would destroy the
    /// corpus being tuned on.
    private func refuseToOverwriteCorpus(with output: String, files: [LoadedRecording]) throws {
        let location = try CorpusFiles.locate(corpus)
        try OutputFile.refuse(output, option: "--write", overwriting: location.inputPaths(of: files.map(\.entry)),
                              doing: "saving the settings")
    }

    func printHuman(_ r: Tuner.Report, files: [LoadedRecording]) throws {
        let pads = files.filter { $0.device.deviceClass != .touchscreen }.count
        try printLine("tuned on \(files.count) recordings (\(pads) touchpad, \(files.count - pads) touchscreen): "
                      + "\(r.searchedSettings) settings searched, \(r.recognizerCandidates) recognizer settings replayed, \(r.replays) replays")
        try printLine("")
        let baselines = r.baselines.map { ("preset \($0.preset)", $0.scored) }
        let rows = [("tuned", r.best), ("defaults", r.defaults), ("seed rule", r.seedRule)] + baselines
        // The name column fits the longest name ("preset android-back" ran into the figures).
        let nameWidth = max(18, (rows.map(\.0.count).max() ?? 0) + 1)
        try printLine("".padding(nameWidth + 1) + "accuracy  correct  wrong gesture  wrong outcome  mean begin latency  robustness")
        for (name, s) in rows {
            let latency = s.meanBeginLatencyMS.map { "\(format($0, decimals: 0)) ms" } ?? "-"
            try printLine(name.padding(nameWidth) + (format(s.accuracy * 100, decimals: 1) + "%").leftPadding(9)
                      + "\(s.correct)/\(s.files)".leftPadding(9) + "\(s.wrongGesture)".leftPadding(15)
                      + "\(s.wrongOutcome)".leftPadding(15) + latency.leftPadding(20)
                      + (s.robustness.map(Self.percent) ?? "-").leftPadding(12))
        }
        try printVerdict(r)
        if let edge = r.best.nearestEdge, let normalized = edge.margin.normalized {
            try printLine("")
            // As check words a fragile file's margin (`DecisionMargin.distanceText`).
            try printLine("nearest decision edge (tuned): \(oneLine(edge.file)): \(edge.margin.distanceText), "
                          + "\(Self.percent(normalized)) of its usual range")
        }
        try printLine("")
        try printLine("gesture confusion (tuned; rows: label, columns: replay; kind and fingers)")
        let gestureRows = r.best.confusion.gesture
        let gestures = Set(gestureRows.keys).union(gestureRows.values.flatMap(\.keys)).sorted()
        let width = max(8, (gestures.map(\.count).max() ?? 0) + 2)
        try printLine("".padding(width) + gestures.map { $0.leftPadding(width) }.joined())
        for expected in gestures where gestureRows[expected] != nil {
            let row = gestureRows[expected] ?? [:]
            try printLine(expected.padding(width) + gestures.map { "\(row[$0] ?? 0)".leftPadding(width) }.joined())
        }
        try printLine("")
        try printLine("outcome confusion (tuned; rows: label, columns: replay)")
        // Rows: every label's outcome, `any` for a label that gives none (it was left out, and with
        // it every such file); columns: what a replay gives.
        let outcomeRows = r.best.confusion.outcome
        let outcomes = ["finish", "cancel", "none"]
        let labels = outcomes + outcomeRows.keys.filter { !outcomes.contains($0) }.sorted()
        let columns = outcomes + Set(outcomeRows.values.flatMap(\.keys)).subtracting(outcomes).sorted()
        try printLine("            " + columns.map { $0.leftPadding(8) }.joined())
        for expected in labels {
            let row = outcomeRows[expected] ?? [:]
            try printLine(expected.padding(12) + columns.map { "\(row[$0] ?? 0)".leftPadding(8) }.joined())
        }
        let lists = r.beatsDefaults ? [("the tuned settings", r.best), ("the defaults", r.defaults)] : [("the defaults", r.defaults)]
        for (name, scored) in lists {
            let wrong = scored.perFile.filter { !$0.correct }
            try printLine("")
            guard !wrong.isEmpty else { try printLine("\(name) get every file right"); continue }
            try printLine("files \(name) get wrong:")
            for f in wrong { try printLine("  \(oneLine(f.file)): \(f.mismatchText)") }
        }
        if let agreements = r.libinput, let first = agreements.first {
            try printLine("")
            try printLine("agreement with libinput \(first.version) on \(first.files) touchpad recordings "
                          + "(pinches, swipes, scrolls and holds; see `pinchlab libinput --help`):")
            for a in agreements {
                try printLine("  \(a.settings.padding(9)) \(a.matched) matched, \(a.libinputOnly) libinput only, "
                              + "\(a.pinchlabOnly) pinchlab only: \(format(a.ratio, decimals: 2))")
            }
            if first.lateFiles > 0 {
                try printLine("  (\(first.lateFiles) of the libinput runs still read events late: its timers may have decided otherwise)")
            }
        }
        let seedWrong = r.seedRule.perFile.filter { !$0.outcomeCorrect && $0.gestureCorrect }
        if !seedWrong.isEmpty {
            try printLine("")
            try printLine("the seed rule (progress > 0.5, no velocity) decides these wrong:")
            for f in seedWrong { try printLine("  \(oneLine(f.file)): \(f.mismatchText)") }
        }
    }

    /// The held-out accuracy of the search against the defaults', fold by fold, and what it means:
    /// the settings changed, each with its gain, or why none is.
    func printVerdict(_ r: Tuner.Report) throws {
        try printLine("")
        guard let cv = r.crossValidation else {
            // Why is the warning's to say (noHeldOutEstimate), once.
            try printLine("no cross-validation: the defaults are kept, no setting changed")
            return
        }
        try printLine("held out (\(cv.method), \(cv.folds) folds: each fold's files scored with the settings the whole search "
                      + "chose without them):")
        try printLine("  tuned     \(format(cv.heldOutAccuracy * 100, decimals: 1))%, \(cv.heldOutCorrect)/\(cv.files)")
        try printLine("  defaults  \(format(cv.defaultsHeldOutAccuracy * 100, decimals: 1))%, \(cv.defaultsHeldOutCorrect)/\(cv.files)")
        for fold in cv.perFold {
            let what = fold.heldOutDevice.map { "device \"\(oneLine($0))\"" } ?? "fold \(fold.fold)"
            let moved = fold.moved.isEmpty ? "moved nothing"
                : "moved " + fold.moved.map { "\($0.key) \(Self.number($0.value))" }.joined(separator: ", ")
            try printLine("  \(what): held out \(fold.heldOutCorrect)/\(fold.heldOutFiles) "
                          + "(\(format(fold.heldOutAccuracy * 100, decimals: 1))%), trained on \(fold.trainingFiles) "
                          + "(\(format(fold.trainingAccuracy * 100, decimals: 1))%), \(moved)"
                          + (fold.wrong.isEmpty ? "" : "; wrong: " + fold.wrong.map(oneLine).joined(separator: ", ")))
        }
        try printLine("")
        if r.beatsDefaults {
            try printLine("changed settings (each let move only because that raised the held-out accuracy):")
            for change in r.changes { try printLine("  " + Self.text(change)) }
            return
        }
        try printLine("the defaults are as good as anything found; no setting changed")
        if !r.changes.isEmpty {
            try printLine("(on all \(r.best.files) files the search would change the settings below, but as a whole it does not "
                          + "beat the defaults on files it did not see)")
            for change in r.changes { try printLine("  " + Self.text(change)) }
        }
    }

    /// "touchpadRecognizer.minMoveMM 1.5 -> 2: held out 35/42 -> 38/42 (+7.1%); fixes a, b, c; breaks d".
    static func text(_ change: Tuner.SettingChange) -> String {
        func files(_ names: [String]) -> String { names.isEmpty ? "nothing" : names.map(oneLine).joined(separator: ", ") }
        return "\(change.key) \(number(change.defaultValue)) -> \(number(change.value)): " + change.heldOut.sentence(listing: files)
    }

    /// A setting's value as a settings file shows it, to at most 3 decimals; an off rule as `null`.
    static func number(_ value: Double?) -> String {
        value.map { FixedPoint.string($0, decimals: 3, trimmingZeros: true) } ?? "null"
    }

    /// A normalized margin as a percentage of its setting's range: "0.7%".
    static func percent(_ fraction: Double) -> String { format(fraction * 100, decimals: 1) + "%" }
}

/// Progress of a tuning run on stderr: in place on a terminal; elsewhere (CI logs) a line every
/// `lineIntervalSeconds`, so short runs stay quiet. Only this display reads the wall clock.
final class TuneProgress: @unchecked Sendable {
    static let lineIntervalSeconds = 5.0
    private let onTerminal: Bool
    private let lock = NSLock()
    private let started = MonotonicClock.seconds()
    private var lastLine = MonotonicClock.seconds()

    init(onTerminal: Bool) { self.onTerminal = onTerminal }

    func report(_ done: Int, of total: Int) {
        lock.lock()
        defer { lock.unlock() }
        if onTerminal {
            try? StandardStream.error.write("\rtuning: \(done)/\(total) cross-validated searches done".utf8)
            if done == total { try? StandardStream.error.write("\n".utf8) }
            return
        }
        let now = MonotonicClock.seconds()
        guard now - lastLine >= Self.lineIntervalSeconds, done < total else { return }
        lastLine = now
        let elapsed = now - started
        let remaining = done > 0 ? elapsed / Double(done) * Double(total - done) : 0
        try? StandardStream.error.write(("tuning: \(done)/\(total) cross-validated searches done, "
            + "about \(Int(remaining.rounded(.up))) s left\n").utf8)
    }
}

extension HeldOutEffect {
    /// "held out 7/10 -> 9/10 (+20.0%); fixes a, b; breaks nothing", the files as `listing` shows them:
    /// what `tune` and `tune --for TOOL` say of each setting they moved.
    func sentence(listing: ([String]) -> String) -> String {
        "held out \(correctBefore)/\(files) -> \(correctAfter)/\(files) (+\(format(gain * 100, decimals: 1))%); "
            + "fixes \(listing(fixes)); breaks \(listing(breaks))"
    }
}
