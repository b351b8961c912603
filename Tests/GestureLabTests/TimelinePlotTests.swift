import Foundation
import GestureCore
import InteractiveTransition
import Testing
@testable import GestureLab
@testable import LabReports

@Suite struct TimelinePlotTests {
    /// Marker labels close in time go on different rows; labels far apart share the first row; no
    /// label's line crosses a label below it.
    @Test func labelRowsNeverOverlap() {
        let extents: [(left: Double, right: Double)] = [(100, 160), (110, 150), (120, 200), (300, 340), (305, 320)]
        let rows = LabelLayout.rows(extents)
        #expect(rows == [0, 1, 2, 0, 1])
        for i in extents.indices {
            for j in extents.indices where j > i && rows[i] == rows[j] {
                #expect(extents[i].right <= extents[j].left || extents[j].right <= extents[i].left, "labels \(i) and \(j)")
            }
        }
        // Many random labels: never two on a row overlapping; labels that hang right of their lines
        // (all but those at the chart's right edge) never have a line through a lower label's text.
        var random = SeededRandom(seed: 13)
        // (Lines at least 2 px apart: two markers at one moment must cross, and fall back to rows
        // that keep only the texts apart.)
        let labels = (0..<200).map { index -> (left: Double, right: Double, line: Double) in
            let line = Double(index) * 3.5 + random.uniform(0...1.4), width = random.uniform(20...320)
            return (line, line + width, line)
        }
        let placed = LabelLayout.rows(labels)
        var crossings = 0
        for i in labels.indices {
            for j in labels.indices where j != i {
                if placed[i] == placed[j] {
                    #expect(labels[i].right + LabelLayout.rowGap <= labels[j].left || labels[j].right + LabelLayout.rowGap <= labels[i].left)
                }
                if placed[i] < placed[j], (labels[j].left - 1...labels[j].right + 1).contains(labels[i].line) { crossings += 1 }
            }
        }
        #expect(crossings == 0, "\(crossings) lines cross a label below them")
    }

    /// Idle stretches over a second are cut to fixed breaks; times map left to right.
    @Test func idleStretchesAreCollapsed() {
        let axis = TimeAxis(window: 0...14, activity: [0.5...1.5, 1.7...2.0, 9.5...10.5], x: 100, width: 600)
        #expect(axis.breaks.count == 2, "the 7.5 s gap and the 3.5 s tail; 0.2 s between activities stays")
        #expect(abs(axis.breaks[0].start - 2.2) < 1e-9 && abs(axis.breaks[0].end - 9.3) < 1e-9)
        #expect(abs(axis.breaks[1].start - 10.7) < 1e-9 && axis.breaks[1].end == 14)
        #expect(axis.px(0) == 100 && abs(axis.px(14) - (700 - TimeAxis.breakWidth / 2)) < 1e-6, "the tail is a break")
        let times = stride(from: 0.0, through: 14, by: 0.05).map(axis.px)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 + 1e-9 }, "monotonic")
        // The active seconds share what the breaks leave: 2.2 + 1.4 + 0.2 s.
        let drawn = axis.segments.reduce(0) { $0 + $1.x1 - $1.x0 }
        #expect(abs(drawn - (600 - 2 * TimeAxis.breakWidth)) < 1e-6)
        #expect(!axis.isShown(5) && axis.isShown(10))
        // A run across a break is split there.
        let run = stride(from: 1.9, through: 9.6, by: 0.1).map { ReplayTimeline.ValueSample(time: $0, value: 0) }
        #expect(axis.pieces(of: run).count == 2)
        // With nothing idle, nothing is cut.
        #expect(TimeAxis(window: 0...2, activity: [0...2], x: 0, width: 100).breaks.isEmpty)
    }

    /// Another policy's progress is drawn over the main one, dashed, named in the chart's title,
    /// with its own releases; a marker's rule follows its label.
    @Test func overlaysAndRulesAreDrawn() throws {
        var t = ReplayTimeline(title: "t", surfaceWidthMM: 100, surfaceHeightMM: 60)
        t.transition = "pinch-dismiss"
        t.drivingKind = .pinch
        t.progressThreshold = 0.5
        for (time, value) in [(0.1, 0.0), (0.3, 0.4), (0.5, 0.6), (0.9, 1.0)] { t.progress.append(.init(time: time, value: value)) }
        var overlay = ReplayTimeline.ProgressOverlay(name: "seed policy")
        for (time, value) in [(0.1, 0.0), (0.3, 0.4), (0.5, 0.6), (0.8, 0.0)] { overlay.progress.append(.init(time: time, value: value)) }
        overlay.releases = [.init(trial: 0, time: 0.5, progress: 0.6, velocity: -2,
                                  decision: CompletionPolicy.seed.decide(progress: 0.6, velocity: -2), end: 0.8)]
        t.overlays = [overlay]
        t.releases = [.init(trial: 0, time: 0.5, progress: 0.6, velocity: -2,
                            decision: CompletionPolicy.default.decide(progress: 0.6, velocity: -2), end: 0.9)]
        t.markers = [.init(kind: .gestureBegan, time: 0.1, gesture: 0, gestureKind: .pinch, fingers: 2, rule: "thumb-band")]
        let svg = try TimelinePlot.svg(t)
        #expect(svg.contains(">seed policy<") && svg.contains("stroke-dasharray=\"5 3\" class=\"data\""))
        #expect(svg.contains(">G1 pinch 2f · thumb-band<"))
        #expect(svg.contains(">attempt 1: cancel, flick, |velocity| 2/s ≥ 1.5/s backwards (released at 0.6)<"))
    }

    /// A recording with no touches still gets a picture (an axis, and the charts say why they are empty).
    @Test func anEmptyReplayIsDrawn() throws {
        var t = ReplayTimeline(title: "empty", surfaceWidthMM: 100, surfaceHeightMM: 60)
        t.transition = "pan-dismiss"
        t.drivingKind = .pan
        let svg = try TimelinePlot.svg(t)
        #expect(svg.contains(">no pan was recognized<") && svg.contains(">the transition never started<"))
        #expect(throws: PlotError.self) { try TimelinePlot.svg(t, window: PlotWindow(trial: 1)) }
    }

    @Test func linesKeepOnlyVisiblePoints() {
        let dense = (0...1000).map { (Double($0) * 0.01, 5.0) }   // 1001 points over 10 px
        let thin = SVGDocument.thinned(dense)
        #expect(thin.count == 41 && thin.first! == (0, 5) && thin.last! == (10, 5), "\(thin.count)")
        #expect(SVGDocument.thinned([(0, 0), (0.1, 0)]).count == 2, "the ends stay")
    }

    @Test func trackColoursNeverRepeat() {
        for count in [1, 2, 10, 11, 25, 60] {
            let colors = TrackPanels.colors(count: count)
            #expect(colors.count == count && Set(colors).count == count, "\(count) tracks: \(colors)")
            #expect(colors.allSatisfy { $0.count == 7 && $0.hasPrefix("#") })
        }
    }

    @Test func textFromARecordingIsEscaped() {
        #expect(SVGDocument.escape("a<b>&\"c'") == "a&lt;b&gt;&amp;&quot;c&#39;")
        #expect(SVGDocument.escape("x\u{01}y\u{1B}[31mz\u{FFFF}") == "x\u{FFFD}y\u{FFFD}[31mz\u{FFFD}", "no character XML forbids")
    }

    @Test func textWidthsCoverDejaVuSans() {
        // Measured in Chromium: "released 0.594 > mm" at 10 px is 108.8 px wide.
        let w = TextMetrics.width("released 0.594 > mm", size: 10)
        #expect(w >= 108.8 && w < 108.8 * 1.05, "\(w)")
        #expect(TextMetrics.width("設定", size: 10) >= 20, "unknown characters count a full em")
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
        let lines = TimelinePlot.wrapped("decided: finish: projected progress 0.672 > threshold 0.5", width: 120, size: 11)
        #expect(lines.count > 1 && lines.allSatisfy { TextMetrics.width($0, size: 11) <= 120 }, "\(lines)")
        #expect(lines.joined(separator: " ") == "decided: finish: projected progress 0.672 > threshold 0.5")
    }

    /// Every fixture's picture, under every transition: no two texts' boxes overlap (as `TextMetrics`
    /// estimates them; Tests/CLITests/PlotLayoutCLITests measures them in Chromium), marker labels stay
    /// off the plots, every release is labelled with its decision, and the facts say what decided.
    @Test func everyCorpusPictureKeepsItsTextApartAndOnTheCanvas() throws {
        let files = try LoadedRecording.loadCorpus(directory: CorpusFixtureTests.corpusDirectory)
        for file in files {
            for transition in TransitionName.allCases {
                var pipeline = try ReplayPipeline(device: file.device, transition: transition, settings: .default, recordsFrames: true)
                var recorder = TimelineRecorder(title: file.entry.file, device: file.device, transition: transition, policy: .default,
                                                settings: .default)
                for event in file.events { pipeline.consume(event) { recorder.record($0) } }
                let summary = pipeline.finish(source: file.entry.file) { recorder.record($0) }
                let timeline = recorder.timeline(summary: summary)
                let doc = try TimelinePlot.document(timeline, window: .all)
                let name = "\(file.entry.file) \(transition)"
                for (i, a) in doc.texts.enumerated() {
                    #expect(a.box.minX >= 0 && a.box.maxX <= doc.width && a.box.minY >= 0 && a.box.maxY <= doc.height, "\(name): \(a.text)")
                    for b in doc.texts[(i + 1)...] {
                        #expect(!a.box.intersects(b.box), "\(name): '\(a.text)' \(a.box) overlaps '\(b.text)' \(b.box)")
                    }
                }
                #expect(timeline.releases.count == summary.trials.filter { $0.release != nil }.count, "\(name)")
                let labels = doc.texts.filter { $0.role == "marker-label" }.map(\.text)
                for release in timeline.releases {
                    #expect(labels.contains { $0.hasPrefix("attempt \(release.trial + 1): ") }, "\(name): release labelled")
                }
                if summary.trials.first?.release != nil {
                    let facts = doc.texts.filter { $0.role == "fact" }.map(\.text).joined(separator: " ")
                    #expect(facts.contains("attempt 1 (") && facts.contains("released at"), "\(name): \(facts)")
                }
            }
        }
    }

    static func attribute(_ name: String, in element: String) -> Double? {
        guard let start = element.range(of: " \(name)=\"") else { return nil }
        let rest = element[start.upperBound...]
        return Double(rest.prefix { $0 != "\"" })
    }
}
