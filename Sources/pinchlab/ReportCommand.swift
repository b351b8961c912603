import ArgumentParser
import Foundation
import GestureLab

struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Make one archive of a recording for a bug report.",
        usage: "pinchlab report <recording> [-o <file>] [<options>]",
        discussion: """
        Writes a .zip an issue tracker accepts, holding pinchlab-report/: recording.yml (the \
        recording as libinput record YAML, keyboard keys masked), settings.json, summary.txt (version \
        and git commit, kernel, libinput's version, the device, what pinchlab decided and the \
        --explain text), replay.jsonl (replay --json), plot.svg, view.html, and libinput.txt \
        (libinput's verdict, when libinput is installed: it plays the recording in real time; \
        --no-libinput leaves it out). A dump of `live --keep` is replayed with its own settings and transition.

        Examples:
          pinchlab report bug.yml                       # bug-report.zip
          pinchlab report pinchlab-20250101-120000.yml -o issue.zip --no-libinput
        """
    )

    @OptionGroup var recording: RecordingOptions
    @OptionGroup var transition: TransitionOptions

    @Option(name: .shortAndLong, help: ArgumentHelp("The archive to write (default: RECORDING-report.zip beside it).", valueName: "file"),
            completion: .file(extensions: ["zip"]))
    var output: String?

    @Flag(help: "Leave libinput's verdict out (it plays the recording in real time).")
    var noLibinput = false

    func run() throws {
        try reportingErrors {
            if recording.file == "-" { throw CLIError(status: .usage, message: "report reads the recording several times: give a file, not standard input") }
            let archive = output ?? BugReport.defaultArchivePath(for: recording.file)
            try recording.refuseOutput(archive, also: transition.inputPaths, doing: "writing the report")
            try BugReport.make(recording: recording.file, output: archive, transition: transition,
                               libinput: !noLibinput, quiet: false)
            printError("pinchlab: wrote \(archive)")
        }
    }
}
