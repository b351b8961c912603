import Foundation
import Testing
import PinchlabTestSupport

/// `pinchlab view` pages, loaded in a real browser (Debian's chromium, headless): what the page
/// shows at a time is what `replay --json` printed for that time; the card is drawn at the size
/// its scene says; text from a recording stays text.
@Suite(.blocking, .serialized) struct ViewerCLITests {
    /// Writes the page of `fixture` (corpus-relative) and returns its path.
    static func page(of fixture: String, _ extra: [String] = []) throws -> String {
        let dir = try CLI.temporaryDirectory()
        let out = dir.appendingPathComponent("page.html").path
        let r = try CLI.run(["view", CLI.fixture(fixture), "-o", out] + extra)
        #expect(r.status == 0, "\(r.stderr)")
        return out
    }

    /// `replay --json` of `fixture`: the transition and gesture lines and the summary.
    static func replay(_ fixture: String, _ extra: [String] = []) throws -> (transitions: [[String: Any]], gestures: [[String: Any]], summary: [String: Any]) {
        let r = try CLI.run(["replay", CLI.fixture(fixture), "--json"] + extra)
        #expect(r.status == 0, "\(r.stderr)")
        var transitions: [[String: Any]] = [], gestures: [[String: Any]] = []
        var summary: [String: Any] = [:]
        for index in r.lines.indices {
            let line = try r.json(line: index)
            switch line["type"] as? String {
            case "transition": transitions.append(line)
            case "gesture": gestures.append(line)
            case "summary": summary = line
            default: break
            }
        }
        return (transitions, gestures, summary)
    }

    /// The page's state at each of `times`, through `window.pinchlab.seek`, in one browser run: a
    /// copy of the page gets a script that seeks to each time and writes every state into a `<pre>`.
    static func states(ofPage page: String, at times: [Double]) throws -> [[String: Any]] {
        let list = times.map { String($0) }.joined(separator: ",")
        return try #require(try evaluate("[\(list)].map((t) => window.pinchlab.seek(t))", inPage: page) as? [[String: Any]])
    }

    /// The JSON value of a JavaScript `expression` evaluated in the page after it loaded: a copy of
    /// the page gets a script that writes it into a `<pre>`, read back from chromium's DOM.
    static func evaluate(_ expression: String, inPage page: String) throws -> Any {
        let html = try String(contentsOfFile: page, encoding: .utf8)
        let probe = """
        <pre id="test-result"></pre><script>
        document.getElementById("test-result").textContent = JSON.stringify(\(expression));
        </script>
        </body>
        """
        let copy = page + ".probe.html"
        try html.replacingOccurrences(of: "</body>", with: probe).write(toFile: copy, atomically: true, encoding: .utf8)
        return try Chromium.preJSON(try Chromium.dumpDOM(Chromium.fileURL(copy)), id: "test-result")
    }

    /// The controls: one frame forward or back lands on the next or previous recorded moment, the
    /// next and previous attempt on the attempts' begins, the speed slider's range is 0.1x to 2x.
    @Test(.needs(.chromium)) func stepAndAttemptControlsLandOnRecordedMoments() throws {
        let corpus = "corpus/touchpad/pinch-in-slow-finish-01.evemu"
        let replay = try Self.replay(corpus)
        let begin = try #require((replay.summary["trials"] as? [[String: Any]])?.first?["begin"] as? Double)
        let page = try Self.page(of: corpus)
        let result = try #require(try Self.evaluate("""
            (() => { const p = window.pinchlab, out = {};
              p.seek(0.5); p.stepFrame(1); out.forward = p.state().time;
              p.stepFrame(-1); out.back = p.state().time; p.stepFrame(-1); out.backAgain = p.state().time;
              p.seek(0); p.nextAttempt(); out.attempt = p.state().time; out.attemptTrial = p.state().trial;
              p.seek(5); p.previousAttempt(); out.previous = p.state().time;
              const speed = document.getElementById("speed"); out.speed = [Number(speed.min), Number(speed.max)];
              out.zoomed = p.zoom(0.2, 0.4); p.seek(0.9); out.followed = p.state().timelineWindow;
              out.whole = p.zoom(0, 1e9);
              return out; })()
            """, inPage: page) as? [String: Any])
        let html = try String(contentsOfFile: page, encoding: .utf8)
        // Every frame time in the page's data, to check the steps land on recorded moments.
        let frameTimes = html.matches(of: /\["f",([0-9.]+),/).compactMap { Double($0.1) }
        let forward = try #require(result["forward"] as? Double)
        let firstAfter = try #require(frameTimes.first { $0 > 0.5 })
        #expect(forward > 0.5 && forward <= firstAfter, "one step forward from 0.5 s: \(forward)")
        #expect(result["back"] as? Double ?? -1 < forward)
        #expect(result["backAgain"] as? Double ?? -1 < result["back"] as? Double ?? -1)
        #expect(abs((result["attempt"] as? Double ?? -1) - begin) < 1e-9, "next attempt goes to its begin")
        #expect(result["attemptTrial"] as? Int == 0)
        #expect(abs((result["previous"] as? Double ?? -1) - begin) < 1e-9)
        #expect(result["speed"] as? [Double] == [0.1, 2])
        let zoomed = try #require(result["zoomed"] as? [String: Double])
        #expect(zoomed["from"] == 0.2 && zoomed["to"] == 0.4, "zoom shows the window asked for: \(zoomed)")
        let followed = try #require(result["followed"] as? [String: Double])
        #expect((followed["from"] ?? 9) <= 0.9 && 0.9 <= (followed["to"] ?? 0), "the window moves to the playhead: \(followed)")
        #expect(abs((followed["to"] ?? 0) - (followed["from"] ?? 0) - 0.2) < 1e-9, "keeping its span")
        #expect((result["whole"] as? [String: Double])?["from"] == 0, "zooming out past the ends shows everything")
    }

    /// A recording that turns bad part-way ends as replay and plot end: the page of what was read,
    /// saying it stopped early and where, then the reader's error and status 65.
    @Test(.needs(.chromium)) func aRecordingThatTurnsBadIsShownUpToItsBadLine() throws {
        let dir = try CLI.temporaryDirectory()
        let input = dir.appendingPathComponent("bad.evemu").path
        var text = try String(contentsOfFile: CLI.fixture("corpus/touchpad/pinch-in-slow-finish-01.evemu"), encoding: .utf8)
        text += "E: 9.000000 0003 0035 zz\n"
        try text.write(toFile: input, atomically: true, encoding: .utf8)
        let line = text.split(separator: "\n", omittingEmptySubsequences: false).count - 1
        let out = dir.appendingPathComponent("bad.html").path
        let r = try CLI.run(["view", input, "-o", out])
        #expect(r.status == 65, "\(r.stderr)")
        // The message names the file and line ("bad.evemu:LINE: ..."), whole.
        try Golden.expect(r, is: "errors-view-bad-event-line")
        #expect(try CLI.run(["replay", input, "--summary"]).status == r.status, "replay ends the same")
        let dom = try Chromium.dumpDOM(Chromium.fileURL(out))
        let stopped = try #require(dom.range(of: #"<div id="stopped">[^<]*</div>"#, options: .regularExpression).map { String(dom[$0]) },
                                   "the notice is shown (not hidden)")
        #expect(Chromium.decodeEntities(stopped).contains("stopped early: \(input):\(line):"), "\(stopped)")  // the page's DOM
        let whole = dir.appendingPathComponent("whole.html").path
        #expect(try CLI.run(["view", CLI.fixture("corpus/touchpad/pinch-in-slow-finish-01.evemu"), "-o", whole]).status == 0)
        #expect(try Chromium.dumpDOM(Chromium.fileURL(whole)).contains(#"<div id="stopped" hidden="">"#), "a whole recording has none")
    }

    /// Times worth checking: before anything, on and just after several transition steps (the
    /// first, a third of the way, the release, the middle of the completion, the end).
    static func probeTimes(_ transitions: [[String: Any]]) -> [Double] {
        let times = transitions.compactMap { $0["time"] as? Double }
        guard let first = times.first, let last = times.last else { return [0] }
        var picks = [0, first, first + 0.0005, times[times.count / 3], times[times.count / 2] + 0.0001, last]
        if let release = transitions.first(where: { $0["reason"] != nil })?["time"] as? Double {
            picks += [release, release + 0.001]
        }
        return picks.map { ($0 * 1_000_000).rounded() / 1_000_000 }
    }

    /// What `replay --json` says holds at `time`: the last transition line at or before it, the
    /// attempt it belongs to (its `trial` key, or the last trial begun by then), and the fingers of
    /// the gesture in progress.
    static func expected(at time: Double, _ replay: (transitions: [[String: Any]], gestures: [[String: Any]], summary: [String: Any]))
        -> (progress: Double, state: String, trial: Int?, fingersInGesture: Int?) {
        let step = replay.transitions.last { ($0["time"] as? Double ?? .infinity) <= time }
        var trial: Int?
        if let step {
            if let index = step["trial"] as? Int {
                trial = index
            } else {
                let trials = replay.summary["trials"] as? [[String: Any]] ?? []
                trial = trials.lastIndex { ($0["begin"] as? Double ?? .infinity) <= time }
            }
        }
        let gesture = replay.gestures.last { ($0["time"] as? Double ?? .infinity) <= time }
        let inProgress = gesture.flatMap { g -> Int? in
            let state = g["state"] as? String
            return state == "began" || state == "changed" ? g["fingers"] as? Int : nil
        }
        return (step?["progress"] as? Double ?? 0, step?["state"] as? String ?? "idle", trial, inProgress)
    }

    @Test(.needs(.chromium), arguments: [
        ("touchpad/pinch-in-quick-flick-01.evemu", "pinch-dismiss"),
        ("touchscreen/pinch-in-late-reversal-01.evemu", "pinch-dismiss"),
        ("touchpad/pan-down-finish-01.evemu", "pan-dismiss"),
        ("touchscreen/pinch-out-01.evemu", "zoom-present"),
    ])
    func thePageAtATimeIsWhatReplayPrintsForIt(fixture: String, transition: String) throws {
        let corpus = "corpus/" + fixture
        let replay = try Self.replay(corpus, ["--transition", transition])
        #expect(!replay.transitions.isEmpty, "the fixture drives \(transition)")
        let page = try Self.page(of: corpus, ["--transition", transition])
        let times = Self.probeTimes(replay.transitions)
        let states = try Self.states(ofPage: page, at: times)
        try #require(states.count == times.count)
        var checkedTouches = 0
        for (time, state) in zip(times, states) {
            let want = Self.expected(at: time, replay)
            #expect(abs((state["time"] as? Double ?? -1) - time) < 1e-9)
            #expect(abs((state["progress"] as? Double ?? -1) - want.progress) <= 1e-6, "progress at \(time)")
            #expect(state["transitionState"] as? String == want.state, "state at \(time)")
            #expect(state["trial"] as? Int == want.trial, "trial at \(time)")
            if let fingers = want.fingersInGesture {
                let touches = try #require(state["touches"] as? [[String: Any]])
                #expect(touches.count == fingers, "touches down at \(time) during a \(fingers)-finger gesture")
                checkedTouches += 1
            }
            let scene = try #require(state["scene"] as? [String: Any])
            #expect(scene["scale"] is Double && scene["width"] is Double)
        }
        #expect(checkedTouches > 0, "some probe time falls inside the gesture")
    }

    /// `#t=SECONDS` seeks and pauses on load, and the state is in `<pre id="pinchlab-state">`.
    @Test(.needs(.chromium)) func theFragmentSeeksAndTheStateIsInThePage() throws {
        let corpus = "corpus/touchpad/pinch-in-slow-finish-01.evemu"
        let replay = try Self.replay(corpus)
        let release = try #require(replay.transitions.first { $0["reason"] != nil }?["time"] as? Double)
        let page = try Self.page(of: corpus)
        let dom = try Chromium.dumpDOM(Chromium.fileURL(page, fragment: "t=\(release)"))
        let state = try #require(try Chromium.preJSON(dom, id: "pinchlab-state") as? [String: Any])
        let want = Self.expected(at: release, replay)
        #expect(abs((state["time"] as? Double ?? -1) - release) < 1e-9)
        #expect(abs((state["progress"] as? Double ?? -1) - want.progress) <= 1e-6)
        #expect(state["transitionState"] as? String == want.state)
        #expect(state["playing"] as? Bool == false, "a page opened at #t= is paused")
    }

    /// At the release the screenshot shows a page (not blank) and the card, found by its colour in
    /// the PNG's pixels, is as large as the scene's frame times its scale.
    @Test(.needs(.chromium), arguments: [("touchpad/pinch-in-slow-finish-01.evemu", "pinch-dismiss"),
                      ("touchpad/pan-down-finish-01.evemu", "pan-dismiss")])
    func theCardInTheScreenshotHasTheScenesSize(fixture: String, transition: String) throws {
        let corpus = "corpus/" + fixture
        let replay = try Self.replay(corpus, ["--transition", transition])
        let step = try #require(replay.transitions.first { $0["reason"] != nil })
        let release = try #require(step["time"] as? Double)
        let page = try Self.page(of: corpus, ["--transition", transition])
        let url = Chromium.fileURL(page, fragment: "t=\(release)")
        let state = try #require(try Chromium.preJSON(try Chromium.dumpDOM(url), id: "pinchlab-state") as? [String: Any])
        let scene = try #require(state["scene"] as? [String: Any])
        let k = try #require(scene["pixelsPerPoint"] as? Double)
        let scale = try #require(scene["scale"] as? Double)
        let expectedWidth = try #require(scene["width"] as? Double) * scale * k
        let expectedHeight = try #require(scene["height"] as? Double) * scale * k
        #expect(abs((state["progress"] as? Double ?? -1) - (step["progress"] as? Double ?? -2)) <= 1e-6)

        let png = page + ".png"
        try Chromium.screenshot(url, to: png)
        let pixels = try Self.measure(png: png)
        #expect(pixels.colours > 20, "the screenshot is not blank: \(pixels.colours) colours")
        #expect(pixels.nonWhite > 0.05, "the screenshot is not blank: \(pixels.nonWhite) of it is not white")
        #expect(abs(pixels.cardWidth - expectedWidth) <= 2, "card width \(pixels.cardWidth) px, scene says \(expectedWidth)")
        #expect(abs(pixels.cardHeight - expectedHeight) <= 2, "card height \(pixels.cardHeight) px, scene says \(expectedHeight)")
    }

    /// Reads the PNG's pixels in the browser (an image from a data: URL drawn on a canvas): how
    /// many colours, how much is not white, and the bounding box of the card's colour (#2563eb).
    static func measure(png: String) throws -> (colours: Int, nonWhite: Double, cardWidth: Double, cardHeight: Double) {
        let base64 = try Data(contentsOf: URL(fileURLWithPath: png)).base64EncodedString()
        let html = """
        <!DOCTYPE html><html><body><pre id="measure"></pre><script>
        const image = new Image();
        image.onload = () => {
          const canvas = document.createElement("canvas");
          canvas.width = image.width; canvas.height = image.height;
          const ctx = canvas.getContext("2d"); ctx.drawImage(image, 0, 0);
          const data = ctx.getImageData(0, 0, image.width, image.height).data;
          const colours = new Set(); let nonWhite = 0, minX = Infinity, minY = Infinity, maxX = -1, maxY = -1;
          for (let i = 0, p = 0; i < data.length; i += 4, p++) {
            const r = data[i], g = data[i + 1], b = data[i + 2];
            if (colours.size < 5000) colours.add((r << 16) | (g << 8) | b);
            if (r < 250 || g < 250 || b < 250) nonWhite++;
            if (Math.abs(r - 37) <= 3 && Math.abs(g - 99) <= 3 && Math.abs(b - 235) <= 3) {
              const x = p % image.width, y = Math.floor(p / image.width);
              minX = Math.min(minX, x); maxX = Math.max(maxX, x); minY = Math.min(minY, y); maxY = Math.max(maxY, y);
            }
          }
          document.getElementById("measure").textContent = JSON.stringify({ colours: colours.size,
            nonWhite: nonWhite / (image.width * image.height), width: maxX - minX + 1, height: maxY - minY + 1 });
        };
        image.src = "data:image/png;base64,\(base64)";
        </script></body></html>
        """
        let path = png + ".measure.html"
        try html.write(toFile: path, atomically: true, encoding: .utf8)
        let dom = try Chromium.dumpDOM(Chromium.fileURL(path), virtualTimeBudgetMS: 5000)
        let result = try #require(try Chromium.preJSON(dom, id: "measure") as? [String: Any])
        return (result["colours"] as? Int ?? 0, result["nonWhite"] as? Double ?? 0,
                result["width"] as? Double ?? 0, result["height"] as? Double ?? 0)
    }

    /// A device name and a file name that are HTML (a script, an element with a handler, the end of
    /// the data's script element) are shown as text: nothing runs, the page works.
    @Test(.needs(.chromium)) func aHostileDeviceNameIsText() throws {
        let hostileName = #"</script><script>document.title="pwned"</script><img src=x onerror="document.title='pwned'"> & <!--"#
        let fixture = CLI.fixture("corpus/touchpad/pinch-in-slow-finish-01.evemu")
        var text = try String(contentsOfFile: fixture, encoding: .utf8)
        let nameLine = try #require(text.range(of: "N: pinchlab virtual touchpad"))
        text.replaceSubrange(nameLine, with: "N: " + hostileName)
        let dir = try CLI.temporaryDirectory()
        let input = dir.appendingPathComponent("<img src=x onerror=alert(1)>.evemu").path
        try text.write(toFile: input, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("page.html").path
        let r = try CLI.run(["view", input, "-o", out])
        try #require(r.status == 0, "\(r.stderr)")
        let html = try String(contentsOfFile: out, encoding: .utf8)
        // The page's HTML and DOM, read by fragments.
        #expect(!html.contains("document.title=\"pwned\"</script>"), "the name's markup is not in the page as markup")
        #expect(html.components(separatedBy: "</script>").count == 3, "two script elements, each closed once")

        let dom = try Chromium.dumpDOM(Chromium.fileURL(out, fragment: "t=1"))
        #expect(dom.contains("<title>pinchlab view</title>"), "no script from the name ran")  // the DOM
        #expect(!dom.contains("<img src=\"x\""), "no element from the name was made")  // the DOM
        let subtitle = try #require(dom.range(of: "<div id=\"subtitle\">"))
        let shown = Chromium.decodeEntities(String(dom[subtitle.upperBound...].prefix(600)))
        #expect(shown.contains(hostileName), "the name is shown as it is, as text: \(shown)")
        let state = try #require(try Chromium.preJSON(dom, id: "pinchlab-state") as? [String: Any])
        #expect(state["transitionState"] as? String != nil, "the page's script ran to its end")
        let title = try #require(dom.range(of: "<h1 id=\"title\">"))
        #expect(Chromium.decodeEntities(String(dom[title.upperBound...].prefix(200))).hasPrefix("<img src=x onerror=alert(1)>.evemu"))
    }

    /// A sideways three-finger swipe reads as its travel on both axes (it read "down 2.0 mm"), the
    /// counts in words that agree with them ("3 fingers", "1 finger", no "3 down (3 fingers)"), and
    /// `view` says, as `plot` does, which transition the gestures would have driven.
    @Test(.needs(.chromium)) func aSidewaysSwipeReadsAsItsTravelOnBothAxes() throws {
        let fixture = "corpus/touchscreen/three-finger-swipe-01.evemu"
        let replay = try Self.replay(fixture, ["--transition", "pan-dismiss"])
        let ended = try #require(replay.gestures.first { $0["state"] as? String == "ended" })
        let time = try #require(ended["time"] as? Double)
        let translation = try #require(ended["translation"] as? [String: Double])
        let x = try #require(translation["x"]), y = try #require(translation["y"])
        try #require(x > 30 && abs(y) < 5, "the fixture is a swipe to the right")
        let page = try Self.page(of: fixture, ["--transition", "pan-dismiss"])
        let shown = try #require(try Self.evaluate(
            "[\(time), 0.3].map((t) => (window.pinchlab.seek(t), [\"fact-gesture\", \"fact-touches\"].map((id) => document.getElementById(id).textContent)))",
            inPage: page) as? [[String]])
        try #require(shown.count == 2)
        let words = String(format: "right %.1f mm, %@ %.1f mm", x, y < 0 ? "up" : "down", abs(y))
        #expect(shown[0][0] == "pan ended, 3 fingers, \(words) (rule all-lifted)", "\(shown[0][0])")
        #expect(shown[1][1] == "3 down", "\(shown[1][1])")

        let dir = try CLI.temporaryDirectory()
        let r = try CLI.run(["view", CLI.fixture(fixture), "-o", dir.appendingPathComponent("p.html").path])
        // Whole: "(pinch-dismiss 0 attempts: 0 finished, 0 cancelled; ...", "pinchlab: hint: 1 pan,
        // no pinch: try --transition pan-dismiss".
        try Golden.expect(r, is: "view-\(URL(fileURLWithPath: fixture).lastPathComponent.replacingOccurrences(of: ".evemu", with: ""))-hint")
    }

    /// The decision shows what would have flipped it once the release happened (the sentence
    /// `replay --explain` prints), and with `--compare` the ghost's own under its policy.
    @Test(.needs(.chromium)) func theDecisionSaysWhatWouldHaveFlippedIt() throws {
        let fixture = "corpus/touchscreen/pinch-in-late-reversal-01.evemu"
        let replay = try Self.replay(fixture)
        let release = try #require(replay.transitions.first { $0["reason"] != nil }?["time"] as? Double)
        let page = try Self.page(of: fixture, ["--compare", "kwin"])
        let shown = try #require(try Self.evaluate(
            "[\(release - 0.05), \(release)].map((t) => { const s = window.pinchlab.seek(t); "
                + "return [s.margin, s.compare.margin, document.getElementById(\"fact-decision\").textContent, "
                + "document.getElementById(\"fact-compare\").textContent]; })",
            inPage: page) as? [[Any]])
        try #require(shown.count == 2)
        #expect(shown[0][0] is NSNull && shown[0][1] is NSNull, "nothing is told before the release: \(shown[0])")
        let margin = try #require(shown[1][0] as? String)
        #expect(margin.hasPrefix("cancelled at 59%: a threshold of 0.131 or less, a scale of 0.03 or less, or moving back at 0.18/s or slower would have finished it (gnome: "), "\(margin)")
        #expect((shown[1][1] as? String)?.hasPrefix("finished at 59%: a threshold of 0.594 or more, or a scale of 0.50 or more would have cancelled it") == true, "\(shown[1][1])")
        #expect((shown[1][2] as? String)?.hasSuffix("; " + margin) == true, "the decision fact ends with it: \(shown[1][2])")
        #expect((shown[1][3] as? String)?.contains("would have cancelled it") == true, "the ghost's fact: \(shown[1][3])")  // the page's text, from its DOM
    }

    /// `view --tool`: from the moment each tool acted, the page says what `replay --tool` says of
    /// that gesture, word for word; before it, that the tool has fired nothing yet.
    @Test(.needs(.chromium)) func theToolsSayWhatReplaySaysFromTheMomentTheyActed() throws {
        let fixture = "corpus/touchscreen/three-finger-swipe-01.evemu"
        let tools = ["--tool", "lisgd", "--tool", "touchegg", "--libinput-version", "1.22.1"]
        let replay = try CLI.run(["replay", CLI.fixture(fixture)] + tools)
        #expect(replay.status == 0, "\(replay.stderr)")
        let lines = replay.stdout.split(separator: "\n").map(String.init)
        var said: [String: String] = [:]
        for tool in ["lisgd", "touchegg"] {
            let heading = try #require(lines.firstIndex { $0.hasPrefix("\(tool) (fed by") }, "\(replay.stdout)")
            let gestures = lines[(heading + 1)...].prefix { $0.hasPrefix("  ") }
            try #require(gestures.count == 1, "\(replay.stdout)")
            said[tool] = String(gestures.first!.dropFirst(2))
        }
        let page = try Self.page(of: fixture, tools)
        let shown = try #require(try Self.evaluate(
            "[0.1, 999].map((t) => { const s = window.pinchlab.seek(t); "
                + "return [s.tools, document.getElementById(\"fact-tools\").textContent]; })", inPage: page) as? [[Any]])
        try #require(shown.count == 2)
        let before = try #require(shown[0][0] as? [[String: Any]])
        #expect(before.map { $0["tool"] as? String } == ["lisgd", "touchegg"] && before.allSatisfy { ($0["fired"] as? [String])?.isEmpty == true })
        #expect(shown[0][1] as? String == "lisgd: nothing yet; touchegg: nothing yet")
        let after = try #require(shown[1][0] as? [[String: Any]])
        #expect(after.map { ($0["fired"] as? [String]) ?? [] } == [[said["lisgd"]!], [said["touchegg"]!]], "\(after)")
        #expect(shown[1][1] as? String == "lisgd: \(said["lisgd"]!); touchegg: \(said["touchegg"]!)")
        // Without --tool the page has no tools' line.
        let plain = try Self.page(of: fixture)
        let bare = try #require(try Self.evaluate(
            "[String(window.pinchlab.state().tools), getComputedStyle(document.getElementById(\"fact-tools\")).display]",
            inPage: plain) as? [String])
        #expect(bare == ["undefined", "none"], "\(bare)")
    }

    /// A device without resolution is said to be so in the words replay uses (the subtitle read
    /// "69.0 x 50.0 mm (estimated))").
    @Test(.needs(.sharedRecordings, .chromium)) func anEstimatedSizeIsSaidOnce() throws {
        let out = try CLI.temporaryDirectory().appendingPathComponent("page.html").path
        let r = try CLI.run(["view", Prerequisite.sharedRecording("evemu-devices-ETPS2-Elantech-Touchpad-session.evemu"), "-o", out])
        try #require(r.status == 0, "\(r.stderr)")
        let dom = try Chromium.dumpDOM(Chromium.fileURL(out, fragment: "t=1"))
        let subtitle = try #require(dom.range(of: "<div id=\"subtitle\">"))
        let shown = Chromium.decodeEntities(String(dom[subtitle.upperBound...].prefix(200)))
        #expect(shown.hasPrefix("device \"ETPS/2 Elantech Touchpad\" (touchpad, 69.0 x 50.0 mm, size estimated: no resolution) - "),
                "\(shown)")
    }

    /// The touch the recognizer leaves out (here a resting thumb) is marked with its rule from the
    /// moment it is left out, not before.
    /// A clickpad's clicks: the page says which buttons are down at a time, and counts the presses.
    @Test(.needs(.chromium)) func theClicksOfAClickpadAreOnThePage() throws {
        let page = try Self.page(of: "clicks/bcm5974-three-finger-click.evemu")
        let states = try Self.states(ofPage: page, at: [0.1, 0.15, 0.3, 2.2])
        try #require(states.count == 4)
        #expect(states.map { $0["buttons"] as? [String] ?? ["?"] } == [[], ["left"], [], ["left"]])
        #expect(states[0]["presses"] as? Int == 3)
    }

    @Test(.needs(.chromium)) func aRestingThumbIsMarkedWithItsRule() throws {
        let page = try Self.page(of: "corpus/touchpad/resting-thumb-01.evemu")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        let mark = try #require(html.range(of: #"\["r",[0-9.]+,[0-9]+,"resting-thumb"\]"#, options: .regularExpression),
                                "the page carries the recognizer's decision")
        let fields = html[mark].dropFirst(5).dropLast().split(separator: ",")
        let time = try #require(Double(fields[0])), touch = try #require(Int(fields[1]))
        let states = try Self.states(ofPage: page, at: [time - 0.001, time + 0.05])
        try #require(states.count == 2)
        func marked(_ state: [String: Any]) -> [Int: String] {
            var out: [Int: String] = [:]
            for t in state["touches"] as? [[String: Any]] ?? [] { if let id = t["id"] as? Int, let rule = t["leftOut"] as? String { out[id] = rule } }
            return out
        }
        #expect(marked(states[0]).isEmpty, "not yet left out")
        #expect(marked(states[1]) == [touch: "resting-thumb"])
    }

    /// A page is a report someone attaches and diffs: the same recording makes the same bytes on
    /// every run (the page's JSON once followed Swift's per-process random hashing in its key order).
    @Test func theSamePageEveryRun() throws {
        let first = try Data(contentsOf: URL(fileURLWithPath: try Self.page(of: "corpus/touchpad/pinch-in-slow-finish-01.evemu", ["--compare", "gnome"])))
        for _ in 0..<2 {
            let again = try Data(contentsOf: URL(fileURLWithPath: try Self.page(of: "corpus/touchpad/pinch-in-slow-finish-01.evemu", ["--compare", "gnome"])))
            #expect(again == first)
        }
    }

    @Test func viewRefusesToWriteOverItsInputAndNeedsAnOutputForStandardInput() throws {
        let dir = try CLI.temporaryDirectory()
        let input = dir.appendingPathComponent("in.evemu").path
        try FileManager.default.copyItem(atPath: CLI.fixture("corpus/touchpad/two-finger-tap-01.evemu"), toPath: input)
        // The three usage errors whole (64): "... is the input file", "-o OUT.html", "The value
        // 'nope' is invalid for '--compare <policy>'" with the choices (uikit-seed among them).
        var transcript = ""
        for arguments in [["view", input, "-o", input], ["view", "-"], ["view", input, "--compare", "nope"]] {
            #expect(try Golden.run(arguments, into: &transcript).status == 64, "\(arguments)")
        }
        try Golden.expect(transcript, is: "errors-view-usage")
        // Without -o the page goes into the current directory, not next to the recording.
        let here = try CLI.temporaryDirectory()
        let defaulted = try CLI.run(["view", input], directory: here)
        #expect(defaulted.status == 0, "\(defaulted.stderr)")
        #expect(FileManager.default.fileExists(atPath: here.appendingPathComponent("in.html").path), "FILE's name with .html, here")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("in.html").path), "nothing beside the recording")
        #expect(defaulted.stderr.hasPrefix("pinchlab: wrote \(here.path)/in.html ("), "\(defaulted.stderr)")
    }
}
