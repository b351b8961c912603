import Foundation
import GestureCore
import GestureKit
import Testing
import PinchlabTestSupport

@Suite(.blocking) struct ReplayCLITests {
    let slowFinish = CLI.fixture("corpus/touchpad/pinch-in-slow-finish-01.evemu")
    let quickFlick = CLI.fixture("corpus/touchpad/pinch-in-quick-flick-01.evemu")

    @Test func replayJSONHasGestureAndTransitionLinesThenASummary() throws {
        let r = try CLI.run(["replay", slowFinish, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let objects = try (0..<r.lines.count).map { try r.json(line: $0) }
        let types = objects.compactMap { $0["type"] as? String }
        #expect(types.last == "summary")
        #expect(types.filter { $0 == "summary" }.count == 1)
        // Holds aside (the fingers rest before they pinch): began ... ended.
        let gestures = objects.filter { $0["type"] as? String == "gesture" && $0["kind"] as? String != "hold" }
        #expect(gestures.first?["state"] as? String == "began")
        #expect(gestures.first?["kind"] as? String == "pinch")
        #expect(gestures.last?["state"] as? String == "ended")
        let transitions = objects.filter { $0["type"] as? String == "transition" }
        #expect(transitions.first?["state"] as? String == "interactive")
        #expect(transitions.last?["state"] as? String == "finished")
        #expect(transitions.last?["progress"] as? Double == 1)
        let times = objects.dropLast().compactMap { $0["time"] as? Double }
        #expect(times == times.sorted(), "records come in time order")
        let summary = try r.json(line: -1)
        #expect(summary["outcome"] as? String == "finished")
        let g = try #require((summary["gestures"] as? [[String: Any]])?.first { $0["kind"] as? String != "hold" })
        #expect(g["kind"] as? String == "pinch")
        #expect(g["fingers"] as? Int == 2)
        #expect(g["ended"] as? String == "ended")
        #expect((g["scale"] as? Double ?? 1) < 0.5)
        #expect(summary["reason"] as? String != nil)
    }

    @Test func twoReplaysOfOneFileAreByteIdentical() throws {
        let a = try CLI.run(["replay", quickFlick, "--json"])
        let b = try CLI.run(["replay", quickFlick, "--json"])
        #expect(a.status == 0)
        #expect(a.stdout == b.stdout)
        #expect(a.stdout.count > 1000)
    }

    @Test func theSeedRuleCancelsAQuickFlickThatTheDefaultPolicyFinishes() throws {
        let seed = try CLI.run(["replay", quickFlick, "--summary", "--policy", "seed"])
        let tuned = try CLI.run(["replay", quickFlick, "--summary"])
        #expect(try seed.json(line: 0)["outcome"] as? String == "cancelled")
        #expect(try tuned.json(line: 0)["outcome"] as? String == "finished")
        #expect((try tuned.json(line: 0)["reason"] as? String)?.contains("flick") == true)  // a JSON field's words
    }

    @Test func humanOutputNamesTheGestureAndTheOutcome() throws {
        try Golden.expect(try CLI.run(["replay", slowFinish]), is: "replay-touchpad-slow-finish")
    }

    /// A hold that motion cancelled is counted, not listed: a touchpad session has one per touch.
    @Test func holdsCancelledByMotionAreOneSummaryLine() throws {
        let r = try CLI.run(["replay", CLI.fixture("corpus/touchpad/pinch-out-01.evemu")])
        #expect(r.status == 0, "\(r.stderr)")
        let gestures = r.lines.filter { $0.hasPrefix("gesture: ") }
        #expect(gestures == ["gesture: pinch, 2 fingers, 0.245-0.754 s, ended, scale 1.68, rotation 0.1°",
                             "gesture: 1 hold cancelled by motion (2 fingers, 163 ms)"], "\(gestures)")
        // The hold's own lines stay in the stream, beside the summary's one line.
        try Golden.expect(r, is: "replay-touchpad-pinch-out")
    }

    /// The summary describes the touches, gesture or not.
    @Test func theSummaryDescribesTheTouches() throws {
        let pinch = try CLI.run(["replay", CLI.fixture("corpus/touchpad/pinch-out-01.evemu")])
        // "touches: 2 contacts, ...", and no "note: ": two fingers pinched, nothing to explain.
        try Golden.expect(pinch, is: "replay-touchpad-pinch-out")
        let json = try CLI.run(["replay", CLI.fixture("corpus/touchpad/pinch-out-01.evemu"), "--summary"])
        let touches = try #require(try json.json(line: 0)["touches"] as? [String: Any])
        #expect(touches["count"] as? Int == 2 && touches["maxFingers"] as? Int == 2)
        #expect(abs((touches["seconds"] as? Double ?? 0) - 0.753698) < 1e-6, "\(touches)")

        let swipe = try CLI.run(["replay", CLI.fixture("corpus/touchscreen/three-finger-swipe-01.evemu")])
        #expect(swipe.lines.suffix(2) == ["outcome: pinch-dismiss never started (no pinch began)",
                                          "hint: 1 pan, no pinch: try --transition pan-dismiss"], "\(swipe.stdout)")
    }

    /// ... and says why one finger at a time on a touchpad is no gesture (a 13.5 s pointer session
    /// said only "gestures: none recognized").
    @Test(.needs(.sharedRecordings)) func theSummaryOfAPointerSessionSaysWhyItHasNoGesture() throws {
        let session = Prerequisite.sharedRecording("evemu-devices-ETPS2-Elantech-Touchpad-session.evemu")
        // "touches: 3 contacts, at most 1 finger at once" and the note that says why.
        try Golden.expect(try CLI.run(["replay", session]), is: "replay-shared-elantech-pointer-session",
                          normalising: [Prerequisite.sharedRecordingsDirectory.path: "$SHARED"])
    }

    @Test func panDismissOnAPullDown() throws {
        let r = try CLI.run(["replay", CLI.fixture("corpus/touchscreen/pan-down-finish-01.evemu"),
                             "--transition", "pan-dismiss", "--summary"])
        let summary = try r.json(line: 0)
        #expect(summary["outcome"] as? String == "finished")
        let g = try #require((summary["gestures"] as? [[String: Any]])?.first)
        #expect(g["kind"] as? String == "pan")
        let translation = try #require(g["translation"] as? [String: Double])
        #expect((translation["y"] ?? 0) > 30)
    }

    @Test func realTimeReplayTakesAboutTheRecordedDuration() throws {
        let start = Date()
        let r = try CLI.run(["replay", quickFlick, "--summary", "--speed", "2"])
        let elapsed = Date().timeIntervalSince(start)
        let duration = try r.json(line: 0)["duration"] as? Double ?? 0
        #expect(elapsed >= duration / 2 * 0.9, "paced at twice the recorded speed")
    }

    @Test func statsCountsWhatIsInTheFile() throws {
        let r = try CLI.run(["stats", slowFinish, "--json"])
        #expect(r.status == 0)
        let stats = try r.json(line: 0)
        let text = try String(contentsOfFile: slowFinish, encoding: .utf8)
        let eventLines = text.split(separator: "\n").filter { $0.hasPrefix("E: ") }
        #expect(stats["events"] as? Int == eventLines.count)
        #expect(stats["frames"] as? Int == eventLines.filter { $0.contains(" 0000 0000 0000") }.count)  // the evemu file's SYN_REPORTs
        #expect(stats["class"] as? String == "touchpad")
        #expect(stats["widthMM"] as? Double == 100)
        #expect(stats["mostFingersDown"] as? Int == 2)
    }

    @Test func convertToLibinputRecordAndBackIsLossless() throws {
        let dir = try CLI.temporaryDirectory()
        let yml = dir.appendingPathComponent("a.yml").path, back = dir.appendingPathComponent("b.evemu").path
        #expect(try CLI.run(["convert", slowFinish, "-o", yml]).status == 0)
        #expect(try String(contentsOfFile: yml, encoding: .utf8).contains("version: 1"))  // a YAML fragment
        #expect(try CLI.run(["convert", yml, "-o", back]).status == 0)
        #expect(FileManager.default.contents(atPath: back) == FileManager.default.contents(atPath: slowFinish))
    }

    /// convert keeps keyboard keys, LED and switch states and events unless --mask-keys: evemu ->
    /// YAML -> evemu gives the same bytes.
    @Test func convertKeepsKeysLEDsAndSwitchesUnlessAskedToMaskKeys() throws {
        let keyQ = EventCode(rawValue: 16), ledNumLock = EventCode(rawValue: 0), switchTabletMode = EventCode(rawValue: 1)
        var device = DeviceDescription.presetTouchpad
        device.codes[.key, default: []].insert(keyQ)
        device.codes[.msc] = [.mscScan]
        device.codes[.led] = [ledNumLock]
        device.codes[.sw] = [switchTabletMode]
        device.ledStates = [ledNumLock: 1]
        device.switchStates = [switchTabletMode: 1]
        let dir = try CLI.temporaryDirectory()
        let original = dir.appendingPathComponent("keys.evemu").path
        let writer = try EvemuWriter(path: original, device: device, options: RecordingWriterOptions(maskKeyboardKeys: false))
        let time = EventTime(seconds: 0, microseconds: 1)
        for (type, code, value) in [(EventType.msc, EventCode.mscScan, Int32(0x10)), (.key, keyQ, 1), (.syn, .synReport, 0),
                                    (.led, ledNumLock, 0), (.sw, switchTabletMode, 0), (.syn, .synReport, 0)] {
            try writer.write(InputEvent(time: time, type: type, code: code, value: value))
        }
        try writer.close()

        let yml = dir.appendingPathComponent("keys.yml").path, back = dir.appendingPathComponent("back.evemu").path
        #expect(try CLI.run(["convert", original, "-o", yml]).status == 0)
        let yaml = try String(contentsOfFile: yml, encoding: .utf8)
        // YAML fragments (the recording, not human output); the round trip below checks the rest.
        #expect(yaml.contains("EV_KEY / KEY_Q") && !yaml.contains("obfuscated"))
        #expect(yaml.contains("pinchlab-states:") && yaml.contains("leds: {0: 1}") && yaml.contains("switches: {1: 1}"))
        #expect(try CLI.run(["convert", yml, "-o", back]).status == 0)
        #expect(FileManager.default.contents(atPath: back) == FileManager.default.contents(atPath: original))

        let masked = dir.appendingPathComponent("masked.yml").path
        #expect(try CLI.run(["convert", original, "-o", masked, "--mask-keys"]).status == 0)
        let maskedText = try String(contentsOfFile: masked, encoding: .utf8)
        // (YAML fragments, as above)
        #expect(maskedText.contains("EV_KEY / KEY_A") && maskedText.contains("(obfuscated)") && !maskedText.contains("KEY_Q"))
        #expect(try CLI.run(["convert", original, "-o", masked, "--mask-keys", "--keep-keys"]).status == 64)
    }

    /// replay warns as stats and convert do: the events after the last SYN_REPORT are no frame.
    @Test(arguments: ["replay", "plot"])
    func anUnfinishedLastFrameIsReportedNotSilentlyDropped(command: String) throws {
        let cut = CLI.fixture("bad/cut-mid-frame.evemu")
        let out = try CLI.temporaryDirectory().appendingPathComponent("cut.svg").path
        let r = try CLI.run(command == "replay" ? ["replay", cut, "--summary"] : ["plot", cut, "-o", out])
        // The warning once, and nothing else on stderr but plot's own one-line summary.
        try Golden.expect(r, is: "\(command)-cut-mid-frame-warning")
    }

    /// UIKit's completionSpeed from the command line: twice the speed, half the time from the
    /// release to the end (the curve's remaining duration is divided by it exactly). And a
    /// completion named in a settings file replaces the transition's own.
    /// A speed factor whose pacing cannot be waited for (1e-300 used to trap converting a wait to
    /// nanoseconds) is a usage error, for `replay` and `serve` alike; the bounds themselves play.
    @Test func aSpeedOutsideItsRangeIsAUsageError() throws {
        // Each refusal whole: exit status 64, the message, no output.
        var transcript = ""
        for speed in ["1e-300", "0.0009", "1001", "1e308", "nan", "inf", "0", "-1"] {
            try Golden.run(["replay", quickFlick, "--summary", "--speed", speed], into: &transcript)
            try Golden.run(["serve", quickFlick, "--at", "/tmp/pinchlab-never-mounted", "--speed", speed], into: &transcript)
        }
        try Golden.expect(transcript, is: "errors-speed-out-of-range")
        let fastest = try CLI.run(["replay", quickFlick, "--summary", "--speed", "1000"], timeout: 20)
        #expect(fastest.status == 0, "\(fastest.stderr)")
        let plain = try CLI.run(["replay", quickFlick, "--summary"])
        #expect(CLI.canonicalJSON(try fastest.json(line: -1)) == CLI.canonicalJSON(try plain.json(line: -1)),
                "pacing never changes the result")
    }

    @Test func completionSpeedAndANamedCompletionChangeTheAnimation() throws {
        let slow = CLI.fixture("corpus/touchpad/pinch-in-slow-finish-01.evemu")
        func animationSeconds(_ extra: [String]) throws -> Double {
            let r = try CLI.run(["replay", slow, "--summary"] + extra)
            #expect(r.status == 0, "\(extra): \(r.stderr)")
            let trial = try #require((try r.json(line: -1)["trials"] as? [[String: Any]])?.first)
            #expect(trial["outcome"] as? String == "finished")
            return try #require(trial["end"] as? Double) - #require(trial["release"] as? Double)
        }
        let normal = try animationSeconds([])
        #expect(normal > 0.1)
        #expect(abs(try animationSeconds(["--completion-speed", "2"]) - normal / 2) < 2e-6)
        // Usage errors, whole; the option takes what the settings file's key takes.
        var refusals = ""
        try Golden.run(["replay", slow, "--completion-speed", "0"], into: &refusals)
        try Golden.run(["replay", slow, "--completion-speed", "5000"], into: &refusals)
        try Golden.run(["replay", slow, "--transition", "pan-dismiss", "--pan-distance", "2000"], into: &refusals)
        try Golden.expect(refusals, is: "errors-completion-speed-and-pan-distance")

        let config = try CLI.temporaryDirectory().appendingPathComponent("spring.json").path
        try Data(#"{"completion": "android-no-bouncy-low"}"#.utf8).write(to: URL(fileURLWithPath: config))
        let spring = try animationSeconds(["--config", config])
        #expect(abs(spring - normal) > 0.05, "a spring settles in its own time: \(spring) s vs \(normal) s")
        #expect(abs(try animationSeconds(["--completion", "android-no-bouncy-low"]) - spring) < 2e-6,
                "the settings file and the option name the same timing")
    }

    @Test(.needs(.rsvgConvert)) func plotWritesAnSVGThatRenders() throws {
        let dir = try CLI.temporaryDirectory()
        let svg = dir.appendingPathComponent("p.svg").path
        let r = try CLI.run(["plot", quickFlick, "-o", svg])
        #expect(r.status == 0, "\(r.stderr)")
        let text = try String(contentsOfFile: svg, encoding: .utf8)
        // SVG fragments (PlotLayoutCLITests reads the picture's texts whole).
        #expect(text.contains("<svg") && text.contains("threshold 0.5") && text.contains("finished"))
        // What happened, in words: the release and what the policy decided.
        #expect(text.contains(">attempt 1 (G2 pinch, 0.17 s): released at 0.26 s, progress 0.202,<"), "the release, as replay --summary has it (G2: the fingers rested 40 ms first, libinput's quick hold G1)")
        #expect(text.contains("class=\"fact\">2.95/s; finish by flick (releasing at 0.59/s or slower would have<"),
                "wrapped at a word in the facts box (indented by position: SVG drops leading spaces)")
        #expect(text.contains("class=\"fact\">cancelled it); finished at 1.06 s<"), "what would have flipped it, then the end")
        // (SVG fragments)
        #expect(text.contains(">attempt 1: finish, flick, |velocity| 2.95/s ≥ 1.5/s towards completion (released at 0.202); ≤ 0.59/s cancels<"),
                "the decision's reason beside the release, and its margin")
        try SVGRendering.expectRenders(svg)
    }

    /// Plots of other shapes render too: a pan whose spring overshoots (the axis reaches past 1),
    /// a tap that recognizes nothing (the panels say so), a late reversal, a touchscreen rotation.
    @Test(.needs(.rsvgConvert), arguments: [("corpus/touchpad/pan-down-flick-01.evemu", "pan-dismiss"),
                      ("corpus/touchpad/two-finger-tap-01.evemu", "pinch-dismiss"),
                      ("corpus/touchscreen/pinch-in-late-reversal-01.evemu", "pinch-dismiss"),
                      ("corpus/touchscreen/rotate-01.evemu", "pinch-dismiss")])
    func plotsOfEveryShapeRender(fixture: String, transition: String) throws {
        let dir = try CLI.temporaryDirectory()
        let svg = dir.appendingPathComponent("p.svg").path
        let r = try CLI.run(["plot", CLI.fixture(fixture), "-o", svg, "--transition", transition])
        #expect(r.status == 0, "\(r.stderr)")
        let text = try String(contentsOfFile: svg, encoding: .utf8)
        // The fixture's name picks the checks; the checks read SVG fragments.
        if fixture.contains("tap") {
            #expect(text.contains("no pinch was recognized") && text.contains("the transition never started"))
        }
        if fixture.contains("pan-down-flick") {
            let replay = try CLI.run(["replay", CLI.fixture(fixture), "--json", "--transition", transition])
            let peak = replay.lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
                .compactMap { $0["progress"] as? Double }.max() ?? 0
            #expect(peak > 1, "the spring overshoots")
            // The progress curve is the last data polyline; its panel is the last plot-area rectangle.
            let dataLine = try #require(text.components(separatedBy: "\n").last { $0.hasPrefix("<polyline") && $0.contains("class=\"data\"") })
            let polyline = try #require(dataLine.components(separatedBy: "points=\"").last?.components(separatedBy: "\"").first)
            let ys = polyline.split(separator: " ").compactMap { $0.split(separator: ",").last.flatMap { Double($0) } }
            let panel = try #require(text.components(separatedBy: "\n").last { $0.hasPrefix("<rect") && $0.contains("class=\"plot-area\"") })
            func attribute(_ name: String) -> Double? {
                panel.components(separatedBy: " \(name)=\"").dropFirst().first.flatMap { Double($0.prefix { $0 != "\"" }) }
            }
            let top = try #require(attribute("y")), bottom = top + (try #require(attribute("height")))
            #expect(!ys.isEmpty && ys.allSatisfy { $0 >= top - 0.01 && $0 <= bottom + 0.01 }, "the overshoot stays inside the panel")
        }
        try SVGRendering.expectRenders(svg)
    }
}
