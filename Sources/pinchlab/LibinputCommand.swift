import ArgumentParser
import Foundation
import GestureCore
import GestureLab
import GestureTools
import LibinputHarness

struct LibinputCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "libinput",
        abstract: "What libinput itself makes of a recording: its pinches, swipes, scrolls and holds.",
        usage: "pinchlab libinput <file> [--json] [--verbose] [<options>]",
        discussion: """
        The recording is served in real time on a virtual device (as `pinchlab serve` does) and \
        Debian's unmodified `libinput debug-events` reads it, with pinchlab's small preload \
        library answering libudev for the virtual node. This is what touchegg, fusuma and \
        libinput-gestures would get. It takes as long as the recording. libinput has no \
        touchscreen gestures: for a touchscreen it says so.

        --verbose runs `libinput debug-events --verbose` and passes its whole output through \
        to stderr (libinput's debug log, e.g. its gesture state machine), without setting up the \
        virtual node and the preload library by hand.

        Needs libinput-tools and FUSE (scripts/setup-debian installs both); without them the \
        exit status is 69.

        Examples:
          pinchlab libinput Fixtures/corpus/touchpad/pinch-in-slow-finish-01.evemu
          pinchlab libinput bug.yml --json
          pinchlab libinput bug.evemu --verbose   # and libinput's own debug log
          pinchlab libinput edge.evemu --scroll-method edge   # edge scrolling on
          pinchlab replay bug.evemu --with-libinput --summary   # both, side by side
        """
    )

    @OptionGroup var recording: RecordingOptions

    @Flag(help: "Print one JSON object {\"libinput\": {\"version\", \"gestures\", ...}}.")
    var json = false

    @Flag(help: "Also print libinput's own debug log (debug-events --verbose) on stderr.")
    var verbose = false

    @Option(help: ArgumentHelp("The scroll method libinput uses (debug-events --set-scroll-method): default (libinput's choice for the device), two-finger, edge or none.",
                               valueName: "method"))
    var scrollMethod: ScrollMethod = .deviceDefault

    func run() throws {
        try reportingErrors {
            // Line by line through printError, which escapes control characters: libinput's log
            // names the device as the recording does (ESC ] 0 ; ... BEL in a name retitled the terminal).
            let passThrough: @Sendable (String) -> Void = { log in
                for line in log.split(separator: "\n", omittingEmptySubsequences: false).dropLast(log.hasSuffix("\n") ? 1 : 0) {
                    printError(String(line))
                }
            }
            let verdict = try recording.playedToLibinput(scrollMethod: scrollMethod, verboseLog: verbose ? passThrough : nil)
            if json {
                try JSONLineWriter().write(LibinputOnly(libinput: verdict))
            } else {
                try printLine("\(recording.displayName):")
                for line in verdict.textLines { try printLine(line) }
            }
        }
    }

    private struct LibinputOnly: Encodable { var libinput: LibinputVerdict }
}

/// libinput's verdict through the bridge next to this binary (its errors: status 69, with advice).
func libinputVerdict(events: [InputEvent], device: DeviceDescription, scrollMethod: ScrollMethod? = nil,
                     verboseLog: (@Sendable (String) -> Void)? = nil, forTools: Bool = false) throws -> LibinputVerdict {
    let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        ?? CommandLine.arguments[0]
    var bridge = try LibinputBridge.locate(executable: executable)
    bridge.verboseLog = verboseLog
    bridge.scrollMethod = scrollMethod
    bridge.cache = LibinputRunCache.standard()
    return try bridge.verdict(events: events, device: device, forTools: forTools)
}

extension RecordingOptions {
    /// The recording read whole and played to libinput (`libinput`, `replay --with-libinput`).
    func playedToLibinput(scrollMethod: ScrollMethod? = nil, verboseLog: (@Sendable (String) -> Void)? = nil,
                          forTools: Bool = false) throws -> LibinputVerdict {
        var source = try open()
        var events: [InputEvent] = []
        while let event = try source.nextEvent() { events.append(event) }
        return try libinputVerdict(events: events, device: source.device, scrollMethod: scrollMethod, verboseLog: verboseLog,
                                   forTools: forTools)
    }
}

extension RecordingOptions {
    /// The recording read whole and played once to one Debian lisgd for each of `runs`' settings
    /// (`replay --with-lisgd`), each checked against its own emulation. `commandLine`: the user's
    /// file's own words (`LisgdSettings.commandLine`), run as written.
    func playedToLisgd(_ runs: [(settings: LisgdSettings, commandLine: [String]?, emulated: [FiredGesture])]) throws -> [RealToolCheck] {
        var source = try open()
        var events: [InputEvent] = []
        while let event = try source.nextEvent() { events.append(event) }
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let lisgd = try RealLisgd.locate(executable: executable)
        let played = try lisgd.fired(events: events, device: source.device, settings: runs.map(\.settings),
                                     commandLines: runs.map(\.commandLine))
        return zip(runs, played).map { run, real in
            RealToolCheck(tool: lisgd.tool, arguments: real.arguments, fired: real.fired, emulated: run.emulated)
        }
    }
}
