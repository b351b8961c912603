/// Follows one gesture's progress for its policy, from the begin (or the grab of a running
/// completion) to the release, and decides there. The desktops' rules read more than the release:
/// GNOME a 150 ms velocity window, Hyprland the mean change per update, Android the path (moving
/// back un-commits). pinchlab's own rule and KWin's read only the release.
///
/// Nothing is allocated per update: GNOME's window is a ring made once per gesture.
package struct CompletionTracker: Sendable {
    package let policy: CompletionPolicy
    package let input: CompletionInput
    /// The progress when the gesture took the transition (0, or where a grabbed completion was).
    package let initialProgress: Double

    // GNOME: (time ms, progress) of the updates of the last 150 ms, oldest at `head`.
    private var times: [Double] = []
    private var progresses: [Double] = []
    private var head = 0
    private var count = 0
    // Hyprland: every update's |change|.
    private var lastProgress: Double
    private var changeSum = 0.0
    private var updates = 0
    // Android.
    private var triggered = false
    private var committed = false
    private var totalDelta = 0.0
    private var lastChange = AndroidBackDecision.LastChange.neverTriggered
    private var switches = 0

    static let ringCapacity = 256

    /// Begins at `time` (seconds) with the transition at `initialProgress`.
    package init(policy: CompletionPolicy, input: CompletionInput, initialProgress: Double, at time: Double) {
        self.policy = policy
        self.input = input
        let start = initialProgress.isFinite ? initialProgress : 0
        self.initialProgress = start
        self.lastProgress = start
        if case .gnome = policy.kind {
            times = Array(repeating: 0, count: Self.ringCapacity)
            progresses = Array(repeating: 0, count: Self.ringCapacity)
            appendSample(progress: start, at: time)
        }
    }

    /// An interactive update: the transition shows `progress` at `time` (seconds).
    package mutating func observe(progress given: Double, at time: Double) {
        let progress = given.isFinite ? given : lastProgress
        switch policy.kind {
        case .pinchlab, .kwin:
            break
        case .gnome:
            appendSample(progress: progress, at: time)
        case .hyprland:
            changeSum += abs(progress - lastProgress)
            updates += 1
        case .androidBack(let rule):
            let delta = progress - lastProgress
            if delta != 0 {
                totalDelta = (delta > 0) == (totalDelta > 0) && totalDelta != 0 ? totalDelta + delta : delta
            }
            if !triggered && progress > rule.triggerProgress {
                triggered = true
                committed = true
                lastChange = .triggered
            }
            if triggered && abs(totalDelta) > rule.switchProgress && (totalDelta > 0) != committed {
                committed = totalDelta > 0
                lastChange = committed ? .movedOn : .movedBack
                switches += 1
            }
        }
        lastProgress = progress
    }

    /// The decision at the release: the transition shows `progress`; `velocity` (progress/s) is
    /// the gesture's own release velocity, which pinchlab's rule uses (GNOME measures its own).
    package func decide(progress given: Double, velocity: Double, at time: Double) -> CompletionDecision {
        switch policy.kind {
        case .pinchlab, .kwin:
            return policy.decide(progress: given, velocity: velocity)
        case .gnome(let rule):
            let progress = given.isFinite ? given : 0
            let unitsPerMS = windowVelocity(at: time) * rule.figures(for: input).pageDistance
            let d = rule.decide(progress: progress, velocity: unitsPerMS, initial: initialProgress, input: input)
            return CompletionDecision(shouldFinish: d.endProgress == 1, reason: .gnome(d),
                                      progressWasNonFinite: !given.isFinite, velocityWasNonFinite: false,
                                      settingTurnsIt: rule.thresholdTurns(d, progress: progress, initial: initialProgress, input: input))
        case .hyprland(let rule):
            let progress = given.isFinite ? given : 0
            let d = rule.decide(progress: progress, averageSpeedPages: updates == 0 ? 0 : changeSum / Double(updates))
            return CompletionDecision(shouldFinish: d.switches, reason: .hyprland(d),
                                      progressWasNonFinite: !given.isFinite, velocityWasNonFinite: false)
        case .androidBack(let rule):
            let d = AndroidBackDecision(committed: committed, lastChange: lastChange, switches: switches,
                                        triggerDP: rule.triggerDP, switchDP: rule.switchDP)
            return CompletionDecision(shouldFinish: committed, reason: .androidBack(d),
                                      progressWasNonFinite: !given.isFinite, velocityWasNonFinite: false)
        }
    }

    // MARK: - GNOME's event history

    private mutating func appendSample(progress: Double, at seconds: Double) {
        let ms = seconds * 1000
        guard ms.isFinite else { return }
        trim(atMS: ms)
        if count == Self.ringCapacity { head = (head + 1) % Self.ringCapacity; count -= 1 }
        let slot = (head + count) % Self.ringCapacity
        times[slot] = ms
        progresses[slot] = progress
        count += 1
    }

    /// `EventHistory.trim`: drops samples older than 150 ms before `ms`.
    private mutating func trim(atMS ms: Double) {
        while count > 0 && times[head] < ms - GNOMESwipeRule.historyMS {
            head = (head + 1) % Self.ringCapacity
            count -= 1
        }
    }

    /// `EventHistory.calculateVelocity` after a trim at the release: the progress change over the
    /// window divided by its span, progress per ms; 0 with fewer than two samples or no span.
    func windowVelocity(at seconds: Double) -> Double {
        var copy = self
        copy.trim(atMS: seconds * 1000)
        guard copy.count >= 2 else { return 0 }
        let first = copy.head, last = (copy.head + copy.count - 1) % Self.ringCapacity
        let span = copy.times[last] - copy.times[first]
        guard span > 0 else { return 0 }
        return (copy.progresses[last] - copy.progresses[first]) / span
    }
}
