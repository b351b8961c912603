/// One contact of a protocol-A frame, in raw units.
struct ProtocolAContact: Sendable {
    var x: Int32 = 0
    var y: Int32 = 0
    var pressure: Int32 = -1
    var touchMajor: Int32 = 0
    /// Protocol A may carry `ABS_MT_TRACKING_ID`; -1 when it does not.
    var trackingID: Int32 = -1
}

/// The contacts of one protocol-A frame, fixed capacity, stored inline.
struct ProtocolAContacts: Sendable {
    static let capacity = TouchFrame.capacity
    var items = InlineArray<16, ProtocolAContact>(repeating: ProtocolAContact())
    var count = 0

    mutating func append(_ c: ProtocolAContact) {
        guard count < Self.capacity else { return }
        items[count] = c
        count += 1
    }
}

extension TouchFrameAssembler {
    /// Gives each contact of the frame just ended an identity: the same one as the nearest contact
    /// of the previous frame (or the same tracking id when the device sends them), else a new one.
    ///
    /// Like mtdev, matching minimises distance pair by pair: repeatedly take the closest unmatched
    /// (new, old) pair. With at most 16 contacts this greedy pass is cheap and allocation-free.
    /// Protocol-A contacts are kept in `slots` by position in the frame so the frame builder can
    /// treat them like protocol-B slots.
    mutating func matchProtocolAContacts() {
        let news = pendingA
        var oldTaken: UInt32 = 0
        var newMatched: UInt32 = 0
        var matchOfNew = InlineArray<16, Int>(repeating: -1)

        // Tracking ids first, when present.
        for n in 0..<news.count where news.items[n].trackingID >= 0 {
            for o in 0..<slots.count where oldTaken & (1 << UInt32(o)) == 0 && slots[o].isDown
                && slots[o].trackingID == news.items[n].trackingID {
                matchOfNew[n] = o
                oldTaken |= 1 << UInt32(o)
                newMatched |= 1 << UInt32(n)
                break
            }
        }
        // Then nearest pairs.
        while true {
            var best = Int64.max, bestNew = -1, bestOld = -1
            for n in 0..<news.count where newMatched & (1 << UInt32(n)) == 0 {
                for o in 0..<slots.count where oldTaken & (1 << UInt32(o)) == 0 && slots[o].isDown {
                    let dx = Int64(news.items[n].x) - Int64(slots[o].x)
                    let dy = Int64(news.items[n].y) - Int64(slots[o].y)
                    let d = dx * dx + dy * dy
                    if d < best { best = d; bestNew = n; bestOld = o }
                }
            }
            if bestNew < 0 { break }
            matchOfNew[bestNew] = bestOld
            oldTaken |= 1 << UInt32(bestOld)
            newMatched |= 1 << UInt32(bestNew)
        }
        // Old contacts with no match ended.
        for o in 0..<slots.count where slots[o].isDown && oldTaken & (1 << UInt32(o)) == 0 {
            end(slot: o)
        }
        // Matched contacts move; unmatched new ones take a free slot.
        for n in 0..<news.count {
            let c = news.items[n]
            var slot = matchOfNew[n]
            if slot < 0 {
                guard let free = slots.firstIndex(where: { !$0.isDown && !$0.endedThisFrame }) else { continue }
                slot = free
                begin(slot: slot, trackingID: c.trackingID)
            }
            if slots[slot].x != c.x || slots[slot].y != c.y { slots[slot].movedThisFrame = true }
            slots[slot].x = c.x
            slots[slot].y = c.y
            slots[slot].pressure = c.pressure
            slots[slot].touchMajor = c.touchMajor
        }
        pendingA.count = 0
    }
}
