import Foundation
import PinchlabTestSupport
import Testing

/// A `libinput record` file is one YAML mapping: a key given twice is an error at its line
/// (status 65) in every mapping, whichever reader reads the line (#42 10: a second `events:` was
/// taken without a word, and the reader kept the first list).
@Suite(.blocking) struct YAMLDuplicateKeyCLITests {
    static let source = CLI.fixture("bad/cut-mid-frame.yml")

    /// The fixture's lines with `edit` applied; written to a new file.
    static func edited(_ name: String, _ edit: (inout [String]) -> Void) throws -> (path: String, lines: [String]) {
        var lines = try String(contentsOfFile: source, encoding: .utf8).components(separatedBy: "\n")
        edit(&lines)
        let path = try CLI.temporaryDirectory().appendingPathComponent(name).path
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return (path, lines)
    }

    /// Each duplicate and the 1-based line of its second key.
    static func cases() throws -> [(name: String, path: String, line: Int)] {
        var cases: [(String, String, Int)] = []
        // The reproducer: a second `events:` after the device's events (the reader kept the first).
        let events = try edited("events-twice.yml") { lines in
            let last = lines.lastIndex { $0.hasPrefix("    - [") }!
            lines.insert(contentsOf: ["  events:", "  - evdev:", "    - [  9,      0,   0,   0,       0]"], at: last + 1)
        }
        cases.append(("events", events.path, events.lines.lastIndex(of: "  events:")! + 1))
        #expect(events.lines.firstIndex(of: "  events:") != events.lines.lastIndex(of: "  events:"))
        // A second `name:` (the last one won), an axis twice in `absinfo:` (as `53` and `053`), a
        // second `version:` at the top, a second `evdev:` in one events entry.
        let name = try edited("name-twice.yml") { lines in
            let at = lines.firstIndex { $0.hasPrefix("    name:") }!
            lines.insert("    name: \"another\"", at: at + 2)
        }
        cases.append(("name", name.path, name.lines.firstIndex(of: "    name: \"another\"")! + 1))
        let axis = try edited("axis-twice.yml") { lines in
            let at = lines.firstIndex { $0.hasPrefix("      57: [") }!
            lines.insert("      053: [0, 100, 0, 0, 1]", at: at + 1)
        }
        cases.append(("absinfo", axis.path, axis.lines.firstIndex(of: "      053: [0, 100, 0, 0, 1]")! + 1))
        let version = try edited("version-twice.yml") { lines in
            lines.insert("\"version\": 1", at: lines.firstIndex(of: "devices:")!)
        }
        cases.append(("version", version.path, version.lines.firstIndex(of: "\"version\": 1")! + 1))
        let entry = try edited("evdev-twice.yml") { lines in
            let at = lines.firstIndex { $0.hasPrefix("    - [") }!
            lines.insert(contentsOf: ["    evdev:", "    - [  0,      1,   0,   0,       0]"], at: at + 1)
        }
        cases.append(("entry", entry.path, entry.lines.firstIndex(of: "    evdev:")! + 1))
        return cases
    }

    @Test func aKeyGivenTwiceIsRefusedAtItsLine() throws {
        // Every refusal whole: "PATH:LINE: expected each key once in a mapping, ... again (first on line N)".
        var transcript = ""
        for (name, path, line) in try Self.cases() {
            for command in [["stats", path], ["replay", path], ["convert", path, "-o", path + ".evemu"]] {
                let r = try Golden.run(command, into: &transcript)
                #expect(r.status == 65, "\(name): \(command[0]): \(r.stderr)")
                #expect(r.stderr.hasPrefix("pinchlab: \(path):\(line): expected each key once in a mapping"), "\(name): \(r.stderr)")
            }
            #expect(!FileManager.default.fileExists(atPath: path + ".evemu"), "\(name): nothing converted")
        }
        try Golden.expect(transcript, is: "errors-yaml-duplicate-keys")
    }

    /// The same keys in different mappings are no duplicates: the fixture itself, whose devices
    /// and events entries repeat `evdev:`, and a file of two devices.
    @Test func theSameKeyInAnotherMappingIsFine() throws {
        let r = try CLI.run(["stats", Self.source])
        #expect(r.status == 0, "\(r.stderr)")
        let two = try Self.edited("two-devices.yml") { lines in
            let start = lines.firstIndex(of: "- node: \"unknown\"")!
            let device = lines[start...].prefix { !$0.isEmpty }
            lines.insert(contentsOf: device, at: start + device.count)
        }
        let second = try CLI.run(["stats", two.path, "--device", "1"])
        #expect(second.status == 0, "\(second.stderr)")
    }
}
