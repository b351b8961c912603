import ArgumentParser
import GestureKit

struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Say what is in a recording: the device, event and frame counts, duration, fingers, touches.",
        discussion: """
        Parses the whole file (it is also the parse benchmark's command), so a damaged recording is
        reported with the line where it breaks.

        Examples:
          pinchlab stats Fixtures/corpus/touchpad/pinch-in-slow-finish-01.evemu
          pinchlab stats bug.yml --device 1 --json
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
    }

    func run() throws {
        try reportingErrors {
            var source = try recording.open()
            let stats = try RecordingStats(consuming: &source)
            let device = source.device
            let geometry = device.geometry
            let report = Report(
                file: recording.file, device: device.name, class: device.deviceClass.rawValue,
                widthMM: geometry.map { ($0.widthMM * 10).rounded() / 10 },
                heightMM: geometry.map { ($0.heightMM * 10).rounded() / 10 },
                resolutionEstimated: geometry?.isEstimated ?? true, slots: device.slotCount,
                events: stats.eventCount, frames: stats.frameCount, duration: stats.durationSeconds,
                mostFingersDown: stats.mostFingersDown, touchSequences: stats.touchSequenceCount)
            if json {
                try JSONLineWriter().write(report)
                return
            }
            printLine("\(report.file)")
            var size = ""
            if let w = report.widthMM, let h = report.heightMM {
                size = ", \(format(w, decimals: 1)) x \(format(h, decimals: 1)) mm" + (report.resolutionEstimated ? " (estimated: no resolution)" : "")
            }
            printLine("  device      \"\(report.device)\" (\(report.class)\(size), \(report.slots) slots)")
            printLine("  events      \(report.events)")
            printLine("  frames      \(report.frames)")
            printLine("  duration    \(format(report.duration, decimals: 6)) s")
            printLine("  fingers     at most \(report.mostFingersDown) down at once")
            printLine("  touches     \(report.touchSequences) touch sequences")
        }
    }
}
