import Foundation
import GestureKit
import GestureLab
import Testing

/// docs/reference/api.md's minimal program, with the fixture's path for "pinch.evemu": a reader of
/// the overview can paste it into a package that depends on GestureKit and GestureLab.
@Suite struct APIOverviewTests {
    @Test func theOverviewsMinimalProgramRuns() throws {
        let path = CorpusFixtureTests.corpusDirectory + "/touchpad/pinch-in-slow-finish-01.evemu"
        var printed: [String] = []
        var source = try openRecording(path: path)
        var run = try ReplayRun(device: source.device, transition: .pinchDismiss)
        let result = run.run(&source, name: "pinch.evemu") { record in
            if case .gesture(let gesture) = record { printed.append("\(gesture.event.kind) \(gesture.event.state)") }
        }
        #expect(printed.contains("pinch began") && printed.contains("pinch ended"), "\(printed.prefix(3))")
        #expect(result.summary.outcome == .finished)
        let overview = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/reference/api.md"), encoding: .utf8)
        #expect(overview.contains("var source = try openRecording(path: \"pinch.evemu\")"))
        #expect(overview.contains("var run = try ReplayRun(device: source.device, transition: .pinchDismiss)"))
        #expect(overview.contains("let result = run.run(&source, name: \"pinch.evemu\") { record in"))
    }
}
