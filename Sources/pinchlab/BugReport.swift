import Foundation
import GestureKit
import GestureLab
import LibinputHarness
import InteractiveTransition
import LabReports
import ZIPFoundation

/// One archive for an issue tracker (`pinchlab report`, `live --dump-on ... --report`): the
/// recording (keys masked), the settings, what pinchlab decided and why, its JSON lines, the plot,
/// the viewer page, libinput's verdict when `libinput` is installed, and the facts needed to
/// reproduce it (version and commit, kernel, libinput's version, the device).
struct BugReport {
    /// The archive's entries, in the order they are written.
    enum Entry {
        static let recording = "recording.yml"
        static let settings = "settings.json"
        static let summary = "summary.txt"
        static let replay = "replay.jsonl"
        static let plot = "plot.svg"
        static let view = "view.html"
        static let libinput = "libinput.txt"
    }

    var files: [(name: String, bytes: Data)] = []

    /// `bug.yml` -> `bug-report.zip`, beside it.
    static func defaultArchivePath(for recording: String) -> String {
        let name = recording as NSString
        let stem = name.pathExtension.isEmpty ? recording : name.deletingPathExtension
        return stem + "-report.zip"
    }

    /// Makes the archive of the recording at `path` and writes it to `output` (staged, whole or absent).
    /// `transition`: the options given (their settings over a dump's own); `libinput`: ask Debian's
    /// libinput too (it plays the recording in real time).
    static func make(recording path: String, output: String, transition: TransitionOptions? = nil,
                     libinput: Bool = true, quiet: Bool = true) throws {
        let report = try BugReport(recording: path, transition: transition ?? TransitionOptions.parse([]), libinput: libinput, quiet: quiet)
        try StagedOutputFile.write(Array(try report.zip()), to: output)
    }

    init(recording path: String, transition options: TransitionOptions, libinput: Bool, quiet: Bool) throws {
        var source = try openRecording(path: path)
        let name = recordingDisplayName(path)
        let dump = try DumpedSession(source, name: name, transition: options, quiet: quiet)
        let settings = try options.settings(base: dump?.settings ?? .default)
        let transition = dump?.transition ?? options.transition
        var events: [InputEvent] = []
        while let event = try source.nextEvent() { events.append(event) }
        let device = source.device
        let extras = (source as? LibinputRecordReader)?.extras ?? PinchlabExtras()
        let node = (source as? LibinputRecordReader)?.node ?? LibinputRecordWriter.unknownNode

        files.append((Entry.recording, try Self.maskedRecording(events, device: device, node: node, extras: extras)))
        files.append((Entry.settings, try settings.settingsFileData()))

        // One replay gives the JSON lines, the human lines and the explanation.
        var human = HumanOutput()
        human.explains = true
        var jsonLines: [String] = []
        var explained: [String] = []
        var list = EventList(device: device, events: events)
        var run = try ReplayRun(device: device, transition: transition, settings: settings,
                                recordsStateChanges: true, position: dump?.position)
        run.measuresMargins = true   // as replay --json's summary and --explain
        let margins = run.pipeline.recognizerConfiguration
        human.margins = margins
        let result = run.run(&list, name: name) { record in
            if let line = record.jsonLine(margins: margins) { jsonLines.append(line) }
            explained += human.lines(for: record)
        }
        // The bytes `replay --json` prints: its records' lines, then its summary's (invisible characters escaped too).
        files.append((Entry.replay, Data(jsonLines.map { $0 + "\n" }.joined().utf8) + (try JSONLineWriter().line(result.summary))))

        var verdict: [String] = []
        if libinput {
            verdict = Self.libinputText(events: events, device: device)
            files.append((Entry.libinput, Data((verdict.joined(separator: "\n") + "\n").utf8)))
        }
        let facts = Self.facts(device: device, extras: extras, settings: settings, transition: transition)
        let summaryText = facts + ["", "What pinchlab decided (pinchlab replay \(name) --explain):"]
            + explained + HumanOutput.summary(result.summary)
            + (verdict.isEmpty ? [] : ["", "libinput's verdict:"] + verdict)
        files.append((Entry.summary, Data((summaryText.map { TerminalText.escaped($0) }.joined(separator: "\n") + "\n").utf8)))

        list = EventList(device: device, events: events)
        var plotRun = try ReplayRun(device: device, transition: transition, settings: settings, recordsFrames: true)
        plotRun.measuresMargins = true
        var recorder = TimelineRecorder(title: "\((name as NSString).lastPathComponent) — \(transition)", device: device,
                                        transition: transition, policy: settings.policy, settings: settings)
        let plotted = plotRun.run(&list, name: name) { recorder.record($0) }
        files.append((Entry.plot, Data(try TimelinePlot.svg(recorder.timeline(summary: plotted.summary), window: PlotWindow()).utf8)))

        list = EventList(device: device, events: events)
        var viewer = try ViewerReplay(device: device, transition: transition, settings: settings)
        let (document, _) = viewer.run(&list, title: "\((name as NSString).lastPathComponent) — \(transition)",
                                       source: name, policyName: options.policyName)
        files.append((Entry.view, Data(try ViewerPage.html(document).utf8)))
    }

    /// The recording as `libinput record` YAML, keys masked, pinchlab's data kept.
    static func maskedRecording(_ events: [InputEvent], device: DeviceDescription, node: String,
                                extras: PinchlabExtras) throws -> Data {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pinchlab-report-\(UUID().uuidString).yml").path
        // A stop while it is written (a long recording: hundreds of MB) removes it too. Noted before
        // it is made (the name is new: nothing else can be there), so no stop finds it unnoted.
        let removedOnStop = RemovedOnStop.note(path)
        defer {
            unlink(path)
            RemovedOnStop.forget(removedOnStop)
        }
        let writer = try LibinputRecordWriter(path: path, device: device, node: node,
                                              options: RecordingWriterOptions(maskKeyboardKeys: true), extras: extras)
        for event in events {
            try writer.write(event)
            if event.isSynReport { try writer.flush() }
        }
        try writer.close()
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// Version and commit, kernel, libinput's version, the device, the settings' origin.
    static func facts(device: DeviceDescription, extras: PinchlabExtras, settings: LabSettings,
                      transition: TransitionName) -> [String] {
        let system = RecordingSystemInfo.current()
        let size = device.geometry.map { "\(format($0.widthMM, decimals: 1)) x \(format($0.heightMM, decimals: 1)) mm" } ?? "size unknown"
        var lines = [
            "pinchlab bug report",
            "version: \(PinchlabVersion.text)",
            "kernel: \(system.kernel ?? "unknown")" + (system.os.map { ", os \($0)" } ?? ""),
            "libinput: \(libinputVersion() ?? "not installed")",
            "device: \"\(device.name)\" (\(device.deviceClass.rawValue), \(size), \(device.slotCount) slots, "
                + String(format: "bus 0x%04x vendor 0x%04x product 0x%04x", device.id.bustype, device.id.vendor, device.id.product) + ")",
            "transition: \(transition), policy \(settings.policy)",
        ]
        if let version = extras.texts[FlightDump.Key.version] {
            lines.append("recorded by: \(version), a live dump (\(extras.texts[FlightDump.Key.trigger] ?? "?")): "
                         + (extras.texts[FlightDump.Key.window] ?? ""))
        }
        return lines
    }

    /// `libinput --version`, nil when libinput is not installed.
    static func libinputVersion() -> String? { LibinputBridge.installedVersion() }

    /// libinput's verdict as text, or why there is none.
    static func libinputText(events: [InputEvent], device: DeviceDescription) -> [String] {
        guard libinputVersion() != nil else { return ["libinput is not installed (Debian: libinput-tools)"] }
        do {
            return try libinputVerdict(events: events, device: device).textLines
        } catch {
            return ["libinput could not be asked: \(error)"]
        }
    }

    /// The archive, deflated, in memory.
    func zip() throws -> Data {
        let archive = try Archive(data: Data(), accessMode: .create)
        for (name, bytes) in files {
            try archive.addEntry(with: "pinchlab-report/" + name, type: .file, uncompressedSize: Int64(bytes.count),
                                 compressionMethod: .deflate) { position, size in
                bytes.subdata(in: Int(position)..<(Int(position) + size))
            }
        }
        guard let data = archive.data else { throw CLIError(status: .internalError, message: "the report archive was not made") }
        return data
    }
}
