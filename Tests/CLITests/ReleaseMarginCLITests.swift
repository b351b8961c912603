import Foundation
import Testing
import PinchlabTestSupport

/// What would have flipped each release, as a user gets it from the command line: the summary's
/// `flip` and `margins`, `--explain`'s "would have" sentence, and the flip threshold checked by
/// replaying with `--threshold` (or a KWin `--config`) 0.005 either side of it. The same check runs
/// in-process on every recording in `ReleaseMarginExactnessTests`; here, through the binary, on a
/// sample: the late reversal, a touchscreen session of four pans, the quick flick and two shared
/// recordings.
@Suite(.blocking) struct ReleaseMarginCLITests {
    static let reversal = CLI.fixture("corpus/touchscreen/pinch-in-late-reversal-01.evemu")
    static let session = CLI.fixture("sessions/touchscreen-session.evemu")
    static let flick = CLI.fixture("corpus/touchpad/pinch-in-quick-flick-01.evemu")

    static func summary(_ arguments: [String]) throws -> [String: Any] {
        let r = try CLI.run(["replay"] + arguments + ["--summary"])
        #expect(r.status == 0, "\(r.stderr)")
        return try r.json(line: -1)
    }

    static func trials(_ summary: [String: Any]) -> [[String: Any]] { summary["trials"] as? [[String: Any]] ?? [] }

    @Test func theSummaryCarriesTheFlipAndEveryPresetsMargin() throws {
        let trial = try #require(Self.trials(try Self.summary([Self.reversal])).first)
        let flip = try #require(trial["flip"] as? [String: Any])
        // Cancelled at 0.594 moving back at 0.93/s: projected 0.131 under 0.5.
        #expect(flip["threshold"] as? Double == 0.131275)
        #expect(flip["velocity"] as? Double == -0.187416)
        #expect(flip["progress"] as? Double == 0.962246 && flip["scale"] as? Double == 0.037754)
        let margin = try #require(flip["margin"] as? [String: Any])
        #expect(margin["key"] as? String == "policy.progressThreshold" && margin["unit"] as? String == "progress")
        #expect(margin["value"] as? Double == 0.131275 && margin["threshold"] as? Double == 0.5)
        let margins = try #require(trial["margins"] as? [String: [String: Any]])
        #expect(Set(margins.keys) == ["gnome", "kwin", "hyprland", "android-back", "uikit-seed", "default", "fluid"])
        #expect(margins["kwin"]?["outcome"] as? String == "finished" && margins["kwin"]?["threshold"] as? Double == 0.593521)
        #expect(margins["gnome"]?["outcome"] as? String == "cancelled" && margins["gnome"]?["threshold"] is NSNull)
        #expect(margins["android-back"]?["velocity"] is NSNull && margins["android-back"]?["scale"] is NSNull)
        #expect(margins.values.allSatisfy { Set($0.keys) == ["outcome", "threshold", "velocity", "scale"] })
        #expect(margins["default"]?["threshold"] as? Double == 0.131275, "the default is the policy used: the same flip")
        // A pan's flip says the travel in mm instead of a scale.
        let pans = Self.trials(try Self.summary([Self.session, "--transition", "pan-dismiss"]))
        let pan = try #require(pans.first?["flip"] as? [String: Any])
        #expect(pan["travelMM"] is Double && pan["scale"] == nil)
    }

    /// Replays each sample with `--threshold` 0.005 either side of each release's flip threshold:
    /// the release flips past it and not short of it. Returns the number of replays checked.
    static func checkFlipThresholds(_ samples: [(String, [String])]) throws -> Int {
        var checked = 0
        for (file, options) in samples {
            let trials = Self.trials(try Self.summary([file] + options))
            for (index, trial) in trials.enumerated() {
                guard let decision = trial["decision"] as? [String: Any], let finish = decision["finish"] as? Bool,
                      let flip = trial["flip"] as? [String: Any], let threshold = flip["threshold"] as? Double else { continue }
                // A finish cancels at its threshold and above, a cancel finishes below.
                for (probe, flips) in [(threshold + 0.005, finish), (threshold - 0.005, !finish)] where (0...1).contains(probe) {
                    let other = Self.trials(try Self.summary([file] + options + ["--threshold", String(probe)]))
                    let decided = try #require(index < other.count ? other[index]["decision"] as? [String: Any] : nil)
                    #expect((decided["finish"] as? Bool != finish) == flips,
                            "\(file) attempt \(index + 1): --threshold \(probe) against flip \(threshold)")
                    checked += 1
                }
            }
        }
        return checked
    }

    @Test func theFlipThresholdIsExactThroughTheCommandLine() throws {
        let checked = try Self.checkFlipThresholds([(Self.reversal, []), (Self.session, ["--transition", "pan-dismiss"]),
                                                    (Self.flick, ["--policy", "uikit-seed"])])
        #expect(checked >= 8, "\(checked) replays checked")
    }

    @Test(.needs(.sharedRecordings))
    func theFlipThresholdIsExactThroughTheCommandLineOnSharedRecordings() throws {
        let checked = try Self.checkFlipThresholds([
            (Prerequisite.sharedRecording("evemu-devices-Wacom-ISDv4-E6-Finger-single-top-swipe.evemu"), ["--transition", "pan-dismiss"]),
            (Prerequisite.sharedRecording("evemu-devices-SynPS2-Synaptics-TouchPad-hp8470p-two-finger-scroll-vertical.evemu"),
             ["--transition", "pan-dismiss"]),
        ])
        #expect(checked >= 2, "\(checked) replays checked")
    }

    /// A desktop's rule with a threshold of its own: KWin's flips at its `threshold` in a settings file.
    @Test func kwinsFlipIsItsOwnThreshold() throws {
        let trial = try #require(Self.trials(try Self.summary([Self.reversal, "--policy", "kwin"])).first)
        let flip = try #require(trial["flip"] as? [String: Any])
        #expect((flip["margin"] as? [String: Any])?["key"] as? String == "policy.threshold")
        let threshold = try #require(flip["threshold"] as? Double)
        let dir = try CLI.temporaryDirectory()
        for (probe, outcome) in [(threshold - 0.005, "finished"), (threshold + 0.005, "cancelled")] {
            let config = dir.appendingPathComponent("kwin-\(probe).json").path
            try Data(#"{"policy": {"kind": "kwin", "threshold": \#(probe)}}"#.utf8).write(to: URL(fileURLWithPath: config))
            let other = try #require(Self.trials(try Self.summary([Self.reversal, "--config", config])).first)
            #expect(other["outcome"] as? String == outcome, "KWin threshold \(probe) against flip \(threshold)")
        }
    }

    @Test(arguments: [[ReleaseMarginCLITests.reversal], [ReleaseMarginCLITests.session, "--transition", "pan-dismiss"],
                      [ReleaseMarginCLITests.flick], [ReleaseMarginCLITests.flick, "--policy", "gnome"],
                      [ReleaseMarginCLITests.flick, "--policy", "android-back"], [ReleaseMarginCLITests.flick, "--policy", "hyprland"]])
    func explainSaysWhatWouldHaveFlippedEveryRelease(_ arguments: [String]) throws {
        // Both outputs whole: with --explain, each release ("   0.848 s  pinch-dismiss released at
        // 59%: cancel: ...") followed at once, at the same time, by what would have flipped it;
        // without --explain, no such sentence.
        var transcript = ""
        #expect(try Golden.run(["replay"] + arguments + ["--explain"], into: &transcript).status == 0)
        try Golden.run(["replay"] + arguments, into: &transcript)
        let name = arguments.map { URL(fileURLWithPath: $0).lastPathComponent.replacingOccurrences(of: ".evemu", with: "") }
            .joined(separator: "-").replacingOccurrences(of: "--", with: "")
        try Golden.expect(transcript, is: "replay-explain-and-not-\(name)")
    }

    @Test func theLateReversalsSentence() throws {
        // "   0.848 s  pinch-dismiss cancelled at 59%: a threshold of 0.131 or less, a scale of 0.03
        // or less, or moving back at 0.18/s or slower would have finished it (gnome: scale 0.26
        // short; ...)", and the session's "pan-dismiss finished at 82%: a threshold of 0.834 or
        // more, 13.4 mm less travel, ...": the explanations whole.
        try Golden.expect(try CLI.run(["replay", Self.reversal, "--explain"]), is: "replay-explain-late-reversal-absolute-path")
        try Golden.expect(try CLI.run(["replay", Self.session, "--transition", "pan-dismiss", "--explain"]),
                          is: "replay-explain-touchscreen-session-absolute-path")
    }

    /// A release at 0 % is also the transition's end: its sentence still comes right after the
    /// release line, before the end's bar (it came after the bar).
    @Test(.needs(.sharedRecordings))
    func aReleaseThatIsAlsoTheEndIsExplainedBeforeTheEnd() throws {
        let file = Prerequisite.sharedRecording("evemu-devices-Wacom-Bamboo-16FG-4x5-Finger-double-center-circle.evemu")
        let r = try CLI.run(["replay", file, "--transition", "pan-dismiss", "--explain"])
        #expect(r.status == 0, "\(r.stderr)")
        // The output whole: "pan-dismiss released at 0%: cancel: projected progress 0.002 <= threshold
        // 0.5", then "pan-dismiss cancelled at 0%: ... would have finished it", then the end's bar.
        try Golden.expect(r, is: "replay-explain-shared-bamboo-circle-pan-dismiss",
                          normalising: [Prerequisite.sharedRecordingsDirectory.path: "$SHARED"])
    }

    /// A compared preset's shortfall beside the decision ("gnome: 13.6 mm short") is the figure of
    /// that preset's own sentence ("13.6 mm more travel"), each way round: both rounded up, so
    /// each travel flips the release as printed (the shortfall was rounded plainly: 13.5 and 12.9).
    @Test(.needs(.sharedRecordings))
    func aComparedPresetsShortfallIsItsOwnSentencesFigure() throws {
        let file = Prerequisite.sharedRecording("inputactions-synaptics-TM3276-touchpad-stroke-m-3.evemu")
        let options = ["--transition", "pan-dismiss", "--compare", "gnome"]
        func figure(_ text: String, _ pattern: Regex<(Substring, Substring)>) throws -> String {
            String(try #require(text.firstMatch(of: pattern), "\(pattern) in \(text)").1)
        }
        let explain = try CLI.run(["replay", file] + options + ["--explain"])
        // The sentence the figures below are read from (the output is whole in the golden file).
        let sentence = try #require(explain.lines.first { $0.contains(" would have finished it (") }, "\(explain.stdout)")
        try Golden.expect(explain, is: "replay-explain-shared-tm3276-stroke-m-3-compare-gnome",
                          normalising: [Prerequisite.sharedRecordingsDirectory.path: "$SHARED"])
        let dir = try CLI.temporaryDirectory()
        let plot = dir.appendingPathComponent("stroke.svg").path
        #expect(try CLI.run(["plot", file, "-o", plot] + options).status == 0)
        let facts = try String(contentsOfFile: plot, encoding: .utf8).components(separatedBy: "class=\"fact\">").dropFirst()
            .map { String($0.prefix { $0 != "<" }) }.joined(separator: " ")
        // GNOME's shortfall beside the default's decision, and GNOME's own sentence.
        let gnomeShort = try figure(sentence, /gnome: ([0-9.]+) mm short/)
        #expect(gnomeShort == (try figure(facts, /gnome, attempt 1: cancelled at [0-9]+%: ([0-9.]+) mm more travel/)))
        // The other way: the default's shortfall in GNOME's sentence (the view page's), and its own.
        let page = dir.appendingPathComponent("stroke.html").path
        #expect(try CLI.run(["view", file, "-o", page] + options).status == 0)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect((try figure(html, /default: ([0-9.]+) mm short/)) == (try figure(sentence, /([0-9.]+) mm more travel/)))
        #expect(gnomeShort == "13.6", "the figure the lead found: \(sentence)")
    }

    @Test func theJSONLinesBesideTheSummaryAreUnchanged() throws {
        let r = try CLI.run(["replay", Self.reversal, "--json"])
        #expect(r.status == 0)
        // JSON fragments.
        for line in r.lines.dropLast() {
            #expect(!line.contains("\"flip\"") && !line.contains("\"margins\""), "\(line)")
        }
        #expect(r.lines.last?.contains("\"flip\":{") == true)
        // Human output without --explain does not measure them: the summary's attempts read as before.
        try Golden.expect(try CLI.run(["replay", Self.reversal]), is: "replay-late-reversal-absolute-path")
    }

    @Test func thePlotShowsTheMarginAtTheReleaseAndForEachComparedPreset() throws {
        let dir = try CLI.temporaryDirectory()
        let out = dir.appendingPathComponent("reversal.svg").path
        let r = try CLI.run(["plot", Self.reversal, "-o", out, "--compare", "kwin,gnome"])
        #expect(r.status == 0, "\(r.stderr)")
        let svg = try String(contentsOfFile: out, encoding: .utf8)
        // The picture's words whole: the release's label ("threshold ≤ 0.131 finishes"), the facts
        // (wrapped) with the margin at the release and kwin's and gnome's own.
        try Golden.expect(Golden.pictureText(ofSVG: svg), is: "plot-words-late-reversal-compare-kwin-gnome")
    }
}
