import Foundation
import Testing

/// A user's configuration file for one gesture tool, in a fresh directory, and what
/// `tune --for TOOL --tool-config FILE --write` makes of it: each tool's tuning test starts from
/// such a file and checks that only the moved value changes.
struct ToolConfigurationUnderTune {
    /// The fresh directory the file and the tuned one are in.
    let directory: URL
    /// The file as the user wrote it.
    let original: String
    let path: String
    /// Where `tune --write` puts the tuned file: beside it, `tuned.` with the same extension.
    let tunedPath: String

    init(named name: String, _ original: String) throws {
        directory = try CLI.temporaryDirectory()
        self.original = original
        path = directory.appendingPathComponent(name).path
        tunedPath = directory.appendingPathComponent("tuned." + URL(fileURLWithPath: name).pathExtension).path
        try original.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// What `tune --for TOOL --write --json` reported and wrote.
    struct Tuned {
        let report: [String: Any]
        /// Each setting's value before and after, by key.
        let settings: [String: (before: Double?, after: Double?)]
        /// The tuned file, whole.
        let text: String

        /// The tuned file without the lines pinchlab adds to say it tuned it (they start with
        /// `notePrefix`): the user's file but for the moved value.
        func kept(droppingLinesStartingWith notePrefix: String) -> String {
            text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix(notePrefix) }.joined(separator: "\n")
        }
    }

    /// `tune CORPUS --for TOOL --tool-config FILE --write TUNED --json`, which must succeed and
    /// change the setting `key` alone.
    func tune(_ tool: String, on corpus: URL, changingAlone key: String) throws -> Tuned {
        let r = try CLI.run(["tune", corpus.path, "--for", tool, "--tool-config", path, "--write", tunedPath, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let report = try #require(try r.json(line: 0)["report"] as? [String: Any])
        #expect((report["changes"] as? [[String: Any]])?.compactMap { $0["key"] as? String } == [key])
        var settings: [String: (before: Double?, after: Double?)] = [:]
        for s in report["settings"] as? [[String: Any]] ?? [] { settings[s["key"] as? String ?? ""] = (s["before"] as? Double, s["after"] as? Double) }
        return Tuned(report: report, settings: settings, text: try String(contentsOfFile: tunedPath, encoding: .utf8))
    }
}
