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
    /// Gives each contact of the frame just ended an identity: the same one as a contact of the
    /// previous frame (the same tracking id when the device sends them), else a new one.
    ///
    /// Like mtdev, contacts without a tracking id are paired with the previous frame's by an
    /// optimal assignment: the pairing with the least sum of squared distances (mtdev's `dist2`
    /// matrix and Hungarian `mtdev_match`), not the nearest pairs one at a time, which swaps two
    /// close fingers moving fast. Every new contact is paired while old ones remain; the rest are
    /// new touches, and unpaired old contacts ended. Costs are exact in `Double` for every real
    /// device (raw ranges below 2^26); the work is O(n^3) for n <= 16 contacts, in inline storage.
    /// Protocol-A contacts are kept in `slots` by position in the frame so the frame builder can
    /// treat them like protocol-B slots.
    mutating func matchProtocolAContacts() {
        let news = pendingA
        var oldTaken: UInt32 = 0
        var matchOfNew = InlineArray<16, Int>(repeating: -1)

        // Tracking ids first, when present.
        for n in 0..<news.count where news.items[n].trackingID >= 0 {
            for o in 0..<slots.count where oldTaken & (1 << UInt32(o)) == 0 && slots[o].isDown
                && slots[o].trackingID == news.items[n].trackingID {
                matchOfNew[n] = o
                oldTaken |= 1 << UInt32(o)
                break
            }
        }
        // Then the least total squared distance between the contacts still unpaired.
        var rows = InlineArray<16, Int>(repeating: 0), rowCount = 0
        var columns = InlineArray<16, Int>(repeating: 0), columnCount = 0
        for n in 0..<news.count where matchOfNew[n] < 0 {
            rows[rowCount] = n
            rowCount += 1
        }
        for o in 0..<min(slots.count, 16) where slots[o].isDown && oldTaken & (1 << UInt32(o)) == 0 {
            columns[columnCount] = o
            columnCount += 1
        }
        if rowCount > 0 && columnCount > 0 {
            var costs = MinimumCostAssignment.Costs(repeating: 0)
            for r in 0..<rowCount {
                let c = news.items[rows[r]]
                for k in 0..<columnCount {
                    let dx = Double(c.x) - Double(slots[columns[k]].x)
                    let dy = Double(c.y) - Double(slots[columns[k]].y)
                    costs[r * MinimumCostAssignment.capacity + k] = dx * dx + dy * dy
                }
            }
            let columnOfRow = MinimumCostAssignment.solve(costs, rows: rowCount, columns: columnCount)
            for r in 0..<rowCount where columnOfRow[r] >= 0 {
                let o = columns[columnOfRow[r]]
                matchOfNew[rows[r]] = o
                oldTaken |= 1 << UInt32(o)
            }
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

/// The assignment problem for at most 16 x 16 costs, solved exactly (the Hungarian method with
/// potentials, in Jonker-Volgenant's shortest-augmenting-path form), in inline storage.
enum MinimumCostAssignment {
    static let capacity = 16
    /// Row-major, `capacity` columns per row: the cost of pairing row r with column c is at
    /// `r * capacity + c`.
    typealias Costs = InlineArray<256, Double>

    /// For each row, the column it is paired with (-1 when there are more rows than columns and
    /// it is left over), such that the sum of the paired costs is the least possible and
    /// min(rows, columns) pairs are made. Costs must be finite.
    static func solve(_ costs: Costs, rows: Int, columns: Int) -> InlineArray<16, Int> {
        var columnOfRow = InlineArray<16, Int>(repeating: -1)
        guard rows > 0, columns > 0, rows <= capacity, columns <= capacity else { return columnOfRow }
        // The method needs rows <= columns: with more rows, solve the transposed problem.
        let transposed = rows > columns
        let n = transposed ? columns : rows
        let m = transposed ? rows : columns
        @inline(__always) func cost(_ i: Int, _ j: Int) -> Double {
            transposed ? costs[j * capacity + i] : costs[i * capacity + j]
        }
        // 1-based, index 0 is the virtual start of each augmenting path.
        var u = InlineArray<17, Double>(repeating: 0)
        var v = InlineArray<17, Double>(repeating: 0)
        var rowOfColumn = InlineArray<17, Int>(repeating: 0)
        var way = InlineArray<17, Int>(repeating: 0)
        for i in 1...n {
            rowOfColumn[0] = i
            var j0 = 0
            var minimum = InlineArray<17, Double>(repeating: .infinity)
            var used = InlineArray<17, Bool>(repeating: false)
            repeat {
                used[j0] = true
                let i0 = rowOfColumn[j0]
                var delta = Double.infinity
                var j1 = 0
                for j in 1...m where !used[j] {
                    let reduced = cost(i0 - 1, j - 1) - u[i0] - v[j]
                    if reduced < minimum[j] {
                        minimum[j] = reduced
                        way[j] = j0
                    }
                    if minimum[j] < delta {
                        delta = minimum[j]
                        j1 = j
                    }
                }
                // Always found with finite costs; otherwise every row is left unpaired (new touches).
                guard j1 != 0 else { return InlineArray<16, Int>(repeating: -1) }
                for j in 0...m {
                    if used[j] {
                        u[rowOfColumn[j]] += delta
                        v[j] -= delta
                    } else {
                        minimum[j] -= delta
                    }
                }
                j0 = j1
            } while rowOfColumn[j0] != 0
            // Flip the augmenting path.
            while j0 != 0 {
                let j1 = way[j0]
                rowOfColumn[j0] = rowOfColumn[j1]
                j0 = j1
            }
        }
        for j in 1...m where rowOfColumn[j] != 0 {
            if transposed {
                columnOfRow[j - 1] = rowOfColumn[j] - 1
            } else {
                columnOfRow[rowOfColumn[j] - 1] = j - 1
            }
        }
        return columnOfRow
    }
}
