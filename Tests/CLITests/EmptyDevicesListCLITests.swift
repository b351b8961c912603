import Foundation
import PinchlabTestSupport
import Testing

/// A `libinput record` file whose `devices:` list is empty is bad data, 65, not a wrong option
/// (#42 15: it exited 64, as if `--device` had named a device the file does not have).
@Suite(.blocking) struct EmptyDevicesListCLITests {
    /// `devices: []`, with spaces and a comment, or on the line after the key: status 65 naming the
    /// list's line, whatever `--device` asked for.
    @Test(arguments: [["devices: []"], ["devices: [ ]  # none"], ["devices:", "  []"]], [[String](), ["--device", "1"], ["--device", "/dev/input/event3"]])
    func anEmptyDevicesListIsBadData(devices: [String], selector: [String]) throws {
        var lines = try String(contentsOfFile: CLI.fixture("bad/cut-mid-frame.yml"), encoding: .utf8).components(separatedBy: "\n")
        lines = Array(lines[..<lines.firstIndex(of: "devices:")!]) + devices
        let path = try CLI.temporaryDirectory().appendingPathComponent("no-devices.yml").path
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let file = (path: path, lines: lines)
        for command in ["stats", "replay"] {
            let r = try CLI.run([command, file.path] + selector)
            #expect(r.status == 65, "\(command) \(selector): \(r.stderr)")
            #expect(r.stderr == "pinchlab: \(file.path):\(file.lines.count): expected at least one device in 'devices:', found an empty list\n",
                    "names the list's line: \(r.stderr)")
        }
    }
}
