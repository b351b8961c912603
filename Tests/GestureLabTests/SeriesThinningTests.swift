import Testing
@testable import GestureLab

/// `ReplayTimeline.Series` stays within its bound whatever the runs look like: a recording of tens of
/// thousands of short gestures (two samples each, which halving cannot shorten) trapped `plot` with an
/// arithmetic overflow once the stride had doubled 62 times.
@Suite struct SeriesThinningTests {
    @Test func thousandsOfTwoSampleRunsStayWithinTheBound() throws {
        var series = ReplayTimeline.Series()
        series.maximumSamples = 100
        for gesture in 0..<20_000 {
            series.startRun()
            series.append(.init(time: Double(gesture), value: 1))
            series.append(.init(time: Double(gesture) + 0.5, value: 2))
        }
        let count = series.runs.reduce(0) { $0 + $1.count }
        #expect(count <= 100)
        #expect(count >= 25, "thinning keeps a fair share of the bound, not a handful: \(count)")
        #expect(series.stride <= 1 << 30)
        #expect(series.runs.last?.last?.time == 19_999.5, "the run being drawn is kept, to its last sample")
    }

    @Test func oneLongRunIsHalvedNotDropped() throws {
        var series = ReplayTimeline.Series()
        series.maximumSamples = 100
        series.startRun()
        for i in 0..<10_000 { series.append(.init(time: Double(i), value: Double(i))) }
        #expect(series.runs.count == 1)
        #expect(series.runs[0].count <= 100 && series.runs[0].count >= 25)
        #expect(series.runs[0].first?.time == 0 && series.runs[0].last?.time == 9_999)
    }
}
