import Foundation
import Testing
import PinchlabTestSupport

/// `pinchlab plot` pictures measured in a real renderer: Chromium lays the SVG out, a script in the
/// page reads every text's box (`getBBox`), the plot areas and the data lines, and the tests check
/// that no two texts overlap, that marker labels stay off the plotted data, and what the picture says.
@Suite(.blocking, .serialized) struct PlotLayoutCLITests {
    static func shared(_ name: String) -> String { Prerequisite.sharedRecording(name) }

    struct Box: CustomStringConvertible {
        var x, y, width, height: Double
        var maxX: Double { x + width }
        var maxY: Double { y + height }
        /// Overlap by more than half a pixel both ways (rounding in the renderer's boxes aside).
        func overlaps(_ other: Box) -> Bool {
            min(maxX, other.maxX) - max(x, other.x) > 0.5 && min(maxY, other.maxY) - max(y, other.y) > 0.5
        }
        func contains(_ other: Box, tolerance: Double = 1) -> Bool {
            other.x >= x - tolerance && other.maxX <= maxX + tolerance && other.y >= y - tolerance && other.maxY <= maxY + tolerance
        }
        var description: String { "(\(Int(x)),\(Int(y)) \(Int(width))x\(Int(height)))" }
    }

    struct Measured {
        var texts: [(role: String, text: String, box: Box)]
        var plotAreas: [Box]
        var dataLines: [Box]
        var canvas: Box
    }

    /// The picture laid out by Chromium.
    static func measure(_ svgPath: String) throws -> Measured {
        var svg = try String(contentsOfFile: svgPath, encoding: .utf8)
        if let prolog = svg.range(of: "?>\n") { svg = String(svg[prolog.upperBound...]) }
        let page = """
        <!DOCTYPE html><html><head><meta charset="utf-8"></head><body style="margin:0">
        \(svg)
        <pre id="boxes"></pre>
        <script>
        const box = b => [b.x, b.y, b.width, b.height];
        const svg = document.querySelector('svg');
        const out = {
          canvas: [0, 0, svg.width.baseVal.value, svg.height.baseVal.value],
          texts: [...svg.querySelectorAll('text')].map(t => [t.getAttribute('class'), t.textContent, box(t.getBBox())]),
          plotAreas: [...svg.querySelectorAll('rect.plot-area')].map(r => box(r.getBBox())),
          dataLines: [...svg.querySelectorAll('polyline.data, .velocity')].map(p => box(p.getBBox())),
        };
        document.getElementById('boxes').textContent = JSON.stringify(out);
        </script></body></html>
        """
        let pagePath = try CLI.temporaryDirectory().appendingPathComponent("measure.html").path
        try Data(page.utf8).write(to: URL(fileURLWithPath: pagePath))
        let dom = try Chromium.dumpDOM(Chromium.fileURL(pagePath))
        let json = try #require(try Chromium.preJSON(dom, id: "boxes") as? [String: Any])
        func box(_ value: Any?) throws -> Box {
            let n = try #require(value as? [Double])
            return Box(x: n[0], y: n[1], width: n[2], height: n[3])
        }
        let texts = try (json["texts"] as? [[Any]] ?? []).map { entry in
            (role: entry[0] as? String ?? "", text: entry[1] as? String ?? "", box: try box(entry[2]))
        }
        return Measured(texts: texts, plotAreas: try (json["plotAreas"] as? [Any] ?? []).map(box),
                        dataLines: try (json["dataLines"] as? [Any] ?? []).map(box), canvas: try box(json["canvas"]))
    }

    /// Every layout rule of the picture, as measured.
    static func checkLayout(_ m: Measured, _ name: String) {
        #expect(m.texts.count > 20, "\(name): the picture has its texts")
        for i in m.texts.indices {
            let a = m.texts[i]
            #expect(m.canvas.contains(a.box), "\(name): '\(a.text)' \(a.box) leaves the canvas \(m.canvas)")
            for j in m.texts.indices where j > i {
                let b = m.texts[j]
                #expect(!a.box.overlaps(b.box), "\(name): '\(a.text)' \(a.box) overlaps '\(b.text)' \(b.box)")
            }
            if a.role == "marker-label" || a.role == "tick" || a.role == "break-label" || a.role == "guide-label" {
                for area in m.plotAreas {
                    #expect(!a.box.overlaps(area), "\(name): the label '\(a.text)' \(a.box) lies on the plotted data \(area)")
                }
            }
        }
        for line in m.dataLines {
            #expect(m.plotAreas.contains { $0.contains(line) }, "\(name): a data line \(line) leaves its plot")
        }
    }

    static func plot(_ input: String, _ extra: [String] = []) throws -> (svg: String, text: String, result: CLI.Result) {
        let svg = try CLI.temporaryDirectory().appendingPathComponent("plot.svg").path
        let result = try CLI.run(["plot", input, "-o", svg] + extra)
        #expect(result.status == 0, "\(result.stderr)")
        return (svg, (try? String(contentsOfFile: svg, encoding: .utf8)) ?? "", result)
    }

    /// Several attempts with idle gaps between them, made from corpus recordings of one touchscreen
    /// (each file's events after the previous file's end plus `gap` seconds, slot 0 selected at each
    /// join, tracking ids kept apart), under a device name with markup in it.
    static func multiGestureRecording(gap: Double = 2.5) throws -> String {
        let parts = ["pan-down-cancel-01", "pan-down-finish-01", "three-finger-swipe-01", "pinch-in-late-reversal-01",
                     "pan-down-flick-01", "two-finger-tap-01", "pan-down-finish-01"]
        var header: [String] = [], events: [String] = []
        var offset = 0.0, idBase = 0
        for (index, part) in parts.enumerated() {
            let lines = try String(contentsOfFile: CLI.fixture("corpus/touchscreen/\(part).evemu"), encoding: .utf8)
                .split(separator: "\n").map(String.init)
            if index == 0 {
                header = lines.filter { !$0.hasPrefix("E:") }.map { $0.hasPrefix("N:") ? "N: pinchlab <svg> & \"touch\" </text>" : $0 }
            }
            var first: Double?, last = 0.0, maxID = idBase
            events.append("E: \(String(format: "%.6f", offset)) 0003 002f 0000")
            for line in lines where line.hasPrefix("E:") {
                var fields = line.split(separator: "#")[0].split(separator: " ").map(String.init)
                let time = try #require(Double(fields[1]))
                first = first ?? time
                last = time
                if fields[2] == "0003", fields[3] == "0039", let id = Int(fields[4]), id >= 0 {
                    fields[4] = String(format: "%04d", id + idBase)
                    maxID = max(maxID, id + idBase)
                }
                fields[1] = String(format: "%.6f", offset + time - first!)
                events.append(fields.joined(separator: " "))
            }
            idBase = maxID + 1
            offset += last - (first ?? 0) + gap
        }
        let path = try CLI.temporaryDirectory().appendingPathComponent("multi.evemu").path
        try Data((header + events).joined(separator: "\n").appending("\n").utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(.needs(.chromium)) func aMultiGestureRecordingIsLaidOutWithoutOverlapsAndExplainsEveryRelease() throws {
        let input = try Self.multiGestureRecording()
        let (svg, text, _) = try Self.plot(input, ["--transition", "pan-dismiss"])
        Self.checkLayout(try Self.measure(svg), "multi-gesture")
        // The picture's words whole: every attempt's release labelled with its decision (attempt 4's
        // flick named), the swipe drawn on both axes, the idle gaps cut out and marked, the progress
        // chart saying what it measures (travel down / 40 mm), and the device name, which is data,
        // escaped, never markup.
        try Golden.expect(Golden.pictureText(ofSVG: text), is: "plot-words-multi-gesture")
        // A swipe under pinch-dismiss: the picture says which transition fits, as stderr does.
        let swipe = try Self.plot(CLI.fixture("corpus/touchscreen/three-finger-swipe-01.evemu")).text
        try Golden.expect(Golden.pictureText(ofSVG: swipe), is: "plot-words-three-finger-swipe")
        // The distance is the one used (travel down / 60 mm).
        let farther = try Self.plot(input, ["--transition", "pan-dismiss", "--pan-distance", "60", "--trial", "1"]).text
        try Golden.expect(Golden.pictureText(ofSVG: farther), is: "plot-words-multi-gesture-60mm-attempt-1")
    }

    @Test(.needs(.chromium)) func aLateReversalShowsTheProjectionThatCancelledIt() throws {
        let (svg, text, _) = try Self.plot(CLI.fixture("corpus/touchscreen/pinch-in-late-reversal-01.evemu"))
        Self.checkLayout(try Self.measure(svg), "late reversal")
        // The words whole: the release's label ends with what would have flipped it (threshold ≤ 0.131
        // finishes), the facts keep where it was released, the pinch's scale is the chart shown, the
        // gesture's marker names the rule that began it, the legend names only the marks drawn (this
        // attempt cancelled, its pinch ended) and reads this picture's own first gesture and attempt.
        try Golden.expect(Golden.pictureText(ofSVG: text), is: "plot-words-late-reversal")
    }

    @Test(.needs(.sharedRecordings, .chromium), arguments: [
        "evemu-devices-SynPS2-Synaptics-TouchPad-session.evemu", "evemu-devices-ETPS2-Elantech-Touchpad-session.evemu",
        "evemu-devices-Wacom-ISDv4-E6-Finger-double-top-swipe.evemu",
        // Released at the recording's last moment: the velocity arrow ran past the plot's right edge.
        "evemu-devices-Wacom-Intuos5-touch-M-Finger-double-center-circle.evemu",
    ])
    func realRecordingsAreLaidOutWithoutOverlaps(name: String) throws {
        for transition in ["pinch-dismiss", "pan-dismiss"] {
            let (svg, text, _) = try Self.plot(Self.shared(name), ["--transition", transition])
            Self.checkLayout(try Self.measure(svg), "\(name) \(transition)")
            // The words whole: no key to attempt labels without an attempt, and the legend tells no
            // gesture the picture does not have.
            try Golden.expect(Golden.pictureText(ofSVG: text),
                              is: "plot-words-shared-\(name.replacingOccurrences(of: ".evemu", with: ""))-\(transition)")
        }
    }

    /// A fact too long for the column goes on indented, as laid out (SVG drops leading spaces, so
    /// an indent made of spaces left the continuation at the margin like a fact of its own).
    @Test(.needs(.chromium)) func aWrappedFactsFurtherLinesAreIndented() throws {
        let (svg, _, _) = try Self.plot(CLI.fixture("corpus/touchscreen/pinch-in-late-reversal-01.evemu"))
        let facts = try Self.measure(svg).texts.filter { $0.role == "fact" }
        let device = try #require(facts.firstIndex { $0.text.hasPrefix("device: ") })
        try #require(device + 1 < facts.count, "the device's fact takes two lines")
        let first = facts[device].box, next = facts[device + 1].box
        #expect(next.x >= first.x + 8, "'\(facts[device + 1].text)' \(next) starts right of '\(facts[device].text)' \(first)")
        let starts = Set(facts.map { Int($0.box.x.rounded()) })
        #expect(starts.count == 2, "facts start at the margin, their further lines at one indent: \(starts.sorted())")
    }

    /// Holds drive no transition and a touchpad session holds at nearly every touch (libinput's
    /// quick hold): they are bars in a lane of their own and one line of facts, never a label
    /// pair each above the chart.
    @Test(.needs(.chromium)) func holdsAreALaneNotLabels() throws {
        let (svg, text, _) = try Self.plot(CLI.fixture("corpus/touchpad/pinch-out-01.evemu"))
        let m = try Self.measure(svg)
        Self.checkLayout(m, "pinch-out")
        let labels = m.texts.filter { $0.role == "marker-label" }.map(\.text)
        #expect(labels.filter { $0.hasPrefix("G") } == ["G2 pinch 2f · opposing-fingers"], "the pinch's label alone, none for the hold G1: \(labels)")
        // The words whole: the hold's lane ("holds", its legend) and its one line of facts.
        try Golden.expect(Golden.pictureText(ofSVG: text), is: "plot-words-touchpad-pinch-out")
    }

    /// A release decided without a velocity (the jumpy hp8470p's pinch is cancelled by a touch
    /// jump) draws no arrow, and the legend does not promise one; a release with a velocity does.
    @Test(.needs(.sharedRecordings))
    func theLegendPromisesAVelocityArrowOnlyWhereOneIsDrawn() throws {
        // The words and the marks drawn, whole: "release" and no velocity mark, "release (arrow:
        // velocity)" and its arrow.
        let jump = try Self.plot(Self.shared("evemu-devices-SynPS2-Synaptics-TouchPad-hp8470p-edge-scroll-horizontal.evemu")).text
        try Golden.expect(Golden.pictureText(ofSVG: jump), is: "plot-words-shared-hp8470p-edge-scroll-horizontal")
        let flick = try Self.plot(CLI.fixture("corpus/touchpad/pinch-in-quick-flick-01.evemu")).text
        try Golden.expect(Golden.pictureText(ofSVG: flick), is: "plot-words-touchpad-quick-flick")
    }

    @Test(.needs(.sharedRecordings, .chromium))
    func aSessionOfManyShortHoldsStaysReadable() throws {
        // libinput's quick hold: one finger holds 40 ms after it comes down, so nearly every touch holds.
        let (svg, text, _) = try Self.plot(Self.shared("evemu-devices-SynPS2-Synaptics-TouchPad-session.evemu"))
        let m = try Self.measure(svg)
        Self.checkLayout(m, "session with quick holds")
        #expect(text.components(separatedBy: "class=\"hold\"").count > 10, "the holds are drawn")
        let legend = m.texts.filter { $0.role == "legend" }.map(\.text)
        #expect(legend == ["idle stretch over 1 s, cut out", "track: touch-down, fading in to the lift", "hold (pale: cancelled by motion)",
                           "button held (left)"],
                "the legend names the marks drawn, not a release or gesture mark the session has none of: \(legend)")
        #expect(text.components(separatedBy: "class=\"button-left\"").count - 1 == 2, "the session's two clicks")
        #expect(!m.texts.contains { $0.role == "marker-label" }, "no label for a hold: \(m.texts.filter { $0.role == "marker-label" })")
        let facts = m.texts.filter { $0.role == "fact" }.map(\.text)
        #expect(facts.contains { $0.range(of: #"^[0-9]+ holds cancelled by motion \(1 finger, [0-9]+-[0-9]+ ms\)$"#, options: .regularExpression) != nil },
                "\(facts)")
        // The words whole; among the facts, the one hold not cancelled by motion ("G9: hold, 1 finger,
        // 21.668-21.677 s, cancelled": the clickpad pressed under it at 21.677 s, clickpad-pressed).
        try Golden.expect(Golden.pictureText(ofSVG: text), is: "plot-words-shared-synaptics-session")
    }

    @Test(.needs(.chromium)) func aCropAndASingleAttemptShowOnlyTheirStretch() throws {
        let input = try Self.multiGestureRecording()
        let whole = try Self.plot(input, ["--transition", "pan-dismiss"]).text
        let (svg, text, _) = try Self.plot(input, ["--transition", "pan-dismiss", "--trial", "2"])
        Self.checkLayout(try Self.measure(svg), "attempt 2")
        // The words whole: attempt 2 alone, said so, nothing idle inside one attempt.
        try Golden.expect(Golden.pictureText(ofSVG: text), is: "plot-words-multi-gesture-attempt-2")
        // Attempt 3 alone, "showing 6.00-9.00 s of ...".
        let cropped = try Self.plot(input, ["--transition", "pan-dismiss", "--from", "6", "--to", "9"]).text
        try Golden.expect(Golden.pictureText(ofSVG: cropped), is: "plot-words-multi-gesture-6-to-9-s")
        #expect(whole.count > cropped.count)
    }

    /// The README's picture is what the command draws today.
    @Test func theReadmePictureIsCurrent() throws {
        let (_, text, _) = try Self.plot(CLI.fixture("corpus/touchscreen/pinch-in-late-reversal-01.evemu"))
        let docs = CLI.packageRoot.appendingPathComponent("docs/plot-late-reversal.svg").path
        let kept = try String(contentsOfFile: docs, encoding: .utf8)
        #expect(text == kept, "regenerate: pinchlab plot Fixtures/corpus/touchscreen/pinch-in-late-reversal-01.evemu -o docs/plot-late-reversal.svg")
    }

    @Test func windowsThatCannotBeDrawnAreUsageErrors() throws {
        let input = CLI.fixture("corpus/touchscreen/pinch-in-late-reversal-01.evemu")
        let out = try CLI.temporaryDirectory().appendingPathComponent("x.svg").path
        // Each usage error whole (exit status 64).
        var transcript = ""
        for window in [["--trial", "3"], ["--from", "40"], ["--from", "2", "--to", "1"], ["--trial", "0"]] {
            try Golden.run(["plot", input, "-o", out] + window, into: &transcript)
        }
        try Golden.expect(transcript, is: "errors-plot-windows")
        #expect(!FileManager.default.fileExists(atPath: out), "no picture for a window that cannot be drawn")
    }
}
