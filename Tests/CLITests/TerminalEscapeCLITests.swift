import Foundation
import GestureCore
import GestureKit
import Testing
import VirtualEvdev
import PinchlabTestSupport

/// A device name is data: one holding `ESC ] 0 ; ... BEL` (set the terminal's title) or `ESC [ 2 J`
/// (clear the screen) is shown escaped by every command that prints it, on stdout and stderr, never
/// passed to the terminal.
@Suite(.blocking, .serialized) struct TerminalEscapeCLITests {
    static let hostileName = "pad \u{1b}]0;pwned\u{07} \u{1b}[2J\u{9b}31m end"
    /// How the output layer shows it.
    static let shownName = "pad \\u{1b}]0;pwned\\u{7} \\u{1b}[2J\\u{9b}31m end"

    /// A name of bidirectional and invisible characters: `evil<RLO>gnp.exe` reads as `evilexe.png`
    /// on a terminal that draws it; then an isolate (LRI ... PDI), the Arabic letter mark, a byte
    /// order mark, a soft hyphen and the other embeddings and overrides.
    static let bidiName = "evil\u{202E}gnp.exe \u{2066}iso\u{2069} \u{61C}\u{FEFF}soft\u{AD}hyphen \u{202A}\u{202B}\u{202C}\u{202D}\u{2067}\u{2068}"
    static let shownBidiName = "evil\\u{202e}gnp.exe \\u{2066}iso\\u{2069} \\u{61c}\\u{feff}soft\\u{ad}hyphen "
        + "\\u{202a}\\u{202b}\\u{202c}\\u{202d}\\u{2067}\\u{2068}"

    /// A copy of a corpus recording whose `N:` line holds `name` (evemu has no escaping: the bytes
    /// are the name), in a file called `file`.
    static func hostileRecording(name: String = hostileName, file: String = "hostile.evemu") throws -> String {
        let text = try String(contentsOfFile: CLI.fixture("corpus/touchpad/pinch-in-quick-flick-01.evemu"), encoding: .utf8)
        let renamed = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix("N: ") ? "N: \(name)" : String(line)
        }.joined(separator: "\n")
        let path = try CLI.temporaryDirectory().appendingPathComponent(file).path
        try renamed.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// No byte a terminal would act on (C0 but tab and line feed, DEL, C1) in `text`.
    static func expectNoControls(_ text: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let controls = text.unicodeScalars.filter { TerminalText.isInvisible($0) && $0 != "\n" && $0 != "\t" }
        #expect(controls.isEmpty, "\(what) holds raw control characters \(controls.map { String($0.value, radix: 16) })",
                sourceLocation: sourceLocation)
    }

    /// `command` on a recording of a device called `name`: the reader keeps the name as it is, and
    /// the output shows it escaped, with no raw control character, as the golden file `golden`
    /// followed by the command's words has it.
    static func expectShownEscaped(_ name: String, by command: [String], golden: String,
                                   sourceLocation: SourceLocation = #_sourceLocation) throws {
        let path = try hostileRecording(name: name)
        #expect(try openRecording(path: path).device.name == name, "the reader keeps the name as it is", sourceLocation: sourceLocation)
        let r = try CLI.run(command + [path])
        #expect(r.status == 0, "\(r.stderr)", sourceLocation: sourceLocation)
        expectNoControls(r.stdout, "stdout", sourceLocation: sourceLocation)
        expectNoControls(r.stderr, "stderr", sourceLocation: sourceLocation)
        // The name is shown escaped: the output whole.
        try Golden.expect(r, is: golden + command.joined(separator: "-").replacingOccurrences(of: "--", with: ""), sourceLocation: sourceLocation)
    }

    @Test(arguments: [["stats"], ["replay"], ["replay", "--explain"]])
    func recordingCommandsShowTheNameEscaped(command: [String]) throws {
        try Self.expectShownEscaped(Self.hostileName, by: command, golden: "hostile-device-name-")
    }

    /// Bidirectional and invisible characters in a device's name are shown as their escapes too, by
    /// every command that prints the name for a person (#42 9: `stats` showed `evil<RLO>gnp.exe` as
    /// `evilexe.png`).
    @Test(arguments: [["stats"], ["replay"], ["replay", "--explain"]])
    func bidiCharactersInANameAreShownEscaped(command: [String]) throws {
        try Self.expectShownEscaped(Self.bidiName, by: command, golden: "bidi-device-name-")
    }

    /// A file's name is shown escaped in an error message: one that ends `<RLO>gnp.evemu` and is
    /// refused (a bad line), and one that does not exist.
    @Test func bidiCharactersInAFileNameAreShownEscaped() throws {
        let dir = try CLI.temporaryDirectory()
        let bad = dir.appendingPathComponent("bad\u{202E}gnp.evemu").path
        try Data("# EVEMU 1.3\nE: 0.0 0003 0039 0001\n".utf8).write(to: URL(fileURLWithPath: bad))
        let missing = dir.appendingPathComponent("gone\u{2067}\u{AD}.evemu").path
        // Both messages whole, each name escaped (bad\u{202e}gnp.evemu, gone\u{2067}\u{ad}.evemu).
        var transcript = ""
        for (path, status) in [(bad, Int32(65)), (missing, Int32(66))] {
            let r = try CLI.run(["stats", path])
            #expect(r.status == status, "\(r.stderr)")
            Self.expectNoControls(r.stderr, "stderr")
            transcript += Golden.text(of: r)
        }
        try Golden.expect(transcript, is: "errors-bidi-file-names")
    }

    /// The argument parser's own errors quote the command line: an option's value (#42 13:
    /// `--transition $'\e]0;X\a'` retitled the terminal), an unknown option (`--$'\e[2J'` cleared
    /// it), an invisible character in a value, each shown escaped, on several lines as before.
    @Test(arguments: [
        (["replay", "TP", "--transition", "\u{1b}]0;X\u{07}"], "\\u{1b}]0;X\\u{7}"),
        (["replay", "TP", "--\u{1b}[2J"], "--\\u{1b}[2J"),
        (["stats", "TP", "--policy\u{9b}31m"], "\\u{9b}31m"),
        (["replay", "TP", "--policy", "gnome\u{202E}cba"], "gnome\\u{202e}cba"),
        (["live", "--exit-after-idle", "one\r\u{2028}two"], "one\\r\\u{2028}two"),
    ])
    func theArgumentParsersErrorsAreShownEscaped(arguments: [String], shown: String) throws {
        let tp = CLI.fixture("corpus/touchpad/pinch-in-slow-finish-01.evemu")
        let r = try CLI.run(arguments.map { $0 == "TP" ? tp : $0 })
        #expect(r.status == 64, "\(r.stderr)")
        Self.expectNoControls(r.stderr, "stderr")
        #expect(r.stderr.contains(shown), "\(r.stderr)")
        // Whole: the value escaped, the usage still on its own lines.
        try Golden.expect(r, is: "errors-escaped-argument-" + String(shown.map { $0.isLetter || $0.isNumber ? $0 : "-" }))
        #expect(r.stdout.isEmpty)
    }

    /// JSON escapes every control character (C1 too: JSONEncoder escapes only C0), and the name
    /// reads back as it is.
    /// The bidirectional and invisible characters too (`\u202e`), through the encoder
    /// (`stats --json`) and the hand-written lines (`replay --summary`, `replay --json`).
    @Test(arguments: [["replay", "--summary"], ["stats", "--json"], ["replay", "--json"]], [false, true])
    func jsonHoldsTheNameEscaped(command: [String], bidi: Bool) throws {
        let name = bidi ? Self.bidiName : Self.hostileName
        let r = try CLI.run(command + [try Self.hostileRecording(name: name)])
        #expect(r.status == 0, "\(r.stderr)")
        Self.expectNoControls(r.stdout, "stdout")
        let json = try r.json(line: -1)
        let shown = (json["device"] as? [String: Any])?["name"] ?? json["device"]
        #expect(shown as? String == name, "\(r.stdout)")
        if bidi { #expect(r.stdout.contains("evil\\u202egnp.exe"), "\(r.stdout.prefix(400))") }  // JSON's own escape
    }

    /// `serve` says what it serves, `devices` lists it, `live` refuses or draws it: each shows the
    /// name escaped.
    @Test(.needs(.fuse)) func deviceCommandsShowTheNameEscaped() throws {
        let dir = DeviceCLITests.mountDirectory("serve-hostile")
        let serve = try CLI.Running(["serve", try Self.hostileRecording(), "--at", dir])
        defer { serve.process.interrupt() }
        // serve and live run on: their output is read while they run.
        try #require(CLI.waitFor(20) { serve.stderrSoFar.contains("pinchlab: serving") }, "\(serve.stderrSoFar)")
        Self.expectNoControls(serve.stderrSoFar, "serve's stderr")
        #expect(serve.stderrSoFar.contains("serving \"\(Self.shownName)\""), "\(serve.stderrSoFar)")

        let devices = try CLI.run(["devices", dir])
        #expect(devices.status == 0, "\(devices.stderr)")
        Self.expectNoControls(devices.stdout, "devices")
        try Golden.expect(devices, is: "devices-served-hostile-name", normalising: [dir: "$MOUNT"])

        let screen = try LiveViewCLITests.liveScreen(columns: 120, device: dir + "/event0", transition: "pinch-dismiss")
        #expect(screen.status == 0, "\(screen.text.suffix(400))")
        // The view's own sequences (cursor up, erase line, hide and show the cursor) are its only escapes.
        let own = ["\u{1B}[?25l", "\u{1B}[?25h", "\u{1B}[2K"] + (1...40).map { "\u{1B}[\($0)A" }
        let rest = own.reduce(screen.text) { $0.replacingOccurrences(of: $1, with: "") }
        Self.expectNoControls(rest.replacingOccurrences(of: "\r", with: ""), "live's view")
        #expect(screen.text.contains("device     \"\(Self.shownName)\""), "\(screen.text.suffix(2000))")  // a live screen
    }

    @Test(.needs(.fuse)) func aRefusedDeviceIsNamedEscaped() throws {
        let keyA = EventCode(rawValue: 30)
        let keyboard = DeviceDescription(name: Self.hostileName, id: InputID(bustype: 0x11, vendor: 1, product: 1, version: 1),
                                         codes: [.key: [keyA]])
        let device = try VirtualEvdevDevice(description: keyboard, directory: DeviceCLITests.mountDirectory("hostile-keys"), options: .inTests)
        defer { device.stop() }
        let live = try CLI.run(["live", device.path], timeout: 20)
        #expect(live.status == 69, "\(live.stderr)")
        Self.expectNoControls(live.stderr, "live's error")
        #expect(live.stderr.contains("(\"\(Self.shownName)\") is classified as 'other'"), "\(live.stderr)")  // beside a random mount path
    }
}

/// libinput's own log names the device as the recording does: `libinput --verbose` passes it on
/// escaped, as everything else printed to a terminal is.
@Suite(.blocking, .needs(.libinput, .fuse), .serialized)
struct LibinputLogEscapeCLITests {
    @Test func libinputsVerboseLogShowsTheDeviceNameEscaped() throws {
        let path = try TerminalEscapeCLITests.hostileRecording()
        let r = try CLI.run(["libinput", path, "--verbose"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("gesture state"), "libinput's log is there: \(r.stderr.prefix(400))")  // libinput's own log
        TerminalEscapeCLITests.expectNoControls(r.stderr, "stderr")
        TerminalEscapeCLITests.expectNoControls(r.stdout, "stdout")
    }
}
