import ArgumentParser
import Foundation
import GestureKit
import GestureLab

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

        --json prints JSON Lines: {"type":"gesture",...}, {"type":"transition",...}, and a last \
        {"type":"summary",...} line (schema in the README).

        Ctrl-C stops the replay as if the recording ended there: a gesture in flight is cancelled, \
        the summary is still printed, and the exit status is 130.
        """
    )

    @OptionGroup var recording: RecordingOptions
    @OptionGroup var transition: TransitionOptions

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

    func validate() throws {
        if json && summary { throw ValidationError("--json and --summary are alternatives; choose one") }
        if (explain || trace) && (json || summary) {
            throw ValidationError("--explain and --trace print readable lines; they cannot be combined with --json or --summary")
        }
        if let speed, !(speed > 0 && speed.isFinite) { throw ValidationError("--speed must be a positive factor, got \(speed)") }
    }

    func run() throws {
        try reportingErrors {
            StopSignals.install()
            var source = try recording.open()
            let settings = try transition.settings()
            var run = try ReplayRun(device: source.device, transition: transition.transition, settings: settings,
                                    recordsStateChanges: explain || trace)
            let writer = JSONLineWriter()
            var human = HumanOutput()
            human.explains = explain
            human.traces = trace
            if !json && !summary {
                try printLine("\(recording.displayName): \(transition.transition), policy \(settings.policy)")
            }
            var writeError: Error?
            let result = run.run(&source, name: recording.displayName, pacer: speed.map { RealTimePacer(speed: $0) },
                                 shouldStop: { StopSignals.requested || writeError != nil }) { record in
                guard writeError == nil else { return }
                do {
                    if json {
                        try writer.write(record)
                    } else if !summary, let line = human.line(for: record) {
                        try printLine(line)
                    }
                } catch { writeError = error }
            }
            if let writeError { throw writeError as? CLIError ?? CLIError(status: .ioError, message: "writing output: \(writeError)") }
            try printSummary(result, of: source)
        }
    }

    /// The summary (JSON or human), then the run's ending as the command line reports it: the bad
    /// data's error (status 65), an interruption (130), or a warning about a cut-off last frame.
    private func printSummary(_ result: ReplayRun.Result, of source: any InputEventSource) throws {
        if json || summary {
            try JSONLineWriter().write(result.summary)
        } else {
            for line in HumanOutput.summary(result.summary) { try printLine(line) }
        }
        try reportEnding(result, of: source)
    }
}
