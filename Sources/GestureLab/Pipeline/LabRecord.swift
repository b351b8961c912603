import GestureCore
import InteractiveTransition
import SettingsTable

/// One line of a replay's output, in time order.
public enum LabRecord: Sendable {
    /// A touch frame (not printed as JSON; used by plots and the live view).
    case frame(TouchFrame, time: Double)
    /// A gesture event (JSON `"type": "gesture"`).
    case gesture(GestureRecord)
    /// A transition step (JSON `"type": "transition"`).
    case transition(TransitionRecord)
    /// A change of the recognizer's state (only when the pipeline records them: `--trace`).
    case stateChange(RecognizerStateChange, time: Double)
    /// A physical button pressed or released (`BTN_LEFT`, `BTN_RIGHT`, `BTN_MIDDLE`): a clickpad's
    /// click, a touchpad's buttons.
    case button(ButtonRecord)
    /// How close a release came to going the other way, right after its transition step (only
    /// when the run measures margins; not a JSON line: the summary's trials carry them).
    case releaseMargins(ReleaseMarginsRecord)
}

/// A button pressed or released, as printed (`"type": "button"`). Times are seconds from the first event.
public struct ButtonRecord: Sendable, Hashable {
    /// Pressed or released.
    public enum State: String, Sendable, Hashable {
        /// The button went down, or came up.
        case pressed, released
    }

    /// Which button.
    public var button: PhysicalButtons
    /// Whether it was pressed or released.
    public var state: State
    /// When, seconds from the first event.
    public var time: Double

    /// A record from its button, state and time.
    public init(button: PhysicalButtons, state: State, time: Double) {
        self.button = button
        self.state = state
        self.time = time
    }
}

/// A recognized gesture event as printed (`"type": "gesture"`). Times are seconds from the first event.
public struct GestureRecord: Sendable, Hashable {
    /// The recognizer's event.
    public var event: GestureEvent
    /// When, seconds from the first event.
    public var time: Double
    /// Which gesture this event belongs to, counted from 0 in the order gestures began: its index
    /// in the summary's `gestures` (JSON `"gesture"`).
    public var gesture: Int

    /// A record from its event, time and gesture index.
    public init(event: GestureEvent, time: Double, gesture: Int) {
        self.event = event
        self.time = time
        self.gesture = gesture
    }
}

/// A transition step as printed (`"type": "transition"`): it began, followed the gesture, was
/// decided (with the policy's reason), animated, and ended.
public struct TransitionRecord: Sendable, Hashable {
    /// The transition this step belongs to.
    public var name: TransitionName
    /// Which trial (go at the transition) this step belongs to: its index in the summary's `trials`
    /// (JSON `"trial"`).
    public var trial: Int
    /// The transition's phase after this step: interactive, finishing, cancelling, finished, cancelled.
    public var state: TransitionPhase
    /// When, seconds from the first event.
    public var time: Double
    /// The transition's progress after this step, 0...1.
    public var progress: Double
    /// Set on the step where finish or cancel was decided.
    public var reason: TrialReason?
    /// Progress per second, on the step where the release was decided.
    public var velocity: Double?
    /// The policy's decision, typed, on the step where it decided (not printed: `reason` is its
    /// sentence). A desktop's rule decides from the whole gesture, so views take it from here
    /// rather than asking the policy again about the release alone.
    public var decision: CompletionDecision?

    /// A step from its values.
    public init(name: TransitionName, trial: Int, state: TransitionPhase, time: Double, progress: Double,
                reason: TrialReason? = nil, velocity: Double? = nil) {
        self.name = name
        self.trial = trial
        self.state = state
        self.time = time
        self.progress = progress
        self.reason = reason
        self.velocity = velocity
    }
}

/// 0 for -0: a value that rounds to nothing from below (-0.0000001) prints as `0`, never `-0`
/// (JSONEncoder writes a negative zero's sign).
@inlinable @inline(__always) package func positiveZero(_ value: Double) -> Double { value == 0 ? 0 : value }

/// Output numbers carry six decimals: microsecond times, micrometre positions. Keeps lines short
/// and stable; the computation itself is not rounded.
@inlinable @inline(__always) package func rounded(_ value: Double) -> Double {
    guard value.isFinite else { return 0 }
    return positiveZero((value * 1_000_000).rounded() / 1_000_000)
}

/// A number written as `rounded` writes it, in a type whose encoding is otherwise synthesized:
/// `@Rounded public var ratio: Double` instead of a hand-written `encode(to:)` for one key.
@propertyWrapper
package struct Rounded: Sendable, Hashable, Encodable {
    package var wrappedValue: Double
    package init(wrappedValue: Double) { self.wrappedValue = wrappedValue }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(rounded(wrappedValue))
    }
}

/// A point as JSON writes it (`JSONLineBytes.point`: `{"x","y"}`), each coordinate rounded.
struct RoundedPoint: Hashable {
    var x: Double
    var y: Double
    init(_ p: PointMM) { x = rounded(p.x); y = rounded(p.y) }
}
