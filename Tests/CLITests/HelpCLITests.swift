import Foundation
import PinchlabTestSupport
import Testing

/// `--help` teaches: every command shows an example, and every line fits an 80-column terminal
/// (prose is left to ArgumentParser to wrap, examples are kept short or split with a shell `\`).
@Suite(.blocking) struct HelpCLITests {
    /// The root and every subcommand (`helpExamplesNeverWrapInsideACommand` checks none is missing).
    static let commands = ["", "replay", "live", "record", "serve", "devices", "stats", "convert", "plot", "view", "report", "tune",
                           "libinput", "check", "label", "generate-corpus"]

    @Test(arguments: commands)
    func helpFitsEightyColumnsAndShowsAnExample(command: String) throws {
        let text = try Self.output((command.isEmpty ? [] : [command]) + ["--help"], columns: 80)
        for line in text.split(separator: "\n") {
            #expect(line.count <= 80, "pinchlab \(command) --help: \(line.count) characters: \(line)")
        }
        // An example line; the whole help is GoldenOutputTests' help file.
        #expect(text.contains("\n  pinchlab "), "pinchlab \(command) --help shows a command to try")
    }

    /// `pinchlab help CMD` at COLUMNS width.
    static func help(_ command: String, columns: Int) throws -> String {
        try output(["help"] + (command.isEmpty ? [] : [command]), columns: columns)
    }

    /// What pinchlab prints for `arguments` on a terminal `columns` wide; it must succeed.
    static func output(_ arguments: [String], columns: Int) throws -> String {
        let r = try CLI.run(arguments, environment: ["COLUMNS": String(columns)])
        #expect(r.status == 0, "pinchlab \(arguments.joined(separator: " ")): \(r.stderr)")
        return r.stdout
    }

    /// Every subcommand `pinchlab help` lists (so a new command is checked without editing a list).
    static func subcommands() throws -> [String] {
        let root = try help("", columns: 1000)
        let section = try #require(root.components(separatedBy: "SUBCOMMANDS:").last)
        return section.split(separator: "\n").compactMap { line in
            // A subcommand line is indented two spaces and names a lowercase command ("  See 'pinchlab
            // help <subcommand>'" closes the section).
            guard line.hasPrefix("  "), !line.hasPrefix("   "), let name = line.split(separator: " ").first,
                  name.first?.isLowercase == true else { return nil }
            return String(name)
        }
    }

    /// An example is a whole command at 80 columns: each example line (a line of the description
    /// starting with `pinchlab `, or continuing one that ends in `\`), as printed on a wide terminal,
    /// is also a whole line at 80 columns, never split by ArgumentParser's wrapping (`-o` on one
    /// line, `flick.svg` on the next).
    @Test func helpExamplesNeverWrapInsideACommand() throws {
        let commands = try Self.subcommands()
        #expect(commands.count >= 14 && commands.contains("generate-corpus"), "\(commands)")
        #expect(Set(commands) == Set(Self.commands.dropFirst()), "helpFitsEightyColumnsAndShowsAnExample checks every command")
        var examples = 0
        for command in [""] + commands {
            let wide = try Self.help(command, columns: 1000)
            let narrow = Set(try Self.help(command, columns: 80).split(separator: "\n").map {
                $0.trimmingCharacters(in: .whitespaces)
            })
            let description = wide.components(separatedBy: "\nUSAGE:").first ?? wide
            var continues = false
            for line in description.split(separator: "\n") {
                let text = line.trimmingCharacters(in: .whitespaces)
                guard continues || text.hasPrefix("pinchlab ") else { continue }
                examples += 1
                #expect(narrow.contains(text), "pinchlab help \(command): the example line '\(text)' is broken at 80 columns")
                continues = text.hasSuffix("\\")
            }
        }
        #expect(examples >= 30)
    }
}
