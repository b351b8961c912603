import ArgumentParser
import Foundation
import Testing
@testable import pinchlab

/// Every `pinchlab ...` command line shown in README.md and docs/**/*.md parses as the tool parses
/// it (`Pinchlab.parseAsRoot`, which validates but runs nothing): the subcommand, every flag and
/// every closed value exist. A renamed flag or a typo in the documentation fails here.
@Suite struct DocumentedCommandsTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A command line found in a document: where, and its arguments after `pinchlab`.
    struct DocumentedCommand: CustomStringConvertible {
        var file: String
        var line: Int
        var arguments: [String]
        var description: String { "\(file):\(line): pinchlab \(arguments.joined(separator: " "))" }
    }

    static func documents() throws -> [URL] {
        let root = Self.packageRoot
        var found = [root.appendingPathComponent("README.md")]
        let docs = root.appendingPathComponent("docs")
        let walker = try #require(FileManager.default.enumerator(at: docs, includingPropertiesForKeys: nil))
        for case let url as URL in walker where url.pathExtension == "md" { found.append(url) }
        return found.sorted { $0.path < $1.path }
    }

    /// The command lines of one document: the lines of its code blocks (fenced, or indented
    /// `$ pinchlab`), a line ending in `\` joined with the next. Inline code in prose names commands
    /// and options (`pinchlab tune --write`) rather than giving whole command lines.
    static func commands(in text: String, file: String) -> [DocumentedCommand] {
        var found: [DocumentedCommand] = []
        var inFence = false
        var pending = "", pendingLine = 0
        for (index, rawLine) in text.components(separatedBy: "\n").enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("```") { inFence.toggle(); continue }
            guard inFence || rawLine.hasPrefix("    $ ") else { continue }
            var command = line.hasPrefix("$ ") ? String(line.dropFirst(2)) : line
            if !pending.isEmpty { command = pending + " " + command } else { pendingLine = index + 1 }
            if command.hasSuffix("\\") { pending = String(command.dropLast()); continue }
            pending = ""
            if let arguments = pinchlabArguments(command) {
                found.append(DocumentedCommand(file: file, line: pendingLine, arguments: arguments))
            }
        }
        return found
    }

    /// The arguments after `pinchlab` in a shell line: the pipeline stage that runs pinchlab, less a
    /// trailing comment, `&`, and output redirections; words split as the shell would (quotes).
    static func pinchlabArguments(_ line: String) -> [String]? {
        var words: [String] = [], word = "", quote: Character?, hasWord = false
        var stages: [[String]] = []
        for character in line {
            if let open = quote {
                if character == open { quote = nil } else { word.append(character) }
                continue
            }
            switch character {
            case "'", "\"": quote = character; hasWord = true
            case " ", "\t":
                if hasWord { words.append(word); word = ""; hasWord = false }
            case "#" where !hasWord:
                // a comment: the rest of the line
                if hasWord { words.append(word) }
                stages.append(words)
                return arguments(of: stages)
            case "|", "&", ";":
                if hasWord { words.append(word); word = ""; hasWord = false }
                stages.append(words); words = []
            default: word.append(character); hasWord = true
            }
        }
        if hasWord { words.append(word) }
        stages.append(words)
        return arguments(of: stages)
    }

    private static func arguments(of stages: [[String]]) -> [String]? {
        guard let stage = stages.first(where: { $0.first == "pinchlab" }) else { return nil }
        var arguments: [String] = []
        var skipNext = false
        for word in stage.dropFirst() {
            if skipNext { skipNext = false; continue }
            if word == ">" || word == "<" || word == "2>" { skipNext = true; continue }
            if word.hasPrefix(">") || word.hasPrefix("<") || word.hasPrefix("2>") { continue }
            arguments.append(word)
        }
        return arguments
    }

    /// Why `arguments` do not parse as pinchlab's command line, or nil when they do (`--help` and
    /// `--version` parse by exiting cleanly).
    static func parseFailure(_ arguments: [String]) -> String? {
        do {
            _ = try Pinchlab.parseAsRoot(arguments)
            return nil
        } catch {
            if Pinchlab.exitCode(for: error) == .success { return nil }
            return Pinchlab.message(for: error)
        }
    }

    static func allCommands() throws -> [DocumentedCommand] {
        try documents().flatMap { url in
            let relative = String(url.path.dropFirst(Self.packageRoot.path.count + 1))
            return commands(in: try String(contentsOf: url, encoding: .utf8), file: relative)
        }
    }

    @Test func everyDocumentedCommandParses() throws {
        let commands = try Self.allCommands()
        #expect(commands.count >= 50, "found only \(commands.count) command lines: is the extraction broken?")
        let files = Set(commands.map(\.file))
        for required in ["README.md", "docs/guide-live.md", "docs/guide-reproduce.md", "docs/guide-tune.md"] {
            #expect(files.contains(required), "no command found in \(required)")
        }
        for command in commands {
            if let failure = Self.parseFailure(command.arguments) {
                Issue.record("\(command) does not parse: \(failure)")
            }
        }
    }

    /// The README's first code block holds exactly the two commands a newcomer runs.
    @Test func readmeOpensWithTheTwoCommands() throws {
        let readme = try String(contentsOf: Self.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.components(separatedBy: "\n")
        #expect(lines.count < 150, "README.md has \(lines.count) lines")
        let open = try #require(lines.firstIndex { $0.hasPrefix("```") })
        let close = try #require(lines[(open + 1)...].firstIndex { $0.hasPrefix("```") })
        #expect(Array(lines[(open + 1)..<close]) == [
            "scripts/setup-debian && swift run pinchlab replay Fixtures/corpus/touchpad/pinch-in-slow-finish-01.evemu --transition pinch-dismiss",
            "swift test",
        ])
        let ci = try String(contentsOf: Self.packageRoot.appendingPathComponent(".ci/run"), encoding: .utf8)
        #expect(ci.components(separatedBy: "\n").contains("swift test"), ".ci/run runs the README's test command")
    }

    /// The check can fail: a misspelt flag, an unknown subcommand or value, found in a document.
    @Test func aMisspeltFlagFails() throws {
        let text = """
        Prose with `pinchlab replay FILE --transiton pan-dismiss` inline is not a command line.

        ```sh
        pinchlab replay bug.evemu --transition pan-dismiss   # fine
        pinchlab replay bug.evemu --explian
        pinchlab replai bug.evemu
        xz -dc bug.evemu.xz | pinchlab replay - --policy gnom
        pinchlab plot bug.evemu -o bug.svg \\
            --transiton pan-dismiss
        ```
        """
        let commands = Self.commands(in: text, file: "test.md")
        #expect(commands.map(\.line) == [4, 5, 6, 7, 8])
        #expect(commands[3].arguments == ["replay", "-", "--policy", "gnom"])
        #expect(commands[4].arguments == ["plot", "bug.evemu", "-o", "bug.svg", "--transiton", "pan-dismiss"])
        let failures = commands.map { Self.parseFailure($0.arguments) }
        #expect(failures[0] == nil)
        for index in 1..<commands.count {
            #expect(failures[index] != nil, "\(commands[index]) should not parse")
        }
        #expect(failures[1]?.contains("--explian") == true, "\(failures[1] ?? "")")
        #expect(failures[4]?.contains("--transiton") == true, "\(failures[4] ?? "")")
    }
}
