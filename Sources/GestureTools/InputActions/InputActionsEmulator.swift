import SettingsTable

#if canImport(Glibc)
import Glibc
#endif

/// InputActions' touchpad triggers on a libinput stream (InputActions/core 0.9.0, commit 3b0fb63;
/// paths under src/libinputactions/): which triggers start, and whether each then ends (its `end`
/// actions run: `executed` true) or is cancelled (its `cancel` actions: false). A trigger that
/// never started is dropped silently, as InputActions drops it. With the defaults every gesture is
/// bound (`InputActionsTrigger.everyGesture`); with a configuration, its `touchpad: gestures:`.
///
/// - A libinput begin activates, in the file's order, every trigger of its type whose `fingers`
///   match, after cancelling any still active (handlers/TriggerHandler.cpp `activateTriggers`);
///   a cancelled end cancels them, an end ends them (`doEndTriggers`): a trigger that started and
///   is within its `threshold` ends, the first of those with an end action cancelling the others;
///   one past its maximum (or short of its minimum) is cancelled.
/// - **Swipe** (handlers/MotionTriggerHandler.cpp `handleMotion`): each update's unaccelerated
///   (dx, dy) joins a window, newest first, cut to the shortest newest run whose summed vector is
///   at least `motion_threshold_3` (`_2`, or `motion_threshold`, by fingers) long; while none is,
///   nothing is updated. The window's direction (0 right, 90 up) is tested against each trigger's
///   range, `angle_tolerance` either side of the four axes, the diagonals between
///   (triggers/core/SwipeTriggerCore.cpp `angleRange`, inclusive): outside, the trigger is
///   cancelled; inside, it adds the update's length. When every trigger was cancelled by a turn
///   after one had been updated, the swipe triggers are activated again and the update read anew.
/// - **Pinch and rotate** (handlers/MultiTouchMotionTriggerHandler.cpp `handlePinch`): undecided
///   until the summed |angle delta| reaches 10 degrees (a rotation, tested first) or |1 - scale|
///   reaches 0.2 (a pinch); the updates before add nothing. A pinch is `in` while the scale is
///   under 1, else `out`, and adds |scale change|; a rotation is `clockwise` for a positive angle
///   delta, else `counterclockwise`, and adds |angle delta|; a trigger of the other direction is
///   cancelled by the update.
/// - **Hold**: updated every 5 ms with 5 (ms) from its begin (200 ms later when a click or tap
///   trigger exists), a tick at the end's own time included.
/// - **Speed**: when an active trigger asks for `fast` or `slow`, the first `speed.events` (3)
///   updates after the motion window or the pinch's decision are spent measuring it (their mean
///   delta against the speed thresholds), and a trigger of the other speed is cancelled.
/// - **threshold** (triggers/Trigger.cpp): the trigger starts on the first update at which its
///   total is within `threshold` (min, or min-max, inclusive); it acts on begin then.
///
/// Left out: touchscreen triggers, two-finger swipes (InputActions makes them of scroll events,
/// which a libinput gesture stream does not hold), circle, stroke, click and tap triggers, action
/// intervals and limits, `conditions` (taken as true), `resume_timeout`, a hold ended by a click.
package struct InputActionsEmulator: Sendable {
    package var settings: InputActionsSettings

    package init(settings: InputActionsSettings = .defaults) { self.settings = settings }

    private struct Active {
        var trigger: Int
        var activated: Double
        var total = 0.0
        var started: Double?
        /// Swipe: the window's angle at the last update; pinch/rotate: the last update's direction.
        var angle: Double?
        var direction: String?
    }

    private struct State {
        var fired: [FiredGesture] = []
        var active: [Active] = []
        var fingers = 0
        var window: [(dx: Double, dy: Double)] = []
        var segment = (dx: 0.0, dy: 0.0)
        var hadUpdate = false
        var sampling = false
        var samples = 0
        var sampleSum = 0.0
        var measured: InputActionsTrigger.Speed?
        var previousScale = 1.0
        var scale = 1.0
        var rotation = 0.0
        var farthestScale = 0.0
        var pinchType: InputActionsTrigger.Kind?
        var holdActivation: Double?
        var holdTicks = 0
    }

    package func judge(_ stream: ToolStream) -> [FiredGesture] {
        var s = State()
        for case .gesture(let g) in stream.events {
            tickHold(&s, until: g.time)
            switch (g.kind, g.phase) {
            case (.swipe, .begin):
                activate(&s, .swipe, fingers: g.fingers, at: g.time)
            case (.pinch, .begin):
                activate(&s, .pinch, fingers: g.fingers, at: g.time)
            case (.hold, .begin):
                activate(&s, .hold, fingers: g.fingers, at: g.time)
                let delay = settings.hasClickOrTapTrigger ? max(InputActionsSettings.tapTimeoutMS, settings.clickTimeoutMS) / 1000 : 0
                s.holdActivation = g.time + delay
                s.holdTicks = 0
            case (.swipe, .update):
                swipe(&s, g, again: false)
            case (.pinch, .update):
                pinch(&s, g)
            case (.hold, .update):
                continue
            case (_, .end):
                if g.cancelled { cancel(&s, at: g.time) { _ in true } } else { end(&s, at: g.time) }
                s.holdActivation = nil
            }
        }
        return s.fired
    }

    // MARK: Activation, cancel, end

    private func activate(_ s: inout State, _ kind: InputActionsTrigger.Kind, fingers: Int, at time: Double) {
        cancel(&s, at: time) { _ in true }
        let kinds: [InputActionsTrigger.Kind] = kind == .pinch ? [.pinch, .rotate] : [kind]
        s.active = settings.triggers.indices.compactMap { i in
            let t = settings.triggers[i]
            guard kinds.contains(t.kind), t.fingers?.contains(fingers) ?? true else { return nil }
            return Active(trigger: i, activated: time)
        }
        s.fingers = fingers
        s.window = []
        s.segment = (0, 0)
        s.hadUpdate = false
        s.sampling = s.active.contains { settings.triggers[$0.trigger].speed != .any }
        s.samples = 0
        s.sampleSum = 0
        s.measured = nil
        if kind == .pinch {
            s.previousScale = 1
            s.scale = 1
            s.rotation = 0
            s.farthestScale = 0
            s.pinchType = nil
        }
    }

    /// Cancels the active triggers `which` selects: those that started are reported, not executed.
    private func cancel(_ s: inout State, at time: Double, except keep: Int? = nil, _ which: (Active) -> Bool) {
        var kept: [Active] = []
        for (n, a) in s.active.enumerated() {
            if n == keep || !which(a) { kept.append(a); continue }
            if a.started != nil { s.fired.append(report(s, a, executed: false, at: time)) }
        }
        s.active = kept
    }

    private func within(_ t: InputActionsTrigger, _ total: Double) -> Bool {
        (t.thresholdMin.map { total >= $0 } ?? true) && (t.thresholdMax.map { total <= $0 } ?? true)
    }

    private func end(_ s: inout State, at time: Double) {
        let active = s.active
        s.active = []
        let endable = active.filter { $0.started != nil && within(settings.triggers[$0.trigger], $0.total) }
        let winner = endable.first { settings.triggers[$0.trigger].actsOnEnd }
        for a in active where a.started != nil {
            let ends = winner.map { $0.trigger == a.trigger } ?? endable.contains { $0.trigger == a.trigger }
            s.fired.append(report(s, a, executed: ends, at: time))
        }
    }

    /// A trigger's update of `delta`: the total grows, the trigger starts once within its
    /// threshold, and one that acts on begin then cancels the others. False: stop updating others.
    private func update(_ s: inout State, _ n: Int, delta: Double, at time: Double) -> Bool {
        s.active[n].total += abs(delta)
        let t = settings.triggers[s.active[n].trigger]
        guard within(t, s.active[n].total) else { return true }
        if s.active[n].started == nil { s.active[n].started = time }
        if t.actsOnBegin && s.active.count > 1 {
            cancel(&s, at: time, except: n) { _ in true }
            return false
        }
        return true
    }

    /// While a trigger asks for a speed, the first `events` updates measure it; true when this
    /// update was spent measuring.
    private func measuring(_ s: inout State, delta: Double, threshold: Double) -> Bool {
        guard s.sampling && s.measured == nil else { return false }
        if s.samples < settings.speed.events {
            s.samples += 1
            s.sampleSum += abs(delta)
            return true
        }
        s.measured = s.sampleSum / Double(max(1, settings.speed.events)) >= threshold ? .fast : .slow
        return false
    }

    private func speedMatches(_ s: State, _ t: InputActionsTrigger) -> Bool {
        t.speed == .any || s.measured == nil || t.speed == s.measured
    }

    // MARK: Swipe

    private func swipe(_ s: inout State, _ g: GestureStep, again: Bool) {
        let length = (g.dx * g.dx + g.dy * g.dy).squareRoot()
        s.window.append((g.dx, g.dy))
        s.segment = (s.segment.dx + g.dx, s.segment.dy + g.dy)
        if measuring(&s, delta: length, threshold: settings.speed.swipeThreshold) { return }
        let motion = settings.motionThreshold(fingers: s.fingers).value
        var sum = (x: 0.0, y: 0.0)
        var kept = 0
        var reached = false
        for d in s.window.reversed() {
            sum = (sum.x + d.dx, sum.y + d.dy)
            kept += 1
            if (sum.x * sum.x + sum.y * sum.y).squareRoot() >= motion { reached = true; break }
        }
        guard reached else { return }
        s.window.removeFirst(s.window.count - kept)
        let average = Self.degrees(sum.x, sum.y)
        var updated = false
        var n = 0
        while n < s.active.count {
            let t = settings.triggers[s.active[n].trigger]
            guard t.kind == .swipe, let r = t.swipeRange(tolerance: settings.angleTolerance) else { n += 1; continue }
            let inRange = InputActionsTrigger.matches(average, r.range)
                || (r.bidirectional && InputActionsTrigger.matchesOpposite(average, r.range))
            guard inRange && speedMatches(s, t) else {
                let victim = s.active[n].trigger
                cancel(&s, at: g.time) { $0.trigger == victim }
                continue
            }
            s.active[n].angle = average
            updated = true
            if !update(&s, n, delta: length, at: g.time) { break }
            n += 1
        }
        if updated {
            s.hadUpdate = true
        } else if s.hadUpdate && !again {
            // Every trigger turned away: activated anew, this update read again (the window restarts).
            activate(&s, .swipe, fingers: s.fingers, at: g.time)
            swipe(&s, g, again: true)
        }
    }

    /// `Math::atan2deg360` of a delta with y down: 0 right, 90 up, 0...360.
    static func degrees(_ dx: Double, _ dy: Double) -> Double {
        var a = atan2(-dy, dx) * 180 / Double.pi
        if a < 0 { a += 360 }
        return a
    }

    // MARK: Pinch and rotate

    private func pinch(_ s: inout State, _ g: GestureStep) {
        guard s.active.contains(where: { [.pinch, .rotate].contains(settings.triggers[$0.trigger].kind) }) else { return }
        let scaleDelta = g.scale - s.previousScale
        s.previousScale = g.scale
        s.scale = g.scale
        s.rotation += abs(g.angleDelta)
        s.farthestScale = max(s.farthestScale, abs(1 - g.scale))
        if s.pinchType == nil {
            if s.rotation >= InputActionsSettings.rotateDecision {
                s.pinchType = .rotate
                cancel(&s, at: g.time) { settings.triggers[$0.trigger].kind == .pinch }
            } else if abs(1 - g.scale) >= InputActionsSettings.pinchDecision {
                s.pinchType = .pinch
                cancel(&s, at: g.time) { settings.triggers[$0.trigger].kind == .rotate }
            } else {
                return
            }
        }
        let kind = s.pinchType!
        let direction: String, delta: Double, threshold: Double
        if kind == .pinch {
            direction = g.scale < 1 ? "in" : "out"
            delta = scaleDelta
            threshold = direction == "in" ? settings.speed.pinchInThreshold : settings.speed.pinchOutThreshold
        } else {
            direction = g.angleDelta > 0 ? "clockwise" : "counterclockwise"
            delta = g.angleDelta
            threshold = settings.speed.rotateThreshold
        }
        if measuring(&s, delta: delta, threshold: threshold) { return }
        var n = 0
        while n < s.active.count {
            let t = settings.triggers[s.active[n].trigger]
            guard t.kind == kind else { n += 1; continue }
            guard (t.direction == "any" || t.direction == direction) && speedMatches(s, t) else {
                let victim = s.active[n].trigger
                cancel(&s, at: g.time) { $0.trigger == victim }
                continue
            }
            s.active[n].direction = direction
            if !update(&s, n, delta: delta, at: g.time) { break }
            n += 1
        }
    }

    // MARK: Hold

    private func tickHold(_ s: inout State, until time: Double) {
        guard let activation = s.holdActivation, time >= activation,
              s.active.contains(where: { settings.triggers[$0.trigger].kind == .hold }) else { return }
        let tick = InputActionsSettings.tickMS / 1000
        let ticks = Int(((time - activation) / tick + 1e-6).rounded(.down))
        while s.holdTicks < ticks {
            s.holdTicks += 1
            let at = activation + Double(s.holdTicks) * tick
            var n = 0
            while n < s.active.count {
                guard settings.triggers[s.active[n].trigger].kind == .hold else { n += 1; continue }
                if !update(&s, n, delta: InputActionsSettings.tickMS, at: at) { break }
                n += 1
            }
        }
    }

    // MARK: Report

    private func report(_ s: State, _ a: Active, executed: Bool, at time: Double) -> FiredGesture {
        let t = settings.triggers[a.trigger]
        var direction = t.direction
        if let angle = t.angle { direction = "angle \(Self.short(angle.from))-\(Self.short(angle.to))" }
        if direction == "any" && t.kind != .swipe { direction = a.direction ?? direction }
        var figures = ToolFigures(distance: a.total)
        switch t.kind {
        case .swipe: figures.angleDegrees = a.angle
        case .pinch, .rotate: figures.scale = s.scale
        case .hold: break
        }
        if s.sampling && s.measured != nil { figures.speed = s.sampleSum / Double(max(1, settings.speed.events)) }
        return FiredGesture(gesture: t.kind.rawValue, fingers: s.fingers, direction: direction, executed: executed,
                            begin: a.activated, end: time, figures: figures, margin: margin(s, t, a))
    }

    private static func short(_ value: Double) -> String { SettingRange.text(value) }

    /// The nearest bound of the trigger's own threshold when it has one; else the figure that let
    /// the gesture begin: the swipe's net travel against its motion threshold, the pinch's farthest
    /// |1 - scale| against 0.2, the rotation's summed degrees against 10.
    private func margin(_ s: State, _ t: InputActionsTrigger, _ a: Active) -> DecisionMargin? {
        let unit: String
        switch t.kind {
        case .swipe: unit = "units"
        case .pinch: unit = "scale"
        case .rotate: unit = "degrees"
        case .hold: unit = "ms"
        }
        let bounds = [t.thresholdMin, t.thresholdMax].compactMap { $0 }
        if let bound = bounds.min(by: { abs(a.total - $0) < abs(a.total - $1) }) {
            return DecisionMargin(value: a.total, threshold: bound, key: "threshold", unit: unit, scale: max(abs(bound), 1e-9))
        }
        switch t.kind {
        case .swipe:
            let (threshold, key) = settings.motionThreshold(fingers: s.fingers)
            let net = (s.segment.dx * s.segment.dx + s.segment.dy * s.segment.dy).squareRoot()
            return DecisionMargin(value: net, threshold: threshold, key: key, unit: unit, scale: 10)
        case .pinch:
            return DecisionMargin(value: s.farthestScale, threshold: InputActionsSettings.pinchDecision, key: "handlePinch |1 - scale|",
                                  unit: unit, scale: InputActionsSettings.pinchDecision)
        case .rotate:
            return DecisionMargin(value: s.rotation, threshold: InputActionsSettings.rotateDecision, key: "handlePinch sum |angle delta|",
                                  unit: unit, scale: InputActionsSettings.rotateDecision)
        case .hold:
            return nil
        }
    }
}
