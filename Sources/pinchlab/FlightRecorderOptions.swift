import ArgumentParser
import Foundation
import GestureCore
import GestureLab
import InteractiveTransition

extension AutomaticDump: ExpressibleByArgument {}

/// `live`'s flight recorder: how much to keep, when to dump, where.
struct FlightRecorderOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Keep the last SECONDS of raw events (0...3600; 0 turns the flight recorder off) for a dump: SIGUSR1, the d key in the view, the --web page's Dump button, or --dump-on.",
        valueName: "seconds"))
    var keep: Double = 60

    @Option(help: ArgumentHelp("Also dump by itself on every attempt that cancelled, every gesture that failed, or every attempt's end.",
                               valueName: "moment"))
    var dumpOn: AutomaticDump?

    @Option(help: ArgumentHelp("Where dumps go, as pinchlab-YYYYMMDD-HHMMSS.yml (default: the current directory).", valueName: "dir"),
            completion: .directory)
    var dumpDir: String?

    /// Where dumps go: --dump-dir, or the current directory.
    var dumpDirectory: String { dumpDir ?? "." }

    @Flag(help: "Also make a bug report archive (see `pinchlab report`) of every dump, beside it.")
    var report = false

    var isOn: Bool { keep > 0 }

    /// Checks where dumps go before the session starts. A --dump-dir given that cannot be written
    /// in is refused; the default, the current directory, is only warned about: live is started
    /// from anywhere (/, a read-only checkout) by someone who may never dump, and a dump asked
    /// for there fails with a warning of its own.
    func checkDumpDirectory() throws {
        guard isOn else { return }
        if let dumpDir { return try FlightDumper.checkDirectory(dumpDir) }
        do {
            try FlightDumper.checkDirectory(dumpDirectory)
        } catch let error as CLIError {
            printError("pinchlab: warning: dumps go to the current directory, but \(error.message) (--dump-dir DIR puts them elsewhere)")
        }
    }

    func validate() throws {
        guard FlightRecorder.secondsRange.contains(keep) else {
            throw ValidationError("--keep must be a number of seconds in 0...3600 (0 turns the flight recorder off), got \(keep)")
        }
        if keep == 0 && (dumpOn != nil || report) {
            throw ValidationError("--keep 0 turns the flight recorder off: --dump-on and --report need it on")
        }
        if dumpDir?.isEmpty == true { throw ValidationError("--dump-dir needs a directory") }
    }
}

/// The flight recorder of one live session and what dumps it: notes every event and line, and
/// hands a snapshot to the dumper when a dump is asked for (or `--dump-on` says).
final class FlightSession {
    let recorder: FlightRecorder
    private let options: FlightRecorderOptions
    private let dumper: FlightDumper?
    private let node: String
    private let settings: LabSettings
    private let transition: TransitionName
    private var automatic: DumpTrigger?

    /// Told what became of every dump asked for (the live page shows it); from any thread.
    private let announce: (@Sendable (DumpOutcome) -> Void)?

    init(options: FlightRecorderOptions, device: DeviceDescription, node: String, stateAtOpen: [InputEvent],
         settings: LabSettings, transition: TransitionName, announce: (@Sendable (DumpOutcome) -> Void)? = nil) {
        self.announce = announce
        self.options = options
        self.node = node
        self.settings = settings
        self.transition = transition
        recorder = FlightRecorder(seconds: options.keep, device: device, stateAtOpen: stateAtOpen)
        dumper = options.isOn ? FlightDumper(directory: options.dumpDirectory, makesReport: options.report, announce: announce) : nil
    }

    @inline(__always)
    func note(_ event: InputEvent) { recorder.note(event) }

    func note(_ record: LabRecord) {
        recorder.note(record)
        if let dumpOn = options.dumpOn, dumpOn.isTriggered(by: record) { automatic = dumpOn.trigger }
    }

    /// Takes a dump request (or an automatic one) and hands a snapshot to the dumper. `origin`:
    /// the session's first event (`ReplayPipeline.origin`), nil before any.
    @inline(__always)
    func dumpIfAsked(origin: EventTime?) {
        guard let trigger = DumpRequest.take() ?? automatic else { return }
        automatic = nil
        guard let dumper else {
            printError("pinchlab: warning: a dump (\(trigger.rawValue)) was asked for, but --keep 0 turned the flight recorder off")
            return
        }
        guard let snapshot = origin.flatMap(recorder.snapshot(origin:)) else {
            printError("pinchlab: warning: a dump (\(trigger.rawValue)) was asked for before the device sent a whole frame: nothing to dump yet")
            announce?(.notMade(reason: "the device has not sent a whole frame yet"))
            return
        }
        dumper.dump(FlightDump(snapshot: snapshot, node: node, settings: settings, transition: transition,
                               version: PinchlabVersion.text, trigger: trigger, system: .current()))
    }

    func finish(origin: EventTime?) {
        dumpIfAsked(origin: origin)
        dumper?.finish()
    }
}

/// Single key presses from a terminal on stdin (no Enter, no echo) while live's view runs; the
/// terminal's settings are restored by `restore()`.
final class KeyPresses {
    private var saved = termios()
    private let active: Bool

    init() {
        guard isatty(STDIN_FILENO) != 0, tcgetattr(STDIN_FILENO, &saved) == 0 else {
            active = false
            return
        }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        active = tcsetattr(STDIN_FILENO, TCSANOW, &raw) == 0
    }

    /// Whether `key` was pressed since the last call (other keys are passed over). Never blocks.
    func pressed(_ key: Character) -> Bool {
        guard active else { return false }
        var found = false
        var poller = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        var byte: UInt8 = 0
        while poll(&poller, 1, 0) > 0, poller.revents & Int16(POLLIN) != 0, read(STDIN_FILENO, &byte, 1) == 1 {
            if Character(Unicode.Scalar(byte)) == key { found = true }
        }
        return found
    }

    func restore() {
        if active { tcsetattr(STDIN_FILENO, TCSANOW, &saved) }
    }
}
