import ArgumentParser
import Foundation
import GestureCore
import GestureLab
import GestureTools
import InteractiveTransition
import LabReports

struct ViewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "view",
        abstract: "Write a replay as one HTML page to watch it: fingers, the transition's scene, a timeline.",
        usage: "pinchlab view <file> [-o <out.html>] [--compare <policy>] [<options>]",
        discussion: """
        The page shows, in sync, the fingers on the touch surface (at its real aspect ratio, with \
        short trails and the thumb band), the transition's scene as pinchlab computed it at that \
        moment (the card, the dimming behind it), and a timeline of the progress, the threshold, \
        the gestures, every attempt, each release with its projected progress and the policy's \
        decision. Play, pause, change the speed (0.1x to 2x), scrub, step one frame with the \
        arrow keys and jump between attempts (Page Up/Down). --compare draws a second policy's \
        card as a dashed ghost. The page is one file that needs no network.

        Open it at a moment with #t=SECONDS (file:///.../bug.html#t=2.5). --tool NAME (with \
        --tool-config) adds what that gesture tool fired, fed as `replay --tool` feeds it: a bar \
        under the gestures and, from the moment it acted, its line in the facts.

        Examples:
          pinchlab view Fixtures/corpus/touchpad/pinch-in-quick-flick-01.evemu
          pinchlab view bug.yml --transition pan-dismiss -o bug.html --compare seed
          pinchlab view swipe.evemu --tool touchegg --tool fusuma
        """
    )

    @OptionGroup var recording: RecordingOptions
    @OptionGroup var transition: TransitionOptions

    @Option(name: .shortAndLong, help: ArgumentHelp("The HTML file to write (default: FILE's name with .html, in the current directory).",
                                                    valueName: "out.html"), completion: .file(extensions: ["html"]))
    var output: String?

    @Option(help: ArgumentHelp("Also replay under this policy preset (\(CompletionPolicyPreset.allCases.map(\.rawValue).joined(separator: ", "))) and draw its card as a ghost.",
                               valueName: "policy"))
    var compare: CompletionPolicyPreset?

    @OptionGroup var toolOptions: ToolOptions

    /// Where the page goes: without -o, into the current directory, never next to the recording
    /// (often someone else's folder, or one that may not be written).
    var outputPath: String {
        if let output { return output }
        let name = URL(fileURLWithPath: recording.file).deletingPathExtension().lastPathComponent
        return FileManager.default.currentDirectoryPath + "/" + name + ".html"
    }

    func validate() throws {
        if output == nil && recording.file == "-" {
            throw ValidationError("reading standard input, -o OUT.html says where to write the page")
        }
        try recording.refuseOutput(outputPath, also: transition.inputPaths, doing: "writing the page over it")
    }

    func run() throws {
        try reportingErrors {
            let reader = try recording.open()
            var source: any InputEventSource = reader
            let settings = try transition.settings()
            let compared = compare.map { (name: $0.rawValue, policy: $0.policy) }
            var replay = try ViewerReplay(device: source.device, transition: transition.transition, settings: settings,
                                          compare: compared)
            let name = (recording.displayName as NSString).lastPathComponent
            let tools = try ReplayTools(options: toolOptions, compared: [], device: source.device, fromLibinput: false)
            var (document, result) = replay.run(&source, title: "\(name) — \(transition.transition)",
                                                source: recording.displayName, policyName: transition.policyName,
                                                tap: tools.isEmpty ? nil : { tools.consume($0) })
            if let verdicts = tools.verdicts(libinput: nil, device: reader.device) {
                document.tools = verdicts.map(\.name.rawValue)
                document.entries += verdicts.flatMap { verdict in
                    verdict.fired.map { ViewerEntry.tool(name: verdict.name.rawValue, begin: $0.begin, end: $0.end, executed: $0.executed,
                                                         text: $0.text) }
                }
            }
            warnAboutRecording(reader, .ignored)
            try OutputFile.write(to: outputPath, what: "page") { out in try ViewerPage.write(document) { try out.write($0) } }
            // As replay and plot end: the page of what was read (it says it stopped early), then
            // the reader's error and its status.
            if let error = result.error { throw error }
            let summary = result.summary
            printError("pinchlab: wrote \(outputPath) (\(summary.transition) \(summary.attemptsText); "
                       + "\(format(summary.duration, decimals: 3)) s)")
            // As replay and plot say it: a page of a transition that never moves is worth a hint.
            if let hint = summary.hint { printError("pinchlab: hint: \(hint.text)") }
        }
    }
}
