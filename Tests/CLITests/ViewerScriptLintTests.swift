import Foundation
import Testing
import PinchlabTestSupport

/// The viewer's script (Sources/LabReports/Viewer/Page/viewer.js) read by a real JavaScript engine:
/// node is not installed, Debian's chromium is. The page `pinchlab view` writes holds viewer.js byte
/// for byte, so a syntax error in the file is an "Uncaught SyntaxError" console message of the page
/// (and the page shows nothing); these tests name it by its line in viewer.js.
@Suite(.blocking, .serialized) struct ViewerScriptLintTests {
    static let scriptPath = CLI.packageRoot.appendingPathComponent("Sources/LabReports/Viewer/Page/viewer.js").path

    /// The console messages of `page`, each as `viewer.js:LINE: TEXT` when it comes from the script.
    static func messages(ofPage page: String) throws -> [String] {
        let html = try String(contentsOfFile: page, encoding: .utf8)
        let lines = html.split(separator: "\n", omittingEmptySubsequences: false)
        // The script is inlined after a line of its own `<script>`, so its line 1 is the next one.
        let scriptStart = try #require(lines.firstIndex(of: "<script>"), "no inline script in \(page)") + 2
        return try Chromium.consoleMessages(Chromium.fileURL(page)).map { message in
            guard let line = message.line, line >= scriptStart else { return "page line \(message.line ?? 0): \(message.text)" }
            return "viewer.js:\(line - scriptStart + 1): \(message.text)"
        }
    }

    /// A replay's page, and one with a compared policy's ghost card, load and render without a console message: no syntax
    /// error, no uncaught error, no stray logging.
    @Test(.needs(.chromium), arguments: [["touchpad/pinch-in-slow-finish-01.evemu"],
                      ["touchpad/pinch-in-slow-finish-01.evemu", "--compare", "gnome", "--transition", "zoom-present"]])
    func theViewerPageRunsWithoutAConsoleMessage(arguments: [String]) throws {
        let page = try ViewerCLITests.page(of: "corpus/" + arguments[0], Array(arguments.dropFirst()))
        let messages = try Self.messages(ofPage: page)
        #expect(messages == [], "\(messages)")
    }

    /// The check above can fail: the same page with one line of broken JavaScript added to its
    /// script reports a syntax error at that line of viewer.js, the script's first line included.
    @Test(.needs(.chromium), arguments: [1, 3])
    func aSyntaxErrorInTheScriptIsReportedAtItsLine(brokenLine: Int) throws {
        let page = try ViewerCLITests.page(of: "corpus/touchpad/pinch-in-slow-finish-01.evemu")
        let script = try String(contentsOfFile: Self.scriptPath, encoding: .utf8)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains("<script>\n" + script + "</script>"), "the page holds viewer.js as it is in the source tree")  // the page's HTML
        // Line `brokenLine` of viewer.js becomes a function statement without a name.
        let lines = script.split(separator: "\n", omittingEmptySubsequences: false)
        let broken = (lines[..<(brokenLine - 1)] + ["function ("] + lines[(brokenLine - 1)...]).joined(separator: "\n")
        try html.replacingOccurrences(of: script, with: broken).write(toFile: page, atomically: true, encoding: .utf8)
        let messages = try Self.messages(ofPage: page)
        #expect(messages.count == 1 && messages.first?.hasPrefix("viewer.js:\(brokenLine): Uncaught SyntaxError") == true,
                "\(messages)")
    }
}
