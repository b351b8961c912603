import Foundation
import Testing

/// One job: compare a run's whole output (stdout, stderr and exit status) with a file under
/// `Tests/Golden/`, or write that file when `PINCHLAB_UPDATE_GOLDEN=1` (see `GoldenOutputTests`).
///
/// The text is normalised before it is compared or written, always the same way, so the files do
/// not depend on the machine: the package's path becomes `$PACKAGE` and a directory of
/// `CLI.temporaryDirectory()` (`<tmp>/pinchlab-test-<UUID>`) becomes `$TMP`; a test adds its own
/// replacements (`normalising:`) for anything else it knows varies, and says why.
enum Golden {
    static let directory = CLI.packageRoot.appendingPathComponent("Tests/Golden")
    static let updating = ProcessInfo.processInfo.environment["PINCHLAB_UPDATE_GOLDEN"] == "1"

    /// `stdout`, a `[stderr]` line, `stderr`, then the exit status: the exit status belongs to the
    /// output, so a case that starts failing shows here too. With `running`, a `$ pinchlab ...` line
    /// first: a test that makes several runs joins their texts into one transcript.
    static func text(of r: CLI.Result, running arguments: [String]? = nil,
                     normalising replacements: KeyValuePairs<String, String> = [:]) -> String {
        let command = arguments.map { "$ " + (["pinchlab"] + $0).joined(separator: " ") + "\n" } ?? ""
        return normalise(command + r.stdout + "\n[stderr]\n" + r.stderr + "[exit status \(r.status)]\n", replacements)
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
        let temporary = FileManager.default.temporaryDirectory.path
        // Foundation may spell the temporary directory with or without a trailing slash.
        let base = (temporary.hasSuffix("/") ? String(temporary.dropLast()) : temporary) + "/pinchlab-test-"
        var out = "", rest = Substring(text)
        while let range = rest.range(of: base) {
            out += rest[..<range.lowerBound]
            let uuid = rest[range.upperBound...].prefix(36)
            if uuid.count == 36, UUID(uuidString: String(uuid)) != nil {
                out += "$TMP"
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
