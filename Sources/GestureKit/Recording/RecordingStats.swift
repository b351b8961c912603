import GestureCore

/// A summary of a recording, computed by reading all of its events.
///
/// Fingers and touches are counted from `TouchFrameAssembler`'s frames, so `stats` says what replay
/// and the recognizers see (protocol A identities, slots reused without a lift, `BTN_TOOL_*`
/// counts), never a second opinion. Events after the last `SYN_REPORT` are no frame: they are
/// counted apart, in `trailingPartialFrameEventCount`, and left out of everything else.
package struct RecordingStats: Sendable, Hashable {
    /// Events of complete frames (up to and including the last `SYN_REPORT`).
    package var eventCount = 0
    /// `SYN_REPORT`s.
    package var frameCount = 0
    var firstEventTime: EventTime?
    /// The last `SYN_REPORT`'s time.
    package var lastEventTime: EventTime?
    /// The most fingers down in one frame (`TouchFrame.fingerCount`: the larger of the touches
    /// down and what `BTN_TOOL_*` says).
    package var mostFingersDown = 0
    /// Touches that began (`TouchPhase.began`) in the assembler's frames.
    package var touchSequenceCount = 0
    /// Events after the last `SYN_REPORT`: a frame the recording never finished.
    package var trailingPartialFrameEventCount = 0
    /// How the device reports touches (`TouchFrameAssembler.Mode`).
    package var protocolMode: TouchFrameAssembler.Mode = .singleTouch
    /// Frames where `BTN_TOOL_*` said more fingers than the contacts down.
    package var toolFingerExcess: ToolFingerExcess?

    /// From the first event to the last `SYN_REPORT`.
    package var durationMicroseconds: Int64 {
        guard let first = firstEventTime, let last = lastEventTime else { return 0 }
        return last.totalMicroseconds - first.totalMicroseconds
    }

    package var durationSeconds: Double { Double(durationMicroseconds) / 1_000_000 }

    package init() {}

    /// Reads `source` to its end, through a loop compiled for the concrete reader when it is an
    /// evemu file (the common case, and `pinchlab stats`' benchmark): no dynamic call per event.
    package static func reading(_ source: inout any InputEventSource) throws -> RecordingStats {
        if var evemu = source as? EvemuReader { return try RecordingStats(consuming: &evemu) }
        return try RecordingStats(consuming: &source)
    }

    /// Reads `source` to its end.
    package init(consuming source: inout some InputEventSource) throws {
        var assembler = TouchFrameAssembler(device: source.device)
        var eventsInOpenFrame = 0
        var streamStart: EventTime?
        while let event = try source.nextEvent() {
            if streamStart == nil { streamStart = event.time }
            eventsInOpenFrame += 1
            guard assembler.ingest(event) else { continue }
            if firstEventTime == nil { firstEventTime = streamStart }
            lastEventTime = event.time
            eventCount += eventsInOpenFrame
            eventsInOpenFrame = 0
            frameCount += 1
            mostFingersDown = max(mostFingersDown, assembler.frame.fingerCount)
            for touch in assembler.frame.touches where touch.phase == .began { touchSequenceCount += 1 }
        }
        trailingPartialFrameEventCount = eventsInOpenFrame
        protocolMode = assembler.mode
        toolFingerExcess = assembler.toolFingerExcess
    }
}
