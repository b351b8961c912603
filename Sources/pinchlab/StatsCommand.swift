import ArgumentParser
import GestureKit

struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Say what is in a recording: the device, event and frame counts, duration, fingers, touches.",
        discussion: """
        Parses the whole file (it is also the parse benchmark's command), so a damaged recording is \
        reported with the line where it breaks. Fingers and touches are counted from the same touch \
        frames replay uses. A recording that ends inside a frame (events after its last SYN_REPORT) \
        gets a warning; those events are left out of the counts and reported apart.

        Examples:
          pinchlab stats Fixtures/corpus/touchpad/pinch-in-slow-finish-01.evemu
          pinchlab stats bug.yml --device 1 --json
          cat bug.evemu | pinchlab stats -
        """
    )

    @OptionGroup var recording: RecordingOptions

    @Flag(help: "Print one JSON object.")
    var json = false

    struct Report: Encodable {
        var file: String
        var device: String
        var `class`: String
        var widthMM: Double?
        var heightMM: Double?
        var resolutionEstimated: Bool
        var slots: Int
        var events: Int
        var frames: Int
        var duration: Double
        var mostFingersDown: Int
        var touchSequences: Int
        /// Events after the last SYN_REPORT, 0 for a recording that ends on a frame.
        var trailingPartialFrameEvents: Int
        /// The line of the last SYN_REPORT when events follow it (absent otherwise).
        var trailingPartialFrameAfterLine: Int?
    }

    func run() throws {
        try reportingErrors {
            var source = try recording.open()
            let stats = try RecordingStats.reading(&source)
            let partialFrame = (source as? any RecordingSource)?.trailingPartialFrame
            warnAboutRecording(source, .ignored)
            let device = source.device
            let geometry = device.geometry
            let report = Report(
                file: recording.displayName, device: device.name, class: device.deviceClass.rawValue,
                widthMM: geometry.map { ($0.widthMM * 10).rounded() / 10 },
                heightMM: geometry.map { ($0.heightMM * 10).rounded() / 10 },
                resolutionEstimated: geometry?.isEstimated ?? true, slots: device.slotCount,
                events: stats.eventCount, frames: stats.frameCount, duration: stats.durationSeconds,
                mostFingersDown: stats.mostFingersDown, touchSequences: stats.touchSequenceCount,
                trailingPartialFrameEvents: stats.trailingPartialFrameEventCount,
                trailingPartialFrameAfterLine: partialFrame?.lastSynReportLine)
            if json {
                try JSONLineWriter().write(report)
                return
            }
            try printLine("\(report.file)")
            var size = ""
            if let w = report.widthMM, let h = report.heightMM {
                size = ", \(format(w, decimals: 1)) x \(format(h, decimals: 1)) mm" + (report.resolutionEstimated ? " (estimated: no resolution)" : "")
            }
            try printLine("  device      \"\(report.device)\" (\(report.class)\(size), \(report.slots) slots)")
            try printLine("  events      \(report.events)")
            try printLine("  frames      \(report.frames)")
            try printLine("  duration    \(format(report.duration, decimals: 6)) s")
            try printLine("  fingers     at most \(report.mostFingersDown) down at once")
            try printLine("  touches     \(report.touchSequences) touch sequences")
            if report.trailingPartialFrameEvents > 0 {
                try printLine("  unfinished  \(report.trailingPartialFrameEvents) events after the last SYN_REPORT, not counted")
            }
        }
    }
}

/// What a command did with the events after a recording's last `SYN_REPORT`.
enum PartialFrameHandling: String {
    /// Not a frame, so not used (stats, replay).
    case ignored
    /// Written out as read (convert is lossless).
    case kept
}

/// Warns on stderr about what a recording holds that does not read as a device would send it:
/// problems of its description (each with its line and what pinchlab did about it), events that
/// contradict the description (one line per kind: the first place and the count), and events after
/// the last `SYN_REPORT` (naming the line and what became of them: a cut-off recording must not
/// pass as a complete one). Call it after the source has returned its last event.
/// Another device of a multi-device file that ends inside a frame is a sign the file was cut
/// short (the device read may still be complete), so it is said too.
func warnAboutRecording(_ source: any InputEventSource, _ handling: PartialFrameHandling) {
    guard let recording = source as? any RecordingSource else { return }
    if let cut = (source as? EvtestReader)?.cutHeader { printError("pinchlab: warning: \(cut)") }
    for warning in recording.descriptionWarnings { printError("pinchlab: warning: \(warning)") }
    for contradiction in recording.eventContradictions {
        let fate = handling == .kept ? "written as read" : contradiction.rule
        printError("pinchlab: warning: \(contradiction); \(fate)")
    }
    if let indented = recording.indentedEventLines {
        printError("pinchlab: warning: \(indented); \(IndentedEventLines.rule)")
    }
    if let partialFrame = recording.trailingPartialFrame {
        printError("pinchlab: warning: \(partialFrame) \(handling.rawValue)")
    }
    if let reader = source as? LibinputRecordReader {
        for other in reader.otherDevicesEndingInsideFrame {
            printError("pinchlab: warning: \(other) (device \(reader.deviceIndex) was read); the file may be cut short")
        }
    }
}
