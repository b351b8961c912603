import GestureCore
import GestureLab
import InteractiveTransition

/// One thing the viewer page shows, made from one pipeline record. The page keeps a list of them in
/// time order: a file's page has them all embedded, a live page receives them as they happen. Each
/// is a short JSON array whose first element says what it is, so a 10-minute recording stays a few
/// megabytes:
/// - `["f", time, fingers, id, x, y, id, x, y, ...]`: a touch frame, the touches down (mm);
/// - `["s", time, progress, state, trial, [scene], reason, velocity, projected]`: a transition step
///   (`"c"` instead of `"s"` for the compared policy's replay), the last three only where the
///   policy decided;
/// - `["g", time, kind, state, fingers, value, rule, x]`: a gesture event (`value`: the pinch's scale
///   or the pan's downward translation in mm; `rule`: the recognizer rule that began, ended or
///   cancelled it, or null; `x`, a pan's only: its rightward translation in mm, so a sideways swipe
///   reads as one);
/// - `["r", time, touch, rule]`: the recognizer left a touch out from then on (`thumb-band`,
///   `resting-thumb`, `resting-finger`): the page marks it until it lifts;
/// - `["b", time, button, state]`: a physical button (`left`, `right`, `middle`) `pressed` or
///   `released`: the page marks each press on its timeline, and says which are down;
/// - `["m", time, trial, text]`: what would have flipped the release of attempt `trial` (`"n"` for
///   the compared policy's), the sentence `replay --explain` prints;
/// - `["t", time, tool, begin, executed, text]`: a gesture tool (`view --tool`) acted at `time` on a
///   gesture begun at `begin` (`executed` true, false for cancelled, or null), `text` as
///   `replay --tool` says it.
///
/// `[scene]` is the `SceneState` pinchlab computed for that step: `[x, y, width, height,
/// cornerRadius, alpha, scale, extras...]` in points, extras in `ViewerDocument.sceneExtras` order.
package enum ViewerEntry: Sendable, Encodable {
    case frame(time: Double, fingers: Int, touches: [ViewerTouch])
    case step(ViewerStep, compared: Bool)
    case gesture(time: Double, kind: GestureKind, state: GestureState, fingers: Int, value: Double, rule: GestureRule?,
                 rightwardMM: Double? = nil)
    case leftOut(time: Double, touch: UInt64, rule: GestureRule)
    case button(ButtonRecord)
    case margins(time: Double, trial: Int, text: String, compared: Bool)
    case tool(name: String, begin: Double, end: Double, executed: Bool?, text: String)

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.unkeyedContainer()
        switch self {
        case .frame(let time, let fingers, let touches):
            try c.encode("f")
            try c.encode(rounded(time))
            try c.encode(fingers)
            for touch in touches {
                try c.encode(touch.id)
                try c.encode(roundedMM(touch.x))
                try c.encode(roundedMM(touch.y))
            }
        case .step(let step, let compared):
            try c.encode(compared ? "c" : "s")
            try c.encode(rounded(step.time))
            try c.encode(rounded(step.progress))
            try c.encode(step.state.rawValue)
            try c.encode(step.trial)
            try c.encode(step.scene.map(roundedScene))
            if let reason = step.reason {
                try c.encode(reason)
                try c.encode(rounded(step.velocity ?? 0))
                if let projected = step.projectedProgress { try c.encode(rounded(projected)) } else { try c.encodeNil() }
            }
        case .gesture(let time, let kind, let state, let fingers, let value, let rule, let rightwardMM):
            try c.encode("g")
            try c.encode(rounded(time))
            try c.encode(kind.rawValue)
            try c.encode(state.rawValue)
            try c.encode(fingers)
            try c.encode(rounded(value))
            if let rule { try c.encode(rule.rawValue) } else { try c.encodeNil() }
            if let rightwardMM { try c.encode(roundedMM(rightwardMM)) }
        case .leftOut(let time, let touch, let rule):
            try c.encode("r")
            try c.encode(rounded(time))
            try c.encode(touch)
            try c.encode(rule.rawValue)
        case .button(let b):
            try c.encode("b")
            try c.encode(rounded(b.time))
            try c.encode(b.button.name)
            try c.encode(b.state.rawValue)
        case .margins(let time, let trial, let text, let compared):
            try c.encode(compared ? "n" : "m")
            try c.encode(rounded(time))
            try c.encode(trial)
            try c.encode(text)
        case .tool(let name, let begin, let end, let executed, let text):
            try c.encode("t")
            try c.encode(rounded(end))
            try c.encode(name)
            try c.encode(rounded(begin))
            if let executed { try c.encode(executed) } else { try c.encodeNil() }
            try c.encode(text)
        }
    }
}

package struct ViewerTouch: Sendable, Hashable {
    package var id: UInt64
    package var x: Double
    package var y: Double

    package init(id: UInt64, x: Double, y: Double) {
        self.id = id
        self.x = x
        self.y = y
    }
}

/// A transition record with what the page draws from it.
package struct ViewerStep: Sendable {
    package var time: Double
    package var progress: Double
    package var state: TransitionPhase
    /// Index of the attempt (trial) this step belongs to, counted from 0.
    package var trial: Int
    /// The scene as numbers: frame, corner radius, alpha, scale, then the extras.
    package var scene: [Double]
    package var reason: String?
    package var velocity: Double?
    /// The progress the policy projected from the release (nil when it did not project).
    package var projectedProgress: Double?
}

/// Micrometres are below any sensor's resolution.
@inline(__always) func roundedMM(_ value: Double) -> Double {
    guard value.isFinite else { return 0 }
    return positiveZero((value * 1000).rounded() / 1000)
}

/// Hundredths of a point, ten-thousandths of alpha and scale: finer than a pixel at any zoom.
@inline(__always) func roundedScene(_ value: Double) -> Double {
    guard value.isFinite else { return 0 }
    return positiveZero((value * 10_000).rounded() / 10_000)
}
