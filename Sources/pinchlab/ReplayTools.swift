import GestureCore
import GestureLab
import GestureTools
import LabReports
import LibinputHarness

/// `replay`'s gesture tools (`--tool`, a tool in `--compare`): their settings, the units they read,
/// and the stream they read. Without `--with-libinput` the stream is the replay's own records
/// (its frames too on a touchscreen: `recordsFrames`); with it, libinput's own events, in the units
/// of the libinput that printed them.
struct ReplayTools {
    /// The tools as configured, once for each lisgd file of `replay --with-lisgd`
    /// (`ToolOptions.configuredRuns`): one verdict each, on the one stream.
    let runs: [[ToolOptions.Configured]]
    var configured: [ToolOptions.Configured] { runs[0] }
    let units: LibinputUnits
    /// Said in each tool's block: the user's own configuration, or units chosen on the command line.
    let saysUnitThresholds: Bool
    private let collector: Collector?

    init(options: ToolOptions, compared: [GestureToolName], device: DeviceDescription, fromLibinput: Bool,
         severalLisgd: Bool = false) throws {
        runs = try options.configuredRuns(also: compared, severalLisgd: severalLisgd)
        let configured = runs[0]
        units = options.units(installed: configured.isEmpty ? nil : LibinputBridge.installedVersion())
        saysUnitThresholds = options.libinputVersion != nil
        collector = configured.isEmpty || fromLibinput ? nil : Collector(device: device, units: units)
    }

    var isEmpty: Bool { configured.isEmpty }
    var settings: [GestureToolSettings] { configured.map(\.settings) }
    /// The replay must record frames: the tools read a touchscreen's touches.
    func needsFrames(_ device: DeviceDescription) -> Bool { collector != nil && device.deviceClass == .touchscreen }

    /// Takes one record of the replay (the record closure: one call a record, nothing when no tool reads).
    func consume(_ record: LabRecord) { collector?.builder.consume(record) }

    /// Every tool's verdict on the replay's stream, or on libinput's, as configured in `runs[run]`.
    func verdicts(libinput: LibinputVerdict?, device: DeviceDescription, run: Int = 0) -> [ToolVerdict]? {
        let stream: ToolStream
        if let collector {
            stream = collector.builder.stream
        } else if let libinput, !configured.isEmpty {
            stream = ToolStream(libinput: libinput, device: device)
        } else {
            return nil
        }
        return runs[run].map { tool in
            var verdict = tool.settings.judge(stream)
            // The libinput 1.18 trap: a threshold in libinput's units meant another length before.
            if saysUnitThresholds || tool.isUsers { verdict.unitThresholds = tool.settings.unitThresholds }
            return verdict
        }
    }

    /// The record closure's writer of the stream; a class, as `WriteFailure` is: the one writer is
    /// the replay's thread.
    private final class Collector {
        @exclusivity(unchecked) var builder: ToolStreamBuilder
        init(device: DeviceDescription, units: LibinputUnits) { builder = ToolStreamBuilder(device: device, units: units) }
    }
}
