import Foundation
import Testing

@Suite struct ErrorCLITests {
    func write(_ text: String, name: String = "bad.evemu") throws -> String {
        let path = try CLI.temporaryDirectory().appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static let header = """
        # EVEMU 1.3
        N: broken pad
        I: 0018 04f3 3108 0100
        P: 05 00 00 00 00 00 00 00
        B: 00 0b 00 00 00 00 00 00 00
        B: 03 03 00 00 00 00 80 60 02
        A: 00 0 1000 0 0 10
        A: 01 0 800 0 0 10
        A: 2f 0 4 0 0 0
        A: 35 0 1000 0 0 10
        A: 36 0 800 0 0 10
        A: 39 0 65535 0 0 0

        """

    @Test(arguments: [
        ("truncated", header + "E: 0.000000 0003 0039\n", "expected"),
        ("bad hex", header + "E: 0.000000 0003 00zz 0001\n", "expected"),
        ("time backwards", header + "E: 1.000000 0003 0039 0001\nE: 0.500000 0000 0000 0000\n", "at or after 1.000000"),
        ("no description", "E: 0.000000 0003 0039 0001\n", "N:"),
        ("binary", "\u{0}\u{1}\u{2}ELF\u{0}\u{0}", "NUL byte"),
    ])
    func badRecordingsExitWithBadDataAndNameTheLine(name: String, text: String, hint: String) throws {
        let path = try write(text)
        for command in [["replay", path], ["stats", path], ["convert", path, "-o", path + ".yml"]] {
            let r = try CLI.run(command)
            #expect(r.status == 65, "\(name): \(command[0]) exit \(r.status): \(r.stderr)")
            #expect(r.stderr.contains(path), "\(name): names the file: \(r.stderr)")
            #expect(r.stderr.lowercased().contains(hint.lowercased()), "\(name): says what was expected: \(r.stderr)")
            #expect(r.stdout.isEmpty || command[0] == "replay")
        }
    }

    @Test func emptyFileAndMissingFile() throws {
        let empty = try write("")
        let r = try CLI.run(["stats", empty])
        #expect(r.status == 65)
        #expect(r.stderr.contains("empty"))
        let missing = try CLI.run(["replay", "/nonexistent/x.evemu"])
        #expect(missing.status == 66, "\(missing.stderr)")
        #expect(missing.stderr.contains("/nonexistent/x.evemu"))
    }

    @Test func aTruncatedLineGivesItsLineNumber() throws {
        let text = Self.header + "E: 0.000000 0003 0039 0001\nE: 0.010000 0000 00"
        let path = try write(text)
        let r = try CLI.run(["stats", path])
        let line = text.split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(r.status == 65)
        #expect(r.stderr.contains("\(path):\(line):"), "\(r.stderr)")
    }

    @Test func usageErrorsExit64WithAHint() throws {
        let fixture = CLI.fixture("corpus/touchpad/pinch-out-01.evemu")
        let unknown = try CLI.run(["replay", fixture, "--transition", "spin-dismiss"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("pinch-dismiss"))
        #expect(try CLI.run(["replay", fixture, "--threshold", "1.5"]).status == 64)
        #expect(try CLI.run(["replay", fixture, "--json", "--summary"]).status == 64)
        #expect(try CLI.run(["convert", fixture, "-o", "x.txt"]).status == 64)
    }

    @Test func aBadConfigFileIsReported() throws {
        let config = try write("{\"policy\": 3}", name: "bad.json")
        let r = try CLI.run(["replay", CLI.fixture("corpus/touchpad/pinch-out-01.evemu"), "--config", config])
        #expect(r.status == 65)
        #expect(r.stderr.contains(config))
    }

    @Test func devicesInAnEmptyDirectorySaysSoAndAMissingOneFails() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.run(["devices", dir.path])
        #expect(r.status == 0)
        #expect(r.stdout.contains("No input devices"))
        let json = try CLI.run(["devices", dir.path, "--json"])
        #expect((try json.json(line: 0)["devices"] as? [Any])?.isEmpty == true)
        #expect(try CLI.run(["devices", dir.path + "/missing"]).status == 66)
    }
}
