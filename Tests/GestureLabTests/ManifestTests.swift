import Foundation
import InteractiveTransition
import Testing
@testable import GestureLab

/// The manifest's reader, writer and JSON Schema agree.
@Suite struct ManifestTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The schema in the repository lists exactly the keys and values the reader accepts.
    @Test func theSchemaMatchesTheReader() throws {
        let data = try Data(contentsOf: Self.root.appendingPathComponent("Fixtures/manifest.schema.json"))
        let schema = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let defs = try #require(schema["$defs"] as? [String: Any])
        func properties(_ object: Any?) throws -> [String: Any] {
            try #require((object as? [String: Any])?["properties"] as? [String: Any])
        }
        func values(_ object: Any?) -> Set<String> { Set(((object as? [String: Any])?["enum"] as? [String]) ?? []) }
        #expect(Set(try properties(schema).keys) == Set(ManifestReader.manifestKeys))
        let entry = try properties(defs["entry"])
        #expect(Set(entry.keys) == Set(ManifestReader.entryKeys))
        #expect(values(entry["transition"]) == Set(TransitionName.allCases.map(\.rawValue)))
        #expect(values(entry["device"]) == Set(CorpusEntry.Device.allCases.map(\.rawValue)))
        let expectation = try properties(defs["expectation"])
        #expect(Set(expectation.keys) == Set(ManifestReader.expectationKeys))
        #expect(values(expectation["kind"]) == Set(GestureExpectation.Kind.allCases.map(\.rawValue)))
        #expect(values(expectation["direction"]) == Set(GestureExpectation.Direction.allCases.map(\.rawValue)))
        #expect(values(expectation["outcome"]) == Set(GestureExpectation.Outcome.allCases.map(\.rawValue)))
    }

    /// What `save` writes, the reader reads back the same, seeds past 2^53 included.
    @Test func saveThenLoadRoundTrips() throws {
        var entries = Array(StandardCorpus.entries().prefix(3))
        entries[0].seed = UInt64.max - 1
        entries[1].notes = "2 contacts, 38 mm down"
        entries[1].knownMismatch = "a reason"
        entries.append(CorpusEntry(file: "/abs/path/x.evemu", transition: "pan-dismiss",
                                   expect: [GestureExpectation(kind: .pan, fingers: 1, direction: .down),
                                            GestureExpectation(kind: .hold, fingers: 2)]))
        let manifest = CorpusManifest(description: "test", entries: entries)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pinchlab-manifest-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let location = CorpusLocation(manifestPath: path)
        try CorpusFiles.save(manifest, to: location)
        let read = try CorpusFiles.loadManifest(at: location)
        #expect(read.entries == entries)
        #expect(location.path(of: "/abs/path/x.evemu") == "/abs/path/x.evemu")
        #expect(location.path(of: "x.evemu") == location.directory + "/x.evemu")
    }

    /// The writer splices each entry's encoding into the manifest's head to keep memory by the
    /// entries: its bytes are JSONEncoder's for the whole manifest (the generated corpus, with its
    /// synthesis and recipes, and hand-written entries with odd strings), ending in a line break.
    @Test func theWriterWritesWhatJSONEncoderWrites() throws {
        let generated = CorpusManifest(generatorVersion: CorpusManifest.currentGeneratorVersion,
                                       synthesis: .current(devices: CorpusEntry.Device.allCases),
                                       entries: Array(StandardCorpus.entries().prefix(5)))
        var odd = CorpusEntry(file: "a/\"quoted\"\n\u{202E}.evemu", transition: "pan-dismiss",
                              expect: [GestureExpectation(kind: .none)], notes: "entries: [\"not\", \"a key\"]")
        odd.deviceConfiguration = OwnerDeviceConfiguration(scrollMethod: .edge)
        let handWritten = CorpusManifest(description: "hand \u{0}entries", entries: [odd])
        for manifest in [generated, handWritten, CorpusManifest(entries: [])] {
            let whole = Array(try ManifestWriting.encoder().encode(manifest)) + [UInt8(ascii: "\n")]
            #expect(try ManifestWriting.bytes(of: manifest) == whole)
        }
    }

    /// A problem is placed at its line and column: the key for an unknown key, the value for a
    /// wrong one, the entry's object for a key left out.
    @Test(arguments: [
        (#"""
         {"entries": [
           {"file": "a.evemu", "expect": [{"kind": "pinch"}]},
           {"file": "b.evemu", "expect": [{"kind": "pinch", "fingres": 2}]}
         ]}
         """#, "expect[0].fingres", #""fingres""#),
        (#"""
         {"entries": [
           {"file": "c.evemu",
            "expect": [{"kind": "pan", "direction": "in"}]}
         ]}
         """#, "expect[0].direction", #""in""#),
        (#"""
         {"entries": [
           {"file": "a.evemu", "expect": []},
           {"file": "d.evemu"}
         ]}
         """#, "expect", #"{"file": "d"#),
    ])
    func aProblemNamesItsLineAndColumn(manifest: String, key: String, pointedAt: String) throws {
        let error = try #require(throws: ManifestError.self) { try ManifestReader.read(Array(manifest.utf8), path: "m.json") }
        let lines = manifest.split(separator: "\n", omittingEmptySubsequences: false)
        let line = try #require(lines.firstIndex { $0.contains(pointedAt) })
        let column = try #require(Array(lines[line].utf8).firstRange(of: Array(pointedAt.utf8))).lowerBound + 1
        #expect((error.line, error.column, error.key) == (line + 1, column, key))
        #expect(error.description.hasPrefix("m.json:\(line + 1):\(column): entry "), "\(error)")
    }

    @Test func relativePathsForFilesNearTheManifest() {
        let location = CorpusLocation(manifestPath: "/work/project/Fixtures/labels.json")
        #expect(location.manifestFile(for: "/work/project/Fixtures/a/b.evemu") == "a/b.evemu")
        #expect(location.manifestFile(for: "/work/shared/recordings/c.evemu") == "../../shared/recordings/c.evemu")
        #expect(location.manifestFile(for: "/elsewhere/d.evemu") == "/elsewhere/d.evemu")
    }
}
