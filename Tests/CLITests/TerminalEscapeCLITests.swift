import Foundation
import GestureKit
import Testing
import VirtualEvdev

/// A device name is data: one holding `ESC ] 0 ; ... BEL` (set the terminal's title) or `ESC [ 2 J`
/// (clear the screen) is shown escaped by every command that prints it, on stdout and stderr, never
/// passed to the terminal.
@Suite(.serialized) struct TerminalEscapeCLITests {
    static let hostileName = "pad \u{1b}]0;pwned\u{07} \u{1b}[2J\u{9b}31m end"
    /// How the output layer shows it.
    static let shownName = "pad \\u{1b}]0;pwned\\u{7} \\u{1b}[2J\\u{9b}31m end"

    /// A copy of a corpus recording whose `N:` line holds `hostileName` (evemu has no escaping:
    /// the bytes are the name).
    static func hostileRecording() throws -> String {
        let text = try String(contentsOfFile: CLI.fixture("corpus/touchpad/pinch-in-quick-flick-01.evemu"), encoding: .utf8)
        let renamed = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix("N: ") ? "N: \(hostileName)" : String(line)
        }.joined(separator: "\n")
        let path = try CLI.temporaryDirectory().appendingPathComponent("hostile.evemu").path
        try renamed.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// No byte a terminal would act on (C0 but tab and line feed, DEL, C1) in `text`.
    static func expectNoControls(_ text: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let controls = text.unicodeScalars.filter { TerminalText.isInvisible($0) && $0 != "\n" && $0 != "\t" }
        #expect(controls.isEmpty, "\(what) holds raw control characters \(controls.map { String($0.value, radix: 16) })",
                sourceLocation: sourceLocation)
    }

    @Test(arguments: [["stats"], ["replay"], ["replay", "--explain"]])
    func recordingCommandsShowTheNameEscaped(command: [String]) throws {
        let path = try Self.hostileRecording()
        #expect(try openRecording(path: path).device.name == Self.hostileName, "the reader keeps the name as it is")
        let r = try CLI.run(command + [path])
        #expect(r.status == 0, "\(r.stderr)")
        Self.expectNoControls(r.stdout, "stdout")
        Self.expectNoControls(r.stderr, "stderr")
        #expect(r.stdout.contains("\"\(Self.shownName)\""), "the name is shown, escaped: \(r.stdout)")
    }

    /// JSON escapes every control character (C1 too: JSONEncoder escapes only C0), and the name
    /// reads back as it is.
    @Test(arguments: [["replay", "--summary"], ["stats", "--json"]])
    func jsonHoldsTheNameEscaped(command: [String]) throws {
        let r = try CLI.run(command + [try Self.hostileRecording()])
        #expect(r.status == 0, "\(r.stderr)")
        Self.expectNoControls(r.stdout, "stdout")
        let json = try r.json(line: -1)
        let name = (json["device"] as? [String: Any])?["name"] ?? json["device"]
        #expect(name as? String == Self.hostileName, "\(r.stdout)")
    }

    /// `serve` says what it serves, `devices` lists it, `live` refuses or draws it: each shows the
    /// name escaped.
    @Test(.needs(.fuse)) func deviceCommandsShowTheNameEscaped() throws {
        let dir = DeviceCLITests.mountDirectory("serve-hostile")
        let serve = try CLI.Running(["serve", try Self.hostileRecording(), "--at", dir])
        defer { serve.process.interrupt() }
        try #require(CLI.waitFor(20) { serve.stderrSoFar.contains("pinchlab: serving") }, "\(serve.stderrSoFar)")
        Self.expectNoControls(serve.stderrSoFar, "serve's stderr")
        #expect(serve.stderrSoFar.contains("serving \"\(Self.shownName)\""), "\(serve.stderrSoFar)")

        let devices = try CLI.run(["devices", dir])
        #expect(devices.status == 0, "\(devices.stderr)")
        Self.expectNoControls(devices.stdout, "devices")
        #expect(devices.stdout.contains("\"\(Self.shownName)\""), "\(devices.stdout)")

        let screen = try LiveViewCLITests.liveScreen(columns: 120, device: dir + "/event0", transition: "pinch-dismiss")
        #expect(screen.status == 0, "\(screen.text.suffix(400))")
        // The view's own sequences (cursor up, erase line, hide and show the cursor) are its only escapes.
        let own = ["\u{1B}[?25l", "\u{1B}[?25h", "\u{1B}[2K"] + (1...40).map { "\u{1B}[\($0)A" }
        let rest = own.reduce(screen.text) { $0.replacingOccurrences(of: $1, with: "") }
        Self.expectNoControls(rest.replacingOccurrences(of: "\r", with: ""), "live's view")
        #expect(screen.text.contains("device     \"\(Self.shownName)\""), "\(screen.text.suffix(2000))")
    }

    @Test(.needs(.fuse)) func aRefusedDeviceIsNamedEscaped() throws {
        let keyA = EventCode(rawValue: 30)
        let keyboard = DeviceDescription(name: Self.hostileName, id: InputID(bustype: 0x11, vendor: 1, product: 1, version: 1),
                                         codes: [.key: [keyA]])
        let device = try VirtualEvdevDevice(description: keyboard, directory: DeviceCLITests.mountDirectory("hostile-keys"))
        defer { device.stop() }
        let live = try CLI.run(["live", device.path], timeout: 20)
        #expect(live.status == 69, "\(live.stderr)")
        Self.expectNoControls(live.stderr, "live's error")
        #expect(live.stderr.contains("(\"\(Self.shownName)\") is classified as 'other'"), "\(live.stderr)")
    }
}

/// libinput's own log names the device as the recording does: `libinput --verbose` passes it on
/// escaped, as everything else printed to a terminal is.
@Suite(.needs(.libinput, .fuse), .serialized)
struct LibinputLogEscapeCLITests {
    @Test func libinputsVerboseLogShowsTheDeviceNameEscaped() throws {
        let path = try TerminalEscapeCLITests.hostileRecording()
        let r = try CLI.run(["libinput", path, "--verbose"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("gesture state"), "libinput's log is there: \(r.stderr.prefix(400))")
        TerminalEscapeCLITests.expectNoControls(r.stderr, "stderr")
        TerminalEscapeCLITests.expectNoControls(r.stdout, "stdout")
    }
}
