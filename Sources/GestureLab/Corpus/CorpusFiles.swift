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
            entries: entries)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try (encoder.encode(manifest) + Data("\n".utf8)).write(to: URL(fileURLWithPath: directory + "/" + manifestName))
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
