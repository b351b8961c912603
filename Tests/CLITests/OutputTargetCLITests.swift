import CEvemu
import Foundation
import PinchlabTestSupport
import Testing

/// Outputs and the run's inputs (issue 27): no output is written over an input by any path, and
/// every output is staged and renamed into place, through a symbolic link onto its target.
@Suite(.blocking) struct OutputTargetCLITests {
    static let recording = CLI.fixture("corpus/touchpad/pinch-in-slow-finish-01.evemu")

    static func copyOfCorpus() throws -> URL {
        let corpus = try CLI.temporaryDirectory().appendingPathComponent("corpus")
        try FileManager.default.copyItem(atPath: CLI.fixture("corpus"), toPath: corpus.path)
        return corpus
    }

    // MARK: Outputs over inputs

    /// `check DIR --junit DIR/manifest.json` replaced the manifest with JUnit XML; pointed at a
    /// listed recording (here through a symbolic link) it overwrote it and exited 0.
    @Test func checkRefusesAJUnitReportOverItsManifestOrARecording() throws {
        let corpus = try Self.copyOfCorpus()
        let manifest = corpus.appendingPathComponent("manifest.json")
        let recording = corpus.appendingPathComponent("touchpad/pinch-out-01.evemu")
        let link = corpus.deletingLastPathComponent().appendingPathComponent("report.xml")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: recording.path)
        let before = try [manifest, recording].map { try Data(contentsOf: $0) }
        // Each refusal whole: "--junit JUNIT is the input file ...".
        var transcript = ""
        for junit in [manifest.path, link.path] {
            let r = try Golden.run(["check", corpus.path, "--junit", junit], into: &transcript)
            #expect(r.status == 64, "\(junit): \(r.stderr)")
        }
        try Golden.expect(transcript, is: "errors-check-junit-onto-an-input")
        #expect(try [manifest, recording].map { try Data(contentsOf: $0) } == before)
    }

    /// The settings file is an input too: `plot`/`view -o` may not name it.
    @Test func plotAndViewRefuseToWriteOverTheSettingsFile() throws {
        let config = try CLI.temporaryDirectory().appendingPathComponent("settings.json").path
        try Data(#"{"completionSpeed": 2}"#.utf8).write(to: URL(fileURLWithPath: config))
        // Each refusal whole: "-o CONFIG is the input file CONFIG ...".
        var transcript = ""
        for command in ["plot", "view"] {
            let r = try Golden.run([command, Self.recording, "--config", config, "-o", config], into: &transcript)
            #expect(r.status == 64, "\(command): \(r.stderr)")
        }
        try Golden.expect(transcript, is: "errors-plot-and-view-onto-the-settings-file")
        #expect(try String(contentsOfFile: config, encoding: .utf8) == #"{"completionSpeed": 2}"#)
    }

    /// `label` writes the manifest `--corpus` names: never over a recording it labels.
    @Test func labelRefusesAManifestThatIsARecording() throws {
        let dir = try CLI.temporaryDirectory()
        let recording = dir.appendingPathComponent("pinch.evemu").path
        try FileManager.default.copyItem(atPath: Self.recording, toPath: recording)
        let before = try Data(contentsOf: URL(fileURLWithPath: recording))
        let r = try CLI.run(["label", recording, "--corpus", recording, "--expect", "none"])
        #expect(r.status == 64, "\(r.stderr)")
        try Golden.expect(r, is: "errors-label-corpus-onto-a-recording")
        #expect(try Data(contentsOf: URL(fileURLWithPath: recording)) == before)
    }

    // MARK: Symbolic links

    /// A directory holding `target.yml` (an older file) and `link.yml -> target.yml`.
    static func linkToAnOlderFile() throws -> (directory: URL, link: String, target: String) {
        let directory = try CLI.temporaryDirectory()
        let target = directory.appendingPathComponent("target.yml").path
        try Data("an older file\n".utf8).write(to: URL(fileURLWithPath: target))
        let link = directory.appendingPathComponent("link.yml").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "target.yml")
        return (directory, link, target)
    }

    static func isLink(_ path: String) -> Bool {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil
    }

    /// A recording that turns bad at line 2001: convert reads 2000 lines before it fails.
    static func badAtLine2001() throws -> String {
        var lines = try String(contentsOfFile: CLI.fixture("sessions/touchscreen-session.evemu"), encoding: .utf8)
            .components(separatedBy: "\n")
        lines = lines + lines.filter { $0.hasPrefix("E: ") }.prefix(1200).map { _ in "# padding" }
        lines.insert("E: not a time", at: 2000)
        let path = try CLI.temporaryDirectory().appendingPathComponent("bad-at-line-2001.evemu").path
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Through a symbolic link, a failing convert left the target half written (162 KB) and exited
    /// 65; now the target is untouched and the link still a link. A good convert replaces the
    /// target whole, through the link.
    @Test func convertThroughASymbolicLinkIsAllOrNothingOnTheTarget() throws {
        let (directory, link, target) = try Self.linkToAnOlderFile()
        let bad = try Self.badAtLine2001()
        let failed = try CLI.run(["convert", bad, "-o", link])
        #expect(failed.status == 65, "\(failed.stderr)")
        try Golden.expect(failed, is: "errors-convert-through-a-link-bad-at-line-2001")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "an older file\n")
        #expect(Self.isLink(link))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["link.yml", "target.yml"])

        let converted = try CLI.run(["convert", Self.recording, "-o", link])
        #expect(converted.status == 0, "\(converted.stderr)")
        #expect(Self.isLink(link), "the link stays a link")
        let stats = try CLI.run(["stats", target, "--json"])
        #expect(stats.status == 0, "\(stats.stderr)")
        #expect(try stats.json(line: 0)["events"] as? Int ?? 0 > 100)
    }

    /// SIGTERM while stdin stalls: "nothing was written" is true of the link's target too.
    @Test func anInterruptedConvertLeavesALinksTargetUntouched() throws {
        let (directory, link, target) = try Self.linkToAnOlderFile()
        let pipe = Pipe()
        let running = try CLI.Running(["convert", "-", "-o", link], standardInput: pipe)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Self.recording))
        try pipe.fileHandleForWriting.write(contentsOf: bytes.prefix(bytes.count / 2))
        #expect(CLI.waitFor(20) {
            ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).contains { $0.hasPrefix(".target.yml.pinchlab-") }
        }, "staged beside the target")
        kill(running.process.processIdentifier, SIGTERM)
        let r = try running.finish()
        try? pipe.fileHandleForWriting.close()
        #expect(r.status == 130, "\(r.stderr)")
        #expect(r.stderr == "pinchlab: interrupted; nothing was written\n", "\(r.stderr)")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "an older file\n")
        #expect(Self.isLink(link))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["link.yml", "target.yml"])
    }

    /// plot, view, check --junit and tune --write write through a link onto its target, whole.
    @Test func everyOutputWritesThroughALinkOntoItsTarget() throws {
        let cases: [(arguments: (String) -> [String], starts: String)] = [
            ({ ["plot", Self.recording, "-o", $0] }, "<?xml"),
            ({ ["view", Self.recording, "-o", $0] }, "<!DOCTYPE html>"),
            ({ ["check", CLI.fixture("corpus"), "--junit", $0] }, "<?xml"),
        ]
        for (arguments, starts) in cases {
            let (_, link, target) = try Self.linkToAnOlderFile()
            let r = try CLI.run(arguments(link))
            #expect(r.status == 0, "\(arguments(link)): \(r.stderr)")
            #expect(Self.isLink(link), "\(arguments(link)): the link stays a link")
            #expect(try String(contentsOfFile: target, encoding: .utf8).hasPrefix(starts), "\(arguments(link))")
        }
    }

    // MARK: convert and libevemu

    /// A `libinput record` whose device lists ABS_Y with no absinfo: converted to evemu it was
    /// `A: 01 0 0 0 0 0`, a position axis with an empty range that pinchlab then refused (65)
    /// while libevemu read it. Now the axis keeps its bit and gets no `A:` line: pinchlab reads
    /// the file back as it read the YAML (the axis listed with no range, a warning), libevemu
    /// reads it with the same codes and events, and evemu -> YAML -> evemu gives the same bytes.
    @Test func convertWritesOnlyWhatItsOwnReaderAndLibevemuBothRead() throws {
        let yaml = try CLI.temporaryDirectory().appendingPathComponent("unranged.yml").path
        let converted = try CLI.run(["convert", Self.recording, "-o", yaml])
        #expect(converted.status == 0, "\(converted.stderr)")
        var text = try String(contentsOfFile: yaml, encoding: .utf8)
        // Drop ABS_Y's absinfo entry (ABS_Y stays listed in the codes).
        let absinfoSection = try #require(text.range(of: "absinfo:"))
        let absinfo = try #require(text.range(of: "\n      1: [", range: absinfoSection.upperBound..<text.endIndex))
        let lineEnd = try #require(text[absinfo.upperBound...].firstIndex(of: "\n"))
        text.removeSubrange(absinfo.lowerBound..<lineEnd)
        try text.write(toFile: yaml, atomically: true, encoding: .utf8)
        let yamlStats = try CLI.run(["stats", yaml])
        #expect(yamlStats.status == 0, "\(yamlStats.stderr)")
        try Golden.expect(yamlStats, is: "stats-yaml-axis-without-a-range")

        let evemu = try CLI.temporaryDirectory().appendingPathComponent("unranged.evemu").path
        let toEvemu = try CLI.run(["convert", yaml, "-o", evemu])
        #expect(toEvemu.status == 0, "\(toEvemu.stderr)")
        let evemuText = try String(contentsOfFile: evemu, encoding: .utf8)
        #expect(!evemuText.contains("\nA: 01 "), "no range is written as none")  // the evemu file's lines
        let evemuStats = try CLI.run(["stats", evemu])
        #expect(evemuStats.status == 0, "pinchlab reads what it wrote: \(evemuStats.stderr)")
        try Golden.expect(evemuStats, is: "stats-evemu-axis-without-a-range")

        // libevemu reads the file too (evemu_read succeeds): ABS_Y listed, the ranged axes with
        // their ranges, every event. (It gives the axis without an `A:` line a range of its own
        // choosing, 0 to 1; pinchlab says it has none, as the YAML said.)
        let libevemu = try RecordCLITests.libevemuRead(evemu)
        #expect(libevemu.readStatus > 0)
        #expect(libevemu.codes[.abs]?.contains(.absY) == true)
        let file = try #require(fopen(evemu, "r"))
        defer { fclose(file) }
        let device = try #require(evemu_new(nil))
        defer { evemu_delete(device) }
        #expect(evemu_read(device, file) > 0)
        #expect(evemu_get_abs_maximum(device, Int32(ABS_X)) > 0, "the ranged axes keep their ranges")
        let original = try RecordCLITests.libevemuRead(Self.recording)
        #expect(libevemu.events == original.events)

        // And back: evemu -> YAML -> evemu gives the same bytes.
        let back = try CLI.temporaryDirectory().appendingPathComponent("back.yml").path
        let again = try CLI.temporaryDirectory().appendingPathComponent("again.evemu").path
        #expect(try CLI.run(["convert", evemu, "-o", back]).status == 0)
        #expect(try CLI.run(["convert", back, "-o", again]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: again)) == Data(contentsOf: URL(fileURLWithPath: evemu)))
    }
}
