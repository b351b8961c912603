import ArgumentParser
import Foundation
import GestureCore
import GestureKit
import GestureLab
import GestureTools
import LibinputHarness
import InteractiveTransition
import LabReports

struct LiveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "live",
        abstract: "Pinch on a real touchpad or touchscreen and watch the transition follow.",
        usage: "pinchlab live [<device>] [--json] [--web [--port <n>]] [<options>]",
        discussion: """
        Opens DEVICE (or the first touchpad/touchscreen in /dev/input) and shows, updating in place, \
        the recognized gesture, the transition's progress and a drawing of the card, then what the \
        policy decided and why, and the completion animating to its end; every line fits the \
        terminal's width. Without a terminal it prints one line per step, as `replay` does; with \
        --json, the same JSON Lines as `replay --json` (one line per step, written at once) and the \
        summary line when it stops.

        It stops on Ctrl-C/SIGTERM, when the device goes away (a gesture in flight is cancelled, not \
        left open; exit status 69), or after --exit-after-idle seconds without events. Fingers \
        already down when it starts are seen (a gesture under way is recognized from there). A \
        device that is not a touchpad or touchscreen is refused (exit status 69).

        Permissions: reading /dev/input/eventN needs membership of the input group (sudo usermod \
        -aG input $USER, then log in again) or a udev rule; without it, exit status 77. live only \
        reads the device and does not grab it (no EVIOCGRAB), so the desktop sees the same \
        fingers and reacts to the same pinch: try it in a window that ignores pinches, or on a \
        served recording (below).

        --web also serves the viewer page (see `pinchlab view`) on http://127.0.0.1:8765/ \
        (--port N, 0 for a free one; --bind ADDR to listen beyond loopback; it answers only requests \
        for loopback names and that address, others get 421) and streams every \
        record to it as it happens; several tabs may watch, and a tab that reconnects catches \
        up. A tab that falls more than --page-buffer KiB behind (4096 by default) is disconnected, \
        and stderr says so (a browser reconnects and catches up); the catch-up a tab gets first \
        holds at most the last 32 MiB of the session. The URL is printed first, on stderr.

        Flight recorder: the last --keep seconds (60; 0 turns it off) of raw events are kept, and \
        SIGUSR1, the d key in the view, the --web page's Dump button, or --dump-on cancelled|failed|every-release writes them to \
        --dump-dir as pinchlab-YYYYMMDD-HHMMSS.yml, a libinput record file that `pinchlab replay` \
        replays to the lines live printed (--report also makes `pinchlab report`'s archive of it). \
        See docs/guide-report.md.

        No touchpad here? Serve a recording as a virtual device and go live on it:
          pinchlab serve Fixtures/corpus/touchpad/pinch-in-slow-finish-01.evemu \\
              --at /tmp/vdev --loop &
          pinchlab live /tmp/vdev/event0
        """
    )

    @Argument(help: "The device node (default: the first touchpad or touchscreen in /dev/input).", completion: .file())
    var device: String?

    @OptionGroup var transition: TransitionOptions

    @Flag(help: "Print JSON Lines instead of the live view.")
    var json = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Stop after this many seconds without events.", valueName: "seconds"))
    var exitAfterIdle: Double?

    @OptionGroup var webOptions: LiveWebOptions

    @OptionGroup var flightOptions: FlightRecorderOptions

    @OptionGroup var toolOptions: ToolOptions

    func validate() throws {
        try IdleLimit.validate(exitAfterIdle)
    }

    /// Opens `path` and makes sure it is a touch device: a keyboard or mouse would run silently
    /// forever, never making a touch. (`record` records any device.)
    static func openTouchDevice(_ path: String) throws -> EvdevDevice {
        let input = try EvdevDevice(path: path)
        let deviceClass = input.device.deviceClass
        guard deviceClass == .touchpad || deviceClass == .touchscreen else {
            throw CLIError(status: .deviceUnavailable, message: "\(path) (\"\(input.device.name)\") is classified as "
                + "'\(deviceClass.rawValue)', not a touchpad or touchscreen: live recognizes touch gestures only. "
                + "'pinchlab devices' lists the touch devices ('pinchlab record' still records this one).")
        }
        return input
    }

    /// The view refreshes at most this often, and the completion animation advances at this rate
    /// while no events arrive.
    static let refreshIntervalMS: Int32 = 16

    func run() throws {
        try reportingErrors {
            StopSignals.install()
            // Before anything can take long: SIGUSR1's default action would end the process.
            SignalPolicy.installDumpSignal()
            try flightOptions.checkDumpDirectory()
            let path = try resolveDevicePath(device)
            let input = try Self.openTouchDevice(path)
            let settings = try transition.settings()
            if let early = DumpRequest.take() {
                printError("pinchlab: warning: a dump (\(early.rawValue)) was asked for before the device was open: nothing to dump yet")
            }
            var pipeline = try ReplayPipeline(device: input.device, transition: transition.transition, settings: settings,
                                              recordsFrames: true)
            // The page marks the touches the recognizer leaves out (thumbs); the terminal ignores them.
            if webOptions.web { pipeline.recordsStateChanges = true }
            // With --web the URL stays on the terminal: plain lines below it, not the in-place view.
            let interactive = !json && !webOptions.web && isatty(STDOUT_FILENO) != 0
            var output = LiveOutput(mode: json ? .json : (interactive ? .view : .lines), margins: pipeline.recognizerConfiguration,
                                    device: input.device, path: path,
                                    transition: transition.transition, threshold: settings.policy.progressThreshold)
            defer { output.restoreTerminal() }

            var session = LiveSession(input: input, pipeline: pipeline, idleTimeoutSeconds: exitAfterIdle,
                                      idleStepMS: Self.refreshIntervalMS)
            var web: LiveWebOutput?
            if webOptions.web {
                let header = ViewerDocument(live: true, title: "live: \(path) — \(transition.transition)", source: path,
                                            device: input.device, settings: settings, spec: pipeline.driver.spec,
                                            policyName: transition.policyName, compare: nil)
                web = try LiveWebOutput(options: webOptions, header: header,
                                        spec: TransitionSpecSource(spec: pipeline.driver.spec, policy: settings.policy),
                                        dumps: flightOptions.isOn)
                // On stderr with the server's other notes: stdout holds only the records (JSON Lines with --json).
                printError("pinchlab: watch at \(web!.url)")
            }
            let flight = FlightSession(options: flightOptions, device: input.device, node: path,
                                       stateAtOpen: input.currentStateEvents(), settings: settings,
                                       transition: transition.transition,
                                       announce: web?.announcesDumps)
            let keys = output.mode == .view && flight.recorder.isOn ? KeyPresses() : nil
            defer { keys?.restore() }
            // --tool: what each tool would have done with the gesture just made, and by how much.
            let toolSettings = try toolOptions.settings()
            var tools = LiveToolWatch(device: input.device, tools: toolSettings,
                                      units: toolOptions.units(installed: toolSettings.isEmpty ? nil : LibinputBridge.installedVersion()))
            let emit: (LabRecord) -> Void = { record in
                output.handle(record)
                web?.handle(record)
                flight.note(record)
                guard !tools.tools.isEmpty else { return }
                for (tool, fired) in tools.consume(record) { output.handle(tool: tool, fired: fired) }
            }
            let stop = try session.run(shouldStop: { StopSignals.requested || output.writeError != nil }, emit: emit,
                                       afterEvent: { event, origin in
                                           flight.note(event)
                                           flight.dumpIfAsked(origin: origin)
                                           web?.flush()
                                       },
                                       whileIdle: { origin in
                                           if keys?.pressed("d") == true { DumpRequest.note(.key) }
                                           flight.dumpIfAsked(origin: origin)
                                           web?.flush()
                                           output.refresh()
                                       })
            let wasInFlight = output.gestureInFlight
            let summary = session.finish(source: path, emit: emit)
            web?.finish(summary)
            output.finish(summary, removed: stop == .deviceRemoved, cancelledInFlight: wasInFlight)
            // Dumps under way are finished before the process ends: none asked for is lost.
            flight.finish(origin: session.pipeline.origin)
            if let error = output.writeError { throw error }
            if stop == .deviceRemoved { throw ExitStatus.deviceUnavailable.exitCode }
        }
    }
}

/// Where the live run's records go: the in-place view, plain lines, or JSON Lines.
struct LiveOutput {
    enum Mode { case view, lines, json }
    let mode: Mode
    private var view = LiveView()
    private var snapshot: LiveSnapshot
    private var human = HumanOutput()
    private let writer = JSONLineWriter()
    /// Lines as they happen, from one reused buffer (no allocation per line); JSON lines with
    /// each decision's margin.
    private let lines: BufferedLines
    private var lastDraw = 0.0
    private var dirty = true
    private let sceneSpec: TransitionSpec?
    /// The first failed write to stdout; the session stops on it and the command exits 74.
    private(set) var writeError: Error?
    /// A gesture has begun and not yet ended or been cancelled.
    private(set) var gestureInFlight = false

    init(mode: Mode, margins: GestureRecognizerConfiguration, device: DeviceDescription, path: String,
         transition: TransitionName, threshold: Double) {
        self.mode = mode
        lines = BufferedLines(eachLine: true, margins: margins)
        let size = device.geometry.map { ", \(format($0.widthMM, decimals: 0)) x \(format($0.heightMM, decimals: 0)) mm" } ?? ""
        snapshot = LiveSnapshot(header: "pinchlab live  \(path)",
                                deviceLine: "device     \"\(device.name)\" (\(device.deviceClass.rawValue)\(size))",
                                transitionName: transition.rawValue, threshold: threshold)
        sceneSpec = try? TransitionCatalog().spec(transition)
    }

    mutating func handle(_ record: LabRecord) {
        if case .gesture(let g) = record { gestureInFlight = g.event.state == .began || g.event.state == .changed }
        guard writeError == nil else { return }
        switch mode {
        case .json:
            note(Result { try lines.write(record) })
        case .lines:
            for line in human.lines(for: record) { note(Result { try lines.line(line) }) }
        case .view:
            update(with: record)
            refresh()
        }
    }

    /// A gesture a tool would act on (`live --tool`): a line, a JSON line, or the view's tool line.
    mutating func handle(tool: GestureToolName, fired: FiredGesture) {
        guard writeError == nil else { return }
        switch mode {
        case .json:
            note(Result { try lines.writeEncodable(LiveToolLine(tool: tool, fired: fired)) })
        case .lines:
            note(Result { try lines.line("\(tool.rawValue): \(fired.text)") })
        case .view:
            snapshot.toolLine = "\(tool.rawValue) \(fired.text)"
            dirty = true
            refresh()
        }
    }

    /// Keeps the first failed write; later writes are skipped (see `handle`).
    private mutating func note(_ write: Result<Void, Error>) {
        if writeError == nil, case .failure(let error) = write { writeError = error }
    }

    private mutating func update(with record: LabRecord) {
        switch record {
        case .frame(let frame, _):
            if frame.activeTouchCount == 0 && snapshot.transitionState != "interactive" {
                snapshot.gestureLine = "gesture    (no fingers down)"
                snapshot.gestureValues = ""
            }
        case .gesture(let g):
            snapshot.gestureLine = "gesture    \(g.event.kind.rawValue) \(g.event.state.rawValue), \(g.event.fingerCount) fingers"
            snapshot.gestureValues = "           " + HumanOutput.values(g.event)
        case .stateChange, .button, .releaseMargins:
            break
        case .transition(let t):
            // A new trial: the last one's decision no longer applies.
            if t.state == .interactive && snapshot.transitionState != TransitionPhase.interactive.rawValue { snapshot.decision = "" }
            snapshot.transitionState = t.state.rawValue
            snapshot.progress = t.progress
            if let reason = t.reason { snapshot.decision = "\(reason)" }
            if let spec = sceneSpec {
                let scene = spec.scene(at: min(max(t.progress, 0), 1))
                // The card's apparent size and place: its frame relative to the container, times its own scale.
                let container = spec.containerBounds
                if container.width > 0 && container.height > 0 {
                    snapshot.cardScale = scene.frame.width / container.width * scene.scale
                    snapshot.cardCenterX = (scene.frame.x + scene.frame.width / 2 - container.x) / container.width
                    snapshot.cardCenterY = (scene.frame.y + scene.frame.height / 2 - container.y) / container.height
                } else {
                    snapshot.cardScale = scene.scale
                }
                snapshot.cardAlpha = scene.alpha
            }
        }
        dirty = true
    }

    mutating func refresh() {
        guard mode == .view, dirty else { return }
        let now = MonotonicClock.seconds()
        guard now - lastDraw >= Double(LiveCommand.refreshIntervalMS) / 1000 else { return }
        lastDraw = now
        dirty = false
        note(Result { try printRaw(view.draw(snapshot, columns: terminalColumns() ?? LiveView.fallbackColumns)) })
    }

    mutating func finish(_ summary: LabSummary, removed: Bool, cancelledInFlight: Bool) {
        switch mode {
        case .json:
            note(Result { try writer.write(summary) })
        case .lines:
            for line in HumanOutput.summary(summary) { note(Result { try printLine(line) }) }
        case .view:
            dirty = true
            lastDraw = 0
            snapshot.footer = removed ? "the device was removed" : "stopped"
            refresh()
            restoreTerminal()
            for line in HumanOutput.summary(summary) { note(Result { try printLine(line) }) }
        }
        if removed {
            printError("pinchlab: the device was removed" + (cancelledInFlight ? "; the gesture in flight was cancelled" : ""))
        }
    }

    func restoreTerminal() {
        if mode == .view { try? printRaw(LiveView.showCursor) }
    }
}

func printRaw(_ text: String) throws {
    try StandardStream.output.write(text.utf8)
}

/// `live --tool --json`: `{"type": "tool", "name": ..., "fired": {...}}`.
struct LiveToolLine: Encodable {
    var type = "tool"
    var name: GestureToolName
    var fired: FiredGesture

    init(tool: GestureToolName, fired: FiredGesture) {
        name = tool
        self.fired = fired
    }
}
