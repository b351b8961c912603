import ArgumentParser
import Foundation
import GestureKit
import GestureLab
import InteractiveTransition

struct TuneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tune",
        abstract: "Search recognizer thresholds and the finish/cancel policy on a labelled corpus.",
        usage: "pinchlab tune <corpus> [--folds <k> | --by-device] [<options>]",
        discussion: """
        Every recording in CORPUS (listed with its label in CORPUS/manifest.json) is replayed with \
        recognizer settings found by a search that starts at the defaults and moves one threshold at \
        a time, keeping a move only when it scores better; each finish/cancel policy of a grid \
        (progress threshold, velocity projection's deceleration rate, flick velocity) is scored on \
        the releases. A file counts as right when the recognized gesture (kind and fingers) and the \
        transition's outcome match its label; ties go to fewer wrong gestures, then earlier begins \
        (in steps of 2 ms), then fewer changed thresholds. The report compares the best settings \
        with the shipped defaults and with the seeds' fixed rule (finish when progress > 0.5, no \
        velocity). Deterministic; uses all cores.

        Examples:
          pinchlab tune Fixtures/corpus
          pinchlab tune Fixtures/corpus --budget 200 --write tuned.json
          pinchlab replay bug.evemu --config tuned.json
        """
    )

    @Argument(help: "A corpus directory with manifest.json (e.g. Fixtures/corpus).", completion: .directory)
    var corpus: String

    @Flag(help: "Print one JSON object: best, defaults, seedRule (each with accuracy), confusion matrices.")
    var json = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Recognizer settings the search may replay per device class (the defaults are always one).", valueName: "n"))
    var budget: Int = Tuner.defaultBudget

    @Option(help: ArgumentHelp("Save the best settings here, for `replay`/`live --config`.", valueName: "file"), completion: .file(extensions: ["json"]))
    var write: String?

    @Option(help: ArgumentHelp("Cross-validate with K folds (default: \(Tuner.defaultFolds) when the corpus has \(Tuner.minimumFiles) files or more; 0: none).",
                               valueName: "k"))
    var folds: Int?

    @Flag(name: .customLong("by-device"), help: "Cross-validate leaving one device (by name) out at a time, instead of K folds.")
    var byDevice = false

    @Option(name: .customLong("fail-under"),
            help: ArgumentHelp("Exit 1 when the best settings' accuracy is below this fraction (0 to 1, e.g. 0.95).", valueName: "accuracy"))
    var failUnder: Double?

    @Flag(name: .customLong("with-libinput"),
          help: "Also run Debian's libinput on each touchpad recording (in real time, about as long as the recordings) and report how the best settings and the defaults agree with it.")
    var withLibinput = false

    func validate() throws {
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
                if let write { try printLine("best settings written to \(write)") }
            }
            for warning in report.warnings { printError("pinchlab: warning: " + Self.text(warning)) }
            if let failUnder, report.best.accuracy < failUnder {
                printError("pinchlab: the best settings score \(format(report.best.accuracy * 100, decimals: 1))%, "
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
                + "(\(Tuner.searchedThresholdCount) thresholds per device class, \(Tuner.policyCandidates().count) policies) can fit that many "
                + "files by chance, so the best settings' accuracy on them says little about new recordings; "
                + "label more (pinchlab label) before trusting the thresholds"
        case .classTooSmall(let deviceClass, let files, let minimum):
            return "only \(files) \(deviceClass) recording\(files == 1 ? "" : "s") (fewer than \(minimum)): "
                + "the \(deviceClass) recognizer settings are fitted on too few to generalize"
        case .noHeldOutEstimate:
            return "no cross-validation: the accuracies above are on the very files tuned on (use --folds K or --by-device "
                + "for an estimate on recordings the tuning has not seen)"
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
                  + "\(r.recognizerCandidates) recognizer settings x \(r.policyCandidates) policies, \(r.replays) replays")
        try printLine("")
        let baselines = r.baselines.map { ("preset \($0.preset)", $0.scored) }
        let rows = [("best", r.best), ("defaults", r.defaults), ("seed rule", r.seedRule)] + baselines
        // The name column fits the longest name ("preset android-back" ran into the figures).
        let nameWidth = max(18, (rows.map(\.0.count).max() ?? 0) + 1)
        try printLine("".padding(nameWidth + 1) + "accuracy  correct  wrong gesture  wrong outcome  mean begin latency")
        for (name, s) in rows {
            let latency = s.meanBeginLatencyMS.map { "\(format($0, decimals: 0)) ms" } ?? "-"
            try printLine(name.padding(nameWidth) + (format(s.accuracy * 100, decimals: 1) + "%").leftPadding(9)
                      + "\(s.correct)/\(s.files)".leftPadding(9) + "\(s.wrongGesture)".leftPadding(15)
                      + "\(s.wrongOutcome)".leftPadding(15) + latency.leftPadding(20))
        }
        try printLine("")
        try printLine("best policy: \(r.best.settings.policy)")
        for (label, tuned, base) in [("touchpad", r.best.settings.touchpadRecognizer, GestureRecognizerConfiguration.default),
                                     ("touchscreen", r.best.settings.touchscreenRecognizer, GestureRecognizerConfiguration.touchscreen)] {
            guard let tuned else { continue }
            let changes = Self.differences(tuned, base)
            try printLine("best recognizer (\(label)): " + (changes.isEmpty ? "the defaults" : changes.joined(separator: ", ")))
        }
        try printLine("")
        try printLine("gesture confusion (best; rows: label, columns: replay; kind and fingers)")
        let gestureRows = r.best.confusion.gesture
        let gestures = Set(gestureRows.keys).union(gestureRows.values.flatMap(\.keys)).sorted()
        let width = max(8, (gestures.map(\.count).max() ?? 0) + 2)
        try printLine("".padding(width) + gestures.map { $0.leftPadding(width) }.joined())
        for expected in gestures where gestureRows[expected] != nil {
            let row = gestureRows[expected] ?? [:]
            try printLine(expected.padding(width) + gestures.map { "\(row[$0] ?? 0)".leftPadding(width) }.joined())
        }
        try printLine("")
        try printLine("outcome confusion (best; rows: label, columns: replay)")
        let outcomes = ["finish", "cancel", "none"]
        try printLine("            " + outcomes.map { $0.leftPadding(8) }.joined())
        for expected in outcomes {
            let row = r.best.confusion.outcome[expected] ?? [:]
            try printLine(expected.padding(12) + outcomes.map { "\(row[$0] ?? 0)".leftPadding(8) }.joined())
        }
        for (name, scored) in [("the best settings", r.best), ("the defaults", r.defaults)] {
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
        if let cv = r.crossValidation {
            try printLine("")
            try printLine("held out (\(cv.method), \(cv.folds) folds: each fold scored with settings tuned without it): "
                          + "\(format(cv.heldOutAccuracy * 100, decimals: 1))%, \(cv.heldOutCorrect)/\(cv.files)")
            for fold in cv.perFold {
                let what = fold.heldOutDevice.map { "device \"\(oneLine($0))\"" } ?? "fold \(fold.fold)"
                try printLine("  \(what): held out \(fold.heldOutCorrect)/\(fold.heldOutFiles) "
                              + "(\(format(fold.heldOutAccuracy * 100, decimals: 1))%), trained on \(fold.trainingFiles) "
                              + "(\(format(fold.trainingAccuracy * 100, decimals: 1))%)"
                              + (fold.wrong.isEmpty ? "" : "; wrong: " + fold.wrong.map(oneLine).joined(separator: ", ")))
            }
        }
        let seedWrong = r.seedRule.perFile.filter { !$0.outcomeCorrect && $0.gestureCorrect }
        if !seedWrong.isEmpty {
            try printLine("")
            try printLine("the seed rule (progress > 0.5, no velocity) decides these wrong:")
            for f in seedWrong { try printLine("  \(oneLine(f.file)): \(f.mismatchText)") }
        }
    }

    /// The recognizer settings that differ from the defaults, as `name value`, from the table (the
    /// device's traits are the recording's, not tuned).
    static func differences(_ a: GestureRecognizerConfiguration, _ b: GestureRecognizerConfiguration) -> [String] {
        GestureRecognizerConfiguration.settings.differences(a, from: b)
            .filter { !$0.key.hasPrefix("device.") }
            .map { "\($0.key) \($0.value)" }
    }
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
            guard done % 8 == 0 || done == total else { return }
            try? StandardStream.error.write("\rtuning: \(done)/\(total) recognizer settings replayed".utf8)
            if done == total { try? StandardStream.error.write("\n".utf8) }
            return
        }
        let now = MonotonicClock.seconds()
        guard now - lastLine >= Self.lineIntervalSeconds, done < total else { return }
        lastLine = now
        let elapsed = now - started
        let remaining = done > 0 ? elapsed / Double(done) * Double(total - done) : 0
        try? StandardStream.error.write(("tuning: \(done)/\(total) recognizer settings replayed, "
            + "about \(Int(remaining.rounded(.up))) s left\n").utf8)
    }
}
