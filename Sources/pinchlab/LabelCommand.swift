import ArgumentParser
import Foundation
import GestureCore
import GestureKit
import GestureLab
import InteractiveTransition

/// `KIND[:FINGERS]`: `pinch:2`, `pan:1`, `hold:1`, `none`.
struct ExpectArgument: ExpressibleByArgument {
    var kind: GestureExpectation.Kind
    var fingers: Int?

    init?(argument: String) {
        let parts = argument.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let kind = GestureExpectation.Kind(rawValue: String(parts[0])) else { return nil }
        self.kind = kind
        if parts.count == 2 {
            guard kind != .none, let fingers = Int(parts[1]), (1...TouchFrame.capacity).contains(fingers) else { return nil }
            self.fingers = fingers
        }
    }

    static var allValueStrings: [String] { ["pinch:2", "pan:2", "pan:1", "hold:1", "none"] }
    static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}

extension GestureExpectation.Direction: ExpressibleByArgument {}
extension GestureExpectation.Outcome: ExpressibleByArgument {}

struct LabelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "label",
        abstract: "Add or update recordings' labels in a corpus manifest, or propose one from a replay.",
        usage: """
            pinchlab label <files> ... --corpus <dir> --expect <kind> [<options>]
              pinchlab label --from-replay <file> [--corpus <dir> --yes]
              pinchlab label --evidence <files> ...
            """,
        discussion: """
        With --expect, each FILE gets an entry in the corpus manifest (created if missing) saying the \
        gestures a person made, in order: --expect KIND[:FINGERS] once per gesture (pinch, pan, hold, \
        or none for no gesture), with --direction and --outcome given once per --expect, in the same \
        order. A file already listed has its label replaced; its notes stay unless --notes is given. \
        Paths are written relative to the manifest when near it, else absolute, so recordings can be \
        labelled where they lie.

        --from-replay FILE proposes a label from what pinchlab recognized, for a person to confirm: \
        it is printed with the command that writes it, and written only with --yes. \
        --evidence prints a recording's own numbers (finger counts over time, each contact's path \
        in mm, two-finger spans) to label it from.

        Examples:
          pinchlab label mine/*.evemu --corpus mine --expect pinch:2 --direction in \\
              --outcome finish --transition pinch-dismiss
          pinchlab label scroll.evemu --corpus mine --expect pan:2 --direction down
          pinchlab label tap.evemu --corpus mine --expect none \\
              --notes "2 contacts, < 1 mm"
          pinchlab label --from-replay bug.evemu --corpus mine --yes
          pinchlab label --evidence bug.evemu
          pinchlab label old.desc --events old.events --corpus mine --expect pan:2

        An old split evemu recording (a .desc and a .events file) is labelled by its .desc half \
        with --events naming the other; the manifest entry keeps both ("file" and "events").
        """
    )

    @Argument(help: "The recordings to label.", completion: .file())
    var files: [String] = []

    @Option(help: ArgumentHelp("The corpus: a directory (its manifest.json) or a manifest file; created if missing.", valueName: "dir"), completion: .file(extensions: ["json"]))
    var corpus: String?

    @Option(help: ArgumentHelp("A gesture the person made, KIND[:FINGERS] (pinch:2, pan:1, hold:1, none); once per gesture, in order.",
                               valueName: "kind[:fingers]"))
    var expect: [ExpectArgument] = []

    @Option(help: ArgumentHelp("The direction of each --expect (pinch: in, out; pan: up, down, left, right), in order.", valueName: "direction"))
    var direction: [GestureExpectation.Direction] = []

    @Option(help: ArgumentHelp("The outcome of each --expect's transition trial (finish, cancel, none), in order.", valueName: "outcome"))
    var outcome: [GestureExpectation.Outcome] = []

    @Option(help: ArgumentHelp("The transition the file is replayed through (default: pan-dismiss for a pan, else pinch-dismiss).",
                               valueName: "name"))
    var transition: TransitionName?

    @Option(name: .customLong("events"), help: ArgumentHelp(
        "The .events half of an old split evemu recording (FILE, only one, is the .desc half); written to the entry's \"events\".",
        valueName: "file"))
    var eventsFile: String?

    @Option(help: ArgumentHelp("What the person did, in words (e.g. \"two-finger scroll\").", valueName: "text"))
    var gesture: String?

    @Option(help: ArgumentHelp("The evidence behind the label (e.g. \"2 contacts, 38 mm parallel travel down\").", valueName: "text"))
    var notes: String?

    @Option(name: .customLong("known-mismatch"),
            help: ArgumentHelp("Mark the file as one pinchlab is known to get wrong, saying why (\"\" removes the mark).", valueName: "why"))
    var knownMismatch: String?

    @Option(name: .customLong("from-replay"), help: ArgumentHelp("Propose a label for this file from what pinchlab recognizes.", valueName: "file"), completion: .file())
    var fromReplay: String?

    @Flag(help: "With --from-replay: write the proposed label (without it, only print it).")
    var yes = false

    @Flag(help: "Print each FILE's own numbers: finger counts over time, contact paths in mm, two-finger spans.")
    var evidence = false

    func validate() throws {
        if evidence {
            guard !files.isEmpty else { throw ValidationError("--evidence needs at least one FILE") }
            return
        }
        if let fromReplay {
            guard files.isEmpty, expect.isEmpty else {
                throw ValidationError("--from-replay proposes a label for one file: give no FILE arguments and no --expect")
            }
            guard !yes || corpus != nil else { throw ValidationError("--yes writes the label into --corpus DIR: name one") }
            _ = fromReplay
            return
        }
        guard !files.isEmpty else { throw ValidationError("name the recordings to label (or use --from-replay FILE, or --evidence FILE)") }
        if eventsFile != nil && files.count != 1 {
            throw ValidationError("--events is the .events half of one split recording: give its .desc half as the only FILE")
        }
        guard corpus != nil else { throw ValidationError("--corpus DIR names the manifest to write the labels into") }
        guard !expect.isEmpty else {
            throw ValidationError("--expect KIND[:FINGERS] says what the person did (e.g. --expect pinch:2, or --expect none)")
        }
        if expect.count > 1 && expect.contains(where: { $0.kind == .none }) {
            throw ValidationError("--expect none means no gesture at all: it cannot be combined with other --expect")
        }
        for (name, count) in [("--direction", direction.count), ("--outcome", outcome.count)] where count != 0 && count != expect.count {
            throw ValidationError("\(name) is given \(count) times for \(expect.count) --expect: give it once per --expect, in order")
        }
        for (index, direction) in direction.enumerated() {
            let kind = expect[index].kind
            guard (kind == .pinch && direction.isPinch) || (kind == .pan && !direction.isPinch) else {
                throw ValidationError("--direction \(direction.rawValue) does not fit --expect \(kind.rawValue) "
                                      + "(pinch: in, out; pan: up, down, left, right; none for a hold)")
            }
        }
        if yes { throw ValidationError("--yes only confirms a --from-replay proposal") }
    }

    func run() throws {
        try reportingErrors {
            if evidence {
                for (index, file) in files.enumerated() {
                    var source = try openRecording(path: file)
                    let measured = try RecordingEvidence.measure(&source)
                    if index > 0 { try printLine("") }
                    try printLine(oneLine(recordingDisplayName(file)) + ":")
                    for line in measured.lines() { try printLine("  " + line) }
                }
                return
            }
            if let fromReplay {
                try propose(for: fromReplay)
                return
            }
            let expectations = expect.enumerated().map { index, argument in
                GestureExpectation(kind: argument.kind, fingers: argument.fingers,
                                   direction: direction.isEmpty ? nil : direction[index],
                                   outcome: outcome.isEmpty ? nil : outcome[index])
            }
            for file in files {
                // Read it now: a label for a file that is not a recording would fail every check.
                var source = try openRecording(path: file, secondPath: eventsFile)
                if (source as? EvemuReader)?.holdsOnlyADescription == true {
                    printError("pinchlab: warning: \(SplitRecording.descriptionOnlyHint(recordingDisplayName(file), path: file))")
                }
                while try source.nextEvent() != nil {}
            }
            let (location, written) = try write(expectations, for: files)
            for (file, added) in written {
                try printLine("\(added ? "added" : "updated") \(oneLine(file)): " + describe(expectations) + " in \(location.manifestPath)")
            }
        }
    }

    private func describe(_ expectations: [GestureExpectation]) -> String {
        let gestures = expectations.filter { $0.kind != .none }
        return gestures.isEmpty ? "no gesture" : gestures.map(\.text).joined(separator: ", then ")
    }

    /// Adds or replaces the files' entries; returns each file as the manifest names it and whether it is new.
    private func write(_ expectations: [GestureExpectation], for files: [String]) throws -> (CorpusLocation, [(String, Bool)]) {
        let location = try corpusLocation()
        try OutputFile.refuse(location.manifestPath, option: "--corpus", overwriting: files,
                              doing: "writing the manifest over it")
        // Read, changed and written under the corpus's lock: labels run together all land.
        return try CorpusFiles.withManifestLock(location) { try write(expectations, for: files, at: location) }
    }

    private func write(_ expectations: [GestureExpectation], for files: [String], at location: CorpusLocation) throws
        -> (CorpusLocation, [(String, Bool)]) {
        var manifest: CorpusManifest
        if FileManager.default.fileExists(atPath: location.manifestPath) {
            manifest = try CorpusFiles.loadManifest(at: location)
        } else {
            manifest = CorpusManifest(description: "Labelled recordings (pinchlab label).", entries: [])
        }
        let defaultTransition = expectations.first?.kind == .pan ? TransitionName.panDismiss : .pinchDismiss
        var written: [(String, Bool)] = []
        for file in files {
            let name = location.manifestFile(for: file)
            let target = URL(fileURLWithPath: location.path(of: name)).standardizedFileURL.path
            let existing = manifest.entries.firstIndex {
                URL(fileURLWithPath: location.path(of: $0.file)).standardizedFileURL.path == target
            }
            var entry = existing.map { manifest.entries[$0] }
                ?? CorpusEntry(file: name, transition: defaultTransition.rawValue, expect: expectations)
            // Without --transition an entry keeps its transition while it stays the same kind of
            // gesture; relabelled as another kind it gets that kind's default.
            let sameKind = entry.expect.first?.kind == expectations.first?.kind
            entry.transition = transition?.rawValue ?? (sameKind ? entry.transition : defaultTransition.rawValue)
            entry.expect = expectations
            if let gesture { entry.gesture = gesture }
            if let notes { entry.notes = notes }
            if let knownMismatch { entry.knownMismatch = knownMismatch.isEmpty ? nil : knownMismatch }
            // The pair stays a pair: an entry is the .desc half with its .events half, or one file.
            if let eventsFile, files.count == 1 { entry.events = location.manifestFile(for: eventsFile) }
            if let existing { manifest.entries[existing] = entry } else { manifest.entries.append(entry) }
            written.append((name, existing == nil))
        }
        try CorpusFiles.save(manifest, to: location)
        return (location, written)
    }

    private func corpusLocation() throws -> CorpusLocation {
        guard let corpus else { throw CLIError(status: .usage, message: "--corpus DIR names the manifest to write into") }
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: corpus, isDirectory: &isDirectory)
        if exists && !isDirectory.boolValue { return CorpusLocation(manifestPath: corpus) }
        if !exists && corpus.hasSuffix(".json") { return CorpusLocation(manifestPath: corpus) }
        let directory = corpus.count > 1 && corpus.hasSuffix("/") ? String(corpus.dropLast()) : corpus
        return CorpusLocation(manifestPath: directory + "/" + CorpusFiles.manifestName)
    }

    /// Replays `file` and prints the label its recognized gestures make; writes it with --yes.
    private func propose(for file: String) throws {
        let name = transition?.rawValue ?? TransitionName.pinchDismiss.rawValue
        var source = try openRecording(path: file)
        let probe = CorpusEntry(file: file, transition: name, expect: [])
        let (score, _) = try CorpusRunner.score(file: file, source: &source, entry: probe, settings: .default)
        let proposed = score.recognized.map {
            GestureExpectation(kind: $0.kind, fingers: $0.fingers, direction: $0.direction, outcome: $0.outcome)
        }
        let expectations = proposed.isEmpty ? [GestureExpectation(kind: .none)] : proposed
        try printLine("pinchlab recognized in \(oneLine(recordingDisplayName(file))) (\(name)): " + describe(expectations))
        var command = ["pinchlab", "label", shellQuoted(file), "--corpus", shellQuoted(corpus ?? "DIR"), "--transition", name]
        for e in expectations {
            command += ["--expect", e.kind.rawValue + (e.fingers.map { ":\($0)" } ?? "")]
        }
        if expectations.allSatisfy({ $0.direction != nil }) { command += expectations.flatMap { ["--direction", $0.direction!.rawValue] } }
        if expectations.allSatisfy({ $0.outcome != nil && $0.kind != .none }) { command += expectations.flatMap { ["--outcome", $0.outcome!.rawValue] } }
        guard yes else {
            try printLine("a proposal only, from pinchlab itself: check it against the recording (pinchlab label --evidence FILE, "
                          + "pinchlab plot FILE), then write it with --yes, or write your own:")
            try printLine("  " + oneLine(command.joined(separator: " ")))
            return
        }
        let (location, written) = try write(expectations, for: [file])
        for (entryFile, added) in written {
            try printLine("\(added ? "added" : "updated") \(oneLine(entryFile)) in \(location.manifestPath)")
        }
    }
}

/// `text` as one shell word.
func shellQuoted(_ text: String) -> String {
    let safe = text.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || "-_./:=+,@".unicodeScalars.contains($0) }
    return safe && !text.isEmpty ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}
