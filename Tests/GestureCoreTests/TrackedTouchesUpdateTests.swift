import Testing
@testable import GestureCore

/// `TrackedTouches.update` follows the touches of a frame in place when they are the ones already
/// tracked, in the same order; otherwise it builds the list anew. Both must give every touch the
/// same history: fed the same touches, one list in order (in place after the first frame) and one
/// with the order swapped every frame (rebuilt every frame) must agree, jumps and hysteresis included.
@Suite struct TrackedTouchesUpdateTests {
    /// Touch `id` at frame `n` of 10 ms frames: a steady drag, a jump of 30 mm at frame 12 for
    /// touch 2, a step of 9 mm more than the one before at frame 20 for touch 1 (a jump by its
    /// increase), and jitter of ±0.4 mm that the hysteresis must swallow.
    private func position(of id: UInt64, at n: Int) -> PointMM {
        let jitter = (n % 3 == 0 ? 0.4 : -0.4) * (id == 1 ? 1 : -1)
        var x = 20 + Double(n) * (id == 1 ? 0.8 : -0.5) + jitter
        let y = id == 1 ? 15.0 : 40.0
        if id == 2 && n >= 12 { x += 30 }
        if id == 1 && n >= 20 { x += 9.6 }
        return PointMM(x: x, y: y)
    }

    private func frame(_ n: Int, ids: [UInt64]) -> TouchFrame {
        var frame = TouchFrame(time: EventTime(seconds: 0, microseconds: Int32(n * 10_000)), fingerCount: ids.count)
        for id in ids {
            frame.append(Touch(id: id, trackingID: Int32(id), slot: Int32(id - 1), phase: n == 0 ? .began : .moved,
                               position: position(of: id, at: n)))
        }
        return frame
    }

    private func snapshot(_ touches: TrackedTouches) -> [UInt64: [Double]] {
        var byID: [UInt64: [Double]] = [:]
        for i in 0..<touches.count {
            let t = touches[i]
            byID[t.id] = [t.position.x, t.position.y, t.raw.x, t.raw.y, t.initial.x, t.initial.y, t.lastStepMM]
        }
        return byID
    }

    private func jumpedTouch(_ fault: TouchFault) -> UInt64? {
        if case let .jump(id, _, _) = fault { return id }
        return nil
    }

    @Test(arguments: [0.0, 0.5])
    func inPlaceAndRebuiltListsAgree(hysteresisMM: Double) {
        let jumps = JumpDetection(enabled: true, distanceMM: 20, increaseMM: 7)
        var inOrder = TrackedTouches()
        var swapped = TrackedTouches()
        var jumpsSeen: [UInt64] = []
        for n in 0..<30 {
            let dt = n == 0 ? 0 : 0.010
            let a = inOrder.update(from: frame(n, ids: [1, 2]), hysteresisMM: hysteresisMM, secondsSincePrevious: dt, jumps: jumps)
            let b = swapped.update(from: frame(n, ids: n % 2 == 0 ? [2, 1] : [1, 2]), hysteresisMM: hysteresisMM,
                                   secondsSincePrevious: dt, jumps: jumps)
            #expect(snapshot(inOrder) == snapshot(swapped), "frame \(n)")
            #expect(jumpedTouch(a) == jumpedTouch(b), "frame \(n)")
            if let id = jumpedTouch(a) { jumpsSeen.append(id) }
        }
        // The script's two jumps happened, so both kinds of step were compared.
        #expect(jumpsSeen == [2, 1])
    }

    @Test func aBadPositionOrANewTouchLeavesThePlaceAsTheListWas() {
        let jumps = JumpDetection(enabled: false, distanceMM: 20, increaseMM: 7)
        var touches = TrackedTouches()
        _ = touches.update(from: frame(0, ids: [1, 2]), hysteresisMM: 0, secondsSincePrevious: 0, jumps: jumps)
        var bad = frame(1, ids: [1])
        bad.append(Touch(id: 2, trackingID: 2, slot: 1, phase: .moved, position: PointMM(x: .nan, y: 3)))
        #expect(touches.update(from: bad, hysteresisMM: 0, secondsSincePrevious: 0.01, jumps: jumps).isInvalidPosition)
        // Touch 2 kept where it was; touch 1 followed.
        #expect(snapshot(touches)[2]?[0] == position(of: 2, at: 0).x)
        #expect(snapshot(touches)[1]?[0] == position(of: 1, at: 1).x)
        var three = frame(2, ids: [1, 2])
        three.append(Touch(id: 3, trackingID: 3, slot: 2, phase: .began, position: PointMM(x: 70, y: 50)))
        _ = touches.update(from: three, hysteresisMM: 0, secondsSincePrevious: 0.01, jumps: jumps)
        #expect(touches.count == 3 && snapshot(touches)[3]?[0] == 70)
        // A lifted touch is dropped even though the others are in order: one in the middle, and
        // the last one (every touch left is where it was in the list: only the count tells).
        _ = touches.update(from: frame(3, ids: [1, 3]), hysteresisMM: 0, secondsSincePrevious: 0.01, jumps: jumps)
        #expect(touches.count == 2 && snapshot(touches)[2] == nil)
        _ = touches.update(from: frame(4, ids: [1]), hysteresisMM: 0, secondsSincePrevious: 0.01, jumps: jumps)
        #expect(touches.count == 1 && snapshot(touches)[3] == nil)
        // A touch that ends in the frame is not followed, in place or not.
        var ending = frame(5, ids: [1])
        ending.append(Touch(id: 3, trackingID: 3, slot: 2, phase: .ended, position: PointMM(x: 80, y: 50)))
        _ = touches.update(from: ending, hysteresisMM: 0, secondsSincePrevious: 0.01, jumps: jumps)
        #expect(touches.count == 1 && snapshot(touches)[1]?[0] == position(of: 1, at: 5).x)
    }
}

private extension TouchFault {
    var isInvalidPosition: Bool {
        if case .invalidPosition = self { return true }
        return false
    }
}
