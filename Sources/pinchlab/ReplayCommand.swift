import ArgumentParser
import Foundation
import GestureKit
import GestureLab
import InteractiveTransition

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

    @Flag(help: ArgumentHelp("Also run Debian's libinput on the recording (in real time, through a virtual device) and report its gestures and the agreement (see `pinchlab libinput --help`).",
                             visibility: .default))
    var withLibinput = false

    @Option(help: ArgumentHelp("Also decide every attempt under these policy presets (comma-separated, e.g. gnome,kwin,uikit-seed) and print them side by side.",
                               valueName: "presets"))
    var compare: String?

    /// The presets of --compare, in order.
    var comparedPolicies: [PolicyComparison.Policy] {
        (compare ?? "").split(separator: ",").compactMap { CompletionPolicyPreset(named: String($0)).map(PolicyComparison.Policy.init) }
    }

    func validate() throws {
        if let compare {
            let names = compare.split(separator: ",", omittingEmptySubsequences: false)
            if let unknown = names.first(where: { CompletionPolicyPreset(named: String($0)) == nil }) {
                throw ValidationError("unknown policy '\(unknown)' in --compare; choose from "
                                      + CompletionPolicyPreset.allCases.map(\.rawValue).joined(separator: ", "))
            }
        }
        if withLibinput && recording.file == "-" {
            throw ValidationError("--with-libinput plays the recording to libinput a second time: give a file, not standard input")
        }
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
            var pipeline = try ReplayPipeline(device: source.device, transition: transition.transition, settings: settings)
            var comparison = try PolicyComparison(device: source.device, transition: transition.transition,
                                                  settings: settings, policies: comparedPolicies)
            pipeline.recordsStateChanges = explain || trace
            let writer = JSONLineWriter()
            var human = HumanOutput()
            human.explains = explain
            human.traces = trace
            var pacer = speed.map { RealTimePacer(speed: $0) }
            if !json && !summary {
                try printLine("\(recording.displayName): \(transition.transition), policy \(settings.policy)")
            }
            var writeError: Error?
            let emit: (LabRecord) -> Void = { record in
                guard writeError == nil else { return }
                do {
                    if json {
                        switch record {
                        case .frame: break
                        case .gesture(let g): try writer.write(g)
                        case .transition(let t): try writer.write(t)
                        case .stateChange: break
                        }
                    } else if !summary, let line = human.line(for: record) {
                        try printLine(line)
                    }
                } catch { writeError = error }
            }
            var interrupted = false
            // Bad data part-way through ends the replay there, as the end of the recording would:
            // what was read is still reported, the gesture in flight is cancelled rather than left
            // open, and the error and status 65 follow the summary.
            var readError: Error?
            do {
                while let event = try source.nextEvent() {
                    pacer?.wait(until: event.time)
                    if StopSignals.requested {
                        interrupted = true
                        break
                    }
                    pipeline.consume(event, emit: emit)
                    comparison.consume(event)
                }
            } catch {
                readError = error
            }
            if !interrupted && readError == nil { warnAboutRecording(source, .ignored) }
            var result = pipeline.finish(source: recording.displayName, emit: emit)
            result.error = readError.map { "\($0)" }
            if let writeError { throw writeError as? CLIError ?? CLIError(status: .ioError, message: "writing output: \(writeError)") }
            let comparisons = compare == nil ? nil : comparison.finish(source: recording.displayName)
            let libinput = try withLibinput ? libinputVerdictOfRecording() : nil
            let report = LabSummaryReport(summary: result, comparisons: comparisons, libinput: libinput)
            if json || summary {
                if comparisons == nil && libinput == nil { try writer.write(result) } else { try writer.write(report) }
            } else {
                for line in HumanOutput.summary(result) { try printLine(line) }
                if let comparisons {
                    for line in PolicyComparisonTable.lines(used: settings.policy, summary: result, rows: comparisons) {
                        try printLine(line)
                    }
                }
                if let libinput {
                    for line in libinput.textLines { try printLine(line) }
                    if let agreement = report.agreement { try printLine(agreement.text) }
                }
            }
            if let readError { throw readError }
            if interrupted {
                printError("pinchlab: interrupted after \(result.events) events (\(format(result.duration, decimals: 3)) s "
                           + "of the recording); a gesture in flight was cancelled")
                throw ExitStatus.interrupted.exitCode
            }
        }
    }
}

extension ReplayCommand {
    /// The recording read again, whole, and played to libinput.
    func libinputVerdictOfRecording() throws -> LibinputVerdict {
        var source = try recording.open()
        var events: [InputEvent] = []
        while let event = try source.nextEvent() { events.append(event) }
        return try libinputVerdict(events: events, device: source.device)
    }
}

/// Sleeps so that events come out at their recorded pace (divided by `speed`). Only the pacing uses
/// the wall clock; every time in the output is still the recorded one.
struct RealTimePacer {
    let speed: Double
    private var firstEvent: EventTime?
    private var start = 0.0

    init(speed: Double) { self.speed = speed }

    mutating func wait(until time: EventTime) {
        let now = MonotonicClock.seconds()
        guard let firstEvent else {
            self.firstEvent = time
            start = now
            return
        }
        let due = start + Double(time.totalMicroseconds - firstEvent.totalMicroseconds) / 1_000_000 / speed
        if due > now { sleepSeconds(due - now) }
    }
}

/// Sleeps `seconds`, or until SIGINT/SIGTERM asks to stop.
func sleepSeconds(_ seconds: Double) {
    guard seconds > 0 else { return }
    var ts = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
    var remaining = timespec()
    while nanosleep(&ts, &remaining) != 0 && errno == EINTR && !StopSignals.requested { ts = remaining }
}
