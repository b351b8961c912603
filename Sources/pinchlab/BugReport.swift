import Foundation
import GestureCore
import GestureKit
import GestureLab
import LibinputHarness
import InteractiveTransition
import LabReports

/// One archive for an issue tracker (`pinchlab report`, `live --dump-on ... --report`): the
/// recording (keys masked), the settings, what pinchlab decided and why, its JSON lines, the plot,
/// the viewer page, libinput's verdict when `libinput` is installed, and the facts needed to
/// reproduce it (version and commit, kernel, libinput's version, the device).
///
/// With `--no-libinput` its memory does not grow with the recording's length (libinput's verdict
/// holds every event: `libinputText`): the recording is read once, into its masked copy (a
/// temporary file, written in 64 KiB blocks), and one replay of that copy makes the explanation,
/// the JSON log, the plot and the page (`replayedParts`); the copy, the JSON log, the summary and
/// the page are written to temporary files as they are made and deflated into the archive from
/// there (`ReportArchive`). The page is thinned as `view`'s is, and so is the
/// plot as `plot`'s; nothing else is cut. (Before: a 3.6 h recording of 274 MB took 2.07 GB.)
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

    /// One entry's content: small ones in memory, large ones in a temporary file of their own
    /// (removed with the report, or by a stop).
    enum Content {
        case bytes(Data)
        case file(TemporaryFile)
    }

    private(set) var parts: [(name: String, content: Content)] = []

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
        try StagedOutputFile.write(to: output) { archive in try ReportArchive.write(report.parts, to: archive, naming: output) }
    }

    init(recording path: String, transition options: TransitionOptions, libinput: Bool, quiet: Bool) throws {
        var original = try openRecording(path: path)
        let name = recordingDisplayName(path)
        let dump = try DumpedSession(original, name: name, transition: options, quiet: quiet)
        let settings = try options.settings(base: dump?.settings ?? .default)
        let transition = dump?.transition ?? options.transition
        let device = original.device
        let extras = (original as? LibinputRecordReader)?.extras ?? PinchlabExtras()
        let node = (original as? LibinputRecordReader)?.node ?? LibinputRecordWriter.unknownNode

        // The one read of the recording (it may be a FIFO); every pass after it reads the copy,
        // which replays exactly as the recording does (the archive's own test checks it).
        let copy = try Self.maskedRecording(of: &original, device: device, node: node, extras: extras)
        parts.append((Entry.recording, .file(copy)))
        parts.append((Entry.settings, .bytes(try settings.settingsFileData())))

        var verdict: [String] = []
        if libinput { verdict = try Self.libinputText(recording: copy) }
        let facts = Self.facts(device: device, extras: extras, settings: settings, transition: transition)
        let title = "\((name as NSString).lastPathComponent) — \(transition)"
        let replayed = try Self.replayedParts(of: copy, name: name, title: title, transition: transition, settings: settings,
                                              policyName: options.policyName, position: dump?.position, facts: facts,
                                              verdict: verdict)
        parts.append((Entry.summary, .file(replayed.summary)))
        parts.append((Entry.replay, .file(replayed.replay)))
        parts.append((Entry.plot, .bytes(replayed.plot)))
        parts.append((Entry.view, .file(replayed.page)))
        if libinput { parts.append((Entry.libinput, .bytes(Data((verdict.joined(separator: "\n") + "\n").utf8)))) }
    }

    /// The recording as `libinput record` YAML, keys masked, pinchlab's data kept, written as it is read.
    static func maskedRecording(of source: inout any RecordingSource, device: DeviceDescription, node: String,
                                extras: PinchlabExtras) throws -> TemporaryFile {
        let copy = try TemporaryFile(prefix: "pinchlab-report", suffix: ".yml")
        let writer = try LibinputRecordWriter(path: copy.path, device: device, node: node,
                                              options: RecordingWriterOptions(maskKeyboardKeys: true, writesEachFrame: false),
                                              extras: extras)
        while let event = try source.nextEvent() {
            try writer.write(event)
            if event.isSynReport { try writer.flush() }
        }
        try writer.close()
        return copy
    }

    /// The archived copy opened again for one more pass.
    static func reopen(_ copy: TemporaryFile) throws -> any InputEventSource {
        try openRecording(path: copy.path)
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

    /// libinput's verdict as text, or why there is none. libinput is played the whole recording at
    /// once (in memory: it plays in real time anyway, an hour of recording an hour long).
    static func libinputText(recording copy: TemporaryFile) throws -> [String] {
        guard libinputVersion() != nil else { return ["libinput is not installed (Debian: libinput-tools)"] }
        var source = try reopen(copy)
        var events: [InputEvent] = []
        while let event = try source.nextEvent() { events.append(event) }
        do {
            return try libinputVerdict(events: events, device: source.device).textLines
        } catch {
            return ["libinput could not be asked: \(error)"]
        }
    }
}
