import ArgumentParser
import GestureCore
import GestureKit

struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Say what is in a recording: the device, event and frame counts, duration, fingers, touches.",
        discussion: """
        Parses the whole file (it is also the parse benchmark's command), so a damaged recording is \
        reported with the line where it breaks. Fingers and touches are counted from the same touch \
        frames replay uses. A recording that ends inside a frame (events after its last SYN_REPORT) \
        gets a warning; those events are left out of the counts and reported apart. Frames are \
        the file's (each ended by a SYN_REPORT), as replay counts them; a file `record` began with \
        fingers down holds one more than record's count of device frames: the state at open.

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
        /// `multitouch-b` (slots), `multitouch-a` (contacts by SYN_MT_REPORT), `single-touch`.
        var `protocol`: String
        /// INPUT_PROP_SEMI_MT: a bounding box of the fingers, not each finger.
        var semiMT: Bool
        var events: Int
        var frames: Int
        var duration: Double
        var mostFingersDown: Int
        /// Frames where BTN_TOOL_* said more fingers than the contacts down (absent when none).
        var toolFingersAboveContacts: ToolFingers?
        var touchSequences: Int
        /// Events after the last SYN_REPORT, 0 for a recording that ends on a frame.
        var trailingPartialFrameEvents: Int
        /// The line of the last SYN_REPORT when events follow it (absent otherwise).
        var trailingPartialFrameAfterLine: Int?

        struct ToolFingers: Encodable {
            var mostToolFingers: Int
            var mostContacts: Int
            var seconds: Double
            var frames: Int
            /// Whether they were counted as fingers (the touchpad tracks fewer slots than that).
            var counted: Bool
        }
    }

    /// The protocol's name in the report.
    static func protocolName(_ mode: TouchFrameAssembler.Mode) -> String {
        switch mode {
        case .multitouchB: "multitouch-b"
        case .multitouchA: "multitouch-a"
        case .singleTouch: "single-touch"
        }
    }

    func run() throws {
        try reportingErrors {
            let reader = try recording.open()
            var source: any InputEventSource = reader
            let stats = try RecordingStats.reading(&source)
            let partialFrame = reader.trailingPartialFrame
            warnAboutRecording(reader, .ignored)
            if let excess = stats.toolFingerExcess { printError("pinchlab: warning: \(Self.toolFingerWarning(excess, file: recording.displayName))") }
            let device = source.device
            let geometry = device.geometry
            let report = Report(
                file: recording.displayName, device: device.name, class: device.deviceClass.rawValue,
                widthMM: geometry.map { ($0.widthMM * 10).rounded() / 10 },
                heightMM: geometry.map { ($0.heightMM * 10).rounded() / 10 },
                resolutionEstimated: geometry?.isEstimated ?? true, slots: device.slotCount,
                protocol: Self.protocolName(stats.protocolMode), semiMT: device.properties.contains(.semiMT),
                events: stats.eventCount, frames: stats.frameCount, duration: stats.durationSeconds,
                mostFingersDown: stats.mostFingersDown,
                toolFingersAboveContacts: stats.toolFingerExcess.map {
                    .init(mostToolFingers: $0.mostToolFingers, mostContacts: $0.mostContacts, seconds: ($0.seconds * 1000).rounded() / 1000,
                          frames: $0.frames, counted: $0.countedFrames > 0)
                },
                touchSequences: stats.touchSequenceCount,
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
            try printLine("  protocol    \(Self.protocolText(stats.protocolMode, slots: report.slots))")
            if report.semiMT {
                try printLine("  semi-MT     yes: the touchpad reports a box around two fingers, not each finger "
                              + "(INPUT_PROP_SEMI_MT); it may scroll with two fingers, not pinch or swipe, as in libinput")
            }
            let tools = stats.toolFingerExcess.map { excess in
                excess.countedFrames > 0
                    ? " (BTN_TOOL_* counted: up to \(excess.mostToolFingers) fingers on \(excess.slots) slots for \(format(excess.seconds, decimals: 2)) s)"
                    : " (BTN_TOOL_* said up to \(excess.mostToolFingers) for \(format(excess.seconds, decimals: 2)) s, not counted: "
                        + "the touchpad tracks that many)"
            } ?? ""
            try printLine("  fingers     at most \(report.mostFingersDown) down at once\(tools)")
            try printLine("  touches     \(report.touchSequences) touch sequences")
            if report.trailingPartialFrameEvents > 0 {
                try printLine("  unfinished  \(report.trailingPartialFrameEvents) events after the last SYN_REPORT, not counted")
            }
        }
    }
}

extension StatsCommand {
    static func protocolText(_ mode: TouchFrameAssembler.Mode, slots: Int) -> String {
        switch mode {
        case .multitouchB: "multitouch B (\(slots) slots)"
        case .multitouchA: "multitouch A (no slots: contacts matched frame to frame by distance, as mtdev does)"
        case .singleTouch: "single touch (one position, BTN_TOUCH or BTN_TOOL_FINGER)"
        }
    }

    /// `BTN_TOOL_*` above the contacts, said once: how much, and what pinchlab made of it.
    static func toolFingerWarning(_ excess: ToolFingerExcess, file: String) -> String {
        let contacts = excess.mostContacts == 1 ? "1 contact" : "\(excess.mostContacts) contacts"
        let fate = excess.countedFrames > 0
            ? "counted as \(excess.mostToolFingers) fingers, as BTN_TOOL_* counts on a touchpad with fewer slots "
                + "(\(excess.slots)) than fingers (libinput's fake fingers)"
            : "not counted: the touchpad has \(excess.slots) slots, so the missing contacts are missing data"
        return "\(file): BTN_TOOL_* says up to \(excess.mostToolFingers) fingers while at most \(contacts) were down, "
            + "for \(format(excess.seconds, decimals: 2)) s in \(excess.frames) frames from the frame at "
            + "\(excess.firstTime); \(fate)"
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
func warnAboutRecording(_ recording: any RecordingSource, _ handling: PartialFrameHandling) {
    if let cut = (recording as? EvtestReader)?.cutHeader { printError("pinchlab: warning: \(cut)") }
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
    if let reader = recording as? LibinputRecordReader {
        for other in reader.otherDevicesEndingInsideFrame {
            printError("pinchlab: warning: \(other) (device \(reader.deviceIndex) was read); the file may be cut short")
        }
    }
}
