import Foundation
import Testing
import PinchlabTestSupport

enum LisgdRecordings {
    /// The touchscreen fixtures.
    static let fixtures: [String] = {
        var files = (try? FileManager.default.contentsOfDirectory(atPath: CLI.fixture("corpus/touchscreen"))) ?? []
        files = files.filter { $0.hasSuffix(".evemu") }.sorted().map { CLI.fixture("corpus/touchscreen/\($0)") }
        return files + [session]
    }()

    /// The touchscreen session: 16 s of swipes and taps.
    static let session = CLI.fixture("sessions/touchscreen-session.evemu")

    /// The real touchscreen recordings of ../shared/recordings.
    static let shared = ["Atmel-maXTouch-Touchscreen-1-finger-fast-taps", "ELAN-CANDO-Windows7-1-finger-drag-up-down",
                         "EP0430M09-2-fingers-touch-release", "QUANTA-OpticalTouchScreen-touch-hover",
                         "QUANTA-OpticalTouchScreen-touch-on-left", "Wacom-ISDv4-E6-Finger-2fg-double-tap", "Wacom-ISDv4-E6-Finger-2fg-tap",
                         "Wacom-ISDv4-E6-Finger-double-tap-center", "Wacom-ISDv4-E6-Finger-double-top-swipe",
                         "Wacom-ISDv4-E6-Finger-single-tap-center", "Wacom-ISDv4-E6-Finger-single-top-swipe"]
        .map { Prerequisite.sharedRecording("evemu-devices-\($0).evemu") }

    /// Three of lisgd's settings: its defaults on a 1000-unit square screen, a generous one on a
    /// phone, a strict one on a turned desktop screen (`-o 1`).
    static let settings = ["-t 125 -r 15 -m 800 -w 1000 -h 1000",
                           "# generous, a phone\n-t 60 -r 30 -m 2000 -w 720 -h 1440",
                           "-t 200 -r 25 -m 1200 -w 1920 -h 1080 -o 1"]
    /// The index of the phone's setting in `settings`.
    static let phone = 1

    /// The flags files of `settings[indices]`, in `dir`.
    static func flagsFiles(_ indices: [Int], in dir: URL) throws -> [String] {
        try indices.map { setting in
            let flags = dir.appendingPathComponent("lisgd-\(setting).flags").path
            try (settings[setting] + "\n").write(toFile: flags, atomically: true, encoding: .utf8)
            return flags
        }
    }

    /// Debian's lisgd on `file` at each of `settings[indices]` beside pinchlab's: they must fire the
    /// same. The recording plays once, to one lisgd for each setting, and each summary line is
    /// that setting's (the real lisgd ran its flags).
    static func expectAgreement(_ file: String, settings indices: [Int]) throws {
        let flags = try flagsFiles(indices, in: CLI.temporaryDirectory())
        let r = try CLI.run(["replay", file, "--tool", "lisgd", "--with-lisgd", "--summary"] + flags.flatMap { ["--tool-config", $0] })
        #expect(r.status == 0, "\(r.stderr)")
        try #require(r.lines.count == indices.count, "one summary for each setting of \(file): \(r.stdout)")
        for (line, setting) in indices.enumerated() {
            let check = try #require(try r.json(line: line)["realLisgd"] as? [String: Any], "\(file) at \(settings[setting]): \(r.stdout)")
            let words = settings[setting].split(separator: "\n").filter { !$0.hasPrefix("#") }.flatMap { $0.split(separator: " ").map(String.init) }
            #expect((check["arguments"] as? [String])?.starts(with: words) == true, "\(file) at \(settings[setting]): \(check)")
            #expect(check["agrees"] as? Bool == true, "\(file) at \(settings[setting]): \(check)")
        }
    }
}

/// `replay --tool`: the gesture tools' verdicts, their configuration files, and Debian's real
/// lisgd run beside pinchlab's emulation of it.
@Suite(.blocking) struct ToolsCLITests {
    private static func tools(_ json: [String: Any]) -> [[String: Any]] { json["tools"] as? [[String: Any]] ?? [] }

    @Test func aThreeFingerSwipeUnderEveryTouchpadTool() throws {
        let r = try CLI.run(["replay", CLI.fixture("corpus/touchpad/three-finger-swipe-01.evemu"), "--tool", "touchegg",
                             "--tool", "libinput-gestures", "--tool", "kwin-gestures", "--tool", "lisgd", "--libinput-version", "1.22.1",
                             "--summary"])
        #expect(r.status == 0, "\(r.stderr)")
        let tools = Self.tools(try r.json(line: -1))
        #expect(tools.map { $0["name"] as? String } == ["touchegg", "libinput-gestures", "kwin-gestures", "lisgd"])
        #expect(tools.allSatisfy { $0["source"] as? String == "pinchlab" })
        let touchegg = try #require(tools.first?["fired"] as? [[String: Any]])
        #expect(touchegg.count == 1)
        #expect(touchegg.first?["gesture"] as? String == "SWIPE")
        #expect(touchegg.first?["fingers"] as? Int == 3)
        #expect((touchegg.first?["margin"] as? [String: Any])?["key"] as? String == "action_execute_threshold")
        // lisgd reads a touchscreen's touches: on a touchpad it says so and fires nothing.
        #expect((tools.last?["fired"] as? [Any])?.isEmpty == true)
        #expect((tools.last?["note"] as? String)?.contains("touchscreen") == true)  // a JSON field's words
    }

    @Test func theOldLibinputUnitsChangeTouchegsThresholds() throws {
        let file = CLI.fixture("corpus/touchpad/three-finger-swipe-01.evemu")
        let now = try CLI.run(["replay", file, "--tool", "touchegg", "--libinput-version", "1.22.1", "--summary"])
        let old = try CLI.run(["replay", file, "--tool", "touchegg", "--libinput-version", "1.17.0", "--summary"])
        func percentage(_ r: CLI.Result) throws -> Double {
            let fired = try #require(Self.tools(try r.json(line: -1)).first?["fired"] as? [[String: Any]])
            return fired.first?["percentage"] as? Double ?? -1
        }
        // The same travel is a smaller share of touchegg's old 5 % / 40 % thresholds read in 1.17's larger units.
        #expect(try percentage(now) > 0)
        #expect(try percentage(old) != percentage(now))
    }

    @Test func aBadConfigurationIsRefusedAtItsLine() throws {
        let dir = try CLI.temporaryDirectory()
        let flags = dir.appendingPathComponent("lisgd.flags").path
        try "# mine\n-t 90\n-r fifteen\n".write(toFile: flags, atomically: true, encoding: .utf8)
        let r = try CLI.run(["replay", CLI.fixture("corpus/touchscreen/three-finger-swipe-01.evemu"), "--tool", "lisgd",
                             "--tool-config", flags])
        #expect(r.status == 65)
        #expect(r.stderr == "pinchlab: \(flags):3: lisgd configuration: -r is 'fifteen': expected a whole number\n")
        let xml = dir.appendingPathComponent("touchegg.conf").path
        try "<touchégg>\n  <settings>\n    <property name=\"action_execute_threshold\">20</settings>\n</touchégg>\n"
            .write(toFile: xml, atomically: true, encoding: .utf8)
        let t = try CLI.run(["replay", CLI.fixture("corpus/touchpad/three-finger-swipe-01.evemu"), "--tool", "touchegg",
                             "--tool-config", xml])
        #expect(t.status == 65)
        #expect(t.stderr.hasPrefix("pinchlab: \(xml):3: touchegg configuration: not well-formed: expected </property>"), "\(t.stderr)")
        let missing = try CLI.run(["replay", CLI.fixture("corpus/touchpad/three-finger-swipe-01.evemu"), "--tool", "touchegg",
                                   "--tool-config", dir.appendingPathComponent("none.conf").path])
        #expect(missing.status == 66)
        let twoTools = try CLI.run(["replay", CLI.fixture("corpus/touchpad/three-finger-swipe-01.evemu"), "--tool", "touchegg",
                                    "--tool", "lisgd", "--tool-config", xml])
        #expect(twoTools.status == 64)
        try Golden.expect(twoTools, is: "errors-tool-config-with-two-tools")
        // Several lisgd files go with --with-lisgd only: each tool's verdict is otherwise one block.
        let twoFiles = try CLI.run(["replay", CLI.fixture("corpus/touchscreen/three-finger-swipe-01.evemu"), "--tool", "lisgd",
                                    "--tool-config", flags, "--tool-config", flags])
        #expect(twoFiles.status == 64)
        try Golden.expect(twoFiles, is: "errors-tool-config-lisgd-two-files-without-with-lisgd")
    }

    /// Debian's lisgd, unmodified, on a `pinchlab serve`-like node, every gesture bound: pinchlab's
    /// lisgd must fire the same gestures (count, fingers, direction) on every touchscreen recording
    /// at three settings. Each case plays its recording once, in real time, to three lisgd; the
    /// session (16 s) is `theRealLisgdFiresOnSwipes`, which checks what fired too.
    @Test(.needs(.lisgd, .fuse), arguments: LisgdRecordings.fixtures.filter { $0 != LisgdRecordings.session })
    func theRealLisgdAgrees(file: String) throws {
        try LisgdRecordings.expectAgreement(file, settings: Array(LisgdRecordings.settings.indices))
    }

    @Test(.needs(.lisgd, .fuse, .sharedRecordings), arguments: LisgdRecordings.shared)
    func theRealLisgdAgreesOnTheSharedRecordings(file: String) throws {
        try LisgdRecordings.expectAgreement(file, settings: Array(LisgdRecordings.settings.indices))
    }

    /// Not vacuous: on these the real lisgd fires, and so must the emulation. Three settings at once
    /// in the human output: after the replay, each file's summary under its name, as that file alone
    /// prints it (without `--with-lisgd`: the same but the real lisgd's line).
    @Test(.needs(.lisgd, .fuse))
    func theRealLisgdFiresOnSwipes() throws {
        let flags = try LisgdRecordings.flagsFiles(Array(LisgdRecordings.settings.indices), in: CLI.temporaryDirectory())
        let r = try CLI.run(["replay", LisgdRecordings.session, "--tool", "lisgd", "--with-lisgd"] + flags.flatMap { ["--tool-config", $0] })
        #expect(r.status == 0, "\(r.stderr)")
        let headings = flags.map { "with lisgd's \($0):" }
        // Every line, blank ones too: the blocks are compared whole.
        func allLines(_ text: String) -> [String] { text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
        let lines = allLines(r.stdout)
        let at = try headings.map { heading in try #require(lines.firstIndex(of: heading), "\(heading) in \(r.stdout)") }
        #expect(at == at.sorted(), "in the order given: \(at)")
        for (index, file) in flags.enumerated() {
            let block = Array(lines[(at[index] + 1)..<(index + 1 < at.count ? at[index + 1] : lines.count)])
            let real = try #require(block.last, "\(r.stdout)")
            #expect(real.hasPrefix("real lisgd (/usr/bin/lisgd) fired ") && real.hasSuffix(": the emulation agrees"),
                    "\(file): \(real)")
            if index == LisgdRecordings.phone {
                #expect(real == "real lisgd (/usr/bin/lisgd) fired 1 UD, 3 LR, 1 RL, 1 UD: the emulation agrees", "\(r.stdout)")
            }
            let alone = try CLI.run(["replay", LisgdRecordings.session, "--tool", "lisgd", "--tool-config", file])
            #expect(alone.status == 0, "\(alone.stderr)")
            #expect(allLines(alone.stdout) == Array(lines[..<at[0]] + block.dropLast()), "\(file): \(alone.stdout) in \(r.stdout)")
        }
    }
}

/// `check CORPUS --tool`: the labelled corpus scored under a tool, labels in the tool's words.
@Suite(.blocking) struct ToolCheckCLITests {
    @Test func theCorpusUnderLisgdAndLibinputGestures() throws {
        let lisgd = try CLI.run(["check", CLI.fixture("corpus"), "--tool", "lisgd", "--json"])
        #expect(lisgd.status == 1, "a one-finger pan of 0.9 s is past lisgd's 800 ms: \(lisgd.stderr)")
        // One JSON line a tool, the same shape for one tool or several.
        let two = try CLI.run(["check", CLI.fixture("corpus"), "--tool", "lisgd", "--tool", "touchegg", "--json"])
        let tools = try two.lines.indices.map { try two.json(line: $0)["tool"] as? String }
        #expect(tools == ["lisgd", "touchegg"], "\(two.stdout.prefix(300))")
        #expect(two.lines.first == lisgd.lines.first, "the lisgd line is the same with another tool beside it")
        let report = try lisgd.json(line: 0)
        #expect(report["tool"] as? String == "lisgd")
        #expect(report["files"] as? Int == 49)
        // Touchpad files are not lisgd's: not applicable, not matches.
        #expect(report["notApplicable"] as? Int == 26)
        let results = try #require(report["results"] as? [[String: Any]])
        let finish = try #require(results.first { $0["file"] as? String == "touchscreen/pan-down-finish-01.evemu" })
        #expect(finish["status"] as? String == "mismatch")
        #expect(finish["expected"] as? [String] == ["UD 1 finger"])
        let swipe = try #require(results.first { $0["file"] as? String == "touchscreen/three-finger-swipe-01.evemu" })
        #expect(swipe["status"] as? String == "match")
        #expect((swipe["fired"] as? [[String: Any]])?.first?["gesture"] as? String == "LR")

        // A longer timeout in the user's own flags fixes both pans.
        let dir = try CLI.temporaryDirectory()
        let flags = dir.appendingPathComponent("lisgd.flags").path
        try "-m 2000 -w 1000 -h 1000\n".write(toFile: flags, atomically: true, encoding: .utf8)
        let patient = try CLI.run(["check", CLI.fixture("corpus"), "--tool", "lisgd", "--tool-config", flags])
        // Whole: pan-down-finish-01.evemu is no mismatch, and its swipe is listed as fragile ("    touchscreen/
        // pan-down-finish-01.evemu: UD, 1 finger, 0.000-0.902 s: 209.9 px against -t 125.0 px":
        // 84.9 px is under a tenth of the 1000-unit screen).
        try Golden.expect(patient, is: "check-lisgd-patient-flags")

        let gestures = try CLI.run(["check", CLI.fixture("corpus"), "--tool", "libinput-gestures", "--junit",
                                    dir.appendingPathComponent("lg.xml").path])
        #expect(gestures.stdout.hasSuffix("libinput-gestures: 49 files: 25 match, 1 mismatch, 23 not applicable\n"), "\(gestures.stdout)")
        let xml = try String(contentsOfFile: dir.appendingPathComponent("lg.xml").path, encoding: .utf8)
        #expect(xml.contains("tests=\"49\" failures=\"1\" errors=\"0\" skipped=\"23\""), "\(xml.prefix(400))")  // JUnit XML

        // --strict: the fragile matches fail the run, and the JUnit report says the same.
        let fragileCount = patient.stdout.split(separator: "\n").filter { $0.hasPrefix("    ") }.count
        try #require(fragileCount > 0, "\(patient.stdout)")
        for strict in [false, true] {
            let out = dir.appendingPathComponent("strict-\(strict).xml").path
            let r = try CLI.run(["check", CLI.fixture("corpus"), "--tool", "lisgd", "--tool-config", flags, "--junit", out]
                                + (strict ? ["--strict"] : []))
            let report = try String(contentsOfFile: out, encoding: .utf8)
            let failures = report.components(separatedBy: "<failure ").count - 1
            let mismatches = report.components(separatedBy: "<failure type=\"mismatch\"").count - 1
            #expect(failures == mismatches + (strict ? fragileCount : 0), "\(report.prefix(600))")
            #expect(report.components(separatedBy: "name=\"fragile\"").count - 1 == (strict ? 0 : fragileCount))
            #expect(r.status == (failures > 0 ? 1 : 0), "the exit status agrees with the report: \(r.status), \(failures) failures")
        }
    }
}

@Suite(.blocking) struct ToolCompareCLITests {
    /// `--compare` takes a tool's name beside the desktop presets.
    @Test func compareTakesToolsBesidePresets() throws {
        let r = try CLI.run(["replay", CLI.fixture("corpus/touchpad/three-finger-swipe-01.evemu"), "--compare", "gnome,kwin-gestures"])
        #expect(r.status == 0, "\(r.stderr)")
        try Golden.expect(r, is: "replay-compare-gnome-kwin-gestures-three-finger-swipe")
        #expect(r.stdout.hasSuffix("""
            kwin-gestures (fed by pinchlab's recognizer in libinput 1.22.1's units): 1 gesture
              swipe right, 3 fingers, 0.161-0.541 s: executed, 1.00 progress against GESTURE_SWITCH_THRESHOLD 0.25 progress (0.75 above)

            """), "\(r.stdout)")
        let bad = try CLI.run(["replay", CLI.fixture("corpus/touchpad/three-finger-swipe-01.evemu"), "--compare", "gnome,touchegs"])
        #expect(bad.status == 64)
        try Golden.expect(bad, is: "errors-compare-unknown-tool")
    }

    /// `plot --tool` (and a tool in its `--compare`): a lane for each tool that fired, and in the
    /// facts what `replay --tool` says of each gesture, word for word.
    @Test func plotDrawsEachToolsLaneAndSaysWhatReplaySays() throws {
        let file = CLI.fixture("corpus/touchscreen/three-finger-swipe-01.evemu")
        let out = try CLI.temporaryDirectory().appendingPathComponent("p.svg").path
        let plot = try CLI.run(["plot", file, "--tool", "lisgd", "--compare", "gnome,touchegg", "--libinput-version", "1.22.1", "-o", out])
        #expect(plot.status == 0, "\(plot.stderr)")
        let svg = try String(contentsOfFile: out, encoding: .utf8)
        #expect(svg.components(separatedBy: "class=\"tool-lane\"").count - 1 == 2, "a lane for lisgd and one for touchegg")
        #expect(svg.components(separatedBy: "class=\"tool-fired\"").count - 1 == 2)
        #expect(svg.components(separatedBy: "class=\"tool-acted\"").count - 1 == 2, "a tick where each tool acted")
        // The picture's words, its wrapped lines joined again.
        let words = svg.matches(of: /<text[^>]*>([^<]*)<\/text>/).map { String($0.output.1) }.joined(separator: " ")
            .replacing(/\s+/, with: " ")
        let replay = try CLI.run(["replay", file, "--tool", "lisgd", "--compare", "touchegg", "--libinput-version", "1.22.1"])
        #expect(replay.status == 0, "\(replay.stderr)")
        for tool in ["lisgd", "touchegg"] {
            let lines = replay.stdout.split(separator: "\n").map(String.init)
            let heading = try #require(lines.firstIndex { $0.hasPrefix("\(tool) (fed by") }, "\(replay.stdout)")
            let said = lines[(heading + 1)...].prefix { $0.hasPrefix("  ") }.map { $0.dropFirst(2) }
            #expect(said.count == 1, "\(replay.stdout)")
            for line in said {  // the SVG's words
                #expect(words.contains("\(tool): \(line)".replacing("&", with: "&amp;")), "\(tool): \(line) in \(words)")  // SVG text
            }
        }
    }

    /// libinput's own events are in its own units: a chosen version would misread them.
    @Test func withLibinputTakesNoLibinputVersion() throws {
        let r = try CLI.run(["replay", CLI.fixture("corpus/touchpad/three-finger-swipe-01.evemu"), "--tool", "touchegg", "--with-libinput",
                             "--libinput-version", "1.17"])
        #expect(r.status == 64)
        try Golden.expect(r, is: "errors-libinput-version-with-libinput")
    }
}

/// The libinput 1.18 trap (libinput-gestures #310): the same `swipe_threshold 400` fires a 28 mm
/// swipe under 1.17's units and not under 1.22's, and the output says what 400 units were and are.
@Suite(.blocking) struct LibinputUnitsTrapCLITests {
    @Test func swipeThreshold400BeforeAndAfterLibinput118() throws {
        let dir = try CLI.temporaryDirectory()
        let conf = dir.appendingPathComponent("libinput-gestures.conf").path
        try "gesture swipe right 3 xdotool key super+Right\nswipe_threshold 400\n".write(toFile: conf, atomically: true, encoding: .utf8)
        let file = CLI.fixture("corpus/touchpad/three-finger-swipe-01.evemu")
        let old = try CLI.run(["replay", file, "--tool", "libinput-gestures", "--tool-config", conf, "--libinput-version", "1.17.0"])
        #expect(old.status == 0, "\(old.stderr)")
        #expect(old.stdout.hasSuffix("""
            libinput-gestures (fed by pinchlab's recognizer in libinput 1.17.0's units): 1 gesture
              swipe right, 3 fingers, 0.161-0.541 s: 1080.6 units against swipe_threshold 400.0 units (680.6 above)
              swipe_threshold 400 units is 10.2 mm under libinput 1.17.0, 38.0 mm from libinput 1.18 on

            """), "\(old.stdout)")
        let now = try CLI.run(["replay", file, "--tool", "libinput-gestures", "--tool-config", conf, "--libinput-version", "1.22.1"])
        #expect(now.stdout.hasSuffix("""
            libinput-gestures (fed by pinchlab's recognizer in libinput 1.22.1's units): 0 gestures
              swipe_threshold 400 units is 38.0 mm under libinput 1.22.1, 10.2 mm before libinput 1.18

            """), "\(now.stdout)")
    }
}

/// libinput's run of a recording is kept: the second run of the same recording, libinput and
/// options reads no device and takes no real time, and says the same.
@Suite(.blocking, .needs(.libinput, .fuse))
struct LibinputCacheCLITests {
    @Test func aSecondRunIsReadFromTheCache() throws {
        let cache = try CLI.temporaryDirectory()
        let environment = ["PINCHLAB_NO_CACHE": "0", "XDG_CACHE_HOME": cache.path]
        let file = CLI.fixture("corpus/touchpad/three-finger-swipe-01.evemu")
        let arguments = ["replay", file, "--with-libinput", "--tool", "touchegg", "--summary"]
        let first = try Self.runOnTime(arguments, environment: environment)
        #expect(first.status == 0, "\(first.stderr)")
        let kept = try FileManager.default.contentsOfDirectory(atPath: cache.appendingPathComponent("pinchlab/libinput").path)
        #expect(kept.count == 1 && kept.first?.hasSuffix(".json") == true, "\(kept)")
        // The second run with nowhere to serve a device ($TMPDIR a file, where the node's folder
        // cannot be made): it succeeds only if it reads no device (a wall-clock bound would be
        // flaky on a loaded machine).
        let nowhere = cache.appendingPathComponent("not-a-directory").path
        try Data().write(to: URL(fileURLWithPath: nowhere))
        let second = try CLI.run(arguments, environment: environment.merging(["TMPDIR": nowhere]) { $1 })
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout == first.stdout)
        let uncached = try CLI.run(arguments, environment: environment.merging(["TMPDIR": nowhere, "PINCHLAB_NO_CACHE": "1"]) { $1 })
        #expect(uncached.status == 69, "without the cache it needs the device: \(uncached.stderr)")
        try Golden.expect(uncached, is: "errors-libinput-without-cache-nowhere-to-serve")
        let tools = try #require(try second.json(line: -1)["tools"] as? [[String: Any]])
        #expect(tools.first?["source"] as? String == "libinput")
        // `pinchlab libinput` of the same recording and options reads the same run; another scroll
        // method is another run.
        let same = try CLI.run(["libinput", file, "--json"], environment: environment)
        #expect(same.status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.appendingPathComponent("pinchlab/libinput").path).count == 1)
        let other = try Self.runOnTime(["libinput", file, "--json", "--scroll-method", "edge"], environment: environment)
        #expect(other.status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.appendingPathComponent("pinchlab/libinput").path).count == 2)
    }

    /// `arguments` run until libinput read no event late (`libinput.timing.lateEvents` in the last
    /// line), three times at most: only such a run is kept (LibinputBridge), and a loaded machine can
    /// make every run of one invocation late. The last run when none was on time.
    static func runOnTime(_ arguments: [String], environment: [String: String]) throws -> CLI.Result {
        var result = try CLI.run(arguments, environment: environment)
        for _ in 1..<3 {
            guard result.status == 0, let libinput = (try? result.json(line: -1))?["libinput"] as? [String: Any],
                  let late = (libinput["timing"] as? [String: Any])?["lateEvents"] as? Int, late > 0 else { return result }
            result = try CLI.run(arguments, environment: environment)
        }
        return result
    }
}

/// Where pinchlab stands in for libinput and is known to differ (issue #38, item 7), the tools'
/// output says so, once, where it can matter.
@Suite(.blocking) struct StandInCaveatCLITests {
    /// A finger resting on a clicked clickpad: pinchlab holds, libinput would not.
    @Test(.needs(.sharedRecordings)) func aHoldOnAClickedClickpadIsNoted() throws {
        let file = Prerequisite.sharedRecording("evemu-devices-SynPS2-Synaptics-TouchPad-button-rpress.evemu")
        let summary = try CLI.run(["replay", file, "--tool", "libinput-gestures", "--tool", "touchegg", "--summary"])
        #expect(summary.status == 0, "\(summary.stderr)")
        let tools = try #require(try summary.json(line: -1)["tools"] as? [[String: Any]])
        #expect(tools.map { $0["caveats"] as? [String] } == [["clickpad-click"], ["clickpad-click"]])
        let text = try CLI.run(["replay", file, "--tool", "libinput-gestures", "--tool", "touchegg"])
        #expect(text.stdout.hasSuffix("""
            libinput-gestures (fed by pinchlab's recognizer in libinput 1.22.1's units): 1 gesture
              hold on, 1 finger, 0.040-0.483 s
            touchegg (fed by pinchlab's recognizer in libinput 1.22.1's units): 0 gestures
            note: the clickpad was clicked with fingers down: pinchlab may hold where libinput, which leaves a clicked clickpad to \
            the pointer, sends nothing (--with-libinput feeds the tools libinput's own events)

            """), "\(text.stdout)")
    }

    /// A brief second touch on a two-slot pad with no resolution: pinchlab pinches, libinput scrolls.
    @Test(.needs(.sharedRecordings)) func aPinchOnRoughPositionsIsNoted() throws {
        let file = Prerequisite.sharedRecording("evemu-devices-SynPS2-Synaptics-TouchPad-hp8470p-edge-scroll-horizontal.evemu")
        let text = try CLI.run(["replay", file, "--tool", "touchegg"])
        #expect(text.stdout.hasSuffix("""
            touchegg (fed by pinchlab's recognizer in libinput 1.22.1's units): 1 gesture
              PINCH OUT, 2 fingers, 3.306-3.335 s: executed, 24.5 % against action_execute_threshold 20.0 % (4.52 above), scale 1.25
            note: this touchpad's two-finger positions are rough (semi-MT, or two slots and no resolution): pinchlab may pinch \
            where libinput scrolls (--with-libinput feeds the tools libinput's own events)

            """), "\(text.stdout)")
    }

    /// No hold, no pinch: nothing to say, though the clickpad was clicked (the bcm5974 fixture).
    @Test func nothingIsSaidWhereNothingCouldDiffer() throws {
        let clicked = try CLI.run(["replay", CLI.fixture("clicks/bcm5974-three-finger-click.evemu"), "--tool", "libinput-gestures",
                                   "--summary"])
        #expect((try clicked.json(line: -1)["tools"] as? [[String: Any]])?.first?["caveats"] == nil)
        let plain = try CLI.run(["replay", CLI.fixture("corpus/touchpad/three-finger-swipe-01.evemu"), "--tool", "touchegg", "--summary"])
        #expect((try plain.json(line: -1)["tools"] as? [[String: Any]])?.first?["caveats"] == nil)
    }
}

/// `live --tool` on a served recording says, as the gestures end, what `replay --tool` says of the
/// same recording at the end: the same gestures, in order, with the same figures.
@Suite(.blocking, .needs(.fuse), .serialized) struct LiveToolCLITests {
    @Test func liveSaysWhatReplaySays() throws {
        let fixture = CLI.fixture("sessions/touchscreen-session.evemu")
        let dir = DeviceCLITests.mountDirectory("live-tool")
        let serve = try CLI.Running(["serve", fixture, "--at", dir])
        defer { serve.process.interrupt() }
        try #require(CLI.waitFor(20) { FileManager.default.fileExists(atPath: dir + "/event0") }, "\(serve.stderrSoFar)")
        let flags = try CLI.temporaryDirectory().appendingPathComponent("phone.flags").path
        try (LisgdRecordings.settings[1] + "\n").write(toFile: flags, atomically: true, encoding: .utf8)
        let tools = ["--tool", "lisgd", "--tool", "touchegg", "--tool-config", "lisgd=" + flags]
        // The session pauses up to 2.5 s between gestures.
        let live = try CLI.run(["live", dir + "/event0", "--json", "--exit-after-idle", "4"] + tools, timeout: 60)
        #expect(live.status == 0, "\(live.stderr)")
        let said = live.lines.compactMap { line -> String? in
            guard let data = line.data(using: .utf8), let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                  object["type"] as? String == "tool", let fired = object["fired"] as? [String: Any] else { return nil }
            return "\(object["name"] as? String ?? "") \(fired["fingers"] as? Int ?? 0) \(fired["gesture"] as? String ?? "")"
        }
        let replay = try CLI.run(["replay", fixture, "--summary"] + tools)
        let judged = try #require(try replay.json(line: -1)["tools"] as? [[String: Any]])
        let expected = judged.flatMap { tool in
            (tool["fired"] as? [[String: Any]] ?? []).map { ($0["begin"] as? Double ?? 0, "\(tool["name"] as? String ?? "") \($0["fingers"] as? Int ?? 0) \($0["gesture"] as? String ?? "")") }
        }.sorted { $0.0 < $1.0 }.map(\.1)
        // lisgd 1 UD, 3 LR (and touchegg's SWIPE), 1 RL, 1 UD, touchegg's TAP: as replay judged the file.
        #expect(said.count == 6, "\(said)")
        #expect(said.sorted() == expected.sorted(), "live \(said), replay \(expected)")
    }
}
