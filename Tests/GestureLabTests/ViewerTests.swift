import Foundation
import InteractiveTransition
import Testing
@testable import GestureLab
@testable import LabReports

@Suite struct ViewerTests {
    /// Strings reach the page inside a `<script>` element: no `<`, `>` or `&` may appear raw, and
    /// `JSON.parse` (here: JSONSerialization) must read the same strings back.
    @Test func embeddedJSONHoldsAnyStringWithoutMarkup() throws {
        let hostile = "</script><script>alert(1)</script><!-- & \u{2028}\u{2029} \"quoted\" \\ end"
        let json = try ViewerPage.embeddableJSON(["name": hostile])
        #expect(!json.contains("<") && !json.contains(">") && !json.contains("&"))
        #expect(!json.contains("\u{2028}") && !json.contains("\u{2029}"))
        let back = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: String])
        #expect(back["name"] == hostile)
    }

    /// The page written piece by piece (`ViewerPage.write`, a few thousand entries encoded at a
    /// time) is the page encoded whole: the same bytes, hostile strings escaped in every piece.
    /// The page with no entries has a device named `"entries":[0]`: `device` sorts before
    /// `entries`, so were a string's quotes written raw, the first `"entries":` after the device
    /// would be the name's, followed by `[0]`, not the document's own `[]`.
    @Test func aPageWrittenInPiecesIsThePageEncodedWhole() throws {
        let hostile = "</script> & \u{2028} \"entries\":[] \\"
        var document = ViewerDocument(live: false, title: hostile, source: hostile, device: .presetTouchpad, settings: .default,
                                      spec: try TransitionCatalog().pinchDismiss(), policyName: "default", compare: nil)
        document.device.name = hostile
        document.entries = (0..<(ViewerPage.entriesPerPiece * 2 + 7)).map { index in
            index % 3 == 0 ? .margins(time: Double(index), trial: index, text: hostile, compared: false)
                : .frame(time: Double(index) / 100, fingers: 1, touches: [ViewerTouch(id: 1, x: 1.5, y: 2.25)])
        }
        var pieces = 0
        var written: [UInt8] = []
        try ViewerPage.write(document) { written += $0; pieces += 1 }
        let whole = ViewerPageFiles.beforeDocument + (try ViewerPage.embeddableJSON(document)) + ViewerPageFiles.afterDocument
        #expect(pieces >= 5, "3 pieces of entries between the page's start, the document's frame and the end")
        #expect(String(decoding: written, as: UTF8.self) == whole)
        #expect(try ViewerPage.html(document) == whole)
        var empty = ViewerDocument(live: false, title: "", source: "", device: .presetTouchpad, settings: .default,
                                   spec: try TransitionCatalog().pinchDismiss(), policyName: "default", compare: nil)
        empty.device.name = "\"entries\":[0] " + hostile
        let emptyPage = try ViewerPage.html(empty)
        #expect(emptyPage == ViewerPageFiles.beforeDocument + (try ViewerPage.embeddableJSON(empty)) + ViewerPageFiles.afterDocument,
                "a page with no entries")
        let data = try #require(emptyPage.firstRange(of: #""device":"#).map { emptyPage[$0.lowerBound...] })
        #expect(data.firstRange(of: #""entries":"#).map { data[$0.upperBound...].hasPrefix("[]") } == true,
                "the first entries key after the device's name is the document's own, empty")
    }

    /// The page's document has two field lists: its `CodingKeys` and the summaries written by hand
    /// (`summaryMembers`). Every stored property is in exactly one of them, so a property added to the
    /// document and to neither is caught here rather than missing from the page.
    @Test func everyDocumentPropertyIsWrittenOnce() throws {
        let document = ViewerDocument(live: false, title: "", source: "", device: .presetTouchpad, settings: .default,
                                      spec: try TransitionCatalog().pinchDismiss(), policyName: "default", compare: nil)
        let properties = Mirror(reflecting: document).children.compactMap(\.label)
        let encoded = ViewerDocument.CodingKeys.allCases.map(\.stringValue)
        let byHand = ["summary", "compareSummary"]
        #expect(properties.sorted() == (encoded + byHand).sorted())
    }

    /// A step carries the trial the driver numbered its record with (the viewer counts none itself:
    /// here the first attempt seen is the driver's third); the scene is the transition's own rule.
    @Test func stepsCarryTheirTrialAndTheScene() throws {
        let spec = try TransitionCatalog().pinchDismiss()
        var recorder = ViewerRecorder(spec: spec, policy: .default)
        let phases: [(TransitionPhase, Double)] = [(.interactive, 0), (.interactive, 0.3), (.finishing, 0.4),
                                                  (.interactive, 0.5), (.finishing, 0.6), (.finished, 1),
                                                  (.interactive, 0.1), (.cancelling, 0.05), (.cancelled, 0)]
        let driverTrials = [2, 2, 2, 2, 2, 2, 3, 3, 3]
        var trials: [Int] = []
        for (index, (phase, progress)) in phases.enumerated() {
            let record = TransitionRecord(name: try #require(TransitionName(rawValue: spec.name)), trial: driverTrials[index], state: phase, time: Double(index) / 10, progress: progress)
            guard case .step(let step, false)? = recorder.entry(for: .transition(record)) else {
                Issue.record("no step for \(phase)"); continue
            }
            trials.append(step.trial)
            var scene = spec.fromState
            SceneState.shown(in: phase, progress: progress, from: spec.fromState, to: spec.toState, into: &scene)
            #expect(step.scene == ViewerDocument.numbers(scene))
        }
        #expect(trials == driverTrials)
    }

    /// Where the policy projected, the step carries the projected progress it compared.
    @Test func aDecisionStepCarriesTheProjectedProgress() throws {
        let spec = try TransitionCatalog().pinchDismiss()
        var recorder = ViewerRecorder(spec: spec, policy: .default)
        _ = recorder.entry(for: .transition(TransitionRecord(name: try #require(TransitionName(rawValue: spec.name)), trial: 0, state: .interactive, time: 0, progress: 0)))
        let release = TransitionRecord(name: try #require(TransitionName(rawValue: spec.name)), trial: 0, state: .cancelling, time: 0.5, progress: 0.4,
                                       reason: TrialReason(.policy(CompletionPolicy.default.decide(progress: 0.4, velocity: 0.1))), velocity: 0.1)
        guard case .step(let step, _)? = recorder.entry(for: .transition(release)) else { Issue.record("no step"); return }
        let projected = 0.4 + CompletionPolicy.projectedDistance(velocity: 0.1, decelerationRatePerMS: 0.998)
        #expect(abs((step.projectedProgress ?? -1) - projected) < 1e-12)
    }
}
