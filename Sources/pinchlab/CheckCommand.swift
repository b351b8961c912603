import ArgumentParser
import Foundation
import GestureLab
import GestureTools
import LibinputHarness
import LabReports

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Replay every labelled recording of a corpus and report each that pinchlab gets wrong.",
        usage: "pinchlab check <corpus> [--json] [--strict] [<options>]",
        discussion: """
        Each entry of CORPUS's manifest is replayed through its transition (with --config's settings, \
        else the defaults) and compared with its label: the gestures in order (kind, fingers, and the \
        direction where the label gives one) and the outcome of the trial each started. One line per \
        file that does not match, then a total. An entry marked "knownMismatch" (with the reason) is \
        reported apart and is not a failure, until it matches: then it fails, so the stale marker is \
        removed. A file that matches within a small margin of failing is listed as fragile, with the \
        margin: the decision its label rests on (the rule that began a gesture; the release, for a \
        labelled outcome) came within 10% of its setting's usual range of going the other way, or \
        within one frame of a time limit, and replayed with that setting moved just past the margin \
        the file fails its label (the line says what it would read as). CORPUS is a directory holding manifest.json (or with one \
        subdirectory that does) or a manifest file.

        Exit status: 0 when every file matches, 1 when any does not (or, with --strict, is fragile), \
        65 for a bad manifest or a recording that cannot be read.

        Examples:
          pinchlab check Fixtures/corpus
          pinchlab check Fixtures/real-recordings.json --junit check.xml
          pinchlab check mycorpus --config tuned.json --json
          pinchlab check mycorpus --strict
          pinchlab check mycorpus --tool touchegg --tool-config touchegg.conf

        With --tool, the corpus is scored under that gesture tool instead (each label in the tool's \
        words: a `pan` 3 fingers `left` is touchegg's SWIPE LEFT 3, lisgd's 3 RL; \
        docs/reference/tools.md), fed by pinchlab's recognizer in libinput's units.
        """
    )

    @Argument(help: "A corpus directory (with manifest.json) or a manifest file.", completion: .file(extensions: ["json"]))
    var corpus: String

    @Option(help: ArgumentHelp("Settings to replay with (a settings file; default: the shipped defaults).", valueName: "file"), completion: .file(extensions: ["json"]))
    var config: String?

    @Option(help: ArgumentHelp("Also write a JUnit XML report here (one testcase per file).", valueName: "file"), completion: .file(extensions: ["xml"]))
    var junit: String?

    @Flag(help: "Print one JSON object: the totals and every file's status, expectation and replay.")
    var json = false

    @Flag(help: "Fail a fragile file (one that matches within a small margin of failing) as a mismatch fails.")
    var strict = false

    @OptionGroup var toolOptions: ToolOptions

    struct Report: Encodable {
        struct File: Encodable {
            var file: String
            var status: CheckResult.Status
            var expected: String
            var got: String?
            var knownMismatch: String?
            var error: String?
            var fragile: Fragile?
        }
        /// A fragile file's decision: which gesture of the label (from 0), what decided, its margin,
        /// and what the replay read with the setting moved just past the margin.
        struct Fragile: Encodable {
            var gesture: Int
            var decision: String
            var key: String
            var value: Double
            var threshold: Double
            var unit: String
            var normalized: Double?
            var wouldRead: String

            init(_ fragile: FragileDecision) {
                let labelled = fragile.labelled
                gesture = labelled.gesture
                switch labelled.decision {
                case .began(let rule): decision = rule.rawValue
                case .release: decision = "release"
                }
                key = labelled.margin.key
                value = rounded(labelled.margin.value)
                threshold = labelled.margin.threshold
                unit = labelled.margin.unit
                normalized = labelled.margin.normalized.map(rounded)
                wouldRead = RecognizedGesture.text(of: fragile.becomes)
            }
        }
        var corpus: String
        var files: Int
        var matched: Int
        var mismatched: Int
        var knownMismatches: Int
        var unexpectedMatches: Int
        var unreadable: Int
        /// Matches within a small margin of failing (counted among `matched`).
        var fragile: Int
        var results: [File]
    }

    func run() throws {
        let verdict: Verdict = try reportingErrors {
            let location = try CorpusFiles.locate(corpus)
            let manifest = try CorpusFiles.loadManifest(at: location)
            let settings = config == nil ? LabSettings.default : try LabSettingsFile.load(path: config!)
            if !toolOptions.tools.isEmpty { return try checkTools(manifest, at: location, settings: settings) }
            if let junit {
                // The manifest, every recording it lists and the settings are this run's inputs.
                let inputs = location.inputPaths(of: manifest.entries) + (config.map { [$0] } ?? [])
                try OutputFile.refuse(junit, option: "--junit", overwriting: inputs, doing: "writing the JUnit report over it")
            }
            let results = try CorpusCheck.run(manifest, at: location, settings: settings)
            if let junit {
                let xml = JUnitReport.xml(suite: location.manifestPath, results: results, strict: strict, message: Self.message)
                try OutputFile.write(xml, to: junit, what: "JUnit report")
            }
            let totals = CorpusCheck.totals(results)
            let fragile = results.filter { $0.fragile != nil }
            if json {
                try JSONLineWriter().write(Report(
                    corpus: location.manifestPath, files: results.count, matched: totals[.match] ?? 0,
                    mismatched: totals[.mismatch] ?? 0, knownMismatches: totals[.knownMismatch] ?? 0,
                    unexpectedMatches: totals[.unexpectedMatch] ?? 0, unreadable: totals[.unreadable] ?? 0,
                    fragile: fragile.count,
                    results: results.map { result in
                        Report.File(file: result.entry.file, status: result.status, expected: result.entry.expectationText,
                                    got: result.recognizedText,
                                    knownMismatch: result.entry.knownMismatch,
                                    error: result.error.map { "\($0)" }, fragile: result.fragile.map(Report.Fragile.init))
                    }))
            } else {
                for result in results where result.status != .match && result.status != .knownMismatch {
                    try printLine(oneLine(result.entry.file) + ": " + Self.message(result))
                }
                let known = results.filter { $0.status == .knownMismatch }
                if !known.isEmpty {
                    try printLine("known mismatches (not failures):")
                    for result in known { try printLine("  " + oneLine(result.entry.file) + ": " + Self.message(result)) }
                }
                if !fragile.isEmpty {
                    try printLine(strict ? "fragile (failures with --strict):" : "fragile (matching within a small margin of failing):")
                    for result in fragile {
                        guard let decision = result.fragile else { continue }
                        try printLine("  " + oneLine(result.entry.file) + ": " + Self.fragileText(decision, of: result))
                    }
                }
                var parts = ["\(totals[.match] ?? 0) match" + (fragile.isEmpty ? "" : " (\(fragile.count) fragile)")]
                if let n = totals[.mismatch] { parts.append("\(n) mismatch" + (n == 1 ? "" : "es")) }
                if let n = totals[.knownMismatch] { parts.append("\(n) known mismatch" + (n == 1 ? "" : "es")) }
                if let n = totals[.unexpectedMatch] { parts.append("\(n) marked as known mismatch" + (n == 1 ? "" : "es") + " but matching") }
                if let n = totals[.unreadable] { parts.append("\(n) unreadable") }
                try printLine("\(results.count) file\(results.count == 1 ? "" : "s"): " + parts.joined(separator: ", "))
            }
            if results.contains(where: { $0.status == .unreadable }) { return .unreadable }
            return results.contains { $0.fails(strict: strict) } ? .mismatch : .allMatch
        }
        switch verdict {
        case .allMatch: return
        // 1, as a test runner exits when a test fails (not pinchlab's internal-error meaning of 1).
        case .mismatch: throw ExitCode(1)
        case .unreadable: throw ExitStatus.badData.exitCode
        }
    }

    enum Verdict { case allMatch, mismatch, unreadable }

    /// `--tool`: the corpus scored under each tool named, one block each.
    private func checkTools(_ manifest: CorpusManifest, at location: CorpusLocation, settings: LabSettings) throws -> Verdict {
        let units = toolOptions.units(installed: LibinputBridge.installedVersion())
        let tools = try toolOptions.settings()
        if junit != nil && tools.count > 1 { throw ValidationError("--junit with --tool scores one tool: name one") }
        var all: [ToolCheckResult] = []
        var reports: [ToolReport] = []
        for tool in tools {
            let results = try ToolCorpusCheck.run(manifest, at: location, settings: settings, tool: tool, units: units)
            all += results
            if let junit {
                let inputs = location.inputPaths(of: manifest.entries) + (config.map { [$0] } ?? []) + toolOptions.toolConfigs
                try OutputFile.refuse(junit, option: "--junit", overwriting: inputs, doing: "writing the JUnit report over it")
                try OutputFile.write(ToolCheckText.junit(suite: location.manifestPath, tool: tool.name, results: results, strict: strict), to: junit,
                                     what: "JUnit report")
            }
            if json {
                reports.append(ToolReport(tool: tool.name.rawValue, libinput: units.version.description, corpus: location.manifestPath,
                                          results: results))
                continue
            }
            let from = "fed by pinchlab's recognizer in libinput \(units.version)'s units"
            try printLine("\(tool.name.rawValue) (\(from)):")
            for result in results where result.status == .mismatch || result.status == .unreadable {
                try printLine("  " + oneLine(result.entry.file) + ": " + ToolCheckText.message(result))
            }
            let fragile = results.filter { $0.fragile != nil }
            if !fragile.isEmpty {
                try printLine(strict ? "  fragile (failures with --strict):" : "  fragile (matching within a small margin of failing):")
                for result in fragile { try printLine("    " + oneLine(result.entry.file) + ": " + (result.fragile?.text ?? "")) }
            }
            try printLine(ToolCheckText.totals(tool.name, results))
        }
        // One JSON line a tool, in the order named: the same shape for one tool or several.
        if json {
            let writer = JSONLineWriter()
            for report in reports { try writer.write(report) }
        }
        if all.contains(where: { $0.status == .unreadable }) { return .unreadable }
        return all.contains { $0.status == .mismatch || (strict && $0.fragile != nil) } ? .mismatch : .allMatch
    }

    /// `check --tool --json`: one object per tool.
    struct ToolReport: Encodable {
        struct File: Encodable {
            var file: String
            var status: ToolCheckResult.Status
            var expected: [String]
            var fired: [FiredGesture]
            var error: String?
            var fragile: Bool
        }
        var tool: String
        var libinput: String
        var corpus: String
        var files: Int
        var matched: Int
        var mismatched: Int
        var notApplicable: Int
        var unreadable: Int
        var results: [File]

        init(tool: String, libinput: String, corpus: String, results: [ToolCheckResult]) {
            self.tool = tool
            self.libinput = libinput
            self.corpus = corpus
            files = results.count
            matched = results.filter { $0.status == .match }.count
            mismatched = results.filter { $0.status == .mismatch }.count
            notApplicable = results.filter { $0.status == .notApplicable }.count
            unreadable = results.filter { $0.status == .unreadable }.count
            self.results = results.map {
                File(file: $0.entry.file, status: $0.status, expected: $0.expected.map(\.text), fired: $0.fired,
                     error: $0.error.map { "\($0)" }, fragile: $0.fragile != nil)
            }
        }
    }

    /// "the pinch began (opposing-fingers) 12.3° above pinchOpposingMinimumAngleDegrees 135°, 6.8%
    /// of its usual range: past it, would read as pan 2 fingers, none"; for a time, "..., within one
    /// frame (8.3 ms): ...".
    static func fragileText(_ fragile: FragileDecision, of result: CheckResult) -> String {
        let labelled = fragile.labelled
        // "the 2nd pinch" where the label has several of its kind.
        let expected = result.entry.expectedGestures
        let sameKind = expected.filter { $0.kind == labelled.kind }.count
        let nth = expected.prefix(labelled.gesture + 1).filter { $0.kind == labelled.kind }.count
        let gesture = "the " + (sameKind > 1 ? "\(ordinal(nth)) " : "") + labelled.kind.rawValue
        let what = switch labelled.decision {
        case .began(let rule): "\(gesture) began (\(rule.rawValue))"
        case .release: "\(gesture)'s release decided"
        }
        let small = switch fragile.smallness {
        case .withinFrame(let ms): "within one frame (\(FixedPoint.string(ms, decimals: 1)) ms)"
        case .fraction(let fraction): "\(FixedPoint.string(fraction * 100, decimals: 1))% of its usual range"
        }
        return "\(what) \(labelled.margin.distanceText), \(small): past it, would read as "
            + RecognizedGesture.text(of: fragile.becomes)
    }

    private static func ordinal(_ n: Int) -> String {
        let suffix = switch n % 10 {
        case _ where (11...13).contains(n % 100): "th"
        case 1: "st"
        case 2: "nd"
        case 3: "rd"
        default: "th"
        }
        return "\(n)\(suffix)"
    }

    /// What a file's line says after its name.
    static func message(_ result: CheckResult) -> String {
        let mismatch = result.mismatchText ?? ""
        switch result.status {
        case .match:
            guard let fragile = result.fragile else { return "matches: " + result.entry.expectationText }
            return "fragile: " + fragileText(fragile, of: result)
        case .mismatch: return mismatch
        case .knownMismatch: return mismatch + " (known: " + oneLine(result.entry.knownMismatch ?? "") + ")"
        case .unexpectedMatch:
            return "matches its label now but is marked as a known mismatch (\(oneLine(result.entry.knownMismatch ?? ""))): "
                + "remove \"knownMismatch\" from its entry"
        case .unreadable: return "cannot be replayed: " + oneLine(result.error.map { "\($0)" } ?? "")
        }
    }
}
