/// libinput-gestures' settings (bulletmark/libinput-gestures 2.81, commit 9552f0d, the script
/// `libinput-gestures`): `swipe_threshold` (`swipe_min_threshold`, 0), `timeout` (`DEFAULT_TIMEOUT`,
/// 1.5 s), and whether any diagonal swipe or any rotation is configured, which changes how every
/// swipe and pinch is classified (`has_extended`).
public struct LibinputGesturesSettings: Sendable, Hashable {
    /// Unaccelerated units: a swipe shorter than this (Euclidean, at the end) does nothing.
    public var swipeThreshold: Int = 0
    /// Seconds from begin to end past which nothing runs (0: never); holds are exempt (2.77 on).
    public var timeoutSeconds: Double = 1.5
    /// A `gesture swipe left_up ...` (any diagonal) line: all eight directions are told apart.
    public var obliqueSwipes = false
    /// A `gesture pinch clockwise|anticlockwise ...` line: a pinch turned more than 15 degrees is a rotation.
    public var rotations = false
    /// The `gesture` lines, in order (type, motion, fingers); empty: every gesture bound.
    public var gestures: [LibinputGesturesBinding] = []

    public init() {}
    public static let defaults = LibinputGesturesSettings()
    /// `OBLIQUE_RATIO`: tan(22.5 degrees).
    public static let obliqueRatio = 0.414213562373
    /// `ROTATE_ANGLE`, degrees.
    public static let rotateAngle = 15.0
}

/// One `gesture TYPE MOTION [FINGERS] COMMAND` line.
public struct LibinputGesturesBinding: Sendable, Hashable {
    public var type: String
    public var motion: String
    /// nil: any finger count.
    public var fingers: Int?
    public var line: Int
}

/// What libinput-gestures does with a libinput stream: everything is decided at the end, and a
/// cancelled end does nothing. A swipe sums its unaccelerated deltas (X, Y), is dropped when
/// X^2 + Y^2 < threshold^2, and is `left`/`right` when |X| > |Y|, else `up`/`down` (ties vertical,
/// negative Y up), with `_up`/`_down` or `left_`/`right_` when diagonals are configured and the
/// smaller component passes tan(22.5 degrees) of the larger. A pinch sums (scale - 1) and the angle
/// deltas: a rotation (`clockwise` when the sum is >= 0) past 15 degrees when rotations are
/// configured, else `in` for a negative sum, `out` for a positive one, nothing at 0. A hold fires
/// `on`. Past `timeout` from the begin (swipes and pinches) nothing runs. libinput-gestures times
/// lines as it reads them; here the events' own times.
public struct LibinputGesturesEmulator: Sendable {
    public var settings: LibinputGesturesSettings

    public init(settings: LibinputGesturesSettings = .defaults) { self.settings = settings }

    public func judge(_ stream: ToolStream) -> [FiredGesture] {
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
                    guard length >= threshold, !timedOut else { continue }
                    fired.append(bound(FiredGesture(gesture: "swipe", fingers: o.fingers, direction: swipeMotion(o.x, o.y),
                                                    begin: o.begin, end: g.time, figures: ToolFigures(distance: length),
                                                    margin: .init(value: length, threshold: threshold, key: "swipe_threshold",
                                                                  unit: "units", scale: 1000))))
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
                    fired.append(bound(FiredGesture(gesture: "pinch", fingers: o.fingers, direction: motion, begin: o.begin, end: g.time,
                                                    figures: ToolFigures(angleDegrees: o.a, scale: o.scale))))
                case .hold:
                    fired.append(bound(FiredGesture(gesture: "hold", fingers: o.fingers, direction: "on", begin: o.begin, end: g.time)))
                }
            }
        }
        return fired.filter { $0.executed != false }.map { var f = $0; f.executed = nil; return f }
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

    /// With `gesture` lines, only a configured (type, motion, fingers) runs: the others are marked
    /// not executed and dropped by `judge`.
    private func bound(_ gesture: FiredGesture) -> FiredGesture {
        guard !settings.gestures.isEmpty else { return gesture }
        var g = gesture
        g.executed = settings.gestures.contains { b in
            b.type == gesture.gesture && (b.fingers == nil || b.fingers == gesture.fingers)
                && (b.motion == gesture.direction || (b.type == "hold" && b.motion.hasPrefix("on")))
        }
        return g
    }
}
