import ArgumentParser
import Foundation
import GestureCore
import GestureLab
import GestureTools
import InteractiveTransition
import LabReports

struct PlotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plot",
        abstract: "Draw a replay as an SVG picture: finger tracks, scale or translation, progress and outcome.",
        usage: "pinchlab plot <file> -o <out.svg> [--transition <name>] [<options>]",
        discussion: """
        The picture shows the fingers' tracks on the device's surface and zoomed to where they \
        moved (numbered, fading in from touch-down to lift, with a scale bar); the chart of the \
        gesture that drives the transition (a pinch's scale, or a pan's translation on both axes); \
        and the transition's progress with the threshold line. At each release: a dot, an arrow \
        along the release velocity, a dashed line to the progress the policy projected, and the \
        decision's reason beside it. Idle stretches over a second are cut out of the time axis \
        (marked with their length); --from/--to crop, --trial draws one attempt alone. A legend \
        names every mark; what happened is written out beside the charts. Plain SVG, to open in a \
        browser. A recording that turns bad part-way is drawn up to the bad line, then the error \
        is printed (status 65), as `replay` does. --tool (or a tool's name in --compare) adds a \
        lane per gesture tool with what it fired, fed as `replay --tool` feeds it.

        Examples:
          pinchlab plot Fixtures/corpus/touchpad/pinch-in-quick-flick-01.evemu \\
              -o flick.svg
          pinchlab plot session.evemu --transition pan-dismiss --trial 2 -o 2.svg
          pinchlab plot session.evemu --from 3.5 --to 6 -o middle.svg
          pinchlab plot swipe.evemu --tool touchegg -o swipe.svg
        """
    )

    @OptionGroup var recording: RecordingOptions
    @OptionGroup var transition: TransitionOptions

    @Option(name: .shortAndLong, help: ArgumentHelp("The SVG file to write.", valueName: "out.svg"), completion: .file(extensions: ["svg"]))
    var output: String

    @Option(parsing: .unconditional, help: ArgumentHelp("Start the picture this many seconds after the first event.", valueName: "seconds"))
    var from: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("End the picture this many seconds after the first event.", valueName: "seconds"))
    var to: Double?

    @Option(help: ArgumentHelp("Draw one attempt at the transition alone: its number in replay's list, from 1.", valueName: "n"))
    var trial: Int?

    @Option(help: ArgumentHelp("Also draw these policy presets' progress and releases, dashed (comma-separated, at most 3, e.g. gnome,kwin); a gesture tool's name is taken as --tool takes it.",
                               valueName: "presets"),
            completion: .list(CompletionPolicyPreset.allCases.map(\.rawValue) + GestureToolName.allCases.map(\.rawValue)))
    var compare: String?

    @OptionGroup var toolOptions: ToolOptions

    func validate() throws {
        try recording.refuseOutput(output, also: transition.inputPaths, doing: "writing the picture over it")
        if let from, !(from.isFinite && from >= 0) { throw ValidationError("--from must be a number of seconds >= 0, got \(from)") }
        if let to, !(to.isFinite && to > 0) { throw ValidationError("--to must be a number of seconds > 0, got \(to)") }
        if let from, let to, to <= from { throw ValidationError("--to (\(to)) must be after --from (\(from))") }
        if let trial, trial < 1 { throw ValidationError("--trial counts attempts from 1, got \(trial)") }
        let compared = try ComparedList(compare, takesTools: true).policies
        if compared.count > 3 { throw ValidationError("--compare draws at most 3 policies, got \(compared.count)") }
    }

    func run() throws {
        try reportingErrors {
            StopSignals.install()
            let reader = try recording.open()
            var source: any InputEventSource = reader
            let settings = try transition.settings()
            let list = try ComparedList(compare, takesTools: true)
            let tools = try ReplayTools(options: toolOptions, compared: list.tools, device: source.device, fromLibinput: false)
            var run = try ReplayRun(device: source.device, transition: transition.transition, settings: settings,
                                    recordsFrames: true)
            run.measuresMargins = true
            var recorder = TimelineRecorder(title: "\((recording.displayName as NSString).lastPathComponent) — \(transition.transition)",
                                            device: source.device, transition: transition.transition, policy: settings.policy,
                                            settings: settings)
            let compared = list.policies
            var comparison = try PolicyComparison(device: source.device, transition: transition.transition,
                                                  settings: settings, policies: compared)
            comparison.measuresMargins = true
            var overlays = compared.map { TimelineRecorder(title: $0.name, device: source.device,
                                                           transition: transition.transition, policy: $0.policy,
                                                           settings: settings) }
            let result = run.run(&source, name: recording.displayName, shouldStop: { StopSignals.requested },
                                 afterEvent: { comparison.consume($0) { overlays[$0].record($1) } }) {
                recorder.record($0)
                tools.consume($0)
            }
            let summary = result.summary
            if case .interrupted = result.stop {
                // A stop leaves the old picture, or none (limits.md), as convert's does: a picture
                // of part of the input must not replace it.
                printError("pinchlab: interrupted after \(summary.events) events (\(format(summary.duration, decimals: 3)) s "
                           + "of the recording); nothing was written")
                throw ExitStatus.interrupted.exitCode
            }
            _ = comparison.finish(source: recording.displayName) { overlays[$0].record($1) }
            // What was read is drawn whatever else stopped the run (bad data part-way); the ending
            // is reported after.
            var timeline = recorder.timeline(summary: summary)
            timeline.overlays = zip(compared, overlays).map { $1.overlay(name: $0.name) }
            timeline.tools = tools.verdicts(libinput: nil, device: reader.device) ?? []
            let svg: String
            do {
                svg = try TimelinePlot.svg(timeline, window: PlotWindow(from: from, to: to, trial: trial))
            } catch {
                throw CLIError(status: .usage, message: "\(messageWithAdvice(for: error)); `pinchlab replay \(recording.file)` lists the attempts and the duration")
            }
            // A stop while drawing leaves the old picture too.
            if StopSignals.requested {
                printError("pinchlab: interrupted while drawing; nothing was written")
                throw ExitStatus.interrupted.exitCode
            }
            try OutputFile.write(svg, to: output, what: "picture")
            printError("pinchlab: wrote \(output) (\(summary.transition) \(summary.attemptsText))")
            if let hint = summary.hint { printError("pinchlab: hint: \(hint.text)") }
            try reportEnding(result, of: reader)
        }
    }
}
