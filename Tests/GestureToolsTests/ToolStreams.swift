import GestureTools

/// Streams made by hand for the tools' edge tests: a touchscreen 1000 x 1000 units wide (so lisgd's
/// -w/-h 1000 make a fraction x 1000 its units) and a touchpad 100 x 60 mm in libinput 1.22's units.
enum ToolStreams {
    static let units = LibinputUnits(version: .debianBookworm)
    static let screen = ToolDevice(kind: .touchscreen, widthMM: 100, heightMM: 100, units: units)
    static let touchpad = ToolDevice(kind: .touchpad, widthMM: 100, heightMM: 60, units: units)

    /// One finger down at `from`, moved in `steps` to `to` (lisgd's units on a 1000 x 1000 screen),
    /// up `seconds` after it came down.
    static func stroke(from: (Double, Double), to: (Double, Double), seconds: Double = 0.3, steps: Int = 5, start: Double = 0,
                       slot: Int = 0) -> [ToolEvent] {
        var events: [ToolEvent] = [.touch(TouchStep(phase: .down, time: start, slot: slot, x: from.0 / 1000, y: from.1 / 1000))]
        for i in 1...steps {
            let f = Double(i) / Double(steps)
            events.append(.touch(TouchStep(phase: .motion, time: start + seconds * f * 0.9, slot: slot,
                                           x: (from.0 + (to.0 - from.0) * f) / 1000, y: (from.1 + (to.1 - from.1) * f) / 1000)))
        }
        events.append(.touch(TouchStep(phase: .up, time: start + seconds, slot: slot)))
        return events
    }

    static func screenStream(_ events: [ToolEvent]) -> ToolStream { ToolStream(source: .pinchlab, device: screen, events: events) }

    /// A libinput swipe of `fingers` whose updates add up to (dx, dy) units.
    static func swipe(dx: Double, dy: Double, fingers: Int = 3, updates: Int = 4, start: Double = 0, seconds: Double = 0.3,
                      cancelled: Bool = false) -> [ToolEvent] {
        var events: [ToolEvent] = [.gesture(GestureStep(kind: .swipe, phase: .begin, time: start, fingers: fingers))]
        for i in 1...updates {
            events.append(.gesture(GestureStep(kind: .swipe, phase: .update, time: start + seconds * Double(i) / Double(updates + 1),
                                               fingers: fingers, dx: dx / Double(updates), dy: dy / Double(updates))))
        }
        events.append(.gesture(GestureStep(kind: .swipe, phase: .end, time: start + seconds, fingers: fingers, cancelled: cancelled)))
        return events
    }

    /// A libinput pinch whose scale goes to `scale` and turns `angle` degrees in all.
    static func pinch(scale: Double, angle: Double = 0, fingers: Int = 2, updates: Int = 4, start: Double = 0) -> [ToolEvent] {
        var events: [ToolEvent] = [.gesture(GestureStep(kind: .pinch, phase: .begin, time: start, fingers: fingers))]
        for i in 1...updates {
            let f = Double(i) / Double(updates)
            events.append(.gesture(GestureStep(kind: .pinch, phase: .update, time: start + 0.05 * Double(i), fingers: fingers,
                                               scale: 1 + (scale - 1) * f, angleDelta: angle / Double(updates))))
        }
        events.append(.gesture(GestureStep(kind: .pinch, phase: .end, time: start + 0.05 * Double(updates + 1), fingers: fingers,
                                           scale: scale)))
        return events
    }

    static func touchpadStream(_ events: [ToolEvent]) -> ToolStream { ToolStream(source: .pinchlab, device: touchpad, events: events) }
}
