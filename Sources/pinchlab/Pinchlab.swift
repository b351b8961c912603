import ArgumentParser
import Foundation
import GestureCore
import GestureKit

@main
struct Pinchlab: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pinchlab",
        abstract: "A gesture-input replay and interactive-transition lab for Linux touchpads and touchscreens.",
        discussion: """
        Touch events from an evdev device or a recording (evemu, `libinput record` or an evtest log) are assembled into \
        frames, recognized as pinches and pans, and drive a percent-driven interactive transition that \
        finishes or cancels by a policy you can tune.

        Try it on the bundled demo:
          pinchlab replay Fixtures/corpus/touchpad/pinch-in-slow-finish-01.evemu \\
              --transition pinch-dismiss

        Exit status: \(ExitStatus.summary)
        """,
        version: PinchlabVersion.text,
        subcommands: [ReplayCommand.self, LiveCommand.self, RecordCommand.self, ServeCommand.self, StatsCommand.self, ConvertCommand.self, PlotCommand.self, ViewCommand.self, ReportCommand.self, TuneCommand.self, LibinputCommand.self, CheckCommand.self, LabelCommand.self, DevicesCommand.self, GenerateCorpusCommand.self]
    )

    /// ArgumentParser's `main`, with pinchlab's signal policy (`SignalPolicy`) in force from the
    /// start, and its errors shown as every other message is: a usage error quotes the command line
    /// (`--transition $'\e]0;X\a'`, an unknown option `--$'\e[2J'`), whose control and invisible
    /// characters must not reach the terminal (`TerminalText`). Help, version and completion
    /// scripts (status 0, on stdout) are pinchlab's own text and are printed as they are (a help
    /// request for a subcommand is thrown by ArgumentParser's own command's `run()`, so the errors
    /// of `run()` come here too; every command reports its own with `reportingErrors`).
    static func main() {
        SignalPolicy.install()
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            exit(withEscapedError: error)
        }
    }

    /// `exit(withError:)`, the message escaped line by line (`TerminalText.escapedLines`).
    static func exit(withEscapedError error: Error) -> Never {
        var code = exitCode(for: error)
        let text = fullMessage(for: error)
        if !text.isEmpty {
            if code == .success {
                do {
                    try StandardStream.output.write((text + "\n").utf8)
                } catch {
                    printError("pinchlab: \(error)")
                    code = ExitStatus.ioError.exitCode
                }
            } else {
                try? StandardStream.error.write((TerminalText.escapedLines(text) + "\n").utf8)
            }
        }
        Foundation.exit(code.rawValue)
    }
}
