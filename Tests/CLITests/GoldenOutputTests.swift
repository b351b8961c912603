import Foundation
import PinchlabTestSupport
import Testing

/// The human output people read, compared whole with the files under `Tests/Golden/`: a changed word,
/// figure, order or blank line fails here, where a `contains` check would let it pass.
///
/// When a change is meant to change the output, run the suite once with `PINCHLAB_UPDATE_GOLDEN=1`
/// (`PINCHLAB_UPDATE_GOLDEN=1 swift test --filter GoldenOutputTests`): it writes the files instead
/// of comparing, and `git diff Tests/Golden` shows the change to review and commit with it.
/// Paths are given relative to the package, so the files do not depend on where it is checked out.
@Suite(.blocking) struct GoldenOutputTests {
    static let goldenDirectory = CLI.packageRoot.appendingPathComponent("Tests/Golden")
    static let updating = ProcessInfo.processInfo.environment["PINCHLAB_UPDATE_GOLDEN"] == "1"

    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let arguments: [String]
        var testDescription: String { "pinchlab " + arguments.joined(separator: " ") }
    }

    static let cases: [Case] = [
        // The README's main job.
        Case(name: "replay-pinch-dismiss",
             arguments: ["replay", "Fixtures/corpus/touchpad/pinch-in-slow-finish-01.evemu", "--transition", "pinch-dismiss"]),
        Case(name: "replay-explain-quick-flick",
             arguments: ["replay", "Fixtures/corpus/touchpad/pinch-in-quick-flick-01.evemu", "--explain"]),
        Case(name: "replay-explain-late-reversal",
             arguments: ["replay", "Fixtures/corpus/touchscreen/pinch-in-late-reversal-01.evemu", "--explain"]),
        Case(name: "replay-compare-late-reversal",
             arguments: ["replay", "Fixtures/corpus/touchscreen/pinch-in-late-reversal-01.evemu", "--compare", "gnome,kwin,uikit-seed"]),
        // Many gestures, idle gaps, holds: the session output and its explanations.
        Case(name: "replay-explain-touchscreen-session",
             arguments: ["replay", "Fixtures/sessions/touchscreen-session.evemu", "--explain", "--transition", "pan-dismiss"]),
        // A recording cut mid-frame: the warning and what was read.
        Case(name: "replay-cut-mid-frame", arguments: ["replay", "Fixtures/bad/cut-mid-frame.evemu"]),
        Case(name: "stats-touchpad-pinch", arguments: ["stats", "Fixtures/corpus/touchpad/pinch-in-slow-finish-01.evemu"]),
        Case(name: "stats-touchscreen-session", arguments: ["stats", "Fixtures/sessions/touchscreen-session.evemu"]),
        Case(name: "check-corpus", arguments: ["check", "Fixtures/corpus"]),
        Case(name: "tune-corpus", arguments: ["tune", "Fixtures/corpus", "--budget", "4"]),
    ]

    @Test(arguments: cases) func outputIsTheGoldenFile(_ golden: Case) throws {
        let r = try CLI.run(golden.arguments)
        // The exit status belongs to the output: a case that starts failing must show here too.
        let actual = r.stdout + "\n[stderr]\n" + r.stderr + "[exit status \(r.status)]\n"
        let file = Self.goldenDirectory.appendingPathComponent(golden.name + ".txt")
        if Self.updating {
            try FileManager.default.createDirectory(at: Self.goldenDirectory, withIntermediateDirectories: true)
            try Data(actual.utf8).write(to: file)
            return
        }
        let expected = try #require(try? String(contentsOf: file, encoding: .utf8),
                                    "no golden file \(file.path): run with PINCHLAB_UPDATE_GOLDEN=1 to write it")
        if actual != expected {
            Issue.record("""
                pinchlab \(golden.arguments.joined(separator: " ")) differs from \(file.path) \
                (PINCHLAB_UPDATE_GOLDEN=1 rewrites it when the change is meant):
                \(Self.firstDifference(expected, actual))
                """)
        }
    }

    /// The first line that differs, both ways, with its number: enough to see what changed.
    static func firstDifference(_ expected: String, _ actual: String) -> String {
        let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
        for i in 0..<max(e.count, a.count) {
            let expectedLine = i < e.count ? String(e[i]) : "(no line)"
            let actualLine = i < a.count ? String(a[i]) : "(no line)"
            if expectedLine != actualLine {
                return "line \(i + 1):\n  expected: \(expectedLine)\n  actual:   \(actualLine)"
            }
        }
        return "(same lines, different line ends)"
    }
}
