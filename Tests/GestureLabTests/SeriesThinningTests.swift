import GestureCore
import InteractiveTransition
import Testing
@testable import GestureLab
@testable import LabReports

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

/// Marker labels beyond the rows a chart has are left out without being placed, so a chart of tens
/// of thousands of gestures lays its labels out in one pass over them (each was checked against every
/// label before it, placed or not).
@Suite struct LabelLayoutLimitTests {
    @Test func labelsPastTheLastRowAreLeftOutAndTheRestStayApart() {
        // 50,000 labels 40 px wide across a 1,000 px chart: a row holds about 22 of them.
        let labels: [(left: Double, right: Double, line: Double)] = (0..<50_000).map { (i: Int) in
            let x = Double(i) * 0.02
            return (left: x, right: x + 40, line: x)
        }
        let rows = LabelLayout.rows(labels, maximumRows: 9)
        #expect(rows.count == 50_000)
        #expect(rows.allSatisfy { $0 <= 9 })
        let kept = rows.indices.filter { rows[$0] < 9 }
        let keptCount = kept.count
        #expect(keptCount > 100 && keptCount < 300, "\(keptCount) kept: about 22 a row")
        for row in 0..<9 {
            let onRow = kept.filter { rows[$0] == row }.map { labels[$0] }
            for (a, b) in zip(onRow, onRow.dropFirst()) { #expect(a.right + LabelLayout.rowGap <= b.left) }
        }
        #expect(LabelLayout.rows(Array(labels.prefix(3))) == LabelLayout.rows(Array(labels.prefix(3)), maximumRows: 9),
                "a limit the labels do not reach changes nothing")
    }
}

/// The viewer's entries of a very long recording (#42's third finding: a 3.6 h recording's page
/// kept all 1.2M gesture entries): a gesture's updates are thinned past their bound as the touch
/// frames are, and every begin and end stays.
@Suite struct ThinnedViewerEntriesTests {
    @Test func gestureUpdatesAreBoundedAndEveryBeginAndEndStays() {
        var entries = ThinnedEntries()
        let gestures = 1_500, updatesEach = 270   // gestures under their own bound
        var time = 0.0
        for _ in 0..<gestures {
            entries.append(.gesture(time: time, kind: .pan, state: .began, fingers: 2, value: 0, rule: nil))
            for _ in 0..<updatesEach {
                time += 0.01
                entries.append(.gesture(time: time, kind: .pan, state: .changed, fingers: 2, value: 1, rule: nil))
            }
            entries.append(.gesture(time: time, kind: .pan, state: .ended, fingers: 2, value: 1, rule: nil))
        }
        var begins = 0, ends = 0, updates = 0
        var times: [Double] = []
        for entry in entries.entries {
            guard case .gesture(let t, _, let state, _, _, _, _) = entry else { continue }
            times.append(t)
            switch state {
            case .began: begins += 1
            case .ended: ends += 1
            default: updates += 1
            }
        }
        #expect(begins == gestures && ends == gestures)
        #expect(updates <= ThinnedEntries.maximumGestureUpdates && updates >= ThinnedEntries.maximumGestureUpdates / 2, "\(updates)")
        #expect(entries.gestureUpdateStride == 4, "405,000 updates past 150,000 twice")
        #expect(entries.frameStride == 1)
        #expect(times == times.sorted(), "the entries stay in time order")
    }

    /// Hours of animations (#42 item 3: every transition step was kept): the steps that only move
    /// an attempt's progress on are thinned past their bound, each replay's apart; every attempt's
    /// first step, change of state, release (its decision) and end stay, in time order.
    @Test func transitionStepsAreBoundedAndEveryChangeOfStateStays() throws {
        var entries = ThinnedEntries()
        let attempts = 1_900, movesEach = 100, settlesEach = 20   // attempts under their own bound
        var time = 0.0
        func step(_ state: TransitionPhase, _ trial: Int, reason: String? = nil, compared: Bool = false) {
            time += 0.001
            entries.append(.step(ViewerStep(time: time, progress: 0.5, state: state, trial: trial, scene: [],
                                            reason: reason, velocity: reason == nil ? nil : 1), compared: compared))
        }
        for trial in 0..<attempts {
            for _ in 0..<movesEach { step(.interactive, trial) }
            step(.finishing, trial, reason: "projected")
            for _ in 0..<settlesEach { step(.finishing, trial) }
            step(.finished, trial)
            step(.interactive, trial, compared: true)   // the compared policy's: a few, never thinned
            step(.cancelled, trial, compared: true)
        }
        var firsts = Set<Int>(), releases = 0, ends = 0, moves = 0, ghosts = 0
        var times: [Double] = []
        for case .step(let s, let compared) in entries.entries {
            times.append(s.time)
            if compared { ghosts += 1; continue }
            switch s.state {
            case .finished: ends += 1
            case .finishing where s.reason != nil: releases += 1
            default:
                if firsts.insert(s.trial).inserted { continue }
                moves += 1
            }
        }
        #expect(firsts.count == attempts && releases == attempts && ends == attempts, "every attempt's first step, release and end")
        #expect(ghosts == 2 * attempts, "the compared replay's steps are counted apart, and few")
        #expect(moves <= ThinnedEntries.maximumTransitionSteps + attempts && moves >= ThinnedEntries.maximumTransitionSteps / 2 - attempts,
                "\(moves)")
        // 1,900 x 119 steps that only move on (226,100) past 150,000 once.
        #expect(entries.transitionStepStride == 2 && entries.comparedStepStride == 1)
        #expect(entries.frameStride == 1 && entries.gestureUpdateStride == 1)
        #expect(times == times.sorted(), "the entries stay in time order")
    }

    /// Past 2,000 gestures whole ones are thinned (#42: what each gesture leaves grew with the
    /// recording): 1 in the stride is kept with its begin, updates and end, the others not at all.
    @Test func wholeGesturesAreBoundedAndEachOneKeptIsWhole() {
        var entries = ThinnedEntries()
        let gestures = 5_000, updatesEach = 3
        var time = 0.0
        for _ in 0..<gestures {
            time += 1
            entries.append(.gesture(time: time, kind: .pan, state: .began, fingers: 2, value: 0, rule: nil))
            for update in 1...updatesEach {
                entries.append(.gesture(time: time + Double(update) / 10, kind: .pan, state: .changed, fingers: 2, value: 1, rule: nil))
            }
            entries.append(.gesture(time: time + 0.5, kind: .pan, state: .ended, fingers: 2, value: 1, rule: nil))
        }
        var states: [GestureState] = [], begins: [Double] = [], times: [Double] = []
        for case .gesture(let t, _, let state, _, _, _, _) in entries.entries {
            states.append(state)
            times.append(t)
            if state == .began { begins.append(t) }
        }
        // 5,000 past 2,000, then past 2,000 kept again at 4,000: 1 in 4, gestures 0, 4, 8, ...
        #expect(entries.gestureStride == 4)
        #expect(begins.count == 1_250 && begins.count <= ThinnedEntries.maximumGestures)
        let expectedBegins: [Double] = (0..<1_250).map { index in Double(index * 4 + 1) }
        #expect(begins == expectedBegins, "1 in 4, by their order")
        var whole: [GestureState] = [.began]
        whole += Array(repeating: GestureState.changed, count: updatesEach)
        whole.append(.ended)
        let expectedStates: [GestureState] = Array(repeatElement(whole, count: 1_250).joined())
        #expect(states == expectedStates, "each gesture kept has its begin, updates and end")
        #expect(times == times.sorted())
    }

    /// Past 2,000 attempts of a replay whole ones are thinned, their steps and margins with them,
    /// each replay's apart; the steps of a kept attempt and the other entries all stay.
    @Test func wholeAttemptsAreBoundedEachReplaysApart() {
        var entries = ThinnedEntries()
        let attempts = 4_500
        var time = 0.0
        for trial in 0..<attempts {
            for (state, reason) in [(TransitionPhase.interactive, nil), (.interactive, nil), (.finishing, "projected"), (.finished, nil)] {
                time += 0.001
                entries.append(.step(ViewerStep(time: time, progress: 0.5, state: state, trial: trial, scene: [],
                                                reason: reason, velocity: reason == nil ? nil : 1), compared: false))
            }
            entries.append(.margins(time: time, trial: trial, text: "m", compared: false))
            if trial < 1_000 {
                entries.append(.step(ViewerStep(time: time, progress: 1, state: .finished, trial: trial, scene: []), compared: true))
            }
            entries.append(.button(ButtonRecord(button: .left, state: .pressed, time: time)))
        }
        var steps: [Int: Int] = [:], margins: [Int] = [], ghosts = 0, buttons = 0
        for entry in entries.entries {
            switch entry {
            case .step(let step, let compared): if compared { ghosts += 1 } else { steps[step.trial, default: 0] += 1 }
            case .margins(_, let trial, _, _): margins.append(trial)
            case .button: buttons += 1
            default: break
            }
        }
        // 4,500 past 2,000 at 2,000 (1 in 2), past it again at 4,000 (1 in 4): attempts 0, 4, 8, ...
        #expect(entries.attemptStride == 4 && entries.comparedAttemptStride == 1)
        #expect(steps.keys.sorted() == Array(stride(from: 0, to: attempts, by: 4)))
        #expect(steps.values.allSatisfy { $0 == 4 }, "each attempt kept has all its steps")
        #expect(margins == Array(stride(from: 0, to: attempts, by: 4)), "margins go with their attempt")
        #expect(ghosts == 1_000 && buttons == attempts, "the compared replay's attempts and the buttons all stay")
    }

}
