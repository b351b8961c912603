import GestureCore
import GestureLab
import InteractiveTransition

/// Turns one pipeline's records into viewer entries: the scene of every transition step as the
/// transition computed it (`SceneState.shown`, the rule the transition itself uses), the attempt it
/// belongs to, and, where the policy decided, the progress it projected. The page draws these
/// numbers; it never recomputes the transition.
package struct ViewerRecorder: Sendable {
    package let spec: TransitionSpec
    package let policy: CompletionPolicy
    /// Entries of this recorder are the compared policy's (drawn as a ghost).
    package let compared: Bool
    private var scene: SceneState

    package init(spec: TransitionSpec, policy: CompletionPolicy, compared: Bool = false) {
        self.spec = spec
        self.policy = policy
        self.compared = compared
        self.scene = spec.fromState
    }

    /// The entry for `record`, or nil for what the page does not show (a compared replay's frames
    /// and gestures, which are the main replay's).
    package mutating func entry(for record: LabRecord) -> ViewerEntry? {
        switch record {
        case .frame(let frame, let time):
            guard !compared else { return nil }
            var touches: [ViewerTouch] = []
            touches.reserveCapacity(frame.touches.count)
            for touch in frame.touches where touch.phase.isDown {
                touches.append(ViewerTouch(id: touch.id, x: touch.position.x, y: touch.position.y))
            }
            return .frame(time: time, fingers: frame.fingerCount, touches: touches)
        case .gesture(let g):
            guard !compared else { return nil }
            let value = g.event.kind == .pinch ? g.event.scale : g.event.translationMM.y
            return .gesture(time: g.time, kind: g.event.kind, state: g.event.state, fingers: g.event.fingerCount,
                            value: value, rule: g.event.decision?.rule,
                            rightwardMM: g.event.kind == .pan ? g.event.translationMM.x : nil)
        case .transition(let t):
            return .step(step(for: t), compared: compared)
        case .button(let b):
            return compared ? nil : .button(b)
        case .releaseMargins(let m):
            return .margins(time: m.time, trial: m.trial, text: m.margins.sentence, compared: compared)
        case .stateChange(let change, let time):
            // A touch the recognizer leaves out (a thumb, a resting finger), as it decides so.
            guard !compared, let decision = change.decision, Self.leavesTouchOut.contains(decision.rule),
                  let touch = decision.evidence.touch else { return nil }
            return .leftOut(time: time, touch: touch, rule: decision.rule)
        }
    }

    /// Rules whose evidence names a touch that no longer counts as a finger of the gesture.
    static let leavesTouchOut: Set<GestureRule> = [.thumbBand, .restingThumb, .restingFinger]

    private mutating func step(for t: TransitionRecord) -> ViewerStep {
        SceneState.shown(in: t.state, progress: t.progress, from: spec.fromState, to: spec.toState, into: &scene)
        var projected: Double?
        if t.reason != nil, let velocity = t.velocity,
           case .projected(let value, _) = (t.decision ?? policy.decide(progress: t.progress, velocity: velocity)).reason {
            projected = value
        }
        return ViewerStep(time: t.time, progress: t.progress, state: t.state, trial: max(t.trial, 0), scene: ViewerDocument.numbers(scene),
                          reason: t.reason.map { "\($0)" }, velocity: t.velocity, projectedProgress: projected)
    }
}
