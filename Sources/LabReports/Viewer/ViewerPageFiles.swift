/// The viewer page's files put together around its document. `Viewer/Page/viewer.html` is the page
/// as a browser or a linter reads it, with `viewer.css` and `viewer.js` beside it; the build embeds
/// all three (`EmbeddedFiles`, Plugins/EmbedTextFiles), and here the stylesheet link becomes the
/// style inline, the script reference the script inline, and the empty `pinchlab-data` element the
/// place of the document, so the page written is one file that needs no network.
///
/// The script (viewer.js) reads the embedded document (`#pinchlab-data`), indexes its entries by
/// time, and draws the moment `time`: the fingers on the surface, the scene pinchlab computed for
/// the last transition step at or before it, and a playhead on the timeline. Recording strings are
/// only ever set as `textContent` or drawn on a canvas; nothing in the markup is built from data.
/// Entry layout: `ViewerEntry`. Test interface (docs/reference/viewer.md): `#t=SECONDS` seeks and
/// pauses on load; `window.pinchlab.seek(t)`, `window.pinchlab.state()`; after each render
/// `JSON.stringify(state())` is written into `<pre id="pinchlab-state">` for `chromium --headless
/// --dump-dom`.
enum ViewerPageFiles {
    static let stylesheetLink = #"<link rel="stylesheet" href="viewer.css">"#
    static let documentElement = #"<script type="application/json" id="pinchlab-data"></script>"#
    static let scriptReference = #"<script src="viewer.js"></script>"#

    /// The page up to the document: the markup, its style inline, and the data element's start tag.
    static let beforeDocument: String = parts.before
    /// The page after the document: the data element's end tag, the script inline, the end.
    static let afterDocument: String = parts.after

    private static let parts = assemble(html: EmbeddedFiles.viewerHTML, css: EmbeddedFiles.viewerCSS, script: EmbeddedFiles.viewerJS)

    /// `html` cut at its three references, in the order they stand in viewer.html; each must be
    /// there exactly once (ViewerTests checks the page, and every page test would fail without it).
    static func assemble(html: String, css: String, script: String) -> (before: String, after: String) {
        var rest = Substring(html)
        var pieces: [Substring] = []
        for reference in [stylesheetLink, documentElement, scriptReference] {
            guard let found = rest.firstRange(of: reference), rest[found.upperBound...].firstRange(of: reference) == nil else {
                preconditionFailure("viewer.html must hold \(reference) once, after the references before it")
            }
            pieces.append(rest[..<found.lowerBound])
            rest = rest[found.upperBound...]
        }
        let dataStart = documentElement.replacing("</script>", with: "")
        let before = pieces[0] + "<style>\n" + css + "</style>" + pieces[1] + dataStart
        let after = "</script>" + pieces[2] + "<script>\n" + script + "</script>" + rest
        return (String(before), String(after))
    }
}
