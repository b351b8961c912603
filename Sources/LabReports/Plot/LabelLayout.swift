/// Puts labels where they overlap nothing: marker labels on rows (time order, each on the lowest row
/// where it clears the one before it), other labels at the first free spot among candidates.
enum LabelLayout {
    /// Space kept between two labels on a row, pixels.
    static let rowGap = 6.0

    /// A row for each label (row 0 at the top, the plot below the last row), such that no two labels
    /// on a row overlap and no label's line (from its row down to the plot, at `line`) passes through
    /// a label on a lower row. `labels` are pixel extents in time order; rows are added as needed, up
    /// to `maximumRows`: a label that fits none of those gets `maximumRows` (left out) and is not
    /// placed, so the labels placed, and the work per label, stay bounded by what the rows can hold
    /// (52,000 gesture labels were checked each against all before it: plot ran for minutes).
    static func rows(_ labels: [(left: Double, right: Double, line: Double)], maximumRows: Int = .max) -> [Int] {
        var placed: [(row: Int, left: Double, right: Double, line: Double)] = []
        var result: [Int] = []
        for label in labels {
            func clearsText(_ other: (row: Int, left: Double, right: Double, line: Double), onRow row: Int) -> Bool {
                other.row != row || other.right + rowGap <= label.left || label.right + rowGap <= other.left
            }
            func clearsLines(_ other: (row: Int, left: Double, right: Double, line: Double), onRow row: Int) -> Bool {
                // Its line would cross the other's text below, or the other's line would cross its text.
                if other.row > row { return !(other.left - 1...other.right + 1).contains(label.line) }
                if other.row < row { return !(label.left - 1...label.right + 1).contains(other.line) }
                return true
            }
            let free = (placed.map(\.row).max() ?? -1) + 1
            guard maximumRows > 0 else { result.append(maximumRows); continue }
            let candidates = 0...min(free, maximumRows - 1)
            // The lowest row where nothing is crossed; if every row crosses a line (two markers at one
            // moment), the lowest row where at least the texts stay apart (a new row always does,
            // while the limit allows one).
            guard let row = candidates.first(where: { row in placed.allSatisfy { clearsText($0, onRow: row) && clearsLines($0, onRow: row) } })
                ?? candidates.first(where: { row in placed.allSatisfy { clearsText($0, onRow: row) } }) else {
                result.append(maximumRows)
                continue
            }
            placed.append((row, label.left, label.right, label.line))
            result.append(row)
        }
        return result
    }

    /// Rows for labels without lines (each label's own middle counts as its line).
    static func rows(_ extents: [(left: Double, right: Double)]) -> [Int] {
        rows(extents.map { ($0.left, $0.right, ($0.left + $0.right) / 2) })
    }

    /// The first of `candidates` that overlaps none of `occupied` (with `gap` to spare) and lies
    /// inside `bounds`, or nil.
    static func firstFree(_ candidates: [Box], avoiding occupied: [Box], within bounds: Box, gap: Double = 1) -> Box? {
        candidates.first { box in
            box.minX >= bounds.minX && box.maxX <= bounds.maxX && box.minY >= bounds.minY && box.maxY <= bounds.maxY
                && !occupied.contains { $0.intersects(box, gap: gap) }
        }
    }
}
