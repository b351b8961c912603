import Foundation
import Testing
@testable import LabReports

/// The viewer page is Sources/LabReports/Viewer/Page's files put together: its style and script are
/// the files' text as they are now (the build embedded them again after an edit), and the page is
/// one file with nothing to fetch.
@Suite struct ViewerPageFilesTests {
    static let pageDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/LabReports/Viewer/Page")

    static func file(_ name: String) throws -> String {
        try String(contentsOf: pageDirectory.appendingPathComponent(name), encoding: .utf8)
    }

    @Test func thePageIsTheFilesWithTheirReferencesInlined() throws {
        let html = try Self.file("viewer.html"), css = try Self.file("viewer.css"), script = try Self.file("viewer.js")
        #expect(EmbeddedFiles.viewerHTML == html && EmbeddedFiles.viewerCSS == css && EmbeddedFiles.viewerJS == script)
        let page = ViewerPageFiles.beforeDocument + "{}" + ViewerPageFiles.afterDocument
        let link = try #require(html.range(of: ViewerPageFiles.stylesheetLink))
        #expect(page.hasPrefix(String(html[..<link.lowerBound]) + "<style>\n" + css + "</style>\n</head>\n"))
        #expect(page.contains(#"<script type="application/json" id="pinchlab-data">{}</script>"#))
        #expect(page.hasSuffix("<script>\n" + script + "</script>\n</body>\n</html>\n"))
        // Nothing left to fetch: no stylesheet link, no script by reference.
        #expect(!page.contains("<link") && !page.contains("<script src"))
    }

    /// The template is cut at its three references, in their order, and nothing else of it changes.
    @Test func thePartsAreCutAtTheReferencesInOrder() {
        let html = "A" + ViewerPageFiles.stylesheetLink + "B" + ViewerPageFiles.documentElement + "C" + ViewerPageFiles.scriptReference + "D"
        let parts = ViewerPageFiles.assemble(html: html, css: "css\n", script: "js\n")
        #expect(parts.before == "A<style>\ncss\n</style>B<script type=\"application/json\" id=\"pinchlab-data\">")
        #expect(parts.after == "</script>C<script>\njs\n</script>D")
    }
}
