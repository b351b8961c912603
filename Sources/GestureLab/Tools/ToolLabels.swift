import GestureTools

/// What a corpus label means for each tool: the gesture it should fire, in its words. A label is in
/// pinchlab's terms (`pan` 3 fingers `left`); for touchegg that is `SWIPE LEFT 3`, for
/// libinput-gestures `swipe left 3`, for KWin `swipe left 3`, for lisgd `3 RL`. A gesture the tool
/// cannot see is one it should not fire for: on a touchpad libinput sends no gesture for one or
/// two fingers moving together (pointer motion, scrolling), so no touchpad tool hears of them;
/// KWin takes only three or more fingers; lisgd reads only a touchscreen's touches and has no
/// pinch or hold; touchegg has no hold. Taps are not labelled as gestures, so touchegg's
/// touchscreen `TAP` is left out of the comparison.
package struct ToolExpectation: Sendable, Hashable {
    package var gesture: String
    package var fingers: Int?
    package var direction: String?
    /// From the label's outcome: finish is executed, cancel is not (tools that decide no such thing ignore it).
    package var executed: Bool?

    package func admits(_ fired: FiredGesture) -> Bool {
        fired.gesture == gesture && (fingers == nil || fingers == fired.fingers)
            && (direction == nil || direction == fired.direction)
            && (executed == nil || fired.executed == nil || executed == fired.executed)
    }

    /// `SWIPE LEFT 3 fingers, executed`, `3 RL`.
    package var text: String {
        var words = [gesture]
        if let direction { words.append(direction) }
        if let fingers { words.append(fingers == 1 ? "1 finger" : "\(fingers) fingers") }
        return words.joined(separator: " ") + (executed.map { $0 ? ", executed" : ", cancelled" } ?? "")
    }
}

enum ToolLabels {
    /// The tool's expectation for one labelled gesture on a device of `kind`; nil when the tool
    /// should fire nothing for it.
    package static func expectation(_ label: GestureExpectation, tool: GestureToolName, device kind: ToolDevice.Kind) -> ToolExpectation? {
        let fingers = label.fingers
        let executed: Bool? = switch label.outcome {
        case .finish?: true
        case .cancel?: false
        case .none?, nil: nil
        }
        switch (tool, label.kind) {
        case (_, .none):
            return nil
        case (.lisgd, .pan):
            guard kind == .touchscreen, let direction = label.direction, !direction.isPinch else { return nil }
            let name = switch direction {
            case .up: "DU"
            case .down: "UD"
            case .left: "RL"
            default: "LR"
            }
            return ToolExpectation(gesture: name, fingers: fingers, direction: nil, executed: nil)
        case (.lisgd, _):
            return nil
        case (.touchegg, .pan):
            let least = kind == .touchscreen ? 2 : 3
            guard let fingers, fingers >= least else { return nil }
            return ToolExpectation(gesture: "SWIPE", fingers: fingers, direction: label.direction?.rawValue.uppercased(), executed: executed)
        case (.touchegg, .pinch):
            return ToolExpectation(gesture: "PINCH", fingers: fingers, direction: label.direction?.rawValue.uppercased(), executed: executed)
        case (.touchegg, .hold):
            return nil
        case (.libinputGestures, .pan), (.fusuma, .pan), (.inputactions, .pan):
            guard kind == .touchpad, let fingers, fingers >= 3 else { return nil }
            return ToolExpectation(gesture: "swipe", fingers: fingers, direction: label.direction?.rawValue, executed: nil)
        case (.libinputGestures, .pinch), (.fusuma, .pinch), (.inputactions, .pinch):
            guard kind == .touchpad else { return nil }
            return ToolExpectation(gesture: "pinch", fingers: fingers, direction: label.direction?.rawValue, executed: nil)
        case (.libinputGestures, .hold), (.fusuma, .hold), (.inputactions, .hold):
            guard kind == .touchpad else { return nil }
            return ToolExpectation(gesture: "hold", fingers: fingers, direction: tool == .libinputGestures ? "on" : nil, executed: nil)
        case (.kwinGestures, .pan):
            guard kind == .touchpad, let fingers, fingers >= 3 else { return nil }
            return ToolExpectation(gesture: "swipe", fingers: fingers, direction: label.direction?.rawValue, executed: executed)
        case (.kwinGestures, .pinch):
            guard kind == .touchpad, let fingers, fingers >= 3 else { return nil }
            let direction: String? = label.direction.map { $0 == .in ? "contracting" : "expanding" }
            return ToolExpectation(gesture: "pinch", fingers: fingers, direction: direction, executed: nil)
        case (.kwinGestures, .hold):
            return nil
        }
    }

    /// The gestures of `fired` a label speaks of: touchegg's taps are not labelled; an InputActions
    /// trigger it cancelled (a hold the fingers then moved out of, a swipe that turned) ran no action.
    package static func compared(_ fired: [FiredGesture], tool: GestureToolName) -> [FiredGesture] {
        switch tool {
        case .touchegg: fired.filter { $0.gesture != "TAP" }
        case .inputactions: fired.filter { $0.executed != false }
        default: fired
        }
    }
}
