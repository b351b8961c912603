import Foundation
import PinchlabTestSupport
import Testing

/// Issue #42: a manifest of 300,000 entries made `check` take 1.93 GB, 6.4 kB an entry and 62 times
/// the manifest's bytes. Every command that reads a manifest takes memory by the manifest's bytes:
/// its peak resident set grows by at most `bytesPerManifestByte` for each byte the manifest gains.
/// The peak is the child's own (GNU time reports `wait4`'s `ru_maxrss` of the one process it ran,
/// whatever other tests run beside it); two manifests of the same entries, 1,000 and 20,000 of
/// them, cancel what any run takes anyway (the binary, the Swift runtime, the threads' stacks).
@Suite(.blocking, .serialized) struct ManifestMemoryCLITests {
    /// What the commands reach is under 8 (`check` 6.6 in a debug build, 7.1 in a release one;
    /// `label` 4.3); the reader and the results before issue #42 took 70.
    static let bytesPerManifestByte = 16.0
    static let smallEntries = 1_000
    static let bigEntries = 20_000

    @Test(.needs(.gnuTime)) func checkTakesMemoryByTheManifestsBytes() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var runs: [(bytes: Int, peak: Int)] = []
        for count in [Self.smallEntries, Self.bigEntries] {
            let manifest = directory.appendingPathComponent("manifest-\(count).json").path
            let bytes = try Self.writeManifest(entries: count, to: manifest)
            let run = try PeakMemory.run(["check", manifest])
            let (result, peak) = (run.result, run.peakBytes)
            // Every recording is missing: each entry is read, replayed and reported as unreadable.
            #expect(result.status == 65, "\(result.stderr)")
            #expect(result.lines.last == "\(count) files: 0 match, \(count) unreadable", "\(result.lines.suffix(2))")
            runs.append((bytes, peak))
        }
        try Self.expectGrowthWithinBound(runs, "check")
    }

    /// `label` reads the whole manifest, adds an entry and writes it all again.
    @Test(.needs(.gnuTime)) func labelIntoABigManifestTakesMemoryByItsBytes() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let recording = CLI.fixture("corpus/touchpad/pinch-in-slow-finish-01.evemu")
        var runs: [(bytes: Int, peak: Int)] = []
        for count in [Self.smallEntries, Self.bigEntries] {
            let manifest = directory.appendingPathComponent("manifest-\(count).json").path
            let bytes = try Self.writeManifest(entries: count, to: manifest)
            let run = try PeakMemory.run(["label", recording, "--corpus", manifest, "--expect", "pinch:2", "--direction", "in"])
            let (result, peak) = (run.result, run.peakBytes)
            #expect(result.status == 0, "\(result.stderr)")
            let written = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: manifest))) as? [String: Any]
            #expect((written?["entries"] as? [Any])?.count == count + 1, "the label is added to every entry already there")
            runs.append((bytes, peak))
        }
        try Self.expectGrowthWithinBound(runs, "label")
    }

    /// The peak grew by at most `bytesPerManifestByte` for each byte the bigger manifest has more.
    static func expectGrowthWithinBound(_ runs: [(bytes: Int, peak: Int)], _ command: String) throws {
        try #require(runs.count == 2)
        let perByte = Double(runs[1].peak - runs[0].peak) / Double(runs[1].bytes - runs[0].bytes)
        #expect(perByte <= bytesPerManifestByte,
                """
                \(command): the peak resident set grew by \(perByte) bytes for each byte of manifest \
                (\(runs[0].peak >> 20) MiB for \(runs[0].bytes) bytes, \(runs[1].peak >> 20) MiB for \(runs[1].bytes) bytes)
                """)
    }

    /// A manifest of `count` entries whose recordings do not exist; returns its size in bytes.
    static func writeManifest(entries count: Int, to path: String) throws -> Int {
        var text = #"{"description": "generated", "entries": ["#
        for index in 0..<count {
            text += (index == 0 ? "\n" : ",\n")
                + #"  {"file": "missing/\#(index).evemu", "expect": [{"kind": "pinch", "fingers": 2, "direction": "in"}]}"#
        }
        text += "\n]}\n"
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        return text.utf8.count
    }
}
