import Foundation
import PinchlabTestSupport
import Testing

/// The human output people read, compared whole with the files under `Tests/Golden/`: a changed word,
/// figure, order or blank line fails here, where a `contains` check would let it pass. Each file is a
/// run's stdout, a `[stderr]` line, its stderr and `[exit status N]` (`Golden.text(of:)`); a test that
/// makes several runs keeps them in one file, each after its `$ pinchlab ...` line.
///
/// Regenerate and review:
///
///     PINCHLAB_UPDATE_GOLDEN=1 swift test --filter GoldenOutputTests   # or the suite that changed
///     git diff Tests/Golden                                             # read every changed line
///
/// With `PINCHLAB_UPDATE_GOLDEN=1` the tests write the files instead of comparing (and so pass);
/// run the suite once more without it, then commit the files with the change that made them. A
/// file no test writes any more is left behind: delete it by hand. Other suites (errors, tune,
/// check, ...) use the same files through `Golden.expect`, so filter on them too when their
/// output changes; `grep -rl 'Golden.expect' Tests/CLITests` lists them.
///
/// The files never depend on the machine: paths are given relative to the package where the
/// command takes them, and `Golden` writes the package's own path as `$PACKAGE`, a test's
/// temporary directory as `$TMP` and the installed libinput's version as `$LIBINPUT_VERSION`
/// (`Golden.normalise`), and leaves out tune's progress lines, which come with time. Anything
/// else that varies (a mount point, the shared recordings' directory) is replaced by the test that
/// meets it, which says so; output that varies from run to run (timing, a live process) is not
/// compared whole.
@Suite(.blocking) struct GoldenOutputTests {
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
        // label: a proposal from a replay (not written without --yes) and a recording's evidence.
        Case(name: "label-from-replay",
             arguments: ["label", "--from-replay", "Fixtures/corpus/touchpad/pinch-out-01.evemu", "--corpus", "/nonexistent/mine"]),
        Case(name: "label-evidence", arguments: ["label", "--evidence", "Fixtures/corpus/touchpad/pinch-out-01.evemu"]),
    ]

    @Test(arguments: cases) func outputIsTheGoldenFile(_ golden: Case) throws {
        try Golden.expect(try CLI.run(golden.arguments), is: golden.name)
    }

    /// `--help` of the root and of every command, at 80 columns (ArgumentParser wraps to COLUMNS).
    @Test(arguments: HelpCLITests.commands) func helpIsTheGoldenFile(command: String) throws {
        let arguments = (command.isEmpty ? [] : [command]) + ["--help"]
        try Golden.expect(try CLI.run(arguments, environment: ["COLUMNS": "80"]), is: command.isEmpty ? "help" : "help-\(command)")
    }

    /// libinput's verdict on a touchscreen recording (the installed libinput's version is written
    /// `libinput $LIBINPUT_VERSION`: the machine's, not pinchlab's). A touchpad's verdict is not here:
    /// libinput replays it against its own timers, and its gestures' times move by a millisecond
    /// from run to run.
    @Test(.needs(.libinput)) func libinputOnATouchscreenIsTheGoldenFile() throws {
        try Golden.expect(try CLI.run(["libinput", "Fixtures/corpus/touchscreen/pinch-out-01.evemu"]),
                          is: "libinput-touchscreen-pinch-out-01")
    }
}
