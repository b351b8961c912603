import ArgumentParser
import Foundation
import GestureKit
import GestureLab

struct PlotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plot",
        abstract: "Draw a replay as an SVG picture: finger tracks, scale or translation, progress and outcome.",
        usage: "pinchlab plot <file> -o <out.svg> [--transition <name>] [<options>]",
        discussion: """
        The picture shows the fingers' tracks on the device's surface and zoomed to where they \
        moved (numbered, with a scale bar); the gesture's scale (pinch) or downward translation \
        (pan) over time; the transition's progress with the threshold line; the gesture's begin, \
        the release and the finish or cancel marked on both charts; and what happened in words \
        (the gestures, the release's progress and velocity, the policy's decision). Plain SVG, \
        to open in a browser. A recording that turns bad part-way is drawn up to the bad line, then \
        the error is printed (status 65), as `replay` does.

        Example:
          pinchlab plot Fixtures/corpus/touchpad/pinch-in-quick-flick-01.evemu -o flick.svg
        """
    )

    @OptionGroup var recording: RecordingOptions
    @OptionGroup var transition: TransitionOptions

    @Option(name: .shortAndLong, help: ArgumentHelp("The SVG file to write.", valueName: "out.svg"))
    var output: String

    func validate() throws {
        try recording.refuseOutput(output, doing: "writing the picture over it")
    }

    func run() throws {
        try reportingErrors {
            StopSignals.install()
            var source = try recording.open()
            let settings = try transition.settings()
            var run = try ReplayRun(device: source.device, transition: transition.transition, settings: settings,
                                    recordsFrames: true)
            var recorder = TimelineRecorder(title: "\((recording.displayName as NSString).lastPathComponent) — \(transition.transition)",
                                            device: source.device, threshold: settings.policy.progressThreshold)
            let result = run.run(&source, name: recording.displayName, shouldStop: { StopSignals.requested }) {
                recorder.record($0)
            }
            let summary = result.summary
            // What was read is drawn whatever stopped the run; the ending is reported after.
            let svg = TimelinePlot.svg(recorder.timeline(summary: summary))
            guard FileManager.default.createFile(atPath: output, contents: Data(svg.utf8)) else {
                throw CLIError(status: .ioError, message: "\(output): cannot write the picture")
            }
            printError("pinchlab: wrote \(output) (\(summary.transition) \(summary.attemptsText))")
            if let hint = summary.hint { printError("pinchlab: hint: \(hint.text)") }
            try reportEnding(result, of: source)
        }
    }
}
