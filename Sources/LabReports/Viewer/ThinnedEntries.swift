import InteractiveTransition

/// A page's entries with its bulk bounded, so a recording of hours makes a page of bounded size:
/// touch frames past `maximumFrames`, a gesture's updates (`changed`) past
/// `maximumGestureUpdates`, and the transition steps that only move the progress past
/// `maximumTransitionSteps` (each replay's, the compared policy's counted apart): past its bound
/// every other entry of that kind is dropped and only 1 in its stride new ones kept (a touch
/// shorter than the stride may not be shown; a gesture keeps its begin and end, an attempt its
/// first step, every change of state, its release with the decision and its end: only the steps
/// between are fewer). Past `maximumGestures` gestures, or `maximumAttempts` attempts of one
/// replay, whole ones go the same way: every other one kept is dropped with all its entries (an
/// attempt's margins too) and only 1 in the stride new ones kept, so what each gesture and attempt
/// leaves stays bounded as well. The page says what was thinned.
/// Left-out touches and buttons are all kept.
struct ThinnedEntries {
    static let maximumFrames = 150_000
    static let maximumGestureUpdates = 150_000
    static let maximumTransitionSteps = 150_000
    static let maximumGestures = 2_000
    static let maximumAttempts = 2_000

    private(set) var entries: [ViewerEntry] = []
    /// 1 in how many of each kind is kept now.
    var frameStride: Int { thinning[Kind.frame.rawValue].stride }
    var gestureUpdateStride: Int { thinning[Kind.gestureUpdate.rawValue].stride }
    var transitionStepStride: Int { thinning[Kind.step.rawValue].stride }
    var comparedStepStride: Int { thinning[Kind.comparedStep.rawValue].stride }
    /// 1 in how many gestures, and attempts of each replay, are kept whole (the others not at all).
    var gestureStride: Int { gestures.stride }
    var attemptStride: Int { attempts.stride }
    var comparedAttemptStride: Int { comparedAttempts.stride }

    private var thinning = Array(repeating: Thinning(), count: Kind.allCases.count)
    /// The gestures kept, by the order they began in; whether the one going on is kept.
    private var gestures = MarkedIndices(bound: maximumGestures)
    private var gesturesBegun = 0
    private var currentGestureKept = true
    /// Each replay's attempts kept, by their index (the compared policy's apart).
    private var attempts = MarkedIndices(bound: maximumAttempts)
    private var comparedAttempts = MarkedIndices(bound: maximumAttempts)
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
        guard keepsWhole(entry) else { return }
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

    /// Whether `entry` belongs to a gesture or attempt kept (or to none); past their bounds,
    /// thins the ones kept so far.
    private mutating func keepsWhole(_ entry: ViewerEntry) -> Bool {
        switch entry {
        case .gesture(_, _, let state, _, _, _, _):
            guard state == .began else { return currentGestureKept }
            var kept = gestures
            defer { gestures = kept }
            currentGestureKept = kept.keeps(gesturesBegun) { _ in
                dropEveryOtherGesture()
                countAgain()
            }
            gesturesBegun += 1
            return currentGestureKept
        case .step(let step, let compared):
            return keepsAttempt(step.trial, compared: compared)
        case .margins(_, let trial, _, let compared):
            return keepsAttempt(trial, compared: compared)
        default:
            return true
        }
    }

    /// Whether attempt `trial` of a replay is kept (one of no attempt, below 0, always).
    private mutating func keepsAttempt(_ trial: Int, compared: Bool) -> Bool {
        var kept = compared ? comparedAttempts : attempts
        defer { if compared { comparedAttempts = kept } else { attempts = kept } }
        return kept.keeps(trial) { stride in
            entries.removeAll { entry in
                switch entry {
                case .step(let step, compared): step.trial >= 0 && step.trial % stride != 0
                case .margins(_, let trial, _, compared): trial >= 0 && trial % stride != 0
                default: false
                }
            }
            countAgain()
        }
    }

    /// Drops every other gesture kept (the second of each pair, with all its entries). Those kept
    /// are 1 in the stride in order, so the ones left are 1 in twice it.
    private mutating func dropEveryOtherGesture() {
        var position = -1, dropping = false
        entries.removeAll { entry in
            guard case .gesture(_, _, let state, _, _, _, _) = entry else { return false }
            if state == .began {
                position += 1
                dropping = position % 2 == 1
            }
            return dropping
        }
    }

    /// The kept counts of the thinned kinds, told again after whole gestures or attempts went.
    private mutating func countAgain() {
        var continuity = StepContinuity()
        for index in thinning.indices { thinning[index].kept = 0 }
        for entry in entries {
            if let kind = Self.kind(of: entry, &continuity) { thinning[kind.rawValue].kept += 1 }
        }
        self.continuity = continuity
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
