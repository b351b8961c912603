import Foundation
import PinchlabTestSupport
import Testing

/// Recordings as the commands read them: from a pipe or standard input, and the file-level errors
/// (empty, binary, a directory), with the exact messages.
@Suite(.blocking) struct RecordingInputCLITests {
    static let touchpad = CLI.fixture("corpus/touchpad/pinch-out-01.evemu")
    static let touchscreen = CLI.fixture("corpus/touchscreen/pan-down-finish-01.evemu")

    /// `script` run by bash with `$PINCHLAB` the binary under test: real pipes and process
    /// substitutions, as a user types them.
    static func shell(_ script: String) throws -> CLI.Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script]
        process.environment = CLI.environment(["PINCHLAB": CLI.binary.path])
        process.currentDirectoryURL = CLI.packageRoot
        let output = try ProcessOutputFiles(of: process)
        try process.start()
        _ = CLI.waitForExit(process, timeout: 120)
        return try output.result(of: process)
    }

    /// A libinput record of `fixture`, converted by the CLI.
    static func yaml(of fixture: String, in dir: URL, name: String = "recording.yml") throws -> String {
        let path = dir.appendingPathComponent(name).path
        let r = try CLI.run(["convert", fixture, "-o", path])
        try #require(r.status == 0, "\(r.stderr)")
        return path
    }

    static func withoutKey(_ key: String, _ object: [String: Any]) -> String {
        var object = object
        object[key] = nil
        return CLI.canonicalJSON(object)
    }

    // MARK: Pipes and standard input

    @Test func statsReadsAPipeAsItReadsTheFile() throws {
        let dir = try CLI.temporaryDirectory()
        for file in [Self.touchpad, try Self.yaml(of: Self.touchscreen, in: dir)] {
            let direct = try CLI.run(["stats", file, "--json"])
            try #require(direct.status == 0, "\(direct.stderr)")
            let expected = Self.withoutKey("file", try direct.json(line: 0))
            for script in ["cat '\(file)' | \"$PINCHLAB\" stats --json -",
                           "cat '\(file)' | \"$PINCHLAB\" stats --json /dev/stdin",
                           "\"$PINCHLAB\" stats --json <(cat '\(file)')"] {
                let piped = try Self.shell(script)
                #expect(piped.status == 0, "\(script): \(piped.stderr)")
                #expect(piped.stderr.isEmpty, "\(script): \(piped.stderr)")
                #expect(Self.withoutKey("file", try piped.json(line: 0)) == expected, "\(script)")
            }
        }
        let named = try Self.shell("cat '\(Self.touchpad)' | \"$PINCHLAB\" stats -")
        #expect(named.stdout.hasPrefix("<stdin>\n"), "\(named.stdout)")
    }

    @Test func replayConvertAndPlotReadStandardInput() throws {
        let dir = try CLI.temporaryDirectory()
        let replay = try CLI.run(["replay", Self.touchpad, "--summary"])
        let piped = try Self.shell("cat '\(Self.touchpad)' | \"$PINCHLAB\" replay - --summary")
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(Self.withoutKey("source", try piped.json(line: 0)) == Self.withoutKey("source", try replay.json(line: 0)))

        let fromFile = dir.appendingPathComponent("file.yml").path, fromPipe = dir.appendingPathComponent("pipe.yml").path
        #expect(try CLI.run(["convert", Self.touchpad, "-o", fromFile]).status == 0)
        let convert = try Self.shell("cat '\(Self.touchpad)' | \"$PINCHLAB\" convert - -o '\(fromPipe)'")
        #expect(convert.status == 0, "\(convert.stderr)")
        #expect(FileManager.default.contents(atPath: fromPipe) == FileManager.default.contents(atPath: fromFile))

        let svg = dir.appendingPathComponent("pipe.svg").path
        let plot = try Self.shell("cat '\(fromFile)' | \"$PINCHLAB\" plot - -o '\(svg)'")
        #expect(plot.status == 0, "\(plot.stderr)")
        #expect(try String(contentsOfFile: svg, encoding: .utf8).contains("<svg"))  // an SVG came out
    }

    @Test(arguments: ["replay", "stats", "convert", "plot"])
    func helpSaysThatDashReadsStandardInput(command: String) throws {
        // The help whole, at 80 columns: GoldenOutputTests' file, which says "- reads standard input".
        try Golden.expect(try CLI.run([command, "--help"], environment: ["COLUMNS": "80"]), is: "help-\(command)")
    }

    @Test func anErrorOnStandardInputNamesIt() throws {
        let r = try Self.shell("printf 'N: pad\\nI: 0003 0001 0002 zz\\n' | \"$PINCHLAB\" stats -")
        #expect(r.status == 65)
        #expect(r.stderr == "pinchlab: <stdin>:2: expected 'I: <bustype> <vendor> <product> <version>' (hex), found 'I: 0003 0001 0002 zz'\n")
    }

    // MARK: File-level errors

    static func expectEveryReader(_ path: String, status: Int32, stderr message: String,
                                  sourceLocation: SourceLocation = #_sourceLocation) throws {
        let output = path + ".converted.yml"
        for command in [["stats", path], ["replay", path], ["convert", path, "-o", output], ["plot", path, "-o", path + ".svg"]] {
            let r = try CLI.run(command)
            #expect(r.status == status, "\(command[0]): \(r.stderr)", sourceLocation: sourceLocation)
            // plot draws what was read before the bad line (and says where it wrote it), then the same error.
            if command[0] == "plot" && r.stderr.hasPrefix("pinchlab: wrote ") {
                #expect(r.stderr.hasSuffix("\n" + message), "\(command[0])", sourceLocation: sourceLocation)
            } else {
                #expect(r.stderr == message, "\(command[0])", sourceLocation: sourceLocation)
            }
            // replay prints as it reads, so what came before an error at the end of a file stays.
            #expect(r.stdout.isEmpty || command[0] == "replay", "\(command[0])", sourceLocation: sourceLocation)
        }
        #expect(!FileManager.default.fileExists(atPath: output), sourceLocation: sourceLocation)
    }

    @Test func anEmptyFileIsSaidSoWithoutALine() throws {
        let path = try CLI.temporaryDirectory().appendingPathComponent("empty.evemu").path
        try Data().write(to: URL(fileURLWithPath: path))
        try Self.expectEveryReader(path, status: 65,
                                   stderr: "pinchlab: \(path): expected an evemu, libinput record or evtest file, found an empty file\n")
    }

    @Test func binaryJunkWithoutNulBytesIsBadData() throws {
        let path = try CLI.temporaryDirectory().appendingPathComponent("junk.bin").path
        // Every byte value but 0, in an order with no line break before the first invalid UTF-8.
        let junk = Data((0..<4096).map { UInt8(($0 * 37 + 128) % 255 + 1) })
        try junk.write(to: URL(fileURLWithPath: path))
        #expect(!junk.contains(0))
        let r = try CLI.run(["stats", path])
        #expect(r.status == 65, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("pinchlab: \(path):1: expected UTF-8 text (an evemu, libinput record or evtest file), found binary data '"),
                "\(r.stderr)")
        #expect(!r.stderr.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "no raw control bytes in the message")
        try Self.expectEveryReader(path, status: 65, stderr: r.stderr)
    }

    @Test func aDirectoryIsNoRecording() throws {
        let dir = try CLI.temporaryDirectory().path
        try Self.expectEveryReader(dir, status: 66, stderr: "pinchlab: \(dir): expected a recording file, found a directory\n")
    }

    // MARK: libinput record files: the whole file, every device

    @Test func junkAfterTheEventsOfAYAMLFileIsBadData() throws {
        let dir = try CLI.temporaryDirectory()
        let yaml = try Self.yaml(of: Self.touchpad, in: dir)
        let text = try String(contentsOfFile: yaml, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count
        for (name, tail, line, message) in [
            ("garbage.yml", "  garbage: [1\n", lines + 1,
             "expected well-formed YAML (while parsing a flow sequence that began on line \(lines)), found a syntax error (did not find expected ',' or ']')"),
            ("two-documents.yml", "---\nversion: 1\n", lines,
             "expected the end of the file (a libinput record is one YAML document), found a second document"),
        ] {
            let path = dir.appendingPathComponent(name).path
            try Data((text + tail).utf8).write(to: URL(fileURLWithPath: path))
            try Self.expectEveryReader(path, status: 65, stderr: "pinchlab: \(path):\(line): \(message)\n")
        }
    }

    /// Two devices in one file, spliced from two converted recordings, with their nodes.
    static func twoDevices(in dir: URL) throws -> String {
        let first = try String(contentsOfFile: try yaml(of: touchscreen, in: dir, name: "a.yml"), encoding: .utf8)
        let second = try String(contentsOfFile: try yaml(of: touchpad, in: dir, name: "b.yml"), encoding: .utf8)
        let device = second[second.range(of: "- node: ")!.lowerBound...]
        let path = dir.appendingPathComponent("two.yml").path
        let text = first.replacingOccurrences(of: "- node: \"unknown\"", with: "- node: \"/dev/input/event7\"")
            + device.replacingOccurrences(of: "- node: \"unknown\"", with: "- node: \"/dev/input/event9\"")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func convertKeepsTheNodeAndSaysWhichDeviceItConverted() throws {
        let dir = try CLI.temporaryDirectory()
        let two = try Self.twoDevices(in: dir)
        for (selector, index, node, name) in [(nil, 0, "/dev/input/event7", "pinchlab virtual touchscreen"),
                                              ("1", 1, "/dev/input/event9", "pinchlab virtual touchpad")] {
            let out = dir.appendingPathComponent("out-\(index).yml").path
            let r = try CLI.run(["convert", two, "-o", out] + (selector.map { ["--device", $0] } ?? []))
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stderr.hasPrefix("pinchlab: \(two) holds 2 devices; converted device \(index) (\(node) '\(name)'); --device N converts another\n"),
                    "\(r.stderr)")
            let written = try String(contentsOfFile: out, encoding: .utf8)
            #expect(written.contains("devices:\n- node: \"\(node)\"\n"))  // the YAML written
            #expect(written.components(separatedBy: "- node:").count == 2, "one device")
        }
        let single = try CLI.run(["convert", try Self.yaml(of: Self.touchpad, in: dir), "-o", dir.appendingPathComponent("one.yml").path])
        // No note for a file of one device: its output whole.
        try Golden.expect(single, is: "convert-yaml-of-one-device")
    }

    @Test func aMissingDeviceListsTheDevicesThere() throws {
        let dir = try CLI.temporaryDirectory()
        let two = try Self.twoDevices(in: dir)
        let r = try CLI.run(["stats", two, "--device", "3"])
        #expect(r.status == 64)
        #expect(r.stderr == "pinchlab: \(two): expected a device at index 3, found 2 devices: "
                + "0 /dev/input/event7 'pinchlab virtual touchscreen', 1 /dev/input/event9 'pinchlab virtual touchpad'\n")
    }

    /// A name with a line break goes to YAML intact and is refused for evemu, which would write
    /// a second line of it as a forged description line.
    @Test func aNameEvemuCannotHoldIsRefusedWhenConverting() throws {
        let dir = try CLI.temporaryDirectory()
        let yaml = try Self.yaml(of: Self.touchpad, in: dir)
        let evil = dir.appendingPathComponent("evil.yml").path
        let text = try String(contentsOfFile: yaml, encoding: .utf8)
            .replacingOccurrences(of: "name: \"pinchlab virtual touchpad\"", with: "name: \"evil\\nB: 01 ff ff ff ff ff ff ff ff\"")
        try Data(text.utf8).write(to: URL(fileURLWithPath: evil))

        let out = dir.appendingPathComponent("evil.evemu").path
        let refused = try CLI.run(["convert", evil, "-o", out])
        #expect(refused.status == 65)
        #expect(refused.stderr == "pinchlab: \(out): expected a device name that fits an evemu 'N:' line, found "
                + "'evil\\nB: 01 ff ff ff ff ff ff ff ff', which holds a line break (U+000A), and evemu has no escaping; "
                + "libinput record YAML (.yml) keeps any name\n")
        #expect(!FileManager.default.fileExists(atPath: out))

        let kept = dir.appendingPathComponent("kept.yml").path
        #expect(try CLI.run(["convert", evil, "-o", kept]).status == 0)
        #expect(try CLI.run(["stats", kept, "--json"]).json(line: 0)["device"] as? String == "evil\nB: 01 ff ff ff ff ff ff ff ff")
    }

    /// Event lines that begin with blank space are skipped as libevemu skips them, by `replay`,
    /// `stats` and `convert` alike, with one warning naming the first and the count; `convert`
    /// writes the events libevemu reads, so its output plays in evemu-play as the input does.
    @Test func indentedEventLinesAreSkippedAsLibevemuSkipsThemWithAWarning() throws {
        let directory = try CLI.temporaryDirectory()
        let source = CLI.fixture("corpus/touchpad/pinch-in-slow-finish-01.evemu")
        var lines = try String(contentsOfFile: source, encoding: .utf8).components(separatedBy: "\n")
        let eventLines = lines.indices.filter { lines[$0].hasPrefix("E: ") }
        for index in eventLines.suffix(20) { lines[index] = "  " + lines[index] }   // the last 20 events
        let indented = directory.appendingPathComponent("indented.evemu").path
        try lines.joined(separator: "\n").write(toFile: indented, atomically: true, encoding: .utf8)
        let warning = "pinchlab: warning: \(indented):\(eventLines.suffix(20).first! + 1): '  E: "

        let converted = directory.appendingPathComponent("out.evemu").path
        let convert = try CLI.run(["convert", indented, "-o", converted])
        #expect(convert.status == 0, "\(convert.stderr)")
        #expect(convert.stderr.hasPrefix(warning), "\(convert.stderr)")
        // Whole: the warning ("... begins with blank space, and libevemu (evemu-play) reads no such
        // line (20 lines); skipped, as libevemu skips them"), then "pinchlab: wrote N events".
        try Golden.expect(convert, is: "convert-indented-event-lines")
        let reread = try CLI.run(["stats", converted, "--json"])
        #expect(reread.status == 0 && reread.stderr.isEmpty, "\(reread.stderr)")

        let replay = try CLI.run(["replay", indented, "--summary"])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stderr.contains(warning), "\(replay.stderr)")
        #expect(try replay.json(line: -1)["events"] as? Int == eventLines.count - 20)
    }
}
