import Foundation
import PinchlabTestSupport
import Testing

/// `libinput record` YAML read by the CLI: the event lines in libinput record's layout are read
/// without libyaml, libyaml reading from the first other line on (`CanonicalRecordLines`), and a
/// user sees no difference but the speed: the same events out, the same error and line.
@Suite(.blocking) struct YAMLEventLinesCLITests {
    /// Corpus gestures back to back, converted to YAML by `convert`, with comments, a frame without
    /// events and an event in another (valid) layout in the middle: converted back to evemu it is
    /// the evemu file `convert` makes of the original, from a file and from standard input.
    @Test func oddButValidLinesConvertBackToTheSameEvemu() throws {
        let directory = try CLI.temporaryDirectory()
        let original = CLI.fixture("corpus/touchpad/pinch-in-slow-finish-01.evemu")
        let expected = directory.appendingPathComponent("expected.evemu").path
        let yaml = directory.appendingPathComponent("plain.yml").path
        #expect(try CLI.run(["convert", original, "-o", expected]).status == 0)
        #expect(try CLI.run(["convert", original, "-o", yaml]).status == 0)
        var lines = try String(contentsOfFile: yaml, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
        let events = lines.indices.filter { lines[$0].hasPrefix("    - [") }
        #expect(events.count > 500)
        // From the end, so the indices stay right.
        let odd = events[events.count * 2 / 3]
        lines[odd] = lines[odd].replacingOccurrences(of: "- \\[ *", with: "- [+", options: .regularExpression)  // `+5` is 5
        lines.insert("  # a comment in the events", at: events[events.count / 2])
        lines.insert("  - evdev:", at: events[events.count / 3] - 1)
        let edited = directory.appendingPathComponent("edited.yml").path
        try lines.joined(separator: "\n").write(toFile: edited, atomically: true, encoding: .utf8)
        let converted = directory.appendingPathComponent("converted.evemu").path
        let r = try CLI.run(["convert", edited, "-o", converted])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(FileManager.default.contents(atPath: converted) == FileManager.default.contents(atPath: expected))
        let stdin = try #require(FileHandle(forReadingAtPath: edited))
        defer { try? stdin.close() }
        let fromStandardInput = directory.appendingPathComponent("stdin.evemu").path
        #expect(try CLI.run(["convert", "-", "-o", fromStandardInput, "--to", "evemu"], standardInput: stdin).status == 0)
        #expect(FileManager.default.contents(atPath: fromStandardInput) == FileManager.default.contents(atPath: expected))
    }

    /// A bad event far into a large file: the error names its line, as libyaml's reading did.
    @Test func aBadEventFarInNamesItsLine() throws {
        let directory = try CLI.temporaryDirectory()
        let yaml = directory.appendingPathComponent("long.yml").path
        #expect(try CLI.run(["convert", CLI.fixture("corpus/touchpad/pinch-in-slow-finish-01.evemu"), "-o", yaml]).status == 0)
        var lines = try String(contentsOfFile: yaml, encoding: .utf8).split(separator: "\n").map(String.init)
        let events = lines.indices.filter { lines[$0].hasPrefix("    - [") }
        let bad = events[events.count - 10]
        var fields = lines[bad].split(separator: "#")[0].split(separator: ",").map(String.init)
        fields[3] = " 99"   // EV_ABS code 0x63: none
        lines[bad] = fields.joined(separator: ",")
        try lines.joined(separator: "\n").write(toFile: yaml, atomically: true, encoding: .utf8)
        // Both refusals whole: "YAML:LINE: expected an EV_ABS code up to 0x3f, found code 0x63 in [...]".
        var transcript = ""
        for command in [["stats", yaml], ["convert", yaml, "-o", directory.appendingPathComponent("out.evemu").path]] {
            let r = try Golden.run(command, into: &transcript)
            #expect(r.status == 65, "\(r.stderr)")
            #expect(r.stderr.hasPrefix("pinchlab: \(yaml):\(bad + 1): expected an EV_ABS code up to 0x3f, found code 0x63 in ["), "\(r.stderr)")
        }
        try Golden.expect(transcript, is: "errors-yaml-event-line-unknown-code")
    }
}
