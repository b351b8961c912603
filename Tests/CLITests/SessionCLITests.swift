import Foundation
import PinchlabTestSupport
import Testing

/// A committed multi-gesture recording (`Fixtures/sessions/touchscreen-session.evemu`: six corpus
/// recipes, 2.5 s idle between them) replayed from the command line: every attempt is indexed,
/// counted and listed.
@Suite(.blocking) struct SessionCLITests {
    static let session = CLI.fixture("sessions/touchscreen-session.evemu")

    /// The fixture is what the project's generator writes today, byte for byte.
    @Test func theCommittedSessionIsWhatTheGeneratorWrites() throws {
        let dir = try CLI.temporaryDirectory()
        let out = dir.appendingPathComponent("sessions/s.evemu").path
        let r = try CLI.run(["generate-corpus", dir.appendingPathComponent("corpus").path, "--session", out])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == Data(contentsOf: URL(fileURLWithPath: Self.session)),
                "regenerate: pinchlab generate-corpus /tmp/corpus --session Fixtures/sessions/touchscreen-session.evemu")
    }

    @Test func everyJSONLineNamesItsAttemptAndGesture() throws {
        let r = try CLI.run(["replay", Self.session, "--transition", "pan-dismiss", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = try r.lines.indices.map { try r.json(line: $0) }
        let summary = try #require(lines.last)
        let trials = try #require(summary["trials"] as? [[String: Any]])
        let gestures = try #require(summary["gestures"] as? [[String: Any]])
        #expect(trials.count == 4 && gestures.count == 5)
        #expect(summary["outcomes"] as? [String: Int] == ["finished": 2, "cancelled": 2])
        #expect(summary["outcome"] as? String == "cancelled", "the first attempt's, for compatibility")
        // The attempts are the four pans; the pinch (gesture 3) drives no pan-dismiss.
        #expect(trials.compactMap { $0["gesture"] as? Int } == [0, 1, 2, 4])
        #expect(trials.compactMap { $0["outcome"] as? String } == ["cancelled", "finished", "cancelled", "finished"])
        #expect(gestures.compactMap { $0["kind"] as? String } == ["pan", "pan", "pan", "pinch", "pan"])

        var transitionLines = 0, gestureLines = 0
        for line in lines.dropLast() {
            let time = try #require(line["time"] as? Double)
            switch line["type"] as? String {
            case "transition":
                let index = try #require(line["trial"] as? Int, "a transition line without its trial: \(line)")
                let trial = try #require(trials.indices.contains(index) ? trials[index] : nil)
                let begin = try #require(trial["begin"] as? Double), end = try #require(trial["end"] as? Double)
                #expect(time >= begin - 1e-6 && time <= end + 1e-6, "transition line at \(time) s is in trial \(index) (\(begin)-\(end) s)")
                transitionLines += 1
            case "gesture":
                let index = try #require(line["gesture"] as? Int, "a gesture line without its gesture: \(line)")
                let gesture = try #require(gestures.indices.contains(index) ? gestures[index] : nil)
                let begin = try #require(gesture["begin"] as? Double), end = try #require(gesture["end"] as? Double)
                #expect(time >= begin - 1e-6 && time <= end + 1e-6, "gesture line at \(time) s is in gesture \(index) (\(begin)-\(end) s)")
                #expect(line["kind"] as? String == gesture["kind"] as? String)
                gestureLines += 1
            default:
                Issue.record("unexpected line \(line)")
            }
        }
        #expect(transitionLines > 100 && gestureLines > 100)
        #expect(Set(lines.compactMap { $0["trial"] as? Int }) == [0, 1, 2, 3], "every attempt has its lines")
    }

    /// Down a session of pinches and pans of 1 and 3 fingers, the gesture lines say "1 finger" and
    /// keep their values in one column (a "began" line was one space short of a "cancelled" one,
    /// a pan's three short of a pinch's).
    @Test func theHumanGestureLinesCountFingersInWordsAndLineUp() throws {
        let r = try CLI.run(["replay", Self.session, "--transition", "pan-dismiss"])
        #expect(r.status == 0, "\(r.stderr)")
        let gestureLines = r.lines.filter { $0.range(of: #"^ +[0-9.]+ s  (pinch|pan|hold) "#, options: .regularExpression) != nil }
        #expect(gestureLines.count >= 8, "\(r.stdout)")
        // Whole: "1 finger" and "3 fingers" in words, never "1 fingers".
        try Golden.expect(r, is: "replay-touchscreen-session-pan-dismiss-absolute-path")
        let valueColumns = Set(gestureLines.compactMap { line in
            line.range(of: #"fingers? +(translation|scale|at) "#, options: .regularExpression)
                .map { line.distance(from: line.startIndex, to: $0.lowerBound) }
        })
        let stateColumns = Set(gestureLines.compactMap { line in
            line.range(of: #" (began|ended|cancelled) "#, options: .regularExpression)
                .map { line.distance(from: line.startIndex, to: $0.lowerBound) }
        })
        #expect(valueColumns.count == 1 && stateColumns.count == 1, "\(gestureLines.joined(separator: "\n"))")
    }

    @Test func theHumanOutputListsEveryAttemptAndTheTotal() throws {
        let r = try CLI.run(["replay", Self.session, "--transition", "pan-dismiss"])
        #expect(r.status == 0, "\(r.stderr)")
        let attempts = r.lines.filter { $0.hasPrefix("attempt ") }
        #expect(attempts == [
            "attempt 1  at 0.190 s  pan, 1 finger, released at 0.962 s  cancelled (cancel: projected progress -0.042 <= threshold 0.5)",
            "attempt 2  at 3.687 s  pan, 1 finger, released at 4.359 s  finished (finish: projected progress 0.834 > threshold 0.5)",
            "attempt 3  at 7.005 s  pan, 3 fingers, released at 7.381 s  cancelled (cancel: projected progress 0.048 <= threshold 0.5)",
            "attempt 4  at 13.315 s  pan, 1 finger, released at 13.358 s  finished (finish: flick, |velocity| 5.306/s >= 1.5/s, towards completion)",
        ], "\(attempts)")
        #expect(r.lines.last == "outcome: pan-dismiss 4 attempts: 2 finished, 2 cancelled; the first cancelled")
        // With the default transition only the pinch is an attempt.
        let pinch = try CLI.run(["replay", Self.session])
        #expect(pinch.lines.filter { $0.hasPrefix("attempt ") }.count == 1)
        #expect(pinch.lines.last?.hasPrefix("outcome: pinch-dismiss cancelled") == true, "\(pinch.lines.last ?? "")")
    }
}
