import Foundation
import Testing

/// One job: compare a run's whole output (stdout, stderr and exit status) with a file under
/// `Tests/Golden/`, or write that file when `PINCHLAB_UPDATE_GOLDEN=1` (see `GoldenOutputTests`).
///
/// The text is normalised before it is compared or written, always the same way, so the files do
/// not depend on the machine: the package's path becomes `$PACKAGE`, a directory of
/// `CLI.temporaryDirectory()` (`<tmp>/pinchlab-test-<UUID>`) becomes `$TMP`, and such a directory's
/// name met without its parent (`$TMP/../pinchlab-test-<UUID>`) `$TMP_NAME`, and the libinput whose
/// units pinchlab uses by default (the installed one, else 1.22.1, as pinchlab picks it) is written
/// `libinput $LIBINPUT_VERSION` (the tools' thresholds are the same in every libinput since 1.18,
/// which changed them, so only the name differs from machine to machine); a test adds its own
/// replacements (`normalising:`) for anything else it knows varies, and says why.
enum Golden {
    static let directory = CLI.packageRoot.appendingPathComponent("Tests/Golden")
    static let updating = ProcessInfo.processInfo.environment["PINCHLAB_UPDATE_GOLDEN"] == "1"

    /// What `libinput --version` prints here, else 1.22.1: the version pinchlab takes by default.
    static let libinputVersion: String = {
        let libinput = URL(fileURLWithPath: "/usr/bin/libinput")
        guard FileManager.default.isExecutableFile(atPath: libinput.path),
              let r = try? CLI.run(["--version"], executable: libinput), r.status == 0 else { return "1.22.1" }
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }()

    /// `stdout`, a `[stderr]` line, `stderr`, then the exit status: the exit status belongs to the
    /// output, so a case that starts failing shows here too. With `running`, a `$ pinchlab ...` line
    /// first: a test that makes several runs joins their texts into one transcript.
    static func text(of r: CLI.Result, running arguments: [String]? = nil,
                     normalising replacements: KeyValuePairs<String, String> = [:]) -> String {
        let command = arguments.map { "$ " + (["pinchlab"] + $0).joined(separator: " ") + "\n" } ?? ""
        // tune's progress ("tuning: 3/6 cross-validated searches done, about 6 s left") comes every
        // few seconds off a terminal: how many lines depends on the machine's speed, so none is kept.
        let stderr = r.stderr.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !($0.hasPrefix("tuning: ") && $0.contains(" cross-validated searches done, about ")) }.joined(separator: "\n")
        return normalise(command + r.stdout + "\n[stderr]\n" + stderr + "[exit status \(r.status)]\n", replacements)
    }

    /// Runs `pinchlab arguments` and appends its text, with the command, to `transcript`.
    @discardableResult
    static func run(_ arguments: [String], into transcript: inout String, environment: [String: String]? = nil,
                    normalising replacements: KeyValuePairs<String, String> = [:]) throws -> CLI.Result {
        let r = try CLI.run(arguments, environment: environment)
        transcript += text(of: r, running: arguments, normalising: replacements)
        return r
    }

    static func normalise(_ text: String, _ replacements: KeyValuePairs<String, String> = [:]) -> String {
        var text = text
        for (from, to) in replacements { text = text.replacingOccurrences(of: from, with: to) }
        text = text.replacingOccurrences(of: CLI.packageRoot.path, with: "$PACKAGE")
        text = text.replacingOccurrences(of: "libinput \(libinputVersion)", with: "libinput $LIBINPUT_VERSION")
        let temporary = FileManager.default.temporaryDirectory.path
        // Foundation may spell the temporary directory with or without a trailing slash.
        let parent = (temporary.hasSuffix("/") ? String(temporary.dropLast()) : temporary) + "/"
        let prefix = "pinchlab-test-"
        var out = "", rest = Substring(text)
        while let range = rest.range(of: prefix) {
            out += rest[..<range.lowerBound]
            let uuid = rest[range.upperBound...].prefix(36)
            if uuid.count == 36, UUID(uuidString: String(uuid)) != nil {
                if out.hasSuffix(parent) {
                    out.removeLast(parent.count)
                    out += "$TMP"
                } else {
                    out += "$TMP_NAME"
                }
                rest = rest[range.upperBound...].dropFirst(36)
            } else {
                out += rest[range]
                rest = rest[range.upperBound...]
            }
        }
        return out + rest
    }

    /// Expects `r`'s whole output, normalised, to be `Tests/Golden/<name>.txt`.
    static func expect(_ r: CLI.Result, is name: String, normalising replacements: KeyValuePairs<String, String> = [:],
                       sourceLocation: SourceLocation = #_sourceLocation) throws {
        try expect(text(of: r, normalising: replacements), is: name, sourceLocation: sourceLocation)
    }

    /// Expects `actual` to be `Tests/Golden/<name>.txt` (for a text a test builds from several runs).
    static func expect(_ actual: String, is name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let file = directory.appendingPathComponent(name + ".txt")
        if updating {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(actual.utf8).write(to: file)
            return
        }
        let expected = try #require(try? String(contentsOf: file, encoding: .utf8),
                                    "no golden file \(file.path): run with PINCHLAB_UPDATE_GOLDEN=1 to write it",
                                    sourceLocation: sourceLocation)
        if actual != expected {
            Issue.record("""
                the output differs from Tests/Golden/\(name).txt (PINCHLAB_UPDATE_GOLDEN=1 rewrites it when the change is meant):
                \(firstDifference(expected, actual))
                """, sourceLocation: sourceLocation)
        }
    }

    /// A picture's words, for a golden file: each `<text>` element as `class: content` (its markup
    /// escapes kept, so an escape that goes missing shows), in the order drawn, then the marks drawn,
    /// each class with its count. Positions and colours are left to PlotLayoutCLITests' layout checks
    /// (and `theReadmePictureIsCurrent`, which compares a whole SVG).
    static func pictureText(ofSVG svg: String) -> String {
        var lines: [String] = [], marks: [String: Int] = [:]
        for element in svg.split(separator: "<").dropFirst() where !element.hasPrefix("/") {
            let name = element.prefix { $0 != " " && $0 != ">" }
            let tagEnd = element.firstIndex(of: ">") ?? element.endIndex
            let tag = element[..<tagEnd]
            let cls = tag.range(of: "class=\"").map { tag[$0.upperBound...].prefix { $0 != "\"" } } ?? ""
            if name == "text" {
                let content = tagEnd < element.endIndex ? element[element.index(after: tagEnd)...] : ""
                lines.append("\(cls.isEmpty ? "text" : cls): \(content)")
            } else if !cls.isEmpty {
                marks["\(name).\(cls)", default: 0] += 1
            }
        }
        return lines.joined(separator: "\n") + "\nmarks: " + marks.sorted { $0.key < $1.key }.map { "\($0.key) x\($0.value)" }
            .joined(separator: ", ") + "\n"
    }

    /// The first line that differs, both ways, with its number: enough to see what changed.
    static func firstDifference(_ expected: String, _ actual: String) -> String {
        let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
        for i in 0..<max(e.count, a.count) {
            let expectedLine = i < e.count ? String(e[i]) : "(no line)"
            let actualLine = i < a.count ? String(a[i]) : "(no line)"
            if expectedLine != actualLine {
                return "line \(i + 1):\n  expected: \(expectedLine)\n  actual:   \(actualLine)"
            }
        }
        return "(same lines, different line ends)"
    }
}
