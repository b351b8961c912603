import GestureCore
import GestureTools

/// The gesture tools judging a live session as it goes (`live --tool`): the session's own records
/// (it records frames) build the stream, and each time a gesture ends or the last finger lifts
/// the tools judge what came since the fingers were last all up, and the gestures they fire that
/// were not reported yet are handed back. Between gestures, with no finger down and no gesture
/// open, the stream starts afresh, so a long session keeps only its current gesture.
package struct LiveToolWatch: Sendable {
    package let tools: [GestureToolSettings]
    private let device: DeviceDescription
    private let units: LibinputUnits
    private var builder: ToolStreamBuilder
    /// Per tool, how many of the current stretch's gestures were reported.
    private var reported: [Int]
    private var gestureOpen = false
    /// The stream's length when it was last judged: a judging with nothing new says nothing new.
    private var judgedEvents = 0

    package init(device: DeviceDescription, tools: [GestureToolSettings], units: LibinputUnits) {
        self.tools = tools
        self.device = device
        self.units = units
        builder = ToolStreamBuilder(device: device, units: units)
        reported = Array(repeating: 0, count: tools.count)
    }

    /// Takes one record of the session; returns what each tool newly fired (tool, gesture).
    package mutating func consume(_ record: LabRecord) -> [(GestureToolName, FiredGesture)] {
        builder.consume(record)
        var judge = false
        var idle = false
        switch record {
        case .gesture(let g):
            gestureOpen = !g.event.state.isFinal
            judge = g.event.state.isFinal
        case .frame(let frame, _):
            idle = frame.activeTouchCount == 0 && !gestureOpen
            judge = idle && !builder.stream.events.isEmpty
        default:
            break
        }
        let events = builder.stream.events.count
        defer {
            if idle && events > 0 {
                builder = ToolStreamBuilder(device: device, units: units)
                reported = Array(repeating: 0, count: tools.count)
                judgedEvents = 0
            }
        }
        guard judge, events > judgedEvents else { return [] }
        judgedEvents = events
        var news: [(GestureToolName, FiredGesture)] = []
        for (index, tool) in tools.enumerated() {
            let fired = tool.judge(builder.stream).fired
            for gesture in fired.dropFirst(reported[index]) { news.append((tool.name, gesture)) }
            reported[index] = max(reported[index], fired.count)
        }
        return news
    }
}
