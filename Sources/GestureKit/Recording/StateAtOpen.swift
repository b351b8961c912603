import GestureCore

/// What a recording begins with when it starts while touches are down: the device's state at
/// open (`EvdevDevice.currentStateEvents()`, the state `live` seeds its frames with) written as
/// one frame, so that a replay of the file sees those fingers land instead of motion from
/// touches it never saw begin.
///
/// How the frame is marked in the file: the comment line `# state at open ...` just before it
/// (a comment to libevemu, libinput's YAML readers and pinchlab alike), and its events carry the
/// time of the first event the device sent (0, as a recorder counts time from that event): the
/// touches were down for an unknown time before, so no time is invented for them.
public struct StateAtOpen: Sendable, Equatable {
    /// The comment line's text (after `# `).
    public static let comment = "state at open: touches and keys already down when recording began, not events the device sent"

    /// The state events and a closing `SYN_REPORT`, all at time 0.
    public let frame: [InputEvent]
    /// Touches down: slots with a tracking id, or 1 for a single-touch device with `BTN_TOUCH` down.
    public let touchCount: Int
    /// Keys and buttons held (`BTN_TOUCH`, `BTN_TOOL_*`, a button, a key).
    public let heldKeyCount: Int

    /// The comment line written before the frame.
    public let commentText: String

    /// - Parameters:
    ///   - state: `EvdevDevice.currentStateEvents()` right after the device was opened (or a
    ///     flight recorder's state at its window's start, `EventWindow`).
    ///   - time: the frame's time: 0 for a recording that counts time from its first event.
    ///   - comment: what the comment line before the frame says.
    public init(_ state: [InputEvent], at time: EventTime = .zero, comment: String = StateAtOpen.comment) {
        commentText = comment
        let slotTouches = state.count { $0.type == .abs && $0.code == .absMTTrackingID && $0.value >= 0 }
        let touchDown = state.contains { $0.type == .key && $0.code == .btnTouch && $0.value != 0 }
        touchCount = slotTouches > 0 ? slotTouches : (touchDown ? 1 : 0)
        heldKeyCount = state.count { $0.type == .key && $0.value != 0 }
        frame = state.map { InputEvent(time: time, type: $0.type, code: $0.code, value: $0.value) }
            + [InputEvent(time: time, type: .syn, code: .synReport, value: 0)]
    }

    /// Nothing down: the file needs no first frame (and gets none, so an idle start writes what
    /// `evemu-record` writes).
    public var isIdle: Bool { touchCount == 0 && heldKeyCount == 0 }
}

extension RecordingWriter {
    /// Writes `state`'s frame, after its comment line, unless nothing is down. Call it before the
    /// first event. Returns whether anything was written.
    @discardableResult
    public func write(_ state: StateAtOpen) throws -> Bool {
        guard !state.isIdle else { return false }
        try writeComment(state.commentText)
        for event in state.frame { try write(event) }
        try flush()
        return true
    }
}
