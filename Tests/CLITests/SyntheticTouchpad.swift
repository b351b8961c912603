import Foundation

/// Two-finger touchpad recordings made to measure, for tests that need a decision's numbers exact:
/// a 100 x 60 mm touchpad at 20 units/mm, a frame every 10 ms, each finger moving by a whole number
/// of units a frame, so that its direction is the same at every frame (no rounding wanders).
enum SyntheticTouchpad {
    static let unitsPerMM = 20

    /// A finger landing at (`x`, `y`) (units) and moving by (`dx`, `dy`) a frame for
    /// `movingFrames` frames, then by (`thenDX`, `thenDY`) (resting, unless given).
    struct Finger {
        var x: Int
        var y: Int
        var dx = 0
        var dy = 0
        var movingFrames = Int.max
        var thenDX = 0
        var thenDY = 0

        func position(atFrame frame: Int) -> (Int, Int) {
            let moved = min(frame, movingFrames), then = max(0, frame - movingFrames)
            return (x + dx * moved + thenDX * then, y + dy * moved + thenDY * then)
        }
    }

    /// An evemu file of `fingers` (two at most) landing together, `frames` frames of them, then all
    /// lifting 10 ms after the last.
    static func recording(_ fingers: [Finger], frames: Int, name: String = "synthetic.evemu") throws -> String {
        try recording(sequences: [(fingers, frames)], name: name)
    }

    /// An evemu file of touch sequences one after another, each as `recording(_:frames:)` makes
    /// one, a second apart (new tracking ids each).
    static func recording(sequences: [(fingers: [Finger], frames: Int)], name: String = "synthetic.evemu") throws -> String {
        let slot = 0x2f, x = 0x35, y = 0x36, trackingID = 0x39
        let touch = 0x14a
        var events: [(Double, Int, Int, Int)] = []
        var start = 1.0, firstID = 1
        for (fingers, frames) in sequences {
            let tool = fingers.count == 1 ? 0x145 : 0x14d
            for frame in 0..<frames {
                let t = start + Double(frame) * 0.01
                for (index, finger) in fingers.enumerated() {
                    let (px, py) = finger.position(atFrame: frame)
                    events.append((t, 3, slot, index))
                    if frame == 0 { events.append((t, 3, trackingID, firstID + index)) }
                    events += [(t, 3, x, px), (t, 3, y, py)]
                }
                if frame == 0 { events += [(t, 1, touch, 1), (t, 1, tool, 1)] }
                events.append((t, 0, 0, 0))
            }
            let end = start + Double(frames) * 0.01
            for index in fingers.indices { events += [(end, 3, slot, index), (end, 3, trackingID, -1)] }
            events += [(end, 1, touch, 0), (end, 1, tool, 0), (end, 0, 0, 0)]
            start = end + 1
            firstID += fingers.count
        }
        let axes = [(0x00, 0, 100 * unitsPerMM, unitsPerMM), (0x01, 0, 60 * unitsPerMM, unitsPerMM), (slot, 0, 1, 0),
                    (x, 0, 100 * unitsPerMM, unitsPerMM), (y, 0, 60 * unitsPerMM, unitsPerMM), (trackingID, 0, 65535, 0)]
        let path = try OddDataCLITests.evemu(properties: 0x01, keys: [0x110, 0x145, touch, 0x14d], axes: axes, events: events)
        let named = (path as NSString).deletingLastPathComponent + "/" + name
        try FileManager.default.moveItem(atPath: path, toPath: named)
        return named
    }
}
