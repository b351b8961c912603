import Foundation
import GestureKit
import InteractiveTransition
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

@Suite struct PlotLayoutTests {
    @Test(arguments: [(0.0...1.0, [0, 0.2, 0.4, 0.6, 0.8, 1]), (-0.63...8.53, [0, 2, 4, 6, 8]),
                      (0.26...1.05, [0.4, 0.6, 0.8, 1]), (0.0...1.193, [0, 0.5, 1])])
    func ticksAreRoundValuesInsideTheRange(range: ClosedRange<Double>, expected: [Double]) {
        let ticks = PlotAxis.ticks(in: range, target: 5)
        #expect(ticks.count == expected.count && zip(ticks, expected).allSatisfy { abs($0 - $1) < 1e-9 }, "\(ticks)")
        #expect(PlotAxis.ticks(in: 3...3) == [], "an empty range has no ticks")
        #expect(PlotAxis.roundStep(0.00731) == 0.01 && PlotAxis.roundStep(3.2) == 5 && PlotAxis.roundStep(1) == 1)
    }

    @Test func numbersPrintWithoutTrailingZerosOrANegativeZero() {
        #expect(SVGDocument.number(0.5) == "0.5")
        #expect(SVGDocument.number(-0.001) == "0")
        #expect(SVGDocument.number(2.999) == "3")
        #expect(SVGDocument.number(-1.25, decimals: 1) == "-1.3", "half away from zero (-1.25 is exact in binary)")
        #expect(SVGDocument.number(0.05, decimals: 2) == "0.05")
        #expect(SVGDocument.number(12.0) == "12")
    }

    @Test func fixedPointKeepsItsDecimalsAndNeverTraps() {
        #expect(FixedPoint.string(0.5, decimals: 2) == "0.50")
        #expect(FixedPoint.string(-0.004, decimals: 2) == "0.00", "no negative zero")
        #expect(FixedPoint.string(12.3456, decimals: 0) == "12")
        #expect(FixedPoint.string(0.0104, decimals: 3, trimmingZeros: true) == "0.01")
        #expect(FixedPoint.string(-3.14159, decimals: 4) == "-3.1416")
        #expect(FixedPoint.string(.nan, decimals: 2) == "0" && FixedPoint.string(-.infinity, decimals: 2) == "0")
        // Past 2^53 units the digits are not exact: Swift's own text, where Int(...) would trap.
        #expect(FixedPoint.string(1e300, decimals: 3) == "1e+300")
        #expect(FixedPoint.string(-1e20, decimals: 1) == "-1e+20")
    }

    @Test func aSummaryGestureReadsTheSameInTheTerminalAndThePlot() {
        let pan = LabSummary.Gesture(kind: .pan, fingers: 1, begin: 0.096, end: 0.145, ended: .ended,
                                     scale: nil, rotation: nil, translation: PointMM(x: 0.14, y: 7.9))
        #expect(pan.text == "pan, 1 finger, 0.096-0.145 s, ended, translation (0.1, 7.9) mm")
        let pinch = LabSummary.Gesture(kind: .pinch, fingers: 2, begin: 0.2, end: 0.8431, ended: .cancelled,
                                       scale: 0.333, rotation: -4.84, translation: nil)
        #expect(pinch.text == "pinch, 2 fingers, 0.200-0.843 s, cancelled, scale 0.33, rotation -4.8°")
    }

    @Test func longFactsWrapAtWords() {
        let lines = TimelinePlot.wrapped("decided: finish: projected progress 0.672 > threshold 0.5", width: 20)
        #expect(lines.allSatisfy { $0.count <= 20 }, "\(lines)")
        #expect(lines.joined(separator: " ") == "decided: finish: projected progress 0.672 > threshold 0.5")
    }

    /// Every fixture's picture: all text inside the canvas (which grows for long facts), and the
    /// facts say what decided.
    @Test func everyCorpusPictureKeepsItsTextOnTheCanvas() throws {
        let files = try LoadedRecording.loadCorpus(directory: CorpusFixtureTests.corpusDirectory)
        for file in files {
            let transition = try #require(TransitionName(rawValue: file.entry.label.transition))
            var pipeline = try ReplayPipeline(device: file.device, transition: transition, settings: .default, recordsFrames: true)
            var recorder = TimelineRecorder(title: file.entry.file, device: file.device, threshold: 0.5)
            for event in file.events { pipeline.consume(event) { recorder.record($0) } }
            let summary = pipeline.finish(source: file.entry.file) { recorder.record($0) }
            let timeline = recorder.timeline(summary: summary)
            let svg = TimelinePlot.svg(timeline)
            let height = try #require(Self.attribute("height", in: svg.components(separatedBy: "\n")[1]))
            for line in svg.components(separatedBy: "\n") where line.hasPrefix("<text") {
                let x = try #require(Self.attribute("x", in: line)), y = try #require(Self.attribute("y", in: line))
                #expect(x >= 0 && x <= TimelinePlot.canvasWidth && y > 0 && y <= height, "\(file.entry.file): \(line)")
            }
            if summary.trialCount > 0, summary.trials[0].release != nil {
                #expect(timeline.facts.contains { $0.hasPrefix("released at") }, "\(file.entry.file)")
                #expect(timeline.facts.contains { $0.hasPrefix("decided: ") }, "\(file.entry.file)")
            }
        }
    }

    static func attribute(_ name: String, in element: String) -> Double? {
        guard let start = element.range(of: " \(name)=\"") else { return nil }
        let rest = element[start.upperBound...]
        return Double(rest.prefix { $0 != "\"" })
    }
}
