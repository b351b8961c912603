import Foundation
import GestureKit

/// Reads and writes a corpus directory: `manifest.json` plus one recording per entry.
public enum CorpusFiles {
    public static let manifestName = "manifest.json"

    /// Writes every entry's recording (evemu) and the manifest into `directory`, creating folders.
    /// The bytes depend only on the recipes and seeds, so regenerating gives identical files.
    public static func write(entries: [CorpusEntry], to directory: String) throws {
        let fm = FileManager.default
        for entry in entries {
            guard let recipe = entry.recipe, let seed = entry.seed else { continue }
            let path = directory + "/" + entry.file
            try fm.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            let device = entry.device.description
            let writer = try makeRecordingWriter(path: path, format: .evemu, device: device)
            for event in recipe.events(on: device, seed: seed) {
                try writer.write(event)
                if event.isSynReport { try writer.flush() }
            }
            try writer.close()
        }
        let manifest = CorpusManifest(
            generatorVersion: CorpusManifest.currentGeneratorVersion,
            description: "pinchlab's labelled gesture corpus: synthesized human-like gestures on a touchpad and a "
                + "touchscreen. Regenerate with `pinchlab generate-corpus DIR`; each entry keeps its seed and recipe.",
            synthesis: .current(devices: CorpusEntry.Device.allCases),
            entries: entries)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try (encoder.encode(manifest) + Data("\n".utf8)).write(to: URL(fileURLWithPath: directory + "/" + manifestName))
    }

    /// The corpus in `directory`: the directory itself when it holds a manifest, else its one
    /// subdirectory that does (so `pinchlab tune Fixtures` finds `Fixtures/corpus`). Several
    /// candidates, or none, is an error that lists what was found.
    public static func corpusDirectory(in directory: String) throws -> String {
        let fm = FileManager.default
        if fm.fileExists(atPath: directory + "/" + manifestName) { return directory }
        let children = ((try? fm.contentsOfDirectory(atPath: directory)) ?? []).sorted()
        let candidates = children.filter { fm.fileExists(atPath: directory + "/" + $0 + "/" + manifestName) }
        switch candidates.count {
        case 1: return directory + "/" + candidates[0]
        case 0:
            throw CorpusError(path: directory + "/" + manifestName,
                              message: "no manifest: expected \(manifestName) listing the recordings and their labels, "
                                  + "here or in a subdirectory (pinchlab generate-corpus DIR writes one)")
        default:
            throw CorpusError(path: directory, message: "several corpora here (\(candidates.joined(separator: ", "))): name one, "
                                  + "e.g. \(directory)/\(candidates[0])")
        }
    }

    /// Loads `directory/manifest.json`.
    public static func loadManifest(directory: String) throws -> CorpusManifest {
        let path = directory + "/" + manifestName
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CorpusError(path: path, message: "no manifest: expected \(manifestName) listing the recordings and their labels")
        }
        do {
            return try JSONDecoder().decode(CorpusManifest.self, from: data)
        } catch {
            throw CorpusError(path: path, message: "not a corpus manifest: \(error)")
        }
    }
}

public struct CorpusError: Error, CustomStringConvertible {
    public var path: String
    public var message: String
    public var description: String { "\(path): \(message)" }
}
