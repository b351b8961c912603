import ArgumentParser
import Foundation
import GestureCore
import GestureKit
import GestureLab
import GestureTools
import LibinputHarness
import InteractiveTransition
import LabReports

struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay a recording through the recognizers and a transition.",
        discussion: """
        The recording goes through the same pipeline as a live device: touch frames, the pinch/pan \
        recognizer, and the chosen transition, which finishes or cancels by the policy when the \
        fingers lift. Two replays of one file give identical output.

        Examples:
          pinchlab replay Fixtures/corpus/touchpad/pinch-in-slow-finish-01.evemu
          pinchlab replay bug.yml --transition pan-dismiss --json
          pinchlab replay old.desc --events old.events --speed 1   # in real time
          pinchlab replay Fixtures/corpus/touchpad/pinch-in-quick-flick-01.evemu \\
              --policy seed --summary
          pinchlab replay swipe.evemu --tool touchegg --tool-config touchegg.conf
          pinchlab replay phone.evemu --tool lisgd --tool-config lisgd.flags

        --json prints JSON Lines: {"type":"gesture",...}, {"type":"transition",...}, and a last \
        {"type":"summary",...} line (schema: docs/reference/json-lines.md).

        Ctrl-C stops the replay as if the recording ended there: a gesture in flight is cancelled, \
        the summary is still printed, and the exit status is 130.
        """
    )

    @OptionGroup var recording: RecordingOptions
    @OptionGroup var transition: TransitionOptions
    @OptionGroup var toolOptions: ToolOptions

    @Flag(help: "Print JSON Lines: every gesture and transition step, then the summary.")
    var json = false

    @Flag(help: "Print only the summary line (JSON).")
    var summary = false

    @Flag(help: "Say why: one sentence per decision of the recognizer (the rule and what it measured).")
    var explain = false

    @Flag(help: "Print every state change of the recognizer with its time, input, rule and evidence.")
    var trace = false

    // Unconditional, so `--speed -1` reaches validate() and its message instead of parsing as an option.
    @Option(parsing: .unconditional, help: ArgumentHelp("Play in real time scaled by this factor (1 = as recorded, 2 = twice as fast). Default: as fast as possible.",
                               valueName: "factor"))
    var speed: Double?

    @Flag(help: ArgumentHelp("Also run Debian's libinput on the recording (in real time, through a virtual device) and report its gestures and the agreement (see `pinchlab libinput --help`).",
                             visibility: .default))
    var withLibinput = false

    @Flag(help: ArgumentHelp("With --tool lisgd: also run Debian's lisgd on the recording (in real time, through a virtual device, every gesture bound) and say whether pinchlab's emulation fired the same gestures. Several lisgd files (--tool-config lisgd=FILE, repeated) are played to at once, one lisgd each, and the summary is printed for each in turn."))
    var withLisgd = false

    @Option(help: ArgumentHelp("Also decide every attempt under these policy presets (comma-separated, e.g. gnome,kwin,uikit-seed) and print them side by side; a gesture tool's name (touchegg, lisgd...) is taken as --tool takes it.",
                               valueName: "presets"), completion: .list(CompletionPolicyPreset.allCases.map(\.rawValue) + GestureToolName.allCases.map(\.rawValue)))
    var compare: String?

    func validate() throws {
        let compared = try ComparedList(compare, takesTools: true)
        if withLibinput && toolOptions.libinputVersion != nil {
            throw ValidationError("--with-libinput feeds the tools libinput's own events, in its own units: --libinput-version does not go with it")
        }
        if withLibinput && recording.file == "-" {
            throw ValidationError("--with-libinput plays the recording to libinput a second time: give a file, not standard input")
        }
        if json && summary { throw ValidationError("--json and --summary are alternatives; choose one") }
        if withLisgd && !(toolOptions.tools + compared.tools).contains(.lisgd) { throw ValidationError("--with-lisgd checks --tool lisgd: name it") }
        if withLisgd && recording.file == "-" {
            throw ValidationError("--with-lisgd plays the recording to lisgd a second time: give a file, not standard input")
        }
        if (explain || trace) && (json || summary) {
            throw ValidationError("--explain and --trace print readable lines; they cannot be combined with --json or --summary")
        }
        if let speed { try PlaySpeed.validate(speed) }
    }

    func run() throws {
        try reportingErrors {
            StopSignals.install()
            // A large file's reader runs on a thread of its own (EventReadAhead, below).
            let reader = try recording.open(readAhead: .events)
            let dump = try DumpedSession(reader, name: recording.displayName, transition: transition)
            let settings = try transition.settings(base: dump?.settings ?? .default)
            let driven = dump?.transition ?? transition.transition
            let compared = try ComparedList(compare, takesTools: true)
            let tools = try ReplayTools(options: toolOptions, compared: compared.tools, device: reader.device, fromLibinput: withLibinput,
                                        severalLisgd: withLisgd)
            var run = try ReplayRun(device: reader.device, transition: driven, settings: settings,
                                    recordsFrames: tools.needsFrames(reader.device),
                                    recordsStateChanges: explain || trace, position: dump?.position)
            // The summary's trials carry each release's margins, and --explain says them.
            run.measuresMargins = explain || json || summary
            let policies = compared.policies
            var comparison = try PolicyComparison(device: reader.device, transition: driven, settings: settings, policies: policies)
            let pacer = speed.map { RealTimePacer(speed: $0) }
            // A file replayed as fast as it reads is printed in 64 KiB writes; lines paced in real
            // time, or read from a pipe that may be live, are written as they are made.
            let lines = BufferedLines(eachLine: pacer != nil || recording.file == "-",
                                      margins: json ? run.pipeline.recognizerConfiguration : nil)
            var human = HumanOutput()
            human.explains = explain
            human.traces = trace
            if explain { human.margins = run.pipeline.recognizerConfiguration }
            if !json && !summary {
                try lines.line("\(recording.displayName): \(driven), policy \(settings.policy)")
            }
            let writeFailure = WriteFailure()
            // Decided once: reading an ArgumentParser property wrapper costs a metadata lookup, and
            // this closure runs for every record.
            let output: RecordOutput = json ? .json : summary ? .none : .human
            let emit: (LabRecord) -> Void = { record in
                tools.consume(record)
                guard writeFailure.error == nil else { return }
                do {
                    switch output {
                    case .json: try lines.write(record)
                    case .human: for line in human.lines(for: record) { try lines.line(line) }
                    case .none: break
                    }
                } catch { writeFailure.error = error }
            }
            let shouldStop = { StopSignals.requested || writeFailure.error != nil }
            let ahead = EventReadAhead.reading(reader)
            var source: any InputEventSource = reader
            if let ahead { source = ahead }
            let result = policies.isEmpty
                ? run.run(&source, name: recording.displayName, pacer: pacer, shouldStop: shouldStop, emit: emit)
                : run.run(&source, name: recording.displayName, pacer: pacer, shouldStop: shouldStop,
                          afterEvent: { comparison.consume($0) }, emit: emit)
            ahead?.stop()  // the reader's warnings are read below
            if writeFailure.error == nil {
                do { try lines.flush() } catch { writeFailure.error = error }
            }
            if let writeError = writeFailure.error { throw writeError as? CLIError ?? CLIError(status: .ioError, message: "writing output: \(writeError)") }
            let comparisons = policies.isEmpty ? nil : comparison.finish(source: recording.displayName)
            // libinput scrolls as the settings say (--set-scroll-method), so the two are compared alike.
            let libinput = try withLibinput && result.error == nil
                ? recording.playedToLibinput(scrollMethod: settings.touchpadRecognizer?.scrollMethod,
                                             forTools: !tools.isEmpty) : nil
            // One summary for each lisgd file (one, as a rule), each as that file alone would print it.
            let verdicts = tools.runs.indices.map { tools.verdicts(libinput: libinput, device: reader.device, run: $0) }
            var realLisgd = [RealToolCheck?](repeating: nil, count: verdicts.count)
            if withLisgd, result.error == nil, let index = tools.settings.firstIndex(where: { $0.name == .lisgd }) {
                let runs = try tools.runs.indices.map { run in
                    guard case .lisgd(let settings) = tools.runs[run][index].settings else { preconditionFailure("lisgd is configured as lisgd") }
                    let commandLine = try tools.runs[run][index].file.map { try LisgdSettings.commandLine($0.text, file: $0.path) }
                    return (settings: settings, commandLine: commandLine, emulated: verdicts[run]?[index].fired ?? [])
                }
                realLisgd = try recording.playedToLisgd(runs)
            }
            for run in verdicts.indices {
                if verdicts.count > 1 && !json && !summary, let file = tools.runs[run].first(where: { $0.settings.name == .lisgd })?.file {
                    try printLine("with lisgd's \(file.path):")
                }
                try printSummary(result.summary, comparisons: comparisons, libinput: libinput, tools: verdicts[run], realLisgd: realLisgd[run],
                                 policy: settings.policy)
            }
            try reportEnding(result, of: reader)
        }
    }

    /// The summary (JSON or human) with the compared policies and libinput's verdict when asked for.
    private func printSummary(_ result: LabSummary, comparisons: [PolicyComparisonRow]?, libinput: LibinputVerdict?,
                              tools: [ToolVerdict]?, realLisgd: RealToolCheck?, policy: CompletionPolicy) throws {
        let report = LabSummaryReport(summary: result, comparisons: comparisons, libinput: libinput, tools: tools, realLisgd: realLisgd)
        if json || summary {
            let writer = JSONLineWriter()
            if comparisons == nil && libinput == nil && tools == nil { try writer.write(result) } else { try writer.write(report) }
            return
        }
        for line in HumanOutput.summary(result) { try printLine(line) }
        if let comparisons {
            for line in PolicyComparisonTable.lines(used: policy, summary: result, rows: comparisons) { try printLine(line) }
        }
        if let libinput {
            for line in libinput.textLines { try printLine(line) }
            if let agreement = report.agreement { try printLine(agreement.text) }
        }
        for line in tools?.textLines ?? [] { try printLine(line) }
        if let realLisgd { try printLine(realLisgd.text) }
    }
}

/// What `replay` prints for each record, decided before the loop.
private enum RecordOutput {
    case json, human, none
}

/// The first error writing the output, read before every event (`shouldStop`). A captured local
/// `var` would be boxed and each read a dynamic exclusivity check (about 60 instructions an event);
/// only the two closures of one thread touch this.
private final class WriteFailure {
    @exclusivity(unchecked) var error: Error?
}
