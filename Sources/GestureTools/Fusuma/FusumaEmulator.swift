import SettingsTable

/// fusuma's oneshot gestures on a libinput stream: what `swipe: F: DIR: command:`, `pinch: F:
/// in|out: command:`, `rotate: F: clockwise|counterclockwise: command:` and `hold: F: command:`
/// would run if every one were bound (and no `begin`/`update`/`end` repeat key were).
///
/// fusuma runs its pipeline once a libinput line (lib/fusuma.rb `Runner#pipeline`) and judges
/// each gesture from its last begin on (`GestureBuffer#select_from_last_begin`). The first update
/// of a gesture is its repeat `begin` and never a oneshot; from the second on:
/// - **swipe** (`swipe_detector.rb`): an update whose accelerated delta is at most 0.3 on both axes
///   is skipped (`moved?`); else the speed is the sum of the last 10 updates' accelerated deltas
///   over 100 x the seconds from the first of them to this one (`sum_last10_attrs`), and it fires
///   when max(|vx|, |vy|) > 25 x k (strict), towards the larger component (`left`/`right` when
///   |vx| > |vy|, else `down`/`up`: ties vertical).
/// - **pinch** (`pinch_detector.rb`): an update whose scale changed no faster than 0.01 a 10 ms
///   since the one before is skipped; else the mean scale of the last 10 updates (all, when fewer)
///   against the first of them: `out` when above it, else `in`, and it fires when the ratio
///   (larger over smaller) >= 1.3 x k.
/// - **rotate** (`rotate_detector.rb`, fed the pinch events too): an update turning no more than
///   0.2 degrees is skipped; else the sum of the last 10 angle deltas over 100 x their seconds,
///   firing when its magnitude > 0.5 x k: `clockwise` when positive, else `counterclockwise`. When
///   pinch and rotate both fire on one update, rotate runs (one command a line: `Runner#merge`).
/// - **hold** (`hold_detector.rb`): fires once, 0.7 x k s + 0.02 s after the hold's begin, when
///   the timer wakes the detector, if the hold has not ended by then.
/// Every oneshot that runs keeps every other from running for 0.3 s x its interval multiplier (one
/// `@wait_until` in `Executor`), and nothing latches a swipe, pinch or rotate: while the window
/// stays fast enough it fires again when the interval has passed. A cancelled swipe or pinch end
/// ends as any other (fusuma reads `cancelled` only for holds).
///
/// fusuma times each line when it reads it (`Time.now`); here each event's own libinput time, the
/// deterministic stand-in (a burst of lines read at once would look faster to fusuma).
package struct FusumaEmulator: Sendable {
    package var settings: FusumaSettings

    package init(settings: FusumaSettings = .defaults) { self.settings = settings }

    private struct Hold {
        var begin: Double
        var fingers: Int
        var wake: Double
        var factor: Double
        var key: String
        /// Index in `fired` once it fired; `done` once judged (fired or kept back by the interval).
        var fired: Int?
        var done = false
    }

    package func judge(_ stream: ToolStream) -> [FiredGesture] {
        var fired: [FiredGesture] = []
        var waitUntil = -Double.infinity
        var begin = 0.0
        var updates: [GestureStep] = []
        var previous: (time: Double, zoom: Double) = (0, 1)
        var hold: Hold?

        /// Runs `gesture` at `time` unless an earlier oneshot's interval is still running.
        func run(_ gesture: FiredGesture, _ kind: FusumaSettings.Gesture, at time: Double) -> Bool {
            guard time >= waitUntil else { return false }
            waitUntil = time + settings.intervalSeconds(kind, fingers: gesture.fingers, direction: gesture.direction)
            fired.append(gesture)
            return true
        }

        /// The hold's timer tick, if it comes before `time`.
        func wakeHold(before time: Double) {
            guard var h = hold, !h.done, h.wake <= time else { return }
            h.done = true
            let gesture = FiredGesture(gesture: "hold", fingers: h.fingers, begin: h.begin, end: h.wake,
                                       margin: Self.margin(h.wake - h.begin - FusumaSettings.holdWakeEpsilon, base: FusumaSettings.holdBase,
                                                           factor: h.factor, key: h.key, unit: "s"))
            if run(gesture, .hold, at: h.wake) { h.fired = fired.count - 1 }
            hold = h
        }

        for case .gesture(let g) in stream.events {
            wakeHold(before: g.time)
            switch (g.kind, g.phase) {
            case (_, .begin):
                begin = g.time
                updates = []
                previous = (g.time, 1)
                if g.kind == .hold {
                    let (k, key) = settings.thresholdFactor(.hold, fingers: g.fingers, direction: nil)
                    hold = Hold(begin: g.time, fingers: g.fingers, wake: g.time + FusumaSettings.holdBase * k + FusumaSettings.holdWakeEpsilon,
                                factor: k, key: key)
                }
            case (.hold, .update):
                continue
            case (.hold, .end):
                // The margin of a fired hold: how long it was held in all.
                if let h = hold, let index = h.fired {
                    fired[index].end = g.time
                    fired[index].margin?.value = (g.time - h.begin - FusumaSettings.holdWakeEpsilon) / FusumaSettings.holdBase
                }
                hold = nil
            case (.swipe, .update):
                updates.append(g)
                guard updates.count >= 2, max(abs(g.acceleratedDX), abs(g.acceleratedDY)) > FusumaSettings.swipeMinimumMove else { continue }
                let window = updates.suffix(FusumaSettings.window)
                let span = (g.time - window.first!.time) * 100
                let vx = window.reduce(0) { $0 + $1.acceleratedDX } / span
                let vy = window.reduce(0) { $0 + $1.acceleratedDY } / span
                let direction = abs(vx) > abs(vy) ? (vx > 0 ? "right" : "left") : (vy > 0 ? "down" : "up")
                let speed = max(abs(vx), abs(vy))
                let (k, key) = settings.thresholdFactor(.swipe, fingers: g.fingers, direction: direction)
                let threshold = FusumaSettings.swipeBase * k
                guard speed > threshold else { continue }
                _ = run(FiredGesture(gesture: "swipe", fingers: g.fingers, direction: direction, begin: begin, end: g.time,
                                     figures: ToolFigures(speed: speed),
                                     margin: Self.margin(speed, base: FusumaSettings.swipeBase, factor: k, key: key, unit: "units/10ms")),
                      .swipe, at: g.time)
            case (.pinch, .update):
                updates.append(g)
                defer { previous = (g.time, g.scale) }
                guard updates.count >= 2 else { continue }
                let window = updates.suffix(FusumaSettings.window)
                var candidates: [(FiredGesture, FusumaSettings.Gesture)] = []
                if abs(g.angleDelta) > FusumaSettings.rotateMinimumAngle {
                    let omega = window.reduce(0) { $0 + $1.angleDelta } / ((g.time - window.first!.time) * 100)
                    let direction = omega > 0 ? "clockwise" : "counterclockwise"
                    let (k, key) = settings.thresholdFactor(.rotate, fingers: g.fingers, direction: direction)
                    let threshold = FusumaSettings.rotateBase * k
                    if abs(omega) > threshold {
                        candidates.append((FiredGesture(gesture: "rotate", fingers: g.fingers, direction: direction, begin: begin, end: g.time,
                                                        figures: ToolFigures(angleDegrees: window.reduce(0) { $0 + $1.angleDelta },
                                                                             scale: g.scale, speed: omega),
                                                        margin: Self.margin(abs(omega), base: FusumaSettings.rotateBase, factor: k, key: key,
                                                                            unit: "degrees/10ms")), .rotate))
                    }
                }
                if abs(g.scale - previous.zoom) / ((g.time - previous.time) * 100) > FusumaSettings.pinchMinimumRate {
                    let first = window.first!.scale
                    let average = window.reduce(0) { $0 + $1.scale } / Double(window.count)
                    let ratio = average > first ? average / first : first / average
                    let direction = average > first ? "out" : "in"
                    let (k, key) = settings.thresholdFactor(.pinch, fingers: g.fingers, direction: direction)
                    let threshold = FusumaSettings.pinchBase * k
                    if ratio >= threshold {
                        candidates.append((FiredGesture(gesture: "pinch", fingers: g.fingers, direction: direction, begin: begin, end: g.time,
                                                        figures: ToolFigures(scale: g.scale),
                                                        margin: Self.margin(ratio, base: FusumaSettings.pinchBase, factor: k, key: key,
                                                                            unit: "ratio")), .pinch))
                    }
                }
                // One command a line, the first of the oneshots (rotate's, when both fire).
                if let first = candidates.first { _ = run(first.0, first.1, at: g.time) }
            case (.swipe, .end), (.pinch, .end):
                updates = []
            }
        }
        return fired
    }

    /// A margin in the terms of the setting that decided it, fusuma's multiplier `key`: its value
    /// (`threshold`) against the largest multiplier that would still have fired (`value`: what was
    /// measured over the base figure), so that `value - threshold` is how much more `key` would
    /// have kept the gesture back. The measure itself is in the gesture's figures.
    static func margin(_ measured: Double, base: Double, factor: Double, key: String, unit: String) -> DecisionMargin {
        DecisionMargin(value: measured / base, threshold: factor, key: key, unit: "x \(FusumaSettings.figure(base)) \(unit)", scale: 1)
    }
}
