import Foundation
import PinchlabTestSupport
import Testing

/// Buttons from the command line: the bcm5974-like three-finger click fixture shows its clicks in
/// every output and no hold; `--explain` says why.
@Suite(.blocking) struct ClickpadCLITests {
    static let fixture = CLI.fixture("clicks/bcm5974-three-finger-click.evemu")

    @Test func replayShowsTheClicksAndNoHold() throws {
        let json = try CLI.run(["replay", Self.fixture, "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        // JSON lines, read by their fragments.
        let buttons = json.lines.filter { $0.contains("\"type\":\"button\"") }
        #expect(buttons == [
            #"{"button":"left","state":"pressed","time":0.125,"type":"button"}"#,
            #"{"button":"left","state":"released","time":0.225,"type":"button"}"#,
            #"{"button":"left","state":"pressed","time":2.125,"type":"button"}"#,
            #"{"button":"left","state":"released","time":2.225,"type":"button"}"#,
            #"{"button":"left","state":"pressed","time":4.125,"type":"button"}"#,
            #"{"button":"left","state":"released","time":4.225,"type":"button"}"#,
        ])
        #expect(!json.stdout.contains("\"type\":\"gesture\""), "no gesture at all: \(json.stdout)")  // JSON lines
        let summary = try json.json(line: -1)
        #expect((summary["gestures"] as? [Any])?.isEmpty == true)

        // The three human outputs whole: three "button left pressed" lines and no hold; "0.125 s  no
        // gesture: the clickpad was pressed with 3 fingers down, the highest ..."; "state undecided
        // -> clickpad-pressed  (button-pressed, 3 fingers)  clickpad-pressed  fromBottomMM=27.40
        // fingersBefore=3" and back to idle on the release.
        var transcript = ""
        let human = try Golden.run(["replay", Self.fixture], into: &transcript)
        #expect(human.lines.filter { $0.hasSuffix("button left pressed") }.count == 3)
        try Golden.run(["replay", Self.fixture, "--explain"], into: &transcript)
        try Golden.run(["replay", Self.fixture, "--trace"], into: &transcript)
        try Golden.expect(transcript, is: "replay-clickpad-three-finger-click")
    }

    @Test func plotAndViewMarkThePresses() throws {
        let dir = try CLI.temporaryDirectory()
        let svg = dir.appendingPathComponent("clicks.svg").path
        let plot = try CLI.run(["plot", Self.fixture, "-o", svg])
        #expect(plot.status == 0, "\(plot.stderr)")
        let picture = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(picture.components(separatedBy: "data-role=\"button-left\"").count - 1 == 3
                || picture.components(separatedBy: "class=\"button-left\"").count - 1 == 3, "three presses drawn")
        // The picture's words whole: "button held (left)" in the legend, no hold lane.
        try Golden.expect(Golden.pictureText(ofSVG: picture), is: "plot-words-clickpad-three-finger-click")

        let html = dir.appendingPathComponent("clicks.html").path
        let view = try CLI.run(["view", Self.fixture, "-o", html])
        #expect(view.status == 0, "\(view.stderr)")
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(page.contains(#"["b",0.125,"left","pressed"]"#) && page.contains(#"["b",4.225,"left","released"]"#))
    }
}
