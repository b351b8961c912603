import Foundation
import GestureCore
import GestureKit
import Testing
@testable import GestureLab

/// The shipped corpus (`Fixtures/corpus`) against its labels, with the shipped defaults: each
/// recording is replayed from its file, as `pinchlab replay` does, and must be recognized as the
/// labelled gesture with the labelled outcome.
@Suite struct CorpusFixtureTests {
    static let corpusDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/corpus").path

    static let entries: [CorpusEntry] = (try? CorpusFiles.loadManifest(directory: corpusDirectory).entries) ?? []

    @Test func theCorpusIsAsLargeAsPromised() throws {
        let entries = Self.entries
        #expect(entries.count >= 40)
        #expect(Set(entries.compactMap(\.device)) == Set(CorpusEntry.Device.allCases), "a touchpad and a touchscreen")
        #expect(entries.allSatisfy { $0.seed != nil && $0.recipe != nil && !($0.difficulty ?? "").isEmpty })
    }

    @Test(arguments: entries)
    func replaysAsLabelled(entry: CorpusEntry) throws {
        var source = try openRecording(path: Self.corpusDirectory + "/" + entry.file)
        var events: [InputEvent] = []
        while let event = try source.nextEvent() { events.append(event) }
        let (score, summary) = try CorpusRunner.score(file: entry.file, device: source.device, events: events,
                                                      entry: entry, settings: .default)
        #expect(score.gestureCorrect, "\(entry.file): \(score.mismatchText) (\(entry.difficulty ?? ""))")
        #expect(score.outcomeCorrect, "\(entry.file): \(score.mismatchText); policy: \(summary.reason.map { "\($0)" } ?? "no decision")")
    }

    /// The files are what the generator makes of the recipes and seeds in the manifest, byte for
    /// byte: nobody edited a recording by hand, and `pinchlab generate-corpus` reproduces them.
    @Test func theCommittedFilesAreTheGeneratorsOutput() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pinchlab-corpus-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try CorpusFiles.write(entries: Self.entries, to: directory)
        for entry in Self.entries {
            let committed = FileManager.default.contents(atPath: Self.corpusDirectory + "/" + entry.file)
            let regenerated = FileManager.default.contents(atPath: directory + "/" + entry.file)
            #expect(committed != nil && committed == regenerated, "\(entry.file) differs from its recipe's output")
        }
    }
}

extension CorpusEntry: CustomTestStringConvertible {
    public var testDescription: String { file }
}
