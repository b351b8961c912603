import ArgumentParser

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
}
