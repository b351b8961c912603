/// libinput-gestures' settings (bulletmark/libinput-gestures 2.81, commit 9552f0d, the script
/// `libinput-gestures`): `swipe_threshold` (`swipe_min_threshold`, 0), `timeout` (`DEFAULT_TIMEOUT`,
/// 1.5 s), and whether any diagonal swipe or any rotation is configured, which changes how every
/// swipe and pinch is classified (`has_extended`).
package struct LibinputGesturesSettings: Sendable, Hashable {
    /// Unaccelerated units: a swipe shorter than this (Euclidean, at the end) does nothing.
    package var swipeThreshold: Int = 0
    /// Seconds from begin to end past which nothing runs (0: never); holds are exempt (2.77 on).
    package var timeoutSeconds: Double = 1.5
    /// A `gesture swipe left_up ...` (any diagonal) line: all eight directions are told apart.
    package var obliqueSwipes = false
    /// A `gesture pinch clockwise|anticlockwise ...` line: a pinch turned more than 15 degrees is a rotation.
    package var rotations = false
    /// The `gesture` lines, in order (type, motion, fingers); empty: every gesture bound.
    package var gestures: [LibinputGesturesBinding] = []

    package init() {}
    package static let defaults = LibinputGesturesSettings()
    /// `OBLIQUE_RATIO`: tan(22.5 degrees).
    static let obliqueRatio = 0.414213562373
    /// `ROTATE_ANGLE`, degrees.
    static let rotateAngle = 15.0
}

/// One `gesture TYPE MOTION [FINGERS] COMMAND` line.
package struct LibinputGesturesBinding: Sendable, Hashable {
    package var type: String
    package var motion: String
    /// nil: any finger count.
    package var fingers: Int?
    package var line: Int
    /// A hold's `on+D`: seconds it must have been held (0 for `on`); nil for a swipe or pinch.
    var holdDelay: Double?

    package init(type: String, motion: String, fingers: Int?, line: Int, holdDelay: Double? = nil) {
        self.type = type
        self.motion = motion
        self.fingers = fingers
        self.line = line
        self.holdDelay = holdDelay
    }
}

/// What libinput-gestures does with a libinput stream: everything is decided at the end, and a
/// cancelled end does nothing. A swipe sums its unaccelerated deltas (X, Y), is dropped when
/// X^2 + Y^2 < threshold^2, and is `left`/`right` when |X| > |Y|, else `up`/`down` (ties vertical,
/// negative Y up), with `_up`/`_down` or `left_`/`right_` when diagonals are configured and the
/// smaller component passes tan(22.5 degrees) of the larger. A pinch sums (scale - 1) and the angle
/// deltas: a rotation (`clockwise` when the sum is >= 0) past 15 degrees when rotations are
/// configured, else `in` for a negative sum, `out` for a positive one, nothing at 0. A hold fires
/// the `on+D` line with the largest delay D not longer than the hold (`on` is 0), if any; it
/// `on`. Past `timeout` from the begin (swipes and pinches) nothing runs. libinput-gestures times
/// lines as it reads them; here the events' own times.
package struct LibinputGesturesEmulator: Sendable {
    package var settings: LibinputGesturesSettings

    package init(settings: LibinputGesturesSettings = .defaults) { self.settings = settings }

    package func judge(_ stream: ToolStream) -> [FiredGesture] {
        var fired: [FiredGesture] = []
        var open: (kind: GestureStep.Kind, begin: Double, fingers: Int, x: Double, y: Double, r: Double, a: Double, scale: Double)?
        for case .gesture(let g) in stream.events {
            switch g.phase {
            case .begin:
                open = (g.kind, g.time, g.fingers, 0, 0, 0, 0, 1)
            case .update:
                guard var o = open, o.kind == g.kind else { continue }
                o.x += g.dx
                o.y += g.dy
                if g.kind == .pinch { o.r += g.scale - 1; o.a += g.angleDelta; o.scale = g.scale }
                open = o
            case .end:
                defer { open = nil }
                guard let o = open, o.kind == g.kind, !g.cancelled else { continue }
                let timedOut = settings.timeoutSeconds > 0 && o.begin + settings.timeoutSeconds < g.time
                switch o.kind {
                case .swipe:
                    let length = (o.x * o.x + o.y * o.y).squareRoot()
                    let threshold = Double(settings.swipeThreshold)
                    let motion = swipeMotion(o.x, o.y)
                    guard length >= threshold, !timedOut, isBound("swipe", motion, o.fingers) else { continue }
                    fired.append(FiredGesture(gesture: "swipe", fingers: o.fingers, direction: motion,
                                              begin: o.begin, end: g.time, figures: ToolFigures(distance: length),
                                              margin: .init(value: length, threshold: threshold, key: "swipe_threshold",
                                                            unit: "units", scale: 1000)))
                case .pinch:
                    guard !timedOut else { continue }
                    let motion: String
                    if settings.rotations && abs(o.a) > LibinputGesturesSettings.rotateAngle {
                        motion = o.a >= 0 ? "clockwise" : "anticlockwise"
                    } else if o.r != 0 {
                        motion = o.r <= 0 ? "in" : "out"
                    } else {
                        continue
                    }
                    guard isBound("pinch", motion, o.fingers) else { continue }
                    fired.append(FiredGesture(gesture: "pinch", fingers: o.fingers, direction: motion, begin: o.begin, end: g.time,
                                              figures: ToolFigures(angleDegrees: o.a, scale: o.scale)))
                case .hold:
                    guard let motion = holdMotion(fingers: o.fingers, held: g.time - o.begin) else { continue }
                    fired.append(FiredGesture(gesture: "hold", fingers: o.fingers, direction: motion, begin: o.begin, end: g.time))
                }
            }
        }
        return fired
    }

    /// `SWIPE.end`'s direction.
    func swipeMotion(_ x: Double, _ y: Double) -> String {
        let ratio = LibinputGesturesSettings.obliqueRatio
        if abs(x) > abs(y) {
            var motion = x < 0 ? "left" : "right"
            if settings.obliqueSwipes && abs(y) / abs(x) > ratio { motion += y < 0 ? "_up" : "_down" }
            return motion
        }
        var motion = y < 0 ? "up" : "down"
        if settings.obliqueSwipes && y != 0 && abs(x) / abs(y) > ratio { motion = (x < 0 ? "left_" : "right_") + motion }
        return motion
    }

    /// Without `gesture` lines every gesture is bound; with them, a (type, motion) configured for
    /// these fingers or for any (`GESTURE.action`: `(motion, fingers)`, then `motion`).
    private func isBound(_ type: String, _ motion: String, _ fingers: Int) -> Bool {
        settings.gestures.isEmpty
            || settings.gestures.contains { $0.type == type && $0.motion == motion && ($0.fingers == nil || $0.fingers == fingers) }
    }

    /// `HOLD.end` (2.77 on): the hold line with the largest delay not longer than the hold, for
    /// these fingers or any (a larger generic delay wins over a finger-specific smaller one), its
    /// motion (`on`, `on+0.5`); nil when none is held long enough. Every gesture bound: `on`.
    func holdMotion(fingers: Int, held: Double) -> String? {
        guard !settings.gestures.isEmpty else { return "on" }
        return settings.gestures
            .filter { $0.type == "hold" && ($0.fingers == nil || $0.fingers == fingers) && ($0.holdDelay ?? 0) <= held }
            .max { ($0.holdDelay ?? 0, $0.fingers == nil ? 0 : 1) < ($1.holdDelay ?? 0, $1.fingers == nil ? 0 : 1) }?.motion
    }
}
