import InteractiveTransition

/// A page's entries with its bulk bounded, so a recording of hours makes a page of bounded size:
/// touch frames past `maximumFrames`, a gesture's updates (`changed`) past
/// `maximumGestureUpdates`, and the transition steps that only move the progress past
/// `maximumTransitionSteps` (each replay's, the compared policy's counted apart): past its bound
/// every other entry of that kind is dropped and only 1 in its stride new ones kept (a touch
/// shorter than the stride may not be shown; a gesture keeps its begin and end, an attempt its
/// first step, every change of state, its release with the decision and its end: only the steps
/// between are fewer). The page says what was thinned.
/// Left-out touches, buttons, margins and every gesture's begin and end are all kept.
struct ThinnedEntries {
    static let maximumFrames = 150_000
    static let maximumGestureUpdates = 150_000
    static let maximumTransitionSteps = 150_000

    private(set) var entries: [ViewerEntry] = []
    /// 1 in how many of each kind is kept now.
    var frameStride: Int { thinning[Kind.frame.rawValue].stride }
    var gestureUpdateStride: Int { thinning[Kind.gestureUpdate.rawValue].stride }
    var transitionStepStride: Int { thinning[Kind.step.rawValue].stride }
    var comparedStepStride: Int { thinning[Kind.comparedStep.rawValue].stride }

    private var thinning = Array(repeating: Thinning(), count: Kind.allCases.count)
    /// Tells the steps appended from here on that only move the progress.
    private var continuity = StepContinuity()

    /// One thinned kind's counts and stride.
    private struct Thinning {
        var kept = 0
        var seen = 0
        var stride = 1
    }

    private enum Kind: Int, CaseIterable {
        case frame, gestureUpdate, step, comparedStep

        var bound: Int {
            switch self {
            case .frame: ThinnedEntries.maximumFrames
            case .gestureUpdate: ThinnedEntries.maximumGestureUpdates
            case .step, .comparedStep: ThinnedEntries.maximumTransitionSteps
            }
        }
    }

    /// Each replay's last step: a step of the same attempt and state, with no decision, only moves
    /// the progress on (what the page draws from it, a line and a scene, stays the same shape when
    /// some are left out).
    private struct StepContinuity {
        private var last: [Bool: (state: TransitionPhase, trial: Int)] = [:]

        mutating func isContinuation(_ step: ViewerStep, compared: Bool) -> Bool {
            defer { last[compared] = (step.state, step.trial) }
            guard step.reason == nil, let before = last[compared] else { return false }
            return before.state == step.state && before.trial == step.trial
        }
    }

    /// The thinned kind of `entry`, nil for one always kept; `continuity` follows the steps seen.
    private static func kind(of entry: ViewerEntry, _ continuity: inout StepContinuity) -> Kind? {
        switch entry {
        case .frame: return .frame
        case .gesture(_, _, let state, _, _, _, _) where state == .changed: return .gestureUpdate
        case .step(let step, let compared):
            return continuity.isContinuation(step, compared: compared) ? (compared ? .comparedStep : .step) : nil
        default: return nil
        }
    }

    mutating func append(_ entry: ViewerEntry) {
        guard let kind = Self.kind(of: entry, &continuity) else {
            entries.append(entry)
            return
        }
        var counts = thinning[kind.rawValue]
        let kept = counts.seen % counts.stride == 0
        counts.seen += 1
        if kept {
            entries.append(entry)
            counts.kept += 1
        }
        if counts.kept > kind.bound {
            counts.kept = dropEveryOther(kind)
            counts.stride *= 2
        }
        thinning[kind.rawValue] = counts
    }

    /// Drops every other entry of `kind`; returns how many are left. The steps' kinds are told
    /// again from the start: a dropped step had its predecessor's state and attempt, so the kept
    /// ones are told as before.
    private mutating func dropEveryOther(_ kind: Kind) -> Int {
        var index = 0, left = 0
        var continuity = StepContinuity()
        entries.removeAll { entry in
            guard Self.kind(of: entry, &continuity) == kind else { return false }
            defer { index += 1 }
            if index % 2 == 1 { return true }
            left += 1
            return false
        }
        return left
    }
}
