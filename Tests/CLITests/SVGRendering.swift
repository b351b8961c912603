import Foundation
import Testing

/// A plot must render, not only parse: librsvg's `rsvg-convert` draws it (tests that call this
/// need `.rsvgConvert`).
enum SVGRendering {
    /// Renders `svg` to a PNG beside it and expects a PNG of more than 5,000 bytes.
    static func expectRenders(_ svg: String) throws {
        let png = URL(fileURLWithPath: svg).deletingPathExtension().appendingPathExtension("png").path
        let render = Process()
        render.executableURL = URL(fileURLWithPath: "/usr/bin/rsvg-convert")
        render.arguments = [svg, "-o", png]
        try render.start()
        render.waitUntilExit()
        #expect(render.terminationStatus == 0)
        let data = try #require(FileManager.default.contents(atPath: png))
        #expect(data.starts(with: [0x89, 0x50, 0x4E, 0x47]), "a PNG came out")
        #expect(data.count > 5000)
    }
}
