import Testing
@testable import GestureLab

@Suite struct TimelinePlotTests {
    /// Marker labels close in time go on different rows; labels far apart share the first row.
    @Test func labelRowsNeverOverlap() {
        let extents: [(left: Double, right: Double)] = [(100, 160), (110, 150), (120, 200), (300, 340), (305, 320)]
        let rows = TimelinePlot.labelRows(extents, rows: 4)
        #expect(rows == [0, 1, 2, 0, 1])
        for i in extents.indices {
            for j in extents.indices where j > i && rows[i] == rows[j] {
                #expect(extents[i].right <= extents[j].left || extents[j].right <= extents[i].left, "labels \(i) and \(j)")
            }
        }
        // More overlapping labels than rows: the row freed longest ago is reused.
        #expect(TimelinePlot.labelRows([(0, 50), (1, 50), (2, 50)], rows: 2) == [0, 1, 0])
    }
}
