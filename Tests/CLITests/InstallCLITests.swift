import Foundation
import Testing
import PinchlabTestSupport

/// `scripts/install` into a temporary HOME: the binary, the man pages (`man -l` renders them
/// without a warning) and the completion scripts, which bash then uses to complete subcommands,
/// flags, files and closed sets of values.
///
/// It installs the debug build `swift test` made (CONFIGURATION=debug; the release build is the
/// same script with other build options) and passes --ignore-lock to SwiftPM, whose lock this
/// test's own `swift test` holds.
@Suite(.blocking, .serialized) struct InstallCLITests {
    static let installed: Result<URL, any Error> = Result {
        let home = try CLI.temporaryDirectory()
        let run = try CLI.run(["scripts/install"], timeout: 900,
                              environment: ["HOME": home.path, "CONFIGURATION": "debug", "SKIP_SETUP": "1",
                                            "SWIFTPM_OPTIONS": "--ignore-lock", "PREFIX": "", "XDG_DATA_HOME": ""],
                              executable: URL(fileURLWithPath: "/bin/sh"))
        guard run.status == 0 else {
            throw InstallFailed(text: "scripts/install exited \(run.status): \(run.stdout)\n\(run.stderr)")
        }
        return home.appendingPathComponent(".local")
    }
    struct InstallFailed: Error, CustomStringConvertible { var text: String; var description: String { text } }

    @Test func installsTheBinaryManPagesAndCompletions() throws {
        let prefix = try Self.installed.get()
        let share = prefix.appendingPathComponent("share")
        for path in ["bin/pinchlab", "lib/pinchlab/libpinchlab-udev-preload.so", "share/man/man1/pinchlab.1",
                     "share/man/man1/pinchlab.replay.1", "share/man/man1/pinchlab.live.1",
                     "share/bash-completion/completions/pinchlab", "share/zsh/site-functions/_pinchlab",
                     "share/fish/vendor_completions.d/pinchlab.fish"] {
            #expect(FileManager.default.fileExists(atPath: prefix.appendingPathComponent(path).path), "\(path) installed")
        }
        let version = try CLI.run(["--version"], executable: prefix.appendingPathComponent("bin/pinchlab"))
        #expect(version.status == 0 && version.stdout.hasPrefix("pinchlab "), "\(version.stdout)")
        #expect(try String(contentsOf: share.appendingPathComponent("zsh/site-functions/_pinchlab"), encoding: .utf8)
            .hasPrefix("#compdef pinchlab"))
        #expect(try String(contentsOf: share.appendingPathComponent("fish/vendor_completions.d/pinchlab.fish"), encoding: .utf8)
            .contains("complete -c 'pinchlab'"))  // a fish completion script
    }

    /// `man -l` renders the pages, with no warning, and says what the help says.
    @Test(.needs(.man), arguments: ["pinchlab", "pinchlab.replay", "pinchlab.live"])
    func manRendersThePage(page: String) throws {
        let file = try Self.installed.get().appendingPathComponent("share/man/man1/\(page).1")
        let man = try CLI.run(["-P", "cat", "-l", file.path], environment: ["MANWIDTH": "80", "LC_ALL": "C.UTF-8"],
                              executable: URL(fileURLWithPath: "/usr/bin/man"))
        #expect(man.status == 0, "\(man.stderr)")
        #expect(man.stderr.isEmpty, "man warns: \(man.stderr)")
        // man's rendering, which depends on man-db's version and the terminal.
        #expect(man.stdout.contains("NAME") && man.stdout.contains("SYNOPSIS"))
        switch page {
        case "pinchlab": #expect(man.stdout.contains("A gesture-input replay and interactive-transition lab"))
        case "pinchlab.replay": #expect(man.stdout.contains("--transition") && man.stdout.contains("--explain"))
        default:
            let words = man.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(words.contains("membership of the input group"), "live's page says how to get permission")  // man's rendering
        }
    }

    /// What bash offers after `words` (the last one being completed), with the installed script.
    static func complete(_ words: [String]) throws -> [String] {
        let prefix = try installed.get()
        let script = """
        [ -f /usr/share/bash-completion/bash_completion ] && . /usr/share/bash-completion/bash_completion
        . "$1"; shift
        COMP_WORDS=("$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
        _pinchlab pinchlab "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
        printf '%s\\n' "${COMPREPLY[@]}"
        """
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let run = try CLI.run(["-c", script, "complete", prefix.appendingPathComponent("share/bash-completion/completions/pinchlab").path]
                              + words, environment: ["PATH": prefix.appendingPathComponent("bin").path + ":" + path],
                              executable: URL(fileURLWithPath: "/bin/bash"))
        #expect(run.status == 0, "\(run.stderr)")
        return run.lines
    }

    @Test func bashCompletesSubcommandsFlagsFilesAndValues() throws {
        let subcommands = try Self.complete(["pinchlab", ""])
        for name in ["replay", "live", "record", "serve", "plot", "view", "tune", "check", "label", "libinput"] {
            #expect(subcommands.contains(name), "\(name) in \(subcommands)")
        }
        #expect(try Self.complete(["pinchlab", "replay", "x.evemu", "--tr"]) == ["--trace", "--transition"])
        #expect(try Self.complete(["pinchlab", "replay", "x.evemu", "--transition", ""]) == ["pinch-dismiss", "pan-dismiss", "zoom-present"])
        #expect(try Self.complete(["pinchlab", "replay", "x.evemu", "--policy", "g"]) == ["gnome"])
        #expect(try Self.complete(["pinchlab", "view", "x.evemu", "--completion", "appstore-card"]) == ["appstore-card-present", "appstore-card-dismiss"])
        #expect(try Self.complete(["pinchlab", "record", "-o", "x.evemu", "--format", ""]) == ["evemu", "libinput"])
        #expect(try Self.complete(["pinchlab", "label", "x.evemu", "--expect", "p"]) == ["pinch:2", "pan:2", "pan:1"])
        let files = try Self.complete(["pinchlab", "replay", "Fixtures/corpus/touchpad/pinch-in-slow-finish-0"])
        #expect(Set(files) == ["Fixtures/corpus/touchpad/pinch-in-slow-finish-01.evemu", "Fixtures/corpus/touchpad/pinch-in-slow-finish-02.evemu",
                               "Fixtures/corpus/touchpad/pinch-in-slow-finish-03.evemu"], "a recording completes as a file: \(files)")
    }
}
