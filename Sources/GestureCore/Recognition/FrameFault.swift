/// Why a frame's positions cannot be trusted, as `process` finds it: a few words, where the
/// decision it becomes (`GestureDecision`, 152 bytes with its evidence) is made only when the fault
/// is handled. Nearly every frame has none, and carrying a decision-sized optional through the
/// frame copied it several times.
enum FrameFault: Sendable, Equatable {
    /// The kernel dropped events (`SYN_DROPPED`); the frame is a resync.
    case resync
    /// The frame's time is this far behind the latest frame's (`waitedMS` is negative).
    case clockWentBack(waitedMS: Double)
    /// A touch moved farther in one frame than a finger can (`TouchFault.jump`).
    case touchJump(UInt64, Double, previous: Double)
    /// A touch position was NaN, infinite or absurdly far away.
    case badNumbers
}

extension TouchGestureRecognizer {
    /// The decision a fault is reported with, its evidence as the rule explains it.
    func decision(for fault: FrameFault) -> GestureDecision {
        switch fault {
        case .resync:
            return GestureDecision(.resync)
        case let .clockWentBack(waited):
            var e = GestureEvidence()
            e.waitedMS = waited
            return GestureDecision(.badNumbers, e)
        case let .touchJump(id, mm, previous):
            var e = GestureEvidence()
            e.touch = id
            e.jumpMM = mm
            e.previousStepMM = previous
            e.moveLimitMM = configuration.jumpDistanceMM
            e.increaseLimitMM = configuration.jumpIncreaseMM
            return GestureDecision(.touchJump, e)
        case .badNumbers:
            return GestureDecision(.badNumbers)
        }
    }
}
