import Foundation
import PinchlabTestSupport
import Testing

/// An old split evemu recording (`.desc` + `.events`): each half read alone says how to read the
/// pair (naming the other half when it lies beside it), and `label` and `check` take the pair.
@Suite(.blocking) struct SplitRecordingCLITests {
    /// The halves of a corpus pinch, in a fresh directory: `bug.desc` and `bug.events`.
    static func split() throws -> (desc: String, events: String) {
        let dir = try CLI.temporaryDirectory()
        let text = try String(contentsOfFile: CLI.fixture("corpus/touchpad/pinch-out-01.evemu"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let desc = dir.appendingPathComponent("bug.desc").path, events = dir.appendingPathComponent("bug.events").path
        try (lines.filter { !$0.hasPrefix("E:") }.joined(separator: "\n")).write(toFile: desc, atomically: true, encoding: .utf8)
        try (lines.filter { $0.hasPrefix("E:") }.joined(separator: "\n") + "\n").write(toFile: events, atomically: true, encoding: .utf8)
        return (desc, events)
    }

    @Test func theDescHalfAloneGetsAHintNamingEventsAndItsOtherHalf() throws {
        let (desc, events) = try Self.split()
        let r = try CLI.run(["replay", desc])
        #expect(r.status == 0)
        #expect(r.stderr == "pinchlab: warning: \(desc) holds a device description and no events: the .desc half of a split evemu "
                + "recording? Give its events with --events \(events) (it lies beside it)\n")
        try FileManager.default.removeItem(atPath: events)
        let alone = try CLI.run(["stats", desc])
        #expect(alone.stderr == "pinchlab: warning: \(desc) holds a device description and no events: the .desc half of a split evemu "
                + "recording? Give its events with --events FILE.events\n", "\(alone.stderr)")
        let paired = try CLI.run(["stats", CLI.fixture("corpus/touchpad/pinch-out-01.evemu")])
        #expect(paired.stderr.isEmpty)
    }

    @Test func theEventsHalfAloneIsAnErrorThatNamesTheDescHalf() throws {
        let (desc, events) = try Self.split()
        let r = try CLI.run(["replay", events])
        #expect(r.status == 65)
        #expect(r.stderr.hasPrefix("pinchlab: \(events):1: expected 'N: <device name>', found 'E: "), "\(r.stderr)")
        #expect(r.stderr.hasSuffix(". It begins with events: the .events half of a split evemu recording? Give the .desc half as "
                                   + "the recording and this one with --events: pinchlab replay \(desc) --events \(events) "
                                   + "(\(desc) lies beside it)\n"), "\(r.stderr)")
    }

    @Test func labelAndCheckTakeThePair() throws {
        let (desc, events) = try Self.split()
        let corpus = URL(fileURLWithPath: desc).deletingLastPathComponent().appendingPathComponent("corpus").path
        let label = try CLI.run(["label", desc, "--events", events, "--corpus", corpus, "--expect", "pinch:2", "--direction", "out"])
        #expect(label.status == 0, "\(label.stderr)")
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: corpus + "/manifest.json")))
                                    as? [String: Any])
        let entry = try #require((manifest["entries"] as? [[String: Any]])?.first)
        #expect(entry["file"] as? String == "../bug.desc" && entry["events"] as? String == "../bug.events", "\(entry)")
        let check = try CLI.run(["check", corpus])
        #expect(check.status == 0 && check.stdout == "1 file: 1 match\n", "\(check.stdout)\(check.stderr)")

        let two = try CLI.run(["label", desc, events, "--events", events, "--corpus", corpus, "--expect", "pinch:2"])
        #expect(two.status == 64, "\(two.stderr)")
        try Golden.expect(two, is: "errors-label-events-with-two-files")
        let withoutEvents = try CLI.run(["label", desc, "--corpus", corpus + "-2", "--expect", "pinch:2"])
        #expect(withoutEvents.status == 0, "a description alone is a recording (of no gesture): \(withoutEvents.stderr)")
        try Golden.expect(withoutEvents, is: "label-desc-without-events")
    }

    /// The `.events` half is an input of `check` and `tune` as much as the `.desc` half: neither
    /// `--junit` nor `--write` may be written over it (both did, and exited 1 and 0).
    @Test func checkAndTuneNeverWriteOverTheEventsHalf() throws {
        let (desc, events) = try Self.split()
        let corpus = URL(fileURLWithPath: desc).deletingLastPathComponent().appendingPathComponent("corpus").path
        let label = try CLI.run(["label", desc, "--events", events, "--corpus", corpus, "--expect", "pinch:2", "--direction", "out"])
        #expect(label.status == 0, "\(label.stderr)")
        let before = try Data(contentsOf: URL(fileURLWithPath: events))
        // Both refusals whole: "... is the input file ...".
        var transcript = ""
        let check = try Golden.run(["check", corpus, "--junit", events], into: &transcript)
        #expect(check.status == 64, "\(check.stderr)")
        let tune = try Golden.run(["tune", corpus, "--budget", "2", "--write", events], into: &transcript)
        #expect(tune.status == 64, "\(tune.stderr)")
        try Golden.expect(transcript, is: "errors-check-and-tune-onto-the-events-half")
        #expect(try Data(contentsOf: URL(fileURLWithPath: events)) == before, "the events half is untouched")
    }
}
