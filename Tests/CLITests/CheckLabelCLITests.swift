import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import GestureLab
import PinchlabTestSupport
import Testing

/// `pinchlab label` and `pinchlab check`: a user's own recordings as a regression suite.
@Suite(.blocking) struct CheckLabelCLITests {
    /// A folder of recordings, as a user would have: copies of some of the corpus's files.
    static func recordingsFolder(_ names: [String]) throws -> URL {
        let dir = try CLI.temporaryDirectory().appendingPathComponent("mine")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for name in names {
            try FileManager.default.copyItem(atPath: CLI.fixture("corpus/" + name),
                                             toPath: dir.appendingPathComponent((name as NSString).lastPathComponent).path)
        }
        return dir
    }

    static let pinches = ["touchpad/pinch-in-slow-finish-01.evemu", "touchpad/pinch-in-slow-finish-02.evemu"]

    /// A 60 ms two-finger tap on a touchpad holds as in libinput (its quick hold begins 40 ms after
    /// the fingers came down; lifting ends it), and the summary says when the fingers came down;
    /// `check` calls it the tap it was: a hold lifted sooner than 180 ms after touching is no hold.
    /// Labels run together on one corpus all land (#42's fourth finding: of 24 `label` runs through
    /// `xargs -P4`, the manifest kept 18 or 19): each reads, changes and writes the manifest under the
    /// corpus's lock. The variant: half of them relabel entries the other half do not touch, at once.
    @Test func labelsRunTogetherAllLand() throws {
        let dir = try CLI.temporaryDirectory()
        let fixture = CLI.fixture("corpus/touchpad/pinch-in-slow-finish-01.evemu")
        for i in 0..<24 { try FileManager.default.copyItem(atPath: fixture, toPath: dir.appendingPathComponent("r\(i).evemu").path) }
        // The first 12 are listed already, as outward pinches.
        let seeded = try CLI.run(["label"] + (0..<12).map { dir.appendingPathComponent("r\($0).evemu").path }
                                 + ["--corpus", dir.path, "--expect", "pinch:2", "--direction", "out"])
        #expect(seeded.status == 0, "\(seeded.stderr)")
        let runs = try (0..<24).map { i in
            try CLI.Running(["label", dir.appendingPathComponent("r\(i).evemu").path, "--corpus", dir.path,
                             "--expect", "pinch:2", "--direction", "in"])
        }
        for run in runs {
            let ended = try run.finish()
            #expect(ended.status == 0, "\(ended.stderr)")
        }
        let manifest = try CorpusFiles.loadManifest(at: CorpusFiles.locate(dir.path))
        #expect(manifest.entries.count == 24)
        #expect(Set(manifest.entries.map(\.file)).count == 24)
        #expect(manifest.entries.allSatisfy { $0.expect.first?.direction == .in }, "every relabel landed too")
    }

    @Test func aTwoFingerTapHoldsAsInLibinputAndChecksAsATap() throws {
        let dir = try Self.recordingsFolder(["touchpad/two-finger-tap-01.evemu"])
        let tap = dir.appendingPathComponent("two-finger-tap-01.evemu").path
        var r = try CLI.run(["replay", tap, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let summary = try r.json(line: r.lines.count - 1)
        let gestures = try #require(summary["gestures"] as? [[String: Any]])
        #expect(gestures.count == 1)
        #expect(gestures.first?["kind"] as? String == "hold" && gestures.first?["ended"] as? String == "ended")
        #expect(gestures.first?["rule"] as? String == "all-lifted")
        let begin = try #require(gestures.first?["begin"] as? Double), down = try #require(gestures.first?["fingersDown"] as? Double)
        #expect(abs(begin - down - 0.040) < 1e-6, "the quick hold's 40 ms")

        r = try CLI.run(["label", tap, "--corpus", dir.path, "--expect", "none"])
        #expect(r.status == 0, "\(r.stderr)")
        r = try CLI.run(["check", dir.path])
        #expect(r.stdout == "1 file: 1 match\n", "\(r.stdout)\(r.stderr)")
        r = try CLI.run(["label", tap, "--corpus", dir.path, "--expect", "hold:2"])
        #expect(r.status == 0, "\(r.stderr)")
        r = try CLI.run(["check", dir.path])
        #expect(r.status == 1)
        #expect(r.lines.first == "two-finger-tap-01.evemu: expected hold 2 fingers; got no gesture", "\(r.stdout)")
    }

    /// The "done when": label a folder from the CLI, check passes; change one label, check
    /// exits 1 naming that file and only that file, and the JUnit report has one failure among N.
    @Test func labelAFolderCheckItThenBreakOneLabel() throws {
        let dir = try Self.recordingsFolder(Self.pinches + ["touchpad/two-finger-scroll-01.evemu", "touchpad/two-finger-tap-01.evemu"])
        let path = { (name: String) in dir.appendingPathComponent(name).path }
        let pinchFiles = ["pinch-in-slow-finish-01.evemu", "pinch-in-slow-finish-02.evemu"].map(path)
        var r = try CLI.run(["label"] + pinchFiles + ["--corpus", dir.path, "--expect", "pinch:2", "--direction", "in",
                             "--outcome", "finish", "--transition", "pinch-dismiss"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.lines.count == 2 && r.lines.allSatisfy { $0.hasPrefix("added ") }, "\(r.stdout)")
        r = try CLI.run(["label", path("two-finger-scroll-01.evemu"), "--corpus", dir.path, "--expect", "pan:2", "--direction", "down"])
        #expect(r.status == 0, "\(r.stderr)")
        r = try CLI.run(["label", path("two-finger-tap-01.evemu"), "--corpus", dir.path, "--expect", "none", "--notes", "2 contacts, < 1 mm"])
        #expect(r.status == 0, "\(r.stderr)")

        let manifest = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("manifest.json"))) as? [String: Any])
        let entries = try #require(manifest["entries"] as? [[String: Any]])
        #expect(entries.map { $0["file"] as? String } == ["pinch-in-slow-finish-01.evemu", "pinch-in-slow-finish-02.evemu",
                                                         "two-finger-scroll-01.evemu", "two-finger-tap-01.evemu"],
                "paths relative to the manifest")
        #expect(entries[2]["transition"] as? String == "pan-dismiss", "a pan's default transition")
        #expect(entries[3]["notes"] as? String == "2 contacts, < 1 mm")

        r = try CLI.run(["check", dir.path])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        // The second pinch finishes 0.085 above the threshold: fragile, not failing.
        #expect(r.stdout == """
            fragile (matching within a small margin of failing):
              pinch-in-slow-finish-02.evemu: the pinch's release decided 0.085 above progressThreshold 0.5, 8.5% of its usual range: past it, would read as pinch 2 fingers in, cancel
            4 files: 4 match (1 fragile)

            """)

        // One label changed: the scroll said to be a pinch.
        r = try CLI.run(["label", path("two-finger-scroll-01.evemu"), "--corpus", dir.path, "--expect", "pinch:2", "--direction", "in",
                         "--outcome", "finish"])
        #expect(r.status == 0 && r.stdout.hasPrefix("updated two-finger-scroll-01.evemu"), "\(r.stdout)\(r.stderr)")
        let junit = dir.appendingPathComponent("report.xml").path
        r = try CLI.run(["check", dir.path, "--junit", junit])
        #expect(r.status == 1)
        #expect(r.lines == ["two-finger-scroll-01.evemu: expected pinch 2 fingers in, finish; got pan 2 fingers down, none",
                           "fragile (matching within a small margin of failing):",
                           "  pinch-in-slow-finish-02.evemu: the pinch's release decided 0.085 above progressThreshold 0.5, 8.5% of its usual range: past it, would read as pinch 2 fingers in, cancel",
                           "4 files: 3 match (1 fragile), 1 mismatch"], "\(r.stdout)")
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.components(separatedBy: "<testcase ").count - 1 == 4)
        #expect(xml.components(separatedBy: "<failure ").count - 1 == 1)
        // JUnit XML fragments.
        #expect(xml.contains("tests=\"4\" failures=\"1\" errors=\"0\" skipped=\"0\""))
        #expect(xml.contains("name=\"two-finger-scroll-01.evemu\">\n      <failure"))
        // The report is well-formed XML.
        let document = try XMLDocument(contentsOf: URL(fileURLWithPath: junit))
        #expect(try document.nodes(forXPath: "//testcase").count == 4)
        #expect(try document.nodes(forXPath: "//testcase/failure").count == 1)

        // --json says the same.
        r = try CLI.run(["check", dir.path, "--json"])
        #expect(r.status == 1)
        let report = try r.json(line: 0)
        #expect(report["files"] as? Int == 4 && report["matched"] as? Int == 3 && report["mismatched"] as? Int == 1)
    }

    /// A file marked as a known mismatch is reported apart (status 0) while it mismatches, and fails
    /// once it matches, naming the marker to remove.
    @Test func knownMismatchesAreStrict() throws {
        let dir = try Self.recordingsFolder(["touchpad/two-finger-scroll-01.evemu"])
        let file = dir.appendingPathComponent("two-finger-scroll-01.evemu").path
        var r = try CLI.run(["label", file, "--corpus", dir.path, "--expect", "pinch:2", "--known-mismatch", "a test's reason"])
        #expect(r.status == 0, "\(r.stderr)")
        r = try CLI.run(["check", dir.path])
        #expect(r.status == 0, "\(r.stdout)")
        // "known mismatches (not failures):", the reason given, "1 file: 0 match, 1 known mismatch".
        try Golden.expect(r, is: "check-known-mismatch")

        r = try CLI.run(["label", file, "--corpus", dir.path, "--expect", "pan:2"])   // keeps the marker
        r = try CLI.run(["check", dir.path])
        #expect(r.status == 1)
        // "two-finger-scroll-01.evemu: matches its label now but is marked as a known mismatch", and
        // the marker to remove ("knownMismatch").
        try Golden.expect(r, is: "check-known-mismatch-that-matches")
        r = try CLI.run(["label", file, "--corpus", dir.path, "--expect", "pan:2", "--known-mismatch", ""])
        r = try CLI.run(["check", dir.path])
        #expect(r.status == 0, "\(r.stdout)")
    }

    /// A recording labelled where it lies, by absolute path, from a manifest somewhere else.
    @Test func absolutePathsAndManifestFiles() throws {
        let recordings = try Self.recordingsFolder(["touchpad/pinch-out-01.evemu"])
        let elsewhere = try CLI.temporaryDirectory().appendingPathComponent("labels.json").path
        let file = recordings.appendingPathComponent("pinch-out-01.evemu").path
        var r = try CLI.run(["label", file, "--corpus", elsewhere, "--expect", "pinch:2", "--direction", "out"])
        #expect(r.status == 0, "\(r.stderr)")
        let text = try String(contentsOfFile: elsewhere, encoding: .utf8)
        #expect(text.contains("pinch-out-01.evemu"))  // the manifest (JSON) names the file
        r = try CLI.run(["check", elsewhere])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        // Written by hand with an absolute path.
        let manual = try CLI.temporaryDirectory().appendingPathComponent("manifest.json")
        try Data("{\"entries\": [{\"file\": \"\(file)\", \"expect\": [{\"kind\": \"pinch\", \"direction\": \"out\"}]}]}".utf8).write(to: manual)
        r = try CLI.run(["check", manual.deletingLastPathComponent().path])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
    }

    /// Hand-written mistakes are named by line and column, entry, key and what was expected, with status 65.
    @Test(arguments: [
        ("{\"entries\": [{\"file\": \"a.evemu\", \"expect\": [{\"kind\": \"pan-down\"}]}]}",
         "entry 1 (a.evemu): key 'expect[0].kind': expected one of pinch, pan, hold, none, found \"pan-down\""),
        ("{\"entries\": [{\"file\": \"a.evemu\", \"expect\": [{\"kind\": \"pan\", \"fingrs\": 2}]}]}",
         "entry 1 (a.evemu): key 'expect[0].fingrs': expected one of the known keys (kind, fingers, direction, outcome), found an unknown key"),
        ("{\"entries\": [{\"file\": \"a.evemu\", \"expect\": [{\"kind\": \"pinch\", \"direction\": \"down\"}]}]}",
         "key 'expect[0].direction': expected a pinch's direction, one of in, out, found \"down\""),
        ("{\"entries\": [{\"file\": \"a.evemu\"}]}", "entry 1 (a.evemu): key 'expect': expected a list of the gestures made"),
        ("{\"entries\": [{\"file\": \"a.evemu\", \"expect\": [{\"kind\": \"pan\", \"fingers\": \"2\"}]}]}",
         "key 'expect[0].fingers': expected a finger count from 1 to 16, found \"2\""),
        ("{\"entries\": [{\"file\": \"a.evemu\", \"transition\": \"zoom\", \"expect\": []}]}",
         "key 'transition': expected one of pinch-dismiss, pan-dismiss, zoom-present, found \"zoom\""),
        ("{\"entries\": [\n{\"file\": \"a.evemu\",, }]}",
         "not JSON: expected a key in double quotes, found ','"),
    ])
    func badManifestsAreNamed(manifest: String, message: String) throws {
        let dir = try CLI.temporaryDirectory()
        try Data(manifest.utf8).write(to: dir.appendingPathComponent("manifest.json"))
        let r = try CLI.run(["check", dir.path])
        #expect(r.status == 65)
        #expect(r.stderr.hasPrefix("pinchlab: \(dir.path)/manifest.json:"), "\(r.stderr)")
        // The message whole (`message` and what follows it; never a DecodingError), one file per case.
        let slug = String(message.prefix(60).map { $0.isLetter || $0.isNumber ? $0 : "-" })
        try Golden.expect(r, is: "errors-bad-manifest-" + slug)
    }

    /// A missing or malformed recording is status 65, named in the output and as a JUnit error;
    /// the other files are still checked. Names from the manifest are escaped in the XML.
    @Test func unreadableRecordingsAndEscaping() throws {
        let dir = try Self.recordingsFolder(["touchpad/pinch-out-01.evemu"])
        let odd = "a&b<c>\"d'.evemu"
        try FileManager.default.copyItem(at: dir.appendingPathComponent("pinch-out-01.evemu"), to: dir.appendingPathComponent(odd))
        try Data("not a recording\n".utf8).write(to: dir.appendingPathComponent("bad.evemu"))
        let manifest = """
            {"entries": [
              {"file": "bad.evemu", "expect": [{"kind": "none"}]},
              {"file": "missing.evemu", "expect": [{"kind": "none"}]},
              {"file": "a&b<c>\\"d'.evemu", "expect": [{"kind": "pan", "fingers": 2}]}
            ]}
            """
        try Data(manifest.utf8).write(to: dir.appendingPathComponent("manifest.json"))
        let junit = dir.appendingPathComponent("r.xml").path
        let r = try CLI.run(["check", dir.path, "--junit", junit])
        #expect(r.status == 65)
        // bad.evemu and missing.evemu "cannot be replayed", the odd name's mismatch, "3 files: 0
        // match, 1 mismatch, 2 unreadable".
        try Golden.expect(r, is: "check-unreadable-recordings")
        let document = try XMLDocument(contentsOf: URL(fileURLWithPath: junit))
        #expect(try document.nodes(forXPath: "//testcase/error").count == 2)
        let names = try document.nodes(forXPath: "//testcase/@name").compactMap(\.stringValue)
        #expect(names.contains(odd))
    }

    /// --from-replay proposes what pinchlab saw and writes nothing without --yes.
    @Test func fromReplayProposesAndWritesOnlyWithYes() throws {
        let dir = try Self.recordingsFolder(["touchscreen/pinch-in-slow-finish-01.evemu"])
        let file = dir.appendingPathComponent("pinch-in-slow-finish-01.evemu").path
        var r = try CLI.run(["label", "--from-replay", file, "--corpus", dir.path])
        #expect(r.status == 0, "\(r.stderr)")
        // "pinch 2 fingers in, finish" and the command that writes it ("--expect pinch:2 --direction in --outcome finish").
        try Golden.expect(r, is: "label-from-replay-touchscreen-slow-finish")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("manifest.json").path))
        r = try CLI.run(["label", "--from-replay", file, "--corpus", dir.path, "--yes"])
        #expect(r.status == 0, "\(r.stderr)")
        r = try CLI.run(["check", dir.path])
        #expect(r.status == 0 && r.stdout == "1 file: 1 match\n", "\(r.stdout)")
    }

    /// --evidence prints the recording's own numbers.
    @Test func evidencePrintsContactsInMillimetres() throws {
        let r = try CLI.run(["label", "--evidence", CLI.fixture("corpus/touchpad/two-finger-scroll-01.evemu")])
        #expect(r.status == 0, "\(r.stderr)")
        // "at most 2 fingers at once", "two contacts down together:", each contact in mm.
        try Golden.expect(r, is: "label-evidence-two-finger-scroll")
    }

    @Test func usageMistakes() throws {
        // Each whole: three usage errors (64), then a missing corpus (66).
        var transcript = ""
        for arguments in [["label", "x.evemu", "--corpus", "/tmp/x", "--expect", "pinch:2", "--direction", "down"],
                          ["label", "x.evemu", "--corpus", "/tmp/x", "--expect", "pinch:2", "--expect", "pan:2", "--outcome", "finish"],
                          ["label", "x.evemu", "--expect", "pinch:2"]] {
            #expect(try Golden.run(arguments, into: &transcript).status == 64, "\(arguments)")
        }
        #expect(try Golden.run(["check", "/nonexistent/corpus"], into: &transcript).status == 66)
        try Golden.expect(transcript, is: "errors-label-usage")
    }
}
