import Foundation
import Testing
import PinchlabTestSupport

/// `pinchlab live`'s in-place view on a real pseudo-terminal (util-linux `script`), against a served
/// recording: what a person at a narrow terminal sees.
@Suite(.blocking, .needs(.fuse), .serialized) struct LiveViewCLITests {
    /// Runs `live` on a pty `columns` wide and returns everything it wrote to the terminal.
    func liveOnATerminal(columns: Int, fixture: String, transition: String) throws -> (status: Int32, screen: String) {
        let dir = "/tmp/pinchlab-cli-tests/live-view-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let serve = try CLI.Running(["serve", CLI.fixture(fixture), "--at", dir])
        defer { serve.process.interrupt() }
        try #require(CLI.waitFor(20) { FileManager.default.fileExists(atPath: dir + "/event0") }, "\(serve.stderrSoFar)")
        let (status, screen) = try Self.liveScreen(columns: columns, device: dir + "/event0", transition: transition)
        return (status, screen)
    }

    /// `live DEVICE` on a pseudo-terminal `columns` wide until 1 s without events: its exit status
    /// and everything it wrote to the terminal.
    static func liveScreen(columns: Int, device: String, transition: String) throws -> (status: Int32, text: String) {
        let typescript = try CLI.temporaryDirectory().appendingPathComponent("typescript").path
        let command = "stty cols \(columns) rows 40; exec '\(CLI.binary.path)' live \(device) --transition \(transition) --exit-after-idle 1"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["--quiet", "--flush", "--return", "--command", command, typescript]
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.start()
        #expect(CLI.waitForExit(process, timeout: 60))
        return (process.terminationStatus, try String(contentsOfFile: typescript, encoding: .utf8))
    }

    /// The lines the view drew: each starts after "\r" + erase-line and ends at the newline.
    func drawnLines(_ screen: String) -> [String] {
        screen.components(separatedBy: "\r\u{1B}[2K").dropFirst().map { segment in
            String(segment.prefix { !$0.isNewline })
        }
    }

    @Test(arguments: [(60, "pinch-dismiss", "corpus/touchpad/pinch-in-slow-finish-01.evemu"),
                      (80, "zoom-present", "corpus/touchscreen/pinch-out-01.evemu")])
    func everyDrawnLineFitsTheTerminal(columns: Int, transition: String, fixture: String) throws {
        let (status, screen) = try liveOnATerminal(columns: columns, fixture: fixture, transition: transition)
        #expect(status == 0, "\(screen.suffix(400))")
        let lines = drawnLines(screen)
        #expect(lines.count > 20, "the view was drawn, and redrawn")
        for line in lines {
            #expect(line.count < columns, "\(line.count) characters on a \(columns)-column terminal: \(line)")
        }
        // A live terminal screen (escape sequences, redrawn as the device plays).
        #expect(lines.contains { $0.hasPrefix("transition \(transition)") && $0.contains("finished") })
        #expect(screen.contains("\u{1B}[?25l") && screen.contains("\u{1B}[?25h"), "the cursor is hidden, then restored")
    }

    /// In 40 columns the transition's line cannot hold the bar: the bar and its percentage get a
    /// line of their own, whole, instead of being cut off.
    @Test func aFortyColumnTerminalKeepsTheBarAndPercentage() throws {
        let (status, screen) = try liveOnATerminal(columns: 40, fixture: "corpus/touchpad/pinch-in-slow-finish-01.evemu",
                                                   transition: "pinch-dismiss")
        #expect(status == 0, "\(screen.suffix(400))")
        let lines = drawnLines(screen)
        for line in lines { #expect(line.count < 40, "\(line.count) characters: \(line)") }
        let bars = lines.filter { $0.hasPrefix("[") && $0.hasSuffix("%") }
        #expect(bars.count > 10, "the bar is drawn on its own line: \(lines.prefix(12))")
        #expect(bars.contains { $0.hasSuffix("] 100%") }, "the percentage reaches 100")
        #expect(bars.allSatisfy { $0.count == 39 }, "the bar fills the line: \(bars.first ?? "")")
        #expect(lines.contains("transition pinch-dismiss  finished"))  // a live screen's line
    }
}
