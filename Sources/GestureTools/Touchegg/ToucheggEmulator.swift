/// touchegg's decisions on a libinput stream: the daemon's gesture gatherer (what begins, its
/// direction and percentage) and the client's execute-or-not at the end, for an action that
/// honours `action_execute_threshold` (the animated ones, and `on="end"` commands).
///
/// Touchpad (src/gesture-gatherer/libinput-swipe-handler.cpp, libinput-pinch-handler.cpp,
/// libinput-handler.cpp): a swipe sums the unaccelerated deltas from its begin and starts once
/// |sum dx| > start or |sum dy| > start (per axis, strict); its direction is fixed then (horizontal
/// only when |dx| > |dy|), and its percentage is max(0, travel along it - start) / (start + finish)
/// x 100, at most 100. A pinch starts at its first update, OUT when that scale is above 1, else IN;
/// its percentage is (1 - scale) x 100 in, (scale - 1) x 100 out, clamped to 0...100. libinput's
/// `cancelled` is never read: a cancelled end ends like any other. Holds are ignored.
///
/// Touchscreen (libinput-touch-handler.cpp): two or more fingers down and the mean movement of
/// the touches past the start threshold (mm, per axis, strict) begin a gesture: a swipe when every
/// finger moved mostly along one axis the same way (each finger's movement truncated to whole mm
/// for the sign), else a pinch judged by the width of the fingers' bounding box; positions are
/// re-based at the start, and the gesture ends when the second-to-last finger lifts.
package struct ToucheggEmulator: Sendable {
    package var settings: ToucheggSettings

    package init(settings: ToucheggSettings = .defaults) { self.settings = settings }

    package func judge(_ stream: ToolStream) -> [FiredGesture] {
        let thresholds = settings.thresholds(for: stream.device)
        switch stream.device.kind {
        case .touchpad: return touchpad(stream.events, thresholds)
        case .touchscreen: return touchscreen(stream.events, thresholds, size: (stream.device.widthMM, stream.device.heightMM))
        }
    }

    // MARK: Touchpad

    private struct Swipe {
        var sumX = 0.0, sumY = 0.0
        /// Fixed when the swipe starts (passes the start threshold), with its fingers and time.
        var direction: String?
        var fingers = 0
        var started = 0.0
    }

    /// `calculateSwipeDirection`: horizontal only when |x| > |y| (a tie is vertical), by its sign.
    static func swipeDirection(_ x: Double, _ y: Double) -> String {
        abs(x) > abs(y) ? (x > 0 ? "RIGHT" : "LEFT") : (y > 0 ? "DOWN" : "UP")
    }

    /// `calculateSwipeAnimationPercentage`: the travel along `direction` past the start threshold,
    /// over start + finish, at most 100; and that travel.
    static func swipePercentage(_ direction: String, _ x: Double, _ y: Double, _ t: ToucheggThresholds)
        -> (percentage: Double, travel: Double) {
        let travel: Double, finish: Double
        switch direction {
        case "UP": travel = -y; finish = t.finishVertical
        case "DOWN": travel = y; finish = t.finishVertical
        case "LEFT": travel = -x; finish = t.finishHorizontal
        default: travel = x; finish = t.finishHorizontal
        }
        return (min(max(0, travel - t.start) * 100 / (t.start + finish), 100), travel)
    }

    private func touchpad(_ events: [ToolEvent], _ t: ToucheggThresholds) -> [FiredGesture] {
        var fired: [FiredGesture] = []
        var swipe: Swipe?
        var pinch: (begin: Double, direction: String?, fingers: Int, scale: Double)?
        for case .gesture(let g) in events {
            switch (g.kind, g.phase) {
            case (.swipe, .begin):
                swipe = Swipe()
            case (.swipe, .update):
                guard var s = swipe else { continue }
                s.sumX += g.dx
                s.sumY += g.dy
                if s.direction == nil && (abs(s.sumX) > t.start || abs(s.sumY) > t.start) {
                    s.direction = Self.swipeDirection(s.sumX, s.sumY)
                    s.fingers = g.fingers
                    s.started = g.time
                }
                swipe = s
            case (.swipe, .end):
                if let s = swipe, let direction = s.direction {
                    let (percentage, travel) = Self.swipePercentage(direction, s.sumX, s.sumY, t)
                    fired.append(decided("SWIPE", fingers: s.fingers, direction: direction, begin: s.started, end: g.time,
                                         percentage: percentage, distance: travel, scale: nil))
                }
                swipe = nil
            case (.pinch, .begin):
                pinch = (g.time, nil, 0, 1)
            case (.pinch, .update):
                guard var p = pinch else { continue }
                if p.direction == nil {
                    p.direction = g.scale > 1 ? "OUT" : "IN"
                    p.fingers = g.fingers
                    p.begin = g.time
                }
                p.scale = g.scale
                pinch = p
            case (.pinch, .end):
                if let p = pinch, let direction = p.direction {
                    fired.append(decided("PINCH", fingers: p.fingers, direction: direction, begin: p.begin, end: g.time,
                                         percentage: Self.pinchPercentage(direction, p.scale), distance: nil, scale: p.scale))
                }
                pinch = nil
            case (.hold, _):
                continue
            }
        }
        return fired
    }

    /// `calculatePinchAnimationPercentage`.
    static func pinchPercentage(_ direction: String, _ scale: Double) -> Double {
        direction == "IN" ? min(100, (1 - min(1, scale)) * 100) : min(100, max(0, min(2, scale) - 1) * 100)
    }

    private func decided(_ gesture: String, fingers: Int, direction: String, begin: Double, end: Double,
                         percentage: Double, distance: Double?, scale: Double?) -> FiredGesture {
        let threshold = Double(max(0, min(100, settings.actionExecuteThreshold)))
        return FiredGesture(gesture: gesture, fingers: fingers, direction: direction, executed: percentage >= threshold,
                            begin: begin, end: end,
                            figures: ToolFigures(percentage: percentage, distance: distance, scale: scale),
                            margin: .init(value: percentage, threshold: threshold, key: "action_execute_threshold", unit: "%",
                                          scale: 100))
    }

    // MARK: Touchscreen

    private struct Screen {
        var down: [Int: (start: (x: Double, y: Double), now: (x: Double, y: Double))] = [:]
        var count = 0
        var firstDown = 0.0
        var tapFingers = 0
        var started: (time: Double, type: String, direction: String, fingers: Int, width: Double)?
    }

    private func touchscreen(_ events: [ToolEvent], _ t: ToucheggThresholds, size: (width: Double, height: Double)) -> [FiredGesture] {
        var fired: [FiredGesture] = []
        var s = Screen()
        // libinput_event_touch_get_x/_y: mm from the corner of the device.
        func millimetres(_ step: TouchStep) -> (x: Double, y: Double) { (step.x * size.width, step.y * size.height) }
        for case .touch(let step) in events {
            switch step.phase {
            case .down:
                s.count += 1
                if s.count == 1 { s.firstDown = step.time }
                s.tapFingers = s.count
                let p = millimetres(step)
                s.down[step.slot] = (p, p)
            case .motion:
                guard var touch = s.down[step.slot] else { continue }
                touch.now = millimetres(step)
                s.down[step.slot] = touch
                if s.started == nil {
                    let (ax, ay) = averageDelta(s)
                    guard s.count >= 2, abs(ax) > t.start || abs(ay) > t.start else { continue }
                    let type = swipeLike(s) ? "SWIPE" : "PINCH"
                    let direction = type == "SWIPE" ? Self.swipeDirection(ax, ay) : (boxWidth(s, \.start) < boxWidth(s, \.now) ? "OUT" : "IN")
                    for slot in s.down.keys { s.down[slot]!.start = s.down[slot]!.now }
                    s.started = (step.time, type, direction, s.count, boxWidth(s, \.start))
                }
            case .up, .cancel:
                s.count -= 1
                if let started = s.started, s.count == 1 {
                    let percentage = screenPercentage(s, started, t)
                    fired.append(decided(started.type, fingers: started.fingers, direction: started.direction, begin: started.time,
                                         end: step.time, percentage: percentage, distance: nil,
                                         scale: started.type == "PINCH" ? boxWidth(s, \.now) / started.width : nil))
                    s.started = nil
                } else if s.started == nil && s.count == 0 && s.tapFingers >= 2 && (step.time - s.firstDown) * 1000 < 150 {
                    // TAP: begin and end at once, 100 %, no threshold.
                    fired.append(FiredGesture(gesture: "TAP", fingers: s.tapFingers, direction: nil, executed: true,
                                              begin: s.firstDown, end: step.time, figures: ToolFigures(percentage: 100)))
                }
                s.down[step.slot] = nil
                if s.count <= 0 { s = Screen() }
            case .frame:
                continue
            }
        }
        return fired
    }

    private func averageDelta(_ s: Screen) -> (Double, Double) {
        guard !s.down.isEmpty else { return (0, 0) }
        var x = 0.0, y = 0.0
        for touch in s.down.values { x += touch.now.x - touch.start.x; y += touch.now.y - touch.start.y }
        return (x / Double(s.down.count), y / Double(s.down.count))
    }

    /// `getGestureType`: one dominant axis for every finger, and one sign (each finger's dominant
    /// movement truncated to whole mm, so a finger under 1 mm makes it a pinch).
    private func swipeLike(_ s: Screen) -> Bool {
        var axis: Bool?
        var positive = 0, negative = 0
        for touch in s.down.values {
            let dx = touch.now.x - touch.start.x, dy = touch.now.y - touch.start.y
            let horizontal = abs(dx) > abs(dy)
            if let axis, axis != horizontal { return false }
            axis = horizontal
            // `(int)` of the movement: truncated toward zero.
            let whole = (horizontal ? dx : dy).rounded(.towardZero)
            if whole > 0 { positive += 1 } else if whole < 0 { negative += 1 } else { return false }
        }
        return positive == 0 || negative == 0
    }

    private func boxWidth(_ s: Screen, _ which: KeyPath<(start: (x: Double, y: Double), now: (x: Double, y: Double)), (x: Double, y: Double)>) -> Double {
        let xs = s.down.values.map { $0[keyPath: which].x }
        guard let lo = xs.min(), let hi = xs.max() else { return 0 }
        return hi - lo
    }

    private func screenPercentage(_ s: Screen, _ started: (time: Double, type: String, direction: String, fingers: Int, width: Double),
                                  _ t: ToucheggThresholds) -> Double {
        if started.type == "PINCH" {
            return Self.pinchPercentage(started.direction, boxWidth(s, \.now) / started.width)
        }
        let (ax, ay) = averageDelta(s)
        return Self.swipePercentage(started.direction, ax, ay, t).percentage
    }
}
