import Foundation
import PinchlabTestSupport
import Testing

@Suite(.blocking) struct ErrorCLITests {
    func write(_ text: String, name: String = "bad.evemu") throws -> String {
        let path = try CLI.temporaryDirectory().appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static let header = """
        # EVEMU 1.3
        N: broken pad
        I: 0018 04f3 3108 0100
        P: 05 00 00 00 00 00 00 00
        B: 00 0b 00 00 00 00 00 00 00
        B: 03 03 00 00 00 00 80 60 02
        A: 00 0 1000 0 0 10
        A: 01 0 800 0 0 10
        A: 2f 0 4 0 0 0
        A: 35 0 1000 0 0 10
        A: 36 0 800 0 0 10
        A: 39 0 65535 0 0 0

        """

    @Test(arguments: [
        ("truncated", header + "E: 0.000000 0003 0039\n", "expected"),
        ("bad hex", header + "E: 0.000000 0003 00zz 0001\n", "expected"),
        ("time backwards", header + "E: 1.000000 0003 0039 0001\nE: 0.500000 0000 0000 0000\n", "at or after 1.000000"),
        ("no description", "E: 0.000000 0003 0039 0001\n", "N:"),
        ("binary", "\u{0}\u{1}\u{2}ELF\u{0}\u{0}", "NUL byte"),
    ])
    func badRecordingsExitWithBadDataAndNameTheLine(name: String, text: String, hint: String) throws {
        let path = try write(text)
        // Each command's output whole, in one file per class of bad recording: the file named,
        // what was expected (`hint`), exit status 65.
        var transcript = ""
        for command in [["replay", path], ["stats", path], ["convert", path, "-o", path + ".yml"]] {
            let r = try Golden.run(command, into: &transcript)
            #expect(r.status == 65, "\(name): \(command[0]) exit \(r.status): \(r.stderr)")
            #expect(r.stderr.lowercased().contains(hint.lowercased()), "\(name): says what was expected: \(r.stderr)")
            #expect(r.stdout.isEmpty || command[0] == "replay")
        }
        try Golden.expect(transcript, is: "errors-bad-recording-" + name.replacingOccurrences(of: " ", with: "-"))
    }

    /// `header` plus lines, for messages that must name the line: the header is 12 lines long.
    static let headerLineCount = 12

    static let yamlHeader = """
        version: 1
        ndevices: 1
        devices:
        - node: /dev/input/event5
          evdev:
            name: "broken pad"
            id: [24, 1267, 12552, 256]
            codes:
              0: [0]
              3: [0, 1, 47, 53, 54, 57]
            absinfo:
              0: [0, 1000, 0, 0, 10]
              1: [0, 800, 0, 0, 10]
              47: [0, 4, 0, 0, 0]
              53: [0, 1000, 0, 0, 10]
              54: [0, 800, 0, 0, 10]
              57: [0, 65535, 0, 0, 0]
            properties: [0]
          events:
          - evdev:

        """
    /// The first event line of `yamlHeader` + events.
    static let yamlFirstEventLine = 21

    /// Runs stats, replay and convert on `path`: each must exit 65 with `message` (after `path:`) on
    /// stderr, and convert must leave no output file behind.
    func expectBadData(_ path: String, line: Int, _ message: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let output = path + ".converted.yml"
        for command in [["stats", path], ["replay", path], ["convert", path, "-o", output]] {
            let r = try CLI.run(command)
            #expect(r.status == 65, "\(command[0]) exit \(r.status): \(r.stderr)", sourceLocation: sourceLocation)
            #expect(r.stderr == "pinchlab: \(path):\(line): \(message)\n",
                    "\(command[0]) says where and what was expected, and nothing else: \(r.stderr)", sourceLocation: sourceLocation)
        }
        #expect(!FileManager.default.fileExists(atPath: output), "no half-written output", sourceLocation: sourceLocation)
    }

    /// An evemu file with Windows line ends, evemu's comment after every value: an error names
    /// the line an editor shows (each line counted once, the one-scan reading included).
    @Test func aCRLFFileNamesTheLineOfItsError() throws {
        var lines = Self.header.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        for n in 0..<40 {
            lines.append("E: 1.\(String(format: "%06d", n * 1000)) 0003 0035 \(String(format: "%04d", n))\t# EV_ABS / ABS_MT_POSITION_X    \(n)")
            lines.append("E: 1.\(String(format: "%06d", n * 1000)) 0000 0000 0000\t# ------------ SYN_REPORT (0) ---------- +0ms")
        }
        lines.append("E: 0.500000 0000 0000 0000\t# ------------ SYN_REPORT (0) ---------- +0ms")
        let path = try write(lines.map { $0 + "\r\n" }.joined())
        let r = try CLI.run(["stats", path])
        #expect(r.status == 65)
        // "bad.evemu:<its last line>: expected a time at or after 1.039000".
        #expect(lines.count == 93)
        try Golden.expect(r, is: "errors-crlf-evemu-time-backwards")
    }

    @Test func unknownTypeAndCodeNumbersNameTheLineAndTheRange() throws {
        let line = Self.headerLineCount + 2
        try expectBadData(try write(Self.header + "E: 0.000000 0003 0039 0001\nE: 0.000000 0033 0000 0001\n"), line: line,
                          "expected an event type the kernel defines (up to EV_MAX, 0x1f), found type 0x33 in 'E: 0.000000 0033 0000 0001'")
        try expectBadData(try write(Self.header + "E: 0.000000 0003 0039 0001\nE: 0.000000 0003 0fff 0001\n"), line: line,
                          "expected an EV_ABS code up to 0x3f, found code 0xfff in 'E: 0.000000 0003 0fff 0001'")
        try expectBadData(try write(Self.header.replacingOccurrences(of: "A: 39 0 65535 0 0 0", with: "A: 45 0 65535 0 0 0")),
                          line: Self.headerLineCount, "expected an EV_ABS code up to 0x3f, found code 0x45 in 'A: 45 0 65535 0 0 0'")
    }

    @Test func unknownTypeAndCodeNumbersInYAMLNameTheLine() throws {
        try expectBadData(try write(Self.yamlHeader + "    - [0, 1, 40, 0, 1]\n", name: "type.yml"), line: Self.yamlFirstEventLine,
                          "expected an event type the kernel defines (up to EV_MAX, 0x1f), found type 0x28 in [0, 1, 40, 0, 1]")
        try expectBadData(try write(Self.yamlHeader + "    - [0, 1, 3, 99, 1]\n", name: "code.yml"), line: Self.yamlFirstEventLine,
                          "expected an EV_ABS code up to 0x3f, found code 0x63 in [0, 1, 3, 99, 1]")
        let codes = Self.yamlHeader.replacingOccurrences(of: "3: [0, 1, 47, 53, 54, 57]", with: "3: [0, 1, 47, 53, 54, 57, 99]")
        try expectBadData(try write(codes, name: "codes.yml"), line: 10, "expected an EV_ABS code up to 0x3f, found code 0x63 in 'codes:'")
    }

    @Test func aMissingNameOrIDLineSaysWhichLineWasExpected() throws {
        try expectBadData(try write("# EVEMU 1.3\nI: 0018 04f3 3108 0100\nP: 05 00 00 00 00 00 00 00\n"), line: 2,
                          "expected 'N: <device name>', found 'I: 0018 04f3 3108 0100'")
        try expectBadData(try write("# EVEMU 1.3\nN: broken pad\nP: 05 00 00 00 00 00 00 00\n"), line: 3,
                          "expected 'I: <bustype> <vendor> <product> <version>' (hex), found 'P: 05 00 00 00 00 00 00 00'")
        try expectBadData(try write("# EVEMU 1.3\nN: broken pad\n"), line: 3,
                          "expected 'I: <bustype> <vendor> <product> <version>' (hex), found the end of the file")
    }

    @Test func yamlOfAnotherShapeOrVersionIsNotALibinputRecord() throws {
        try expectBadData(try write("- 1\n- 2\n", name: "list.yml"), line: 1,
                          "expected a libinput record file (a YAML mapping with 'version: 1' and 'devices:'), found a list")
        try expectBadData(try write("name: settings\npolicy: 3\n", name: "settings.yml"), line: 3,
                          "expected a libinput record file (a YAML mapping with 'version: 1' and 'devices:'), found the end of a mapping")
        try expectBadData(try write("version: 1\nfoo: [1, 2, 3]\n", name: "nodevices.yml"), line: 3,
                          "expected a 'devices:' list, found the end of a mapping")
        try expectBadData(try write(Self.yamlHeader.replacingOccurrences(of: "version: 1", with: "version: 2")
                                    + "    - [0, 1, 0, 0, 0]\n", name: "v2.yml"), line: 1,
                          "expected libinput record 'version: 1', found 'version: 2'")
    }

    /// Root reads any file whatever its mode, so as root the read is tried as `nobody` (setpriv).
    @Test func anUnreadableRecordingExits77() throws {
        let dir = try CLI.temporaryDirectory()
        let path = dir.appendingPathComponent("secret.evemu").path
        try FileManager.default.copyItem(atPath: CLI.fixture("corpus/touchpad/pinch-out-01.evemu"), toPath: path)
        #expect(chmod(path, 0) == 0)
        for command in [["stats", path], ["replay", path], ["convert", path, "-o", path + ".yml"]] {
            let r = try CLI.runAsUnprivilegedUser(command)
            #expect(r.status == 77, "\(command[0]) exit \(r.status): \(r.stderr)")
            #expect(r.stderr == "pinchlab: \(path): expected a readable file, found Permission denied\n", "\(r.stderr)")
        }
    }

    // MARK: convert never damages its input or leaves a broken output

    @Test func convertRefusesToWriteOverItsInputByAnyPath() throws {
        let dir = try CLI.temporaryDirectory()
        let input = dir.appendingPathComponent("victim.evemu").path
        try FileManager.default.copyItem(atPath: CLI.fixture("corpus/touchpad/pinch-out-01.evemu"), toPath: input)
        let before = try #require(FileManager.default.contents(atPath: input))
        let symlink = dir.appendingPathComponent("link.yml").path
        try FileManager.default.createSymbolicLink(atPath: symlink, withDestinationPath: input)
        let hardLink = dir.appendingPathComponent("hard.evemu").path
        try FileManager.default.linkItem(atPath: input, toPath: hardLink)
        let dirName = dir.lastPathComponent
        // "-o OUTPUT is the input file INPUT (the same file on disk)", each whole.
        var transcript = ""
        for output in [dir.path + "/./victim.evemu", dir.path + "/../\(dirName)/victim.evemu", symlink, hardLink] {
            let r = try Golden.run(["convert", input, "-o", output, "--to", "evemu"], into: &transcript)
            #expect(r.status == 64, "\(output): exit \(r.status): \(r.stderr)")
            #expect(FileManager.default.contents(atPath: input) == before, "the input is unchanged")
        }
        // The .events half of a split recording is an input too.
        let desc = dir.appendingPathComponent("old.desc").path, events = dir.appendingPathComponent("old.events").path
        let text = try String(contentsOfFile: input, encoding: .utf8)
        let firstEvent = try #require(text.range(of: "\nE: "))
        try Data(text[..<firstEvent.lowerBound].utf8 + [0x0A]).write(to: URL(fileURLWithPath: desc))
        try Data(text[text.index(after: firstEvent.lowerBound)...].utf8).write(to: URL(fileURLWithPath: events))
        let eventsBefore = FileManager.default.contents(atPath: events)
        let split = try Golden.run(["convert", desc, "--events", events, "-o", dir.path + "/./old.events", "--to", "evemu"],
                                   into: &transcript)
        #expect(split.status == 64, "\(split.stderr)")
        try Golden.expect(transcript, is: "errors-convert-onto-its-input")
        #expect(FileManager.default.contents(atPath: events) == eventsBefore)
    }

    @Test func aFailedConvertLeavesNoOutputAndAnOldOutputAsItWas() throws {
        let good = Self.header + "E: 0.000000 0003 0039 0001\nE: 0.000000 0000 0000 0000\n"
        let input = try write(good + "E: 0.010000 0003 00zz 0001\n")
        let dir = URL(fileURLWithPath: input).deletingLastPathComponent()
        let output = dir.appendingPathComponent("out.yml").path
        let r = try CLI.run(["convert", input, "-o", output])
        #expect(r.status == 65, "\(r.stderr)")
        // "pinchlab: INPUT:15: expected 'E: <sec>.<usec> <type> <code> <value>'", whole.
        try Golden.expect(r, is: "errors-convert-bad-event-line")
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["bad.evemu"], "no temporary file left")

        try Data("previous\n".utf8).write(to: URL(fileURLWithPath: output))
        #expect(try CLI.run(["convert", input, "-o", output]).status == 65)
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "previous\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["bad.evemu", "out.yml"])
    }

    @Test func convertToStandardOutputWritesInPlace() throws {
        let r = try CLI.run(["convert", CLI.fixture("corpus/touchpad/pinch-out-01.evemu"), "-o", "/dev/stdout", "--to", "libinput"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("# libinput record\nversion: 1\n"))
        #expect(FileManager.default.fileExists(atPath: "/dev/stdout"))
    }

    // MARK: recordings that end inside a frame

    @Test(arguments: [("cut-mid-frame.evemu", 120), ("cut-mid-frame.yml", 50)])
    func statsWarnsAboutAnUnfinishedLastFrameAndLeavesItOut(name: String, synLine: Int) throws {
        let path = CLI.fixture("bad/" + name)
        let warning = "pinchlab: warning: \(path) ends inside a frame after line \(synLine): 6 events after the last SYN_REPORT ignored"
        let human = try CLI.run(["stats", path])
        #expect(human.status == 0, "\(human.stderr)")
        #expect(human.stderr == warning + "\n", "\(human.stderr)")
        // "unfinished  6 events after the last SYN_REPORT, not counted" among the figures.
        try Golden.expect(human, is: "stats-unfinished-frame-" + name.replacingOccurrences(of: ".", with: "-"))
        let json = try CLI.run(["stats", path, "--json"])
        #expect(json.stderr == warning + "\n")
        let stats = try json.json(line: 0)
        #expect(stats["events"] as? Int == 17)
        #expect(stats["frames"] as? Int == 3)
        #expect(stats["trailingPartialFrameEvents"] as? Int == 6)
        #expect(stats["trailingPartialFrameAfterLine"] as? Int == synLine)
        let complete = try CLI.run(["stats", CLI.fixture("corpus/touchpad/pinch-out-01.evemu"), "--json"])
        #expect(try complete.json(line: 0)["trailingPartialFrameEvents"] as? Int == 0)
        #expect(try complete.json(line: 0)["trailingPartialFrameAfterLine"] == nil)
        #expect(complete.stderr.isEmpty)
    }

    @Test func convertKeepsTheEventsOfAnUnfinishedLastFrameAndSaysSo() throws {
        let cut = CLI.fixture("bad/cut-mid-frame.evemu")
        let dir = try CLI.temporaryDirectory()
        let yml = dir.appendingPathComponent("cut.yml").path, back = dir.appendingPathComponent("back.evemu").path
        // Each warning ("... 6 events after the last SYN_REPORT kept") and "wrote 23 events", whole.
        var transcript = ""
        let r = try Golden.run(["convert", cut, "-o", yml], into: &transcript)
        #expect(r.status == 0, "\(r.stderr)")
        try Golden.run(["convert", yml, "-o", back], into: &transcript)
        try Golden.expect(transcript, is: "convert-cut-mid-frame-warnings")
        #expect(FileManager.default.contents(atPath: back) == FileManager.default.contents(atPath: cut), "lossless")
    }

    @Test func emptyFileAndMissingFile() throws {
        let empty = try write("")
        var transcript = ""
        #expect(try Golden.run(["stats", empty], into: &transcript).status == 65)
        let missing = try Golden.run(["replay", "/nonexistent/x.evemu"], into: &transcript)
        #expect(missing.status == 66, "\(missing.stderr)")
        try Golden.expect(transcript, is: "errors-empty-and-missing-recording")
    }

    @Test func aTruncatedLineGivesItsLineNumber() throws {
        let text = Self.header + "E: 0.000000 0003 0039 0001\nE: 0.010000 0000 00"
        let path = try write(text)
        let r = try CLI.run(["stats", path])
        let line = text.split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(r.status == 65)
        #expect(line == 14)
        try Golden.expect(r, is: "errors-truncated-event-line")
    }

    @Test func usageErrorsExit64WithAHint() throws {
        let fixture = CLI.fixture("corpus/touchpad/pinch-out-01.evemu")
        // Each whole: exit status 64 and the hint (the transitions there are, the usage).
        var transcript = ""
        for arguments in [["replay", fixture, "--transition", "spin-dismiss"], ["replay", fixture, "--threshold", "1.5"],
                          ["replay", fixture, "--json", "--summary"], ["convert", fixture, "-o", "x.txt"]] {
            #expect(try Golden.run(arguments, into: &transcript).status == 64, "\(arguments)")
        }
        try Golden.expect(transcript, is: "errors-usage-replay-and-convert")
    }

    @Test func aBadConfigFileIsReported() throws {
        let config = try write("{\"policy\": 3}", name: "bad.json")
        let r = try CLI.run(["replay", CLI.fixture("corpus/touchpad/pinch-out-01.evemu"), "--config", config])
        #expect(r.status == 65)
        try Golden.expect(r, is: "errors-config-policy-not-an-object")
    }

    /// A typo in a hand-edited settings file is reported as a compiler would: file, line, column and
    /// what was expected there, never Foundation's "The given data was not valid JSON.".
    @Test func invalidSettingsJSONNamesLineAndColumn() throws {
        let config = try write("{\n  \"policy\": {\n    \"progressThreshold\": 0.6\n    \"flickVelocity\": 2\n  }\n}\n",
                               name: "comma.json")
        let r = try CLI.run(["replay", CLI.fixture("corpus/touchpad/pinch-out-01.evemu"), "--config", config])
        #expect(r.status == 65)
        #expect(r.stderr == "pinchlab: \(config):4:5: not valid JSON: expected ',' or '}', found '\"'\n", "\(r.stderr)")
        let trailing = try write("{\"completionSpeed\": 2,}", name: "trailing.json")
        let t = try CLI.run(["replay", CLI.fixture("corpus/touchpad/pinch-out-01.evemu"), "--config", trailing])
        #expect(t.status == 65)
        #expect(t.stderr == "pinchlab: \(trailing):1:23: not valid JSON: expected a key in double quotes, found '}'\n", "\(t.stderr)")
    }

    /// Every number has a range, not only the recognizer thresholds: the message names the key, the
    /// value and the range, at the line and column of the key (of its object, for a key left out).
    @Test(arguments: [
        (#"{"touchpadRecognizer": {"minMoveMM": -3}}"#, "at 'touchpadRecognizer': minMoveMM: -3 mm is outside 0...50 mm", "minMoveMM"),
        (#"{"completion": {"curve": {"p1x": 1.5, "p1y": 0, "p2x": 0.5, "p2y": 1}}}"#, "at 'completion.curve': p1x: 1.5 is outside 0...1", "p1x"),
        (#"{"completion": {"spring": {"parameters": {"mass": 1, "stiffness": 100, "damping": -2}}}}"#,
         "at 'completion.spring.parameters': damping: -2 is outside (0, 100000]", "damping"),
        (#"{"completionSpeed": 0}"#, "completionSpeed: 0 is outside 0.05...1000", "completionSpeed"),
        (#"{"animationFrameRateHz": 0.5}"#, "animationFrameRateHz: 0.5 Hz is outside 1...1000 Hz", "animationFrameRateHz"),
        (#"{"policy": {"kind": "hyprland", "cancelRatio": 2}}"#, "at 'policy': cancelRatio: 2 is outside 0...1", "cancelRatio"),
        // One range per key, from the part's table: CompletionPolicy took any flick above 0, GNOME's
        // rule any velocity threshold >= 0, while a file was held to (0, 1000] and 0...100.
        (#"{"policy": {"flickVelocity": 5000}}"#, "at 'policy': flickVelocity: 5000 progress/s is outside (0, 1000] progress/s", "flickVelocity"),
        (#"{"policy": {"kind": "gnome", "touchpad": {"velocityThreshold": 500}}}"#,
         "at 'policy.touchpad': velocityThreshold: 500 units/ms is outside 0...100 units/ms", "velocityThreshold"),
        (#"{"touchscreenRecognizer": {"velocity": {"horizonMS": 20000}}}"#,
         "at 'touchscreenRecognizer.velocity': horizonMS: 20000 ms is outside 0...10000 ms", "horizonMS"),
        (#"{"completionSpeed": "fast"}"#, "wrong type at 'completionSpeed': expected a number, found a string", "completionSpeed"),
        (#"{"touchpadRecognizer": {"panMaximumFingerCount": 2.5}}"#,
         "wrong type at 'touchpadRecognizer.panMaximumFingerCount': expected a whole number, found 2.5", "panMaximumFingerCount"),
        (#"{"completion": {"spring": {"parameters": {"mass": 1, "stiffness": 100}}}}"#,
         "at 'completion.spring.parameters': expected the key 'damping'", "parameters"),
    ])
    func aSettingOutsideItsRangeIsRefused(json: String, message: String, pointedKey: String) throws {
        let config = try write(json, name: "range.json")
        let r = try CLI.run(["replay", CLI.fixture("corpus/touchpad/pinch-out-01.evemu"), "--config", config])
        #expect(r.status == 65)
        let column = try #require(Array(json.utf8).firstRange(of: Array("\"\(pointedKey)\"".utf8))).lowerBound + 1
        #expect(r.stderr == "pinchlab: \(config):1:\(column): \(message)\n", "\(r.stderr)")
    }

    @Test func aMisspeltSettingIsAnErrorNotADefault() throws {
        let config = try write(#"{"policy": {"progressThreshold": 0.5, "flickVelocty": 9}}"#, name: "typo.json")
        let r = try CLI.run(["replay", CLI.fixture("corpus/touchpad/pinch-out-01.evemu"), "--config", config])
        #expect(r.status == 65)
        // "CONFIG: unknown key 'policy.flickVelocty'", then the known keys (flickVelocity among them).
        try Golden.expect(r, is: "errors-config-misspelt-key")
    }

    /// The audit's case: a settings file changing only the threshold must keep the default policy's
    /// projection and flick, so the quick flick still finishes (the seed rule would cancel it).
    @Test func aPartialPolicyKeepsTheDefaultRules() throws {
        let flick = CLI.fixture("corpus/touchpad/pinch-in-quick-flick-01.evemu")
        let config = try write(#"{"policy": {"progressThreshold": 0.5}}"#, name: "partial.json")
        let partial = try CLI.run(["replay", flick, "--config", config, "--summary"])
        #expect(partial.status == 0)
        #expect(try partial.json(line: -1)["outcome"] as? String == "finished")
        let seed = try CLI.run(["replay", flick, "--policy", "seed", "--summary"])
        #expect(try seed.json(line: -1)["outcome"] as? String == "cancelled")
    }

    @Test func devicesInAnEmptyDirectorySaysSoAndAMissingOneFails() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.run(["devices", dir.path])
        #expect(r.status == 0)
        try Golden.expect(r, is: "devices-empty-directory")
        let json = try CLI.run(["devices", dir.path, "--json"])
        #expect((try json.json(line: 0)["devices"] as? [Any])?.isEmpty == true)
        #expect(try CLI.run(["devices", dir.path + "/missing"]).status == 66)
    }
}
