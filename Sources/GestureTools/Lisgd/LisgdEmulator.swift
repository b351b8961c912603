#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// lisgd 0.3.7 on a libinput touch stream (lisgd.c: `touchdown`, `touchmotion`, `touchup`,
/// `gesturecalculateswipe`, `gesturecalculatedistance`, `gesturecalculateedge`, `gestureexecute`).
///
/// Each finger's start is where it went down, its end its last motion. When the last finger lifts,
/// the gesture is judged by that finger: its direction is the angle of its start-to-end line,
/// clockwise from up, matched against windows of +-`-r` degrees around 0, 45, ... 360 in that order
/// (the first that holds wins), provided its length is at least `-t`; its edge from where it
/// started, else where it ended (50 units from a side); its length class long at 0.66 of the
/// screen's side along it (or diagonal), medium at 0.33. The finger count is how many lifted
/// fingers that moved went the way the first lifted one went. It fires only when less than `-m`
/// ms passed since the first finger came down. A binding matches on fingers and gesture, an edge
/// that admits the event's, and a length class at most the event's; the first match runs.
///
/// Quirks kept: cancelled touches are ignored (the down count never comes back to 0, so nothing
/// fires after one); a finger that never moved is not judged and leaves the count of the fingers
/// before it for the next gesture. Time is the events' own (lisgd reads the monotonic clock when
/// it handles an event, the same when events come as they were recorded). Slots of 20 and more,
/// which overrun lisgd's arrays, are ignored.
package struct LisgdEmulator: Sendable {
    package var settings: LisgdSettings

    package init(settings: LisgdSettings = .defaults) { self.settings = settings }

    private static let noMotion = -999_999.0

    private struct Finger {
        var start = (x: noMotion, y: noMotion)
        var end = (x: noMotion, y: noMotion)
        var moved: Bool { start.x != noMotion && start.y != noMotion && end.x != noMotion && end.y != noMotion }
    }

    package func judge(_ stream: ToolStream) -> [FiredGesture] {
        let bindings = settings.bindings.map(turned)
        let hasPressed = bindings.contains { $0.pressed }
        let width = Double(settings.width), height = Double(settings.height)
        var fingers: [Int: Finger] = [:]
        var down: UInt32 = 0
        var downTime: Int64 = 0
        var downSeconds = 0.0
        var pendingCount = 0
        var pendingSwipe: LisgdSwipe?
        var fired: [FiredGesture] = []

        func micro(_ t: Double) -> Int64 { Int64((t * 1_000_000).rounded()) }
        func withinTimeout(_ now: Int64) -> Bool {
            // `timeoutms > elapsed`, in whole ms; a negative -m is a huge unsigned value.
            settings.timeoutMS < 0 || Int64(settings.timeoutMS) > (now - downTime) / 1000
        }

        for case .touch(let step) in stream.events {
            guard step.phase == .frame || (step.slot >= -1 && step.slot < LisgdSettings.maximumSlots) else { continue }
            let x = step.x * width, y = step.y * height
            switch step.phase {
            case .down:
                var finger = fingers[step.slot] ?? Finger()
                finger.start = (x, y)
                fingers[step.slot] = finger
                if down == 0 { downTime = micro(step.time); downSeconds = step.time }
                down &+= 1
            case .motion:
                var finger = fingers[step.slot] ?? Finger()
                finger.end = (x, y)
                fingers[step.slot] = finger
                guard hasPressed else { continue }
                let judged = swipe(from: finger.start, to: finger.end, threshold: Double(settings.pressedThreshold))
                guard let direction = judged.swipe else { continue }
                let now = micro(step.time)
                guard withinTimeout(now) else { continue }
                let edge = edge(from: finger.start, to: finger.end)
                if let binding = match(bindings, direction, fingers: Int(Int32(bitPattern: down)), edge: edge, distance: .any, released: false) {
                    fired.append(FiredGesture(gesture: direction.rawValue, fingers: binding.fingers, begin: downSeconds, end: step.time,
                                              figures: ToolFigures(distance: judged.distance, angleDegrees: judged.degrees, edge: edge.rawValue,
                                                                   lengthClass: nil, pressed: true),
                                              margin: .init(value: judged.distance, threshold: Double(settings.pressedThreshold),
                                                            key: "-T", unit: "px", scale: max(width, height))))
                    fingers[step.slot]?.start = finger.end
                    downTime = now
                    downSeconds = step.time
                }
            case .up:
                down &-= 1
                let now = micro(step.time)
                guard let finger = fingers[step.slot], finger.moved else { continue }
                let judged = swipe(from: finger.start, to: finger.end, threshold: Double(settings.threshold))
                let edge = edge(from: finger.start, to: finger.end)
                let length = lengthClass(judged.distance, judged.swipe, width: width, height: height)
                if pendingCount == 0 { pendingSwipe = judged.swipe }
                if pendingSwipe == judged.swipe { pendingCount += 1 }
                fingers[step.slot] = Finger()
                guard down == 0 else { continue }
                defer { pendingCount = 0 }
                guard withinTimeout(now), let direction = judged.swipe else { continue }
                let count = pendingCount
                let matched: Bool = bindings.isEmpty
                    || match(bindings, direction, fingers: count, edge: edge, distance: length, released: true) != nil
                guard matched else { continue }
                fired.append(FiredGesture(gesture: direction.rawValue, fingers: count, begin: downSeconds, end: step.time,
                                          figures: ToolFigures(distance: judged.distance, angleDegrees: judged.degrees, edge: edge.rawValue,
                                                               lengthClass: length.letter, pressed: false),
                                          margin: .init(value: judged.distance, threshold: Double(settings.threshold), key: "-t",
                                                        unit: "px", scale: max(width, height))))
            case .cancel, .frame:
                continue
            }
        }
        return fired
    }

    /// The bindings as lisgd turns them by `-o` (`swipereorient`, `edgereorient`).
    private func turned(_ binding: LisgdBinding) -> LisgdBinding {
        var b = binding
        b.swipe = b.swipe.turned(by: settings.orientation)
        b.edge = b.edge.turned(by: settings.orientation)
        return b
    }

    private func match(_ bindings: [LisgdBinding], _ swipe: LisgdSwipe, fingers: Int, edge: LisgdEdge, distance: LisgdDistance,
                       released: Bool) -> LisgdBinding? {
        bindings.first { b in
            b.fingers == fingers && b.swipe == swipe && b.distance <= distance && b.edge.admits(edge) && (released || b.pressed)
        }
    }

    /// `gesturecalculateswipe`: the angle clockwise from up, the length, and the first window that holds.
    func swipe(from start: (x: Double, y: Double), to end: (x: Double, y: Double), threshold: Double)
        -> (swipe: LisgdSwipe?, distance: Double, degrees: Double) {
        let dx = end.x - start.x, dy = end.y - start.y
        let t = atan2(dx, start.y - end.y)
        let degrees = 57.2957795130823209 * (t < 0 ? t + 6.2831853071795865 : t)
        let distance = (dx * dx + dy * dy).squareRoot()
        guard distance >= threshold else { return (nil, distance, degrees) }
        // An unsigned leniency: -r -1 is 4294967295.
        let len = Double(UInt32(truncatingIfNeeded: settings.degreesLeniency))
        let windows: [(Double, LisgdSwipe)] = [(0, .DU), (45, .DLUR), (90, .LR), (135, .ULDR), (180, .UD), (225, .URDL), (270, .RL),
                                               (315, .DRUL), (360, .DU)]
        for (want, swipe) in windows where degrees >= want - len && degrees <= want + len {
            return (swipe, distance, degrees)
        }
        return (nil, distance, degrees)
    }

    /// `gesturecalculateedge`: the start point first, then the end point, per axis; two sides make a corner.
    func edge(from start: (x: Double, y: Double), to end: (x: Double, y: Double)) -> LisgdEdge {
        let m = LisgdSettings.edgeSize
        let w = Double(settings.width), h = Double(settings.height)
        var horizontal = LisgdEdge.none
        if start.x <= m { horizontal = .left } else if start.x >= w - m { horizontal = .right }
        else if end.x <= m { horizontal = .left } else if end.x >= w - m { horizontal = .right }
        var vertical = LisgdEdge.none
        if start.y <= m { vertical = .top } else if start.y >= h - m { vertical = .bottom }
        else if end.y <= m { vertical = .top } else if end.y >= h - m { vertical = .bottom }
        switch (horizontal, vertical) {
        case (.left, .top): return .topLeft
        case (.right, .top): return .topRight
        case (.left, .bottom): return .bottomLeft
        case (.right, .bottom): return .bottomRight
        default: return horizontal != .none ? horizontal : vertical
        }
    }

    /// `gesturecalculatedistance`: long from 0.66 of the side along the swipe, medium from 0.33.
    func lengthClass(_ distance: Double, _ swipe: LisgdSwipe?, width: Double, height: Double) -> LisgdDistance {
        guard let swipe else { return .any }
        let reference: Double
        switch swipe {
        case .DU, .UD: reference = height
        case .LR, .RL: reference = width
        default: reference = (width * width + height * height).squareRoot()
        }
        if distance >= reference * 0.66 { return .long }
        if distance >= reference * 0.33 { return .medium }
        return .short
    }
}
