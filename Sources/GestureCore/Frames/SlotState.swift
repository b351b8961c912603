/// What the assembler knows of one contact slot between frames, in raw device units.
struct SlotState: Sendable {
    var trackingID: Int32 = -1
    /// pinchlab's own identity for the contact; 0 while the slot is empty.
    var touchID: UInt64 = 0
    var x: Int32 = 0
    var y: Int32 = 0
    var pressure: Int32 = -1
    var touchMajor: Int32 = 0
    var isDown: Bool { touchID != 0 }
    /// Flags for the frame being built.
    var beganThisFrame = false
    var endedThisFrame = false
    var movedThisFrame = false
    /// Position where the contact was when it ended (kept for the frame that reports the end).
    var endedX: Int32 = 0
    var endedY: Int32 = 0
    var endedTouchID: UInt64 = 0
    var endedTrackingID: Int32 = -1

    mutating func clearFrameFlags() {
        beganThisFrame = false
        endedThisFrame = false
        movedThisFrame = false
    }
}
