import GestureKit
import GestureTools

/// The gesture tools' verdicts on a recording, fed by pinchlab's recognizer standing in for
/// libinput: one more `ReplayPipeline`, recording frames, fed every event the main replay gets (as
/// `PolicyComparison` is, so a pipe is read once), whose records `ToolStreamBuilder` turns into the
/// stream the tools read.
public struct ToolJudgement: Sendable {
    public let tools: [GestureToolSettings]
    private var pipeline: ReplayPipeline
    private var builder: ToolStreamBuilder

    public init(device: DeviceDescription, settings: LabSettings, tools: [GestureToolSettings], units: LibinputUnits) throws {
        self.tools = tools
        pipeline = try ReplayPipeline(device: device, transition: .pinchDismiss, settings: settings, recordsFrames: true)
        builder = ToolStreamBuilder(device: device, units: units)
    }

    public mutating func consume(_ event: InputEvent) {
        pipeline.consume(event) { builder.consume($0) }
    }

    /// Ends the replay and judges its stream under every tool, in the order given.
    public mutating func finish() -> [ToolVerdict] {
        _ = pipeline.finish { builder.consume($0) }
        return Self.verdicts(tools, builder.stream)
    }

    /// Ends the replay and returns the stream the tools read, to judge it many times (`ToolTuner`).
    public mutating func finishStream() -> ToolStream {
        _ = pipeline.finish { builder.consume($0) }
        return builder.stream
    }

    public static func verdicts(_ tools: [GestureToolSettings], _ stream: ToolStream) -> [ToolVerdict] {
        tools.map { $0.judge(stream) }
    }

    /// The stream of Debian's libinput itself: the events its verdict kept (`LibinputVerdict.steps`).
    public static func stream(libinput: LibinputVerdict, device: DeviceDescription, units: LibinputUnits) -> ToolStream {
        let geometry = device.geometry
        return ToolStream(source: .libinput,
                          device: ToolDevice(kind: device.deviceClass == .touchscreen ? .touchscreen : .touchpad,
                                             widthMM: geometry?.widthMM ?? 0, heightMM: geometry?.heightMM ?? 0, units: units),
                          events: libinput.steps)
    }
}
