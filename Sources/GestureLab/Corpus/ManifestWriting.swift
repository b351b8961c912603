import Foundation

/// A manifest's text as `CorpusFiles.save` writes it: what `JSONEncoder` writes for the whole
/// manifest (keys sorted, two-space indent), made entry by entry so that no tree of all the
/// entries' values is ever built: the head (`description`, `generatorVersion`, `synthesis`) is
/// encoded with a stand-in for `entries`, and each entry is encoded alone and indented into the
/// place of the stand-in. Writing takes the text's bytes and one entry's encoding at a time.
enum ManifestWriting {
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// The manifest's JSON text, ending in a line break.
    static func bytes(of manifest: CorpusManifest) throws -> [UInt8] {
        let encoder = encoder()
        guard !manifest.entries.isEmpty else { return Array(try encoder.encode(manifest)) + [UInt8(ascii: "\n")] }
        let head = Array(try encoder.encode(Head(manifest)))
        // A key and a string value as the encoder writes them: a quote not escaped is never inside
        // a string, so this text appears once, where the stand-in is.
        let standIn = Array(#""entries" : "\u0000entries""#.utf8)
        guard let start = head.firstRange(of: standIn) else {
            throw EncodingError.invalidValue(manifest, .init(codingPath: [], debugDescription: "the manifest's head has no entries"))
        }
        var text: [UInt8] = []
        text.reserveCapacity(head.count + manifest.entries.count * 256)
        text += head[..<start.lowerBound]
        text += Array(#""entries" : ["#.utf8)
        for (index, entry) in manifest.entries.enumerated() {
            text += Array((index == 0 ? "\n" : ",\n").utf8)
            appendIndented(try encoder.encode(entry), to: &text)
        }
        text += Array("\n  ]".utf8)
        text += head[start.upperBound...]
        text.append(UInt8(ascii: "\n"))
        return text
    }

    /// `entry`'s lines, each four spaces in (an element of `entries`, two levels down); an empty
    /// line stays empty.
    private static func appendIndented(_ entry: Data, to text: inout [UInt8]) {
        var lineStart = true
        for byte in entry {
            if lineStart && byte != UInt8(ascii: "\n") { text += [0x20, 0x20, 0x20, 0x20] }
            text.append(byte)
            lineStart = byte == UInt8(ascii: "\n")
        }
    }

    /// The manifest with a stand-in string for its entries, encoded with the same keys.
    private struct Head: Encodable {
        var description: String?
        var generatorVersion: Int?
        var synthesis: SynthesisParameters?
        var entries = "\u{0}entries"

        init(_ manifest: CorpusManifest) {
            description = manifest.description
            generatorVersion = manifest.generatorVersion
            synthesis = manifest.synthesis
        }
    }
}
