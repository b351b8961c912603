import Foundation
import Testing
import PinchlabTestSupport

/// Absurd device descriptions and events that contradict them, made by editing a corpus
/// recording (in both formats) the way a fuzzer or a careless hand does: what no device can have
/// is status 65 at the axis's line with nothing written; what can still be read is read with a
/// warning that names the line and what pinchlab did.
@Suite(.blocking) struct DescriptionCLITests {
    static let fixture = "corpus/touchpad/pinch-in-slow-finish-01.evemu"
    /// The fixture's lines: `A: 2f 0 3 0 0 0` is line 119, `A: 35 0 1200 0 0 12` line 120, the
    /// first event line 127.
    static let slotLine = 119, positionXLine = 120

    static func fixtureLines() throws -> [String] {
        try String(contentsOfFile: CLI.fixture(fixture), encoding: .utf8).components(separatedBy: "\n")
    }

    /// The fixture with `edit` applied to its lines, written to a fresh file.
    static func edited(_ name: String = "edited.evemu", _ edit: (inout [String]) -> Void) throws -> String {
        var lines = try fixtureLines()
        edit(&lines)
        let path = try CLI.temporaryDirectory().appendingPathComponent(name).path
        try lines.joined(separator: "\n").write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    /// The fixture converted to libinput record YAML, with `edit` applied to its text.
    static func editedYAML(_ edit: (String) -> String) throws -> String {
        let directory = try CLI.temporaryDirectory()
        let yaml = directory.appendingPathComponent("fixture.yml").path
        let converted = try CLI.run(["convert", CLI.fixture(fixture), "-o", yaml])
        #expect(converted.status == 0, "\(converted.stderr)")
        let path = directory.appendingPathComponent("edited.yml").path
        try edit(try String(contentsOfFile: yaml, encoding: .utf8)).write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    static func lineNumber(of prefix: String, in path: String) throws -> Int {
        try lineNumber(in: path) { $0.hasPrefix(prefix) }
    }

    static func lineNumber(in path: String, where matches: (String) -> Bool) throws -> Int {
        let lines = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n")
        let index = lines.firstIndex(where: matches)
        return try #require(index) + 1
    }

    /// Every reading command refuses the file with status 65, names the line and what a device has,
    /// prints nothing on stdout and leaves no output behind; the four outputs are the golden file `golden`.
    func expectRefused(_ path: String, line: Int, saying hint: String, golden: String) throws {
        let output = path + ".converted.yml"
        var transcript = ""
        for command in [["stats", path], ["replay", path, "--summary"], ["convert", path, "-o", output], ["plot", path, "-o", path + ".svg"]] {
            let r = try Golden.run(command, into: &transcript)
            #expect(r.status == 65, "\(command[0]): \(r.status) \(r.stderr)")
            #expect(r.stderr.hasPrefix("pinchlab: \(path):\(line): expected "), "\(command[0]): \(r.stderr)")
            #expect(r.stderr.contains(hint), "\(command[0]): \(r.stderr)")
            #expect(r.stdout.isEmpty, "\(command[0]): \(r.stdout)")
        }
        try Golden.expect(transcript, is: golden)
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(!FileManager.default.fileExists(atPath: path + ".svg"))
    }

    @Test func aSlotAxisOfTwoBillionSlotsIsRefusedAtItsLine() throws {
        let path = try Self.edited { $0[Self.slotLine - 1] = "A: 2f 0 2147483647 0 0 0" }
        try expectRefused(path, line: Self.slotLine,
                          saying: "ABS_MT_SLOT with at most 1024 slots (the kernel's limit), maximum at or above minimum and 0, found 2147483648 slots",
                          golden: "errors-description-two-billion-slots")
    }

    @Test func theKernelsSlotLimitItselfIsRead() throws {
        let path = try Self.edited { $0[Self.slotLine - 1] = "A: 2f 0 1023 0 0 0" }
        let r = try CLI.run(["replay", path, "--summary"])
        #expect(r.status == 0, "\(r.stderr)")
        let summary = try r.json(line: -1)
        #expect((summary["device"] as? [String: Any])?["slots"] as? Int == 1024)
        #expect(summary["outcome"] as? String == "finished", "the same pinch as with 4 slots")
    }

    @Test func aPositionAxisWithItsMinimumAboveItsMaximumIsRefused() throws {
        let path = try Self.edited { $0[Self.positionXLine - 1] = "A: 35 1200 0 0 0 12" }
        try expectRefused(path, line: Self.positionXLine,
                          saying: "ABS_MT_POSITION_X with a position axis whose maximum is above its minimum, found minimum 1200, maximum 0",
                          golden: "errors-description-position-minimum-above-maximum")
    }

    @Test func aSlotAxisInYAMLIsRefusedAtItsLine() throws {
        let path = try Self.editedYAML { $0.replacingOccurrences(of: "47: [0, 3, 0, 0, 0]", with: "47: [0, 2147483647, 0, 0, 0]") }
        let line = try Self.lineNumber(of: "      47: [0, 2147483647", in: path)
        try expectRefused(path, line: line, saying: "found 2147483648 slots", golden: "errors-description-two-billion-slots-yaml")
    }

    /// A range whose width overflows 32 bits, at a resolution making the surface 358 km wide: read
    /// as a device that gave no resolution (libinput's 69 x 50 mm), with a warning; no trap.
    @Test(arguments: ["evemu", "yaml"])
    func anOverflowingRangeKilometresWideIsReadAsEstimatedWithAWarning(format: String) throws {
        let path: String
        let line: Int
        if format == "evemu" {
            path = try Self.edited { $0[Self.positionXLine - 1] = "A: 35 -2147483648 2147483647 0 0 12" }
            line = Self.positionXLine
        } else {
            path = try Self.editedYAML { $0.replacingOccurrences(of: "53: [0, 1200, 0, 0, 12]", with: "53: [-2147483648, 2147483647, 0, 0, 12]") }
            line = try Self.lineNumber(of: "      53: [-2147483648", in: path)
        }
        let r = try CLI.run(["replay", path, "--summary"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr == "pinchlab: warning: \(path):\(line): ABS_MT_POSITION_X: resolution 12 units/mm, a surface 357.9 km across "
            + "(expected a resolution giving a surface from 1 mm to 10 m); read as if the device gave no resolution (size estimated)\n",
            "\(r.stderr)")
        let device = try #require(try r.json(line: -1)["device"] as? [String: Any])
        #expect(device["resolutionEstimated"] as? Bool == true)
        #expect(device["widthMM"] as? Double == 69)
    }

    @Test func aNegativeResolutionIsReadAsNoneWithAWarning() throws {
        let path = try Self.edited { $0[Self.positionXLine - 1] = "A: 35 0 1200 0 0 -12" }
        let r = try CLI.run(["stats", path])
        #expect(r.status == 0, "\(r.stderr)")
        // "pinchlab: warning: PATH:LINE: ABS_MT_POSITION_X: resolution -12 ... (expected a resolution
        // of 0 or more); read as 0 (not said)", and the figures.
        try Golden.expect(r, is: "stats-negative-resolution")
    }

    /// The silent wrong answer: events use slots the description does not have. Said once,
    /// with the first line and the count; the events are ignored as libevdev ignores them.
    @Test func slotEventsOnADescriptionWithoutASlotAxisAreWarnedAboutOnce() throws {
        let path = try Self.edited { lines in
            lines.removeAll { $0.hasPrefix("A: 2f") }
            lines = lines.map { $0 == "B: 03 03 00 00 01 00 80 60 06" ? "B: 03 03 00 00 01 00 00 60 06" : $0 }
        }
        let firstSlotLine = try Self.lineNumber(in: path) { $0.hasPrefix("E: ") && $0.contains(" 0003 002f ") }  // the recording's line
        let warning = "pinchlab: warning: \(path):\(firstSlotLine): ABS_MT_SLOT (value 1), but the description has no "
            + "ABS_MT_SLOT axis (135 events for axes it lacks); "
        for command in [["replay", path, "--summary"], ["stats", path]] {
            let r = try CLI.run(command)
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stderr == warning + "ignored, as libevdev discards events for codes a device does not have\n", "\(command[0]): \(r.stderr)")
        }
        let converted = try CLI.run(["convert", path, "-o", path + ".yml"])
        #expect(converted.status == 0)
        // The same warning ending "written as read", then what was written.
        try Golden.expect(converted, is: "convert-slot-events-without-a-slot-axis")
    }

    @Test func aSlotBeyondTheSlotAxisIsWarnedAboutWithItsLine() throws {
        var line = 0
        let path = try Self.edited { lines in
            let index = lines.firstIndex { $0.hasPrefix("E: ") && $0.contains(" 0003 002f 0001") }!  // the recording's line
            lines[index] = lines[index].replacingOccurrences(of: " 0003 002f 0001", with: " 0003 002f 1000")
            line = index + 1
        }
        let r = try CLI.run(["replay", path, "--summary"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr == "pinchlab: warning: \(path):\(line): ABS_MT_SLOT (value 1000), beyond the description's slot axis (0...3) "
            + "(1 event); that slot's events are ignored until a slot on the axis is selected\n", "\(r.stderr)")
    }

    /// No tracking ids in the description: libevdev would never pass one on, so neither does
    /// pinchlab, and the user is told why nothing was recognized.
    @Test func trackingIDsOnADeviceWithoutThemAreWarnedAboutAndIgnored() throws {
        let path = try Self.edited { lines in
            lines.removeAll { $0.hasPrefix("A: 39") }
            lines = lines.map { $0 == "B: 03 03 00 00 01 00 80 60 06" ? "B: 03 03 00 00 01 00 80 60 04" : $0 }
        }
        let firstLine = try Self.lineNumber(in: path) { $0.hasPrefix("E: ") && $0.contains(" 0003 0039 ") }  // the recording's line
        let r = try CLI.run(["replay", path, "--summary"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr == "pinchlab: warning: \(path):\(firstLine): ABS_MT_TRACKING_ID (value 226), but the description has no "
            + "ABS_MT_TRACKING_ID axis (4 events); ignored, as libevdev discards events for codes a device does not have\n", "\(r.stderr)")
        #expect(try r.json(line: -1)["outcome"] as? String == "none")
    }

    /// Every recording of the corpus and of ../shared/recordings reads without a description
    /// warning (`stats`): the limits are far from any real device. Events are another matter: six legacy
    /// Synaptics recordings send positions outside the ranges they declare, each said once, and a
    /// 2012 ELAN touchscreen sends an axis (0x1d) its description lacks: every file's stderr is in
    /// the golden file, so a new warning, or one said twice, shows there.

    @Test func theCorpusIsWarnedAboutOnlyWhatItSends() throws {
        let paths = try FileManager.default.subpathsOfDirectory(atPath: CLI.fixture("corpus"))
            .filter { $0.hasSuffix(".evemu") || $0.hasSuffix(".yml") }.map { CLI.fixture("corpus/" + $0) }
        #expect(paths.count >= 47)
        try Self.expectWarnedAboutOnlyWhatTheySend(paths, golden: "stats-warnings-corpus")
    }

    @Test(.needs(.sharedRecordings)) func realRecordingsAreWarnedAboutOnlyWhatTheySend() throws {
        let shared = Prerequisite.sharedRecordingsDirectory.path
        let paths = try FileManager.default.contentsOfDirectory(atPath: shared)
            .filter { $0.hasSuffix(".evemu") || $0.hasSuffix(".yml") }.map { shared + "/" + $0 }
        #expect(paths.count >= 42)
        try Self.expectWarnedAboutOnlyWhatTheySend(paths, golden: "stats-warnings-shared-recordings")
    }

    /// Each file's `stats` stderr, in the order of the paths' names, is the golden file `golden`.
    static func expectWarnedAboutOnlyWhatTheySend(_ paths: [String], golden: String) throws {
        var stderr = ""
        for path in paths.sorted() {
            let r = try CLI.run(["stats", path])
            #expect(r.status == 0, "\(path): \(r.stderr)")
            stderr += "$ pinchlab stats \(path)\n" + r.stderr
        }
        try Golden.expect(Golden.normalise(stderr, [Prerequisite.sharedRecordingsDirectory.path: "$SHARED"]), is: golden)
    }
}
