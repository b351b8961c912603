/// KWin's touchpad gesture triggers (KDE/kwin v6.3.1, commit dc89793; `src/gestures.cpp`,
/// `src/globalshortcuts.cpp`, `src/virtualdesktops.cpp`, `src/effect/effecttogglablestate.cpp`).
package struct KWinGestureSettings: Sendable, Hashable {
    /// `SwipeGesture`'s minimum delta (`globalshortcuts.cpp`: (200, 200); `s_minimumDelta` on
    /// master): progress = min(|travel along the axis| / 200, 1), unaccelerated units.
    package var minimumDelta = 200.0
    /// The axis locks once either summed component reaches this many units (`updateSwipeGesture`).
    var axisLockDelta = 5.0
    /// Virtual desktops switch at this progress or more (`GESTURE_SWITCH_THRESHOLD`).
    var desktopSwitchThreshold = 0.25
    /// A toggled effect (Overview, Grid) opens above this progress (`EffectTogglableState`,
    /// `partialActivationFactor > 0.5`).
    var toggleThreshold = 0.5
    /// A pinch's progress is |scale - 1| / this (`DEFAULT_UNIT_SCALE_DELTA`).
    var minimumScaleDelta = 0.2

    package init() {}
    package static let defaults = KWinGestureSettings()
}

/// What KWin would do with a libinput stream: only gestures of three or more fingers reach its
/// recognizer (`GlobalShortcutFilter`); a swipe sums the unaccelerated deltas from its begin, locks
/// its axis once |sum dx| or |sum dy| reaches 5 (horizontal when |dx| >= |dy|), its direction is
/// the sign along that axis, and its progress min(|travel| / 200, 1). KWin's built-in gestures act
/// on the last progress whether the recognizer says triggered or cancelled (both signals fire the
/// same action): three- and four-finger left/right and three-finger up/down switch desktops at
/// progress >= 0.25; four-finger up (Overview) and down (Grid) open above 0.5. A pinch (no
/// built-in binding) counts as triggered at |scale - 1| >= 0.2, as a script's handler sees it.
/// A reversal along the locked axis is judged by the direction at the end (KWin's two-pass
/// elimination would also fire the first direction's action, at its progress, which is then 0
/// for a desktop switch).
package struct KWinGestureEmulator: Sendable {
    package var settings: KWinGestureSettings

    package init(settings: KWinGestureSettings = .defaults) { self.settings = settings }

    package func judge(_ stream: ToolStream) -> [FiredGesture] {
        var fired: [FiredGesture] = []
        var swipe: (begin: Double, fingers: Int, x: Double, y: Double, horizontal: Bool?)?
        var pinch: (begin: Double, fingers: Int, scale: Double)?
        for case .gesture(let g) in stream.events where g.fingers >= 3 {
            switch (g.kind, g.phase) {
            case (.swipe, .begin):
                swipe = (g.time, g.fingers, 0, 0, nil)
            case (.swipe, .update):
                guard var s = swipe else { continue }
                s.x += g.dx
                s.y += g.dy
                if s.horizontal == nil && max(abs(s.x), abs(s.y)) >= settings.axisLockDelta {
                    s.horizontal = abs(s.x) >= abs(s.y)
                }
                swipe = s
            case (.swipe, .end):
                if let s = swipe, let horizontal = s.horizontal {
                    fired.append(swipeFired(s.begin, g.time, fingers: s.fingers, horizontal: horizontal, x: s.x, y: s.y))
                }
                swipe = nil
            case (.pinch, .begin):
                pinch = (g.time, g.fingers, 1)
            case (.pinch, .update):
                pinch?.scale = g.scale
            case (.pinch, .end):
                if let p = pinch, p.scale != 1 {
                    let progress = min(abs(p.scale - 1) / settings.minimumScaleDelta, 1)
                    fired.append(FiredGesture(gesture: "pinch", fingers: p.fingers, direction: p.scale < 1 ? "contracting" : "expanding",
                                              executed: progress >= 1, begin: p.begin, end: g.time,
                                              figures: ToolFigures(percentage: progress * 100, scale: p.scale),
                                              margin: .init(value: abs(p.scale - 1), threshold: settings.minimumScaleDelta,
                                                            key: "DEFAULT_UNIT_SCALE_DELTA", unit: "scale", scale: 1)))
                }
                pinch = nil
            case (.hold, _):
                continue
            }
        }
        return fired
    }

    private func swipeFired(_ begin: Double, _ end: Double, fingers: Int, horizontal: Bool, x: Double, y: Double) -> FiredGesture {
        let travel = horizontal ? x : y
        let direction = horizontal ? (travel < 0 ? "left" : "right") : (travel < 0 ? "up" : "down")
        let progress = min(abs(travel) / settings.minimumDelta, 1)
        // The default binding's rule: Overview and Grid are four-finger up and down; the rest switch desktops.
        let toggles = fingers == 4 && !horizontal
        let threshold = toggles ? settings.toggleThreshold : settings.desktopSwitchThreshold
        let executed = toggles ? progress > threshold : progress >= threshold
        return FiredGesture(gesture: "swipe", fingers: fingers, direction: direction, executed: executed, begin: begin, end: end,
                            figures: ToolFigures(percentage: progress * 100, distance: abs(travel)),
                            margin: .init(value: progress, threshold: threshold,
                                          key: toggles ? "partialActivationFactor" : "GESTURE_SWITCH_THRESHOLD", unit: "progress", scale: 1))
    }
}
