import Foundation
@testable import GestureLab
import GestureCore
import GestureTools
import Testing
import PinchlabTestSupport

/// A corpus of one-finger touchscreen swipes, written with the synthesizer: `quick` ones (0.3 s)
/// that lisgd takes at any of its settings, and `slow` ones, released 1.0 to 1.1 s after the
/// finger landed, that lisgd's `-m 800` (its timeout from the first touch) drops: only `-m` above
/// 1100 gets them right, and no other setting matters (the swipes are long and straight).
enum PlantedSwipes {
    static func write(slow: Int, quick: Int) throws -> URL {
        let dir = try CLI.temporaryDirectory()
        var entries: [CorpusEntry] = []
        let directions: [GestureExpectation.Direction] = [.down, .right]
        for i in 0..<(slow + quick) {
            let isSlow = i < slow
            let direction = directions[i % 2]
            let travel = 70.0 + Double(i % 5) * 4
            let duration = isSlow ? 0.95 + Double(i % 3) * 0.04 : 0.25 + Double(i % 3) * 0.03
            let motion = GestureRecipe.PanMotion(
                fingers: 1, start: PointMM(x: 40 + Double(i % 4) * 5, y: 40 + Double(i % 3) * 5), spacingMM: 0,
                dx: KeyframeTrack([.init(0, 0), .init(duration, direction == .right ? travel : 0)]),
                dy: KeyframeTrack([.init(0, 0), .init(duration, direction == .down ? travel : 0)]))
            let recipe = GestureRecipe(motion: .pan(motion), landingStaggerS: 0, settleS: 0.02, releaseAtS: duration + 0.03,
                                       liftStaggerS: 0, jitterMM: nil)
            let file = "touchscreen/\(isSlow ? "slow" : "quick")-swipe-\(i < 10 ? "0" : "")\(i).evemu"
            entries.append(CorpusEntry(file: file, transition: "pan-dismiss",
                                       expect: [GestureExpectation(kind: .pan, fingers: 1, direction: direction)],
                                       device: .touchscreen, seed: StandardCorpus.seed(for: file), recipe: recipe))
        }
        try CorpusFiles.write(entries: entries, to: dir.path)
        return dir
    }
}

/// Planted touchpad corpora of three-finger swipes to the right, for the touchpad tools.
enum PlantedTouchpadSwipes {
    /// Each group: how many swipes, how far they travel (mm), and their label.
    struct Group {
        var count: Int
        var travelMM: ClosedRange<Double>
        var name: String
        var expect: [GestureExpectation]
        /// Seconds the motion takes (a few ms more or less from file to file).
        var durationS = 0.3
    }

    static func write(_ groups: [Group]) throws -> URL {
        let dir = try CLI.temporaryDirectory()
        var entries: [CorpusEntry] = []
        for group in groups {
            for i in 0..<group.count {
                let fraction = group.count == 1 ? 0 : Double(i) / Double(group.count - 1)
                let travel = group.travelMM.lowerBound + (group.travelMM.upperBound - group.travelMM.lowerBound) * fraction
                let duration = group.durationS + Double(i % 3) * group.durationS / 10
                let motion = GestureRecipe.PanMotion(
                    fingers: 3, start: PointMM(x: 25 + Double(i % 4) * 2, y: 25 + Double(i % 3) * 2), spacingMM: 15,
                    dx: KeyframeTrack([.init(0, 0), .init(duration, travel)]), dy: KeyframeTrack([.init(0, 0), .init(duration, 0.5)]))
                let recipe = GestureRecipe(motion: .pan(motion), landingStaggerS: 0.01, settleS: 0.03, releaseAtS: duration + 0.05,
                                           liftStaggerS: 0.01, jitterMM: nil)
                let file = "touchpad/\(group.name)-\(i < 10 ? "0" : "")\(i).evemu"
                entries.append(CorpusEntry(file: file, transition: "pinch-dismiss", expect: group.expect, device: .touchpad,
                                           seed: StandardCorpus.seed(for: file), recipe: recipe))
            }
        }
        try CorpusFiles.write(entries: entries, to: dir.path)
        return dir
    }
}

@Suite(.blocking, .serialized) struct TuneToolCLITests {
    static let planted: URL = try! PlantedSwipes.write(slow: 10, quick: 10)
    static let quickOnly: URL = try! PlantedSwipes.write(slow: 0, quick: 20)

    @Test func lisgdTimeoutMovesAndNothingElseOnSlowSwipes() throws {
        let out = try CLI.temporaryDirectory().appendingPathComponent("lisgd.flags").path
        let r = try CLI.run(["tune", Self.planted.path, "--for", "lisgd", "--json", "--write", out])
        #expect(r.status == 0, "\(r.stderr)")
        let report = try #require(try r.json(line: 0)["report"] as? [String: Any])
        let settings = try #require(report["settings"] as? [[String: Any]])
        func value(_ key: String, _ when: String) -> Double? {
            settings.first { $0["key"] as? String == key }?[when] as? Double
        }
        #expect(value("-t", "before") == 125 && value("-t", "after") == 125)
        #expect(value("-r", "before") == 15 && value("-r", "after") == 15)
        #expect(value("-m", "before") == 800)
        let timeout = try #require(value("-m", "after"))
        #expect(timeout > 1100, "the slow swipes end 1.0-1.1 s after the finger lands")
        let changes = try #require(report["changes"] as? [[String: Any]])
        #expect(changes.compactMap { $0["key"] as? String } == ["-m"])
        let fixes = try #require(changes.first?["fixes"] as? [String])
        #expect(!fixes.isEmpty && fixes.allSatisfy { $0.contains("slow-swipe") })  // file names in the JSON report
        #expect(report["heldOutCorrectBefore"] as? Int == 10)
        #expect(report["heldOutCorrectAfter"] as? Int == 20)
        let classes = try #require(report["classes"] as? [[String: Any]])
        #expect(classes.compactMap { $0["gestureClass"] as? String }.sorted() == ["swipe 1 finger down", "swipe 1 finger right"])

        // The file: comments, then flags lisgd's own reader (pinchlab's) takes back.
        let text = try String(contentsOfFile: out, encoding: .utf8)
        let lines = text.split(separator: "\n")
        #expect(lines.filter { !$0.hasPrefix("#") }.count == 1, "\(text)")
        #expect(text.contains("# pinchlab tune: held out (k-fold, 5 folds): 10/20 before, 20/20 after"), "\(text)")  // the flags file's comment
        let read = try LisgdSettings.read(text, file: out)
        #expect(read.timeoutMS == Int(timeout) && read.threshold == 125 && read.degreesLeniency == 15)

        // The text report names the move and its files.
        let human = try CLI.run(["tune", Self.planted.path, "--for", "lisgd"])
        #expect(human.status == 0, "\(human.stderr)")
        // "-m  800 -> <timeout>: held out 10/20 -> 20/20 (+50.0%); fixes ...", "-t  125 (kept)".
        try Golden.expect(human, is: "tune-for-lisgd")
    }

    /// The real lisgd takes the written flags: it fails only at the device.
    @Test(.needs(.lisgd)) func theRealLisgdTakesTheWrittenFlags() throws {
        let out = try CLI.temporaryDirectory().appendingPathComponent("lisgd.flags").path
        let r = try CLI.run(["tune", Self.planted.path, "--for", "lisgd", "--write", out])
        #expect(r.status == 0, "\(r.stderr)")
        let text = try String(contentsOfFile: out, encoding: .utf8)
        let flags = text.split(separator: "\n").filter { !$0.hasPrefix("#") }.flatMap { $0.split(separator: " ").map(String.init) }
        #expect(flags.contains("-m"), "\(text)")  // the written flags, as lisgd takes them
        let lisgd = try CLI.run(flags + ["-w", "1000", "-h", "1000", "-d", "/nonexistent"], timeout: 20,
                                executable: URL(fileURLWithPath: "/usr/bin/lisgd"))
        #expect(lisgd.status != 0)
        // lisgd's own messages.
        #expect((lisgd.stdout + lisgd.stderr).contains("Couldn't bind event from dev filesystem"), "\(lisgd.stdout)\(lisgd.stderr)")
        #expect(!(lisgd.stdout + lisgd.stderr).contains("expects a value"), "not a usage error")
    }

    /// The real lisgd, run with the written file's own command line (`lisgd $(grep -v '^#' FILE) -v
    /// -d NODE`) on every planted recording (served in real time), gets right as many files as the
    /// report predicted.
    @Test(.needs(.lisgd, .fuse))
    func theRealLisgdGetsWhatTheReportPredicted() throws {
        let out = try CLI.temporaryDirectory().appendingPathComponent("lisgd.flags").path
        let r = try CLI.run(["tune", Self.planted.path, "--for", "lisgd", "--json", "--write", out])
        #expect(r.status == 0, "\(r.stderr)")
        let report = try #require(try r.json(line: 0)["report"] as? [String: Any])
        let predicted = try #require(report["correctAfter"] as? Int)
        let manifest = try CorpusFiles.loadManifest(at: CorpusFiles.locate(Self.planted.path))
        var right = 0
        for entry in manifest.entries {
            let replay = try CLI.run(["replay", Self.planted.appendingPathComponent(entry.file).path, "--tool", "lisgd",
                                      "--tool-config", out, "--with-lisgd", "--summary"])
            #expect(replay.status == 0, "\(replay.stderr)")
            let real = try #require(try replay.json(line: -1)["realLisgd"] as? [String: Any], "\(replay.stdout)")
            let written = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
                .flatMap { $0.split(separator: " ").map(String.init) }
            let arguments = real["arguments"] as? [String] ?? []
            #expect(Array(arguments.prefix(written.count)) == written && arguments.contains("-v"), "\(arguments) from \(written)")  // a child's arguments
            let fired = (real["fired"] as? [[String: Any]] ?? []).map { "\($0["fingers"] ?? "") \($0["gesture"] ?? "")" }
            let expected = entry.expect.first?.direction == .down ? "1 UD" : "1 LR"
            if fired == [expected] { right += 1 }
        }
        #expect(right == predicted && predicted == 20, "the real lisgd got \(right), the report predicted \(predicted)")
    }

    @Test func nothingMovesWhenTheCurrentSettingsAreAsGoodAsAnything() throws {
        let out = try CLI.temporaryDirectory().appendingPathComponent("lisgd.flags").path
        let r = try CLI.run(["tune", Self.quickOnly.path, "--for", "lisgd", "--write", out])
        #expect(r.status == 0, "\(r.stderr)")
        // "the current settings are as good as anything found on held-out files: nothing moved,
        // nothing to write", and "nothing moved: OUT not written".
        try Golden.expect(r, is: "tune-for-lisgd-nothing-moved")
        #expect(!FileManager.default.fileExists(atPath: out))

        // Started from a configuration that already waits long enough, the slow swipes move nothing either.
        let dir = try CLI.temporaryDirectory()
        let config = dir.appendingPathComponent("current.flags").path
        try "# mine\n-m 1500 -g '1,UD,*,*,R,echo down'\n".write(toFile: config, atomically: true, encoding: .utf8)
        let started = try CLI.run(["tune", Self.planted.path, "--for", "lisgd", "--tool-config", config, "--json"])
        #expect(started.status == 0, "\(started.stderr)")
        let report = try #require(try started.json(line: 0)["report"] as? [String: Any])
        #expect(report["moved"] as? Bool == false)
        #expect((report["settings"] as? [[String: Any]])?.first { $0["key"] as? String == "-m" }?["before"] as? Double == 1500)
    }

    @Test func lisgdWriteKeepsTheUsersFileButTheTunedValue() throws {
        let dir = try CLI.temporaryDirectory()
        let config = dir.appendingPathComponent("current.flags").path
        let original = "# my phone\n-t 125 -r 20 -m 700 -g '1,UD,*,*,R,echo -m 5'\n-o 0\n"
        try original.write(toFile: config, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("tuned.flags").path
        let r = try CLI.run(["tune", Self.planted.path, "--for", "lisgd", "--tool-config", config, "--write", out, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let text = try String(contentsOfFile: out, encoding: .utf8)
        let kept = text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("# pinchlab tune:") }
        let tuned = try #require(kept.first { $0.hasPrefix("-t ") })
        #expect(tuned.hasPrefix("-t 125 -r 20 -m ") && tuned.hasSuffix(" -g '1,UD,*,*,R,echo -m 5'"), "\(text)")
        #expect(kept.joined(separator: "\n") == original.replacing("-m 700", with: String(tuned.split(separator: " ")[4...5].joined(separator: " "))))
        #expect(try LisgdSettings.read(text, file: out).bindings.first?.command == "echo -m 5")
    }

    /// Three-finger drifts of 5-7 mm (what libinput-gestures #165 calls a tap that became a swipe),
    /// labelled no gesture, beside real swipes of 30-40 mm: only `swipe_threshold` can tell them apart.
    static let drifts: URL = try! PlantedTouchpadSwipes.write([
        .init(count: 10, travelMM: 5...7, name: "drift", expect: [GestureExpectation(kind: .none)]),
        .init(count: 10, travelMM: 30...40, name: "swipe", expect: [GestureExpectation(kind: .pan, fingers: 3, direction: .right)])])
    /// Swipes of 12-16 mm labelled cancelled beside swipes of 45-55 mm labelled finished: touchegg's
    /// `action_execute_threshold` (20%) executes both.
    static let shortAndLong: URL = try! PlantedTouchpadSwipes.write([
        .init(count: 10, travelMM: 12...16, name: "short", expect: [GestureExpectation(kind: .pan, fingers: 3, direction: .right, outcome: .cancel)]),
        .init(count: 10, travelMM: 45...55, name: "long", expect: [GestureExpectation(kind: .pan, fingers: 3, direction: .right, outcome: .finish)])])

    @Test func libinputGesturesSwipeThresholdMovesAloneAndOnlyItsLineChanges() throws {
        let config = try ToolConfigurationUnderTune(
            named: "libinput-gestures.conf",
            "# mine\ngesture swipe right 3 xdotool key super+Right\ngesture swipe left\txdotool key super+Left\n\nswipe_threshold 0\n")
        let tuned = try config.tune("libinput-gestures", on: Self.drifts, changingAlone: "swipe_threshold")
        let values = tuned.settings
        let threshold = try #require(values["swipe_threshold"]?.after)
        #expect(values["swipe_threshold"]?.before == 0 && threshold > 0)
        #expect(values["timeout"]?.before == 1.5 && values["timeout"]?.after == 1.5)
        #expect(tuned.report["heldOutCorrectBefore"] as? Int == 10 && tuned.report["heldOutCorrectAfter"] as? Int == 20)

        let text = tuned.text
        #expect(tuned.kept(droppingLinesStartingWith: "# pinchlab tune:")
                == config.original.replacing("swipe_threshold 0", with: "swipe_threshold \(Int(threshold))"), "\(text)")
        let read = try LibinputGesturesSettings.read(text, file: config.tunedPath)
        #expect(read.swipeThreshold == Int(threshold) && read.timeoutSeconds == 1.5 && read.gestures.count == 2)

        // --diff: the patch on stdout alone, the report on stderr, the file untouched.
        let patch = try CLI.run(["tune", Self.drifts.path, "--for", "libinput-gestures", "--tool-config", config.path, "--diff"])
        #expect(patch.status == 0, "\(patch.stderr)")
        // The patch (--- CONFIG, +++ CONFIG, -swipe_threshold 0, +swipe_threshold N) and the report whole.
        try Golden.expect(patch, is: "tune-for-libinput-gestures-diff")
        #expect(try String(contentsOfFile: config.path, encoding: .utf8) == config.original)
    }

    @Test func toucheggActionExecuteThresholdMovesAloneAndOnlyItsPropertyChanges() throws {
        let config = try ToolConfigurationUnderTune(named: "touchegg.conf", """
        <touchégg>
          <settings>
            <property name="animation_delay">150</property>
            <property name="action_execute_threshold">20</property>
          </settings>
          <application name="All">
            <gesture type="SWIPE" fingers="3" direction="RIGHT">
              <action type="CHANGE_DESKTOP"><direction>next</direction><animate>true</animate></action>
            </gesture>
          </application>
        </touchégg>

        """)
        let tuned = try config.tune("touchegg", on: Self.shortAndLong, changingAlone: "action_execute_threshold")
        let values = tuned.settings
        let threshold = try #require(values["action_execute_threshold"]?.after)
        #expect(values["action_execute_threshold"]?.before == 20 && threshold > 30, "the short swipes reach about 30%")
        #expect(values["daemon start threshold"].map { $0.before == nil && $0.after == nil } == true)
        #expect(values["daemon finish threshold"].map { $0.before == nil && $0.after == nil } == true)

        let text = tuned.text
        #expect(!text.contains("--daemon"), "no daemon threshold moved: \(text)")  // the written XML
        #expect(tuned.kept(droppingLinesStartingWith: "<!-- pinchlab tune:") == config.original.replacing(">20<", with: ">\(Int(threshold))<"),
                "\(text)")
        #expect(try ToucheggSettings.read(text, file: config.tunedPath).actionExecuteThreshold == Int(threshold))
        #expect(text.hasPrefix("<!-- pinchlab tune: tuned by pinchlab tune --for touchegg on 20 touchpad recordings"), "\(text)")

        // Scored again from the tuned file, nothing moves and nothing is written.
        let again = config.directory.appendingPathComponent("again.conf").path
        let second = try CLI.run(["tune", Self.shortAndLong.path, "--for", "touchegg", "--tool-config", config.tunedPath, "--write", again])
        #expect(second.status == 0, "\(second.stderr)")
        try Golden.expect(second, is: "tune-for-touchegg-again-nothing-moved")
        #expect(!FileManager.default.fileExists(atPath: again))
    }

    /// Three-finger drifts of 6-8 mm in about 0.2 s, labelled no gesture, beside quick swipes of
    /// 30-40 mm in about 0.12 s: fusuma's swipe rate threshold (0.3 x 25 units per 10 ms) takes
    /// the drifts too.
    static let quickDrifts: URL = try! PlantedTouchpadSwipes.write([
        .init(count: 10, travelMM: 6...8, name: "drift", expect: [GestureExpectation(kind: .none)], durationS: 0.2),
        .init(count: 10, travelMM: 30...40, name: "quick-swipe", expect: [GestureExpectation(kind: .pan, fingers: 3, direction: .right)],
              durationS: 0.12)])

    @Test func fusumaSwipeThresholdMovesAloneAndOnlyItsValueChanges() throws {
        let config = try ToolConfigurationUnderTune(
            named: "config.yml",
            "# mine\nswipe:\n  3:\n    right:\n      command: 'xdotool key super+Right'\nthreshold:\n  swipe: 0.3 # the bundled figure\n  pinch: 0.1\n")
        let before = try CLI.run(["check", Self.quickDrifts.path, "--tool", "fusuma", "--tool-config", config.path])
        // "fusuma: 20 files: 10 match, 10 mismatches": the drifts fire at 0.3.
        try Golden.expect(before, is: "check-fusuma-drifts-default-threshold")
        let tuned = try config.tune("fusuma", on: Self.quickDrifts, changingAlone: "threshold.swipe")
        let values = tuned.settings
        let threshold = try #require(values["threshold.swipe"]?.after)
        #expect(values["threshold.swipe"]?.before == 0.3 && threshold > 0.3)
        #expect(values["threshold.pinch"].map { $0.before == 0.1 && $0.after == 0.1 } == true)
        #expect(values["threshold.hold"].map { $0.before == 1 && $0.after == 1 } == true)

        let text = tuned.text
        let written = ToolConfigurationWriter.number(threshold)
        #expect(tuned.kept(droppingLinesStartingWith: "# pinchlab tune:")
                == config.original.replacing("swipe: 0.3 #", with: "swipe: \(written) #"), "\(text)")
        #expect(try FusumaSettings.read(text, file: config.tunedPath).threshold[.swipe] == threshold)
        let after = try CLI.run(["check", Self.quickDrifts.path, "--tool", "fusuma", "--tool-config", config.tunedPath])
        try Golden.expect(after, is: "check-fusuma-drifts-tuned-threshold")
    }

    /// InputActions on the drifts: its 3-finger motion threshold (10 units, about 1 mm) takes a
    /// drift for a swipe; only `motion_threshold_3` can tell them apart. The file's first touchpad
    /// rule sets it, so its line changes there; a mouse rule above it and everything else are kept.
    @Test func inputActionsMotionThresholdMovesAloneAndOnlyItsValueChanges() throws {
        let config = try ToolConfigurationUnderTune(named: "config.yaml", """
        # mine
        device_rules:
          - conditions: $mouse
            motion_threshold_3: 3
          - conditions: $touchpad
            motion_threshold_3: 10 # the default
            swipe:
              angle_tolerance: 20
          - motion_threshold_3: 40
        touchpad:
          gestures:
            - type: swipe
              fingers: 3
              direction: right
              actions:
                - command: xdotool key super+Right

        """)
        let before = try CLI.run(["check", Self.drifts.path, "--tool", "inputactions", "--tool-config", config.path])
        // "inputactions: 20 files: 10 match, 10 mismatches": the drifts fire at 10.
        try Golden.expect(before, is: "check-inputactions-drifts-default-threshold")
        let tuned = try config.tune("inputactions", on: Self.drifts, changingAlone: "motion_threshold_3")
        let values = tuned.settings
        let threshold = try #require(values["motion_threshold_3"]?.after)
        #expect(values["motion_threshold_3"]?.before == 10 && threshold > 10)
        #expect(values["swipe.angle_tolerance"].map { $0.before == 20 && $0.after == 20 } == true)

        let text = tuned.text
        let written = ToolConfigurationWriter.number(threshold)
        #expect(tuned.kept(droppingLinesStartingWith: "# pinchlab tune:")
                == config.original.replacing("motion_threshold_3: 10 #", with: "motion_threshold_3: \(written) #"), "\(text)")
        #expect(try InputActionsSettings.read(text, file: config.tunedPath).motionThreshold3 == threshold)
        let after = try CLI.run(["check", Self.drifts.path, "--tool", "inputactions", "--tool-config", config.tunedPath])
        try Golden.expect(after, is: "check-inputactions-drifts-tuned-threshold")
    }

    /// `--for all`: every tool tuned from its defaults on the drifts, one table best first; each
    /// row is what `--for TOOL` says of that tool alone.
    @Test func forAllRanksTheToolsAsEachAloneWouldBeTuned() throws {
        let r = try CLI.run(["tune", Self.drifts.path, "--for", "all", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let rows = try #require(try r.json(line: 0)["ranking"] as? [String: Any])["rows"] as? [[String: Any]] ?? []
        #expect(rows.compactMap { $0["tool"] as? String }.sorted() == ["fusuma", "inputactions", "libinput-gestures", "lisgd", "touchegg"])
        let accuracies = rows.map { $0["heldOutAccuracy"] as? Double }
        let ranked = accuracies.compactMap { $0 }
        #expect(ranked == ranked.sorted(by: >) && accuracies.last == .some(nil), "lisgd reads no touchpad: last, unranked")
        for tool in ["libinput-gestures", "inputactions"] {
            let row = try #require(rows.first { $0["tool"] as? String == tool }?["report"] as? [String: Any])
            let alone = try #require(try CLI.run(["tune", Self.drifts.path, "--for", tool, "--json"]).json(line: 0)["report"] as? [String: Any])
            #expect(row["heldOutCorrectBefore"] as? Int == alone["heldOutCorrectBefore"] as? Int
                    && row["heldOutCorrectAfter"] as? Int == alone["heldOutCorrectAfter"] as? Int, "\(tool)")
            #expect((row["heldOutCorrectAfter"] as? Int ?? 0) > (row["heldOutCorrectBefore"] as? Int ?? 0), "\(tool) gains on the drifts")
        }

        let text = try CLI.run(["tune", Self.drifts.path, "--for", "all"])
        #expect(text.status == 0, "\(text.stderr)")
        // The table whole: "the tools on 20 recordings of DIR, each tuned from its defaults", lisgd
        // fifth ("reads no device of the corpus"), libinput-gestures' swipe_threshold move.
        try Golden.expect(text, is: "tune-for-all")

        let write = try CLI.run(["tune", Self.drifts.path, "--for", "all", "--write", "x.conf"])
        #expect(write.status == 64, "\(write.stderr)")
        try Golden.expect(write, is: "errors-tune-for-all-write")
    }

    @Test func whatTuneForRefuses() throws {
        // Three usage errors (64), then lisgd on a touchpad corpus: nothing to tune (0).
        var transcript = ""
        for options in [["--for", "kwin-gestures"], ["--for", "touchegg", "--diff"], ["--tool-config", "x.conf"], ["--for", "lisgd"]] {
            try Golden.run(["tune", Self.drifts.path] + options, into: &transcript)
        }
        try Golden.expect(transcript, is: "errors-tune-for")
    }
}
