/// A summary of a recording, computed by reading all of its events.
public struct RecordingStats: Sendable, Hashable {
    public var eventCount = 0
    /// `SYN_REPORT`s.
    public var frameCount = 0
    public var firstEventTime: EventTime?
    public var lastEventTime: EventTime?
    /// The most fingers down in one frame: the larger of the `BTN_TOOL_*` count and the slots with
    /// a tracking id (1 for `BTN_TOUCH` alone).
    public var mostFingersDown = 0
    /// Touches begun: tracking ids other than -1 (or `BTN_TOUCH` presses on a device without slots).
    public var touchSequenceCount = 0

    /// From the first to the last event.
    public var durationMicroseconds: Int64 {
        guard let first = firstEventTime, let last = lastEventTime else { return 0 }
        return last.totalMicroseconds - first.totalMicroseconds
    }

    public var durationSeconds: Double { Double(durationMicroseconds) / 1_000_000 }

    /// More slots than this are not tracked (no real device has them).
    static let slotCountMax = 64

    public init() {}

    /// Reads `source` to its end.
    public init(consuming source: inout some InputEventSource) throws {
        let device = source.device
        let hasSlots = device.slotCount > 0
        var trackingIDs = [Int32](repeating: -1, count: min(max(device.slotCount, 1), RecordingStats.slotCountMax))
        var slot = 0
        // Which BTN_TOOL_* keys are down, in `EventCode.fingerCountTools` order.
        var toolsDown = [Bool](repeating: false, count: EventCode.fingerCountTools.count)
        var isTouching = false
        while let event = try source.nextEvent() {
            eventCount += 1
            if firstEventTime == nil { firstEventTime = event.time }
            lastEventTime = event.time
            switch event.type {
            case .abs where event.code == .absMTSlot:
                slot = Int(event.value)
            case .abs where event.code == .absMTTrackingID:
                if event.value != -1 { touchSequenceCount += 1 }
                if slot >= 0 && slot < trackingIDs.count { trackingIDs[slot] = event.value }
            case .key where event.code == .btnTouch:
                if !hasSlots && event.value != 0 && !isTouching { touchSequenceCount += 1 }
                isTouching = event.value != 0
            case .key:
                if let tool = EventCode.fingerCountTools.firstIndex(where: { $0.code == event.code }) {
                    toolsDown[tool] = event.value != 0
                }
            case .syn where event.code == .synReport:
                frameCount += 1
                var fingers = isTouching ? 1 : 0
                for (tool, isDown) in toolsDown.enumerated() where isDown {
                    fingers = max(fingers, EventCode.fingerCountTools[tool].fingers)
                }
                fingers = max(fingers, trackingIDs.reduce(0) { $0 + ($1 != -1 ? 1 : 0) })
                mostFingersDown = max(mostFingersDown, fingers)
            default:
                break
            }
        }
    }
}
