import Foundation
import Testing

/// `--help` teaches: every command shows an example, and every line fits an 80-column terminal
/// (prose is left to ArgumentParser to wrap, examples are kept short or split with a shell `\`).
@Suite struct HelpCLITests {
    static let commands = ["", "replay", "live", "record", "serve", "devices", "stats", "convert", "plot", "view", "tune",
                           "generate-corpus"]

    @Test(arguments: commands)
    func helpFitsEightyColumnsAndShowsAnExample(command: String) throws {
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = (command.isEmpty ? [] : [command]) + ["--help"]
        process.environment = ["COLUMNS": "80", "PATH": "/usr/bin:/bin"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        for line in text.split(separator: "\n") {
            #expect(line.count <= 80, "pinchlab \(command) --help: \(line.count) characters: \(line)")
        }
        #expect(text.contains("\n  pinchlab "), "pinchlab \(command) --help shows a command to try")
    }
}
