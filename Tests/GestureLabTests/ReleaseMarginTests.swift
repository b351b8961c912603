import Foundation
import GestureCore
import GestureKit
import InteractiveTransition
import Testing
@testable import GestureLab
import LabReports
import PinchlabTestSupport

/// Release margins in the driver, worked out by hand: measured only when asked, reset when a
/// completion is grabbed back, the progress flip turned into the gesture's terms, the JSON shape,
/// and the rounding of the sentences towards the side that flips.
@Suite struct ReleaseMarginTests {
    typealias Harness = GestureTransitionDriverTests.Harness

    static func measuring(_ name: TransitionName, settings: LabSettings = .default) throws -> Harness {
        var h = try Harness(name, settings: settings)
        h.driver.measuresMargins = true
        return h
    }

    @Test func nothingIsMeasuredUnlessAsked() throws {
        var h = try Harness(.pinchDismiss)
        h.pinch(.began, at: 0, scale: 1)
        h.pinch(.ended, at: 0.2, scale: 0.4)
        #expect(h.lastTrial?.decision != nil && h.lastTrial?.flip == nil && h.lastTrial?.margins == nil)
        #expect(h.driver.takeReleaseMargins() == nil)
    }

    @Test func aPanCancelledShortOfTheThresholdNeedsThisManyMM() throws {
        // 40 mm a page; 12 mm down at rest: progress 0.3, projected 0.3 <= 0.5: 8 mm more would do.
        var h = try Self.measuring(.panDismiss)
        h.pan(.began, at: 0, translationYMM: 0)
        h.pan(.changed, at: 0.1, translationYMM: 12)
        h.pan(.ended, at: 0.2, translationYMM: 12)
        let flip = try #require(h.lastTrial?.flip)
        let threshold = try #require(flip.threshold)
        #expect(!flip.finishes && isClose(threshold.value, 0.3))
        let gesture = try #require(flip.gesture)
        let change = try #require(gesture.change)
        #expect(gesture.measure == .travelMM && gesture.atRelease == 12 && isClose(change, 8))
        #expect(gesture.point?.otherSide == .above && gesture.point?.includesValue == false, "more than 8 mm: 20 mm itself cancels")
        let taken = h.driver.takeReleaseMargins()
        let margins = try #require(taken)
        #expect(margins.flip == flip && margins.usedPreset == .default && margins.presets[.default] == flip)
        #expect(margins.presets.entries.map(\.preset) == CompletionPolicyPreset.allCases)
        #expect(h.driver.takeReleaseMargins() == nil, "taken once")
        #expect(margins.sentence.hasPrefix("cancelled at 30%: a threshold of 0.299 or less, 8.1 mm more travel, or releasing at 0.41/s or faster would have finished it (gnome: "),
                "\(margins.sentence)")
    }

    @Test func aPinchsFlipIsAScaleAndAGrabForgetsTheLastRelease() throws {
        // Pinched in to 0.4 and released at rest: progress 0.6 finishes; at 0.5 or less it would cancel,
        // that is at a scale of 0.5 or more.
        var h = try Self.measuring(.pinchDismiss)
        h.pinch(.began, at: 0, scale: 1)
        h.pinch(.changed, at: 0.1, scale: 0.4)
        h.pinch(.ended, at: 0.2, scale: 0.4)
        let flip = try #require(h.lastTrial?.flip)
        let point = try #require(flip.gesture?.point)
        #expect(flip.finishes && flip.gesture?.measure == .scale && isClose(point.value, 0.5))
        #expect(point.otherSide == .above && point.includesValue, "pinching in lowers the scale: the cancel side is above")
        h.advance(to: 0.25)
        h.pinch(.began, at: 0.25, scale: 1)
        #expect(h.lastTrial?.grabbedCount == 1 && h.lastTrial?.flip == nil && h.lastTrial?.margins == nil)
        h.pinch(.ended, at: 0.3, scale: 1.6)
        #expect(h.lastTrial?.flip != nil, "the grab's own release is measured")
    }

    @Test(arguments: [TransitionName.pinchDismiss, .zoomPresent, .panDismiss])
    func theGesturesValueAtAProgressTurnsTheMappingAround(_ name: TransitionName) {
        let binding = TransitionBinding(name)
        for (value, startScale, grabbed) in [(0.7, 1.0, 0.0), (1.4, 1.2, 0.3), (25.0, 1.0, 0.5), (-8.0, 1.0, 0.9)] {
            let event = GestureEvent(kind: binding.kind, state: .ended, time: .zero, fingerCount: 2,
                                     scale: binding.kind == .pinch ? value : 1, scaleVelocity: 0,
                                     translationMM: PointMM(x: 0, y: binding.kind == .pan ? value : 0), velocityMMPerSecond: PointMM(x: 0, y: 0))
            let change = binding.progressChange(of: event, startScale: startScale,
                                                divisor: binding.mapping.divisor(.default)).change
            let released = ReleasedGesture(mapping: binding.mapping, event: event, startScale: startScale, grabbedProgress: grabbed,
                                           settings: .default)
            #expect(isClose(released.value(atProgress: grabbed + change), released.value, tolerance: 1e-9), "\(name) \(value)")
        }
    }

    @Test func theJSONHasEveryKeyNullWhereNothingFlips() throws {
        var h = try Self.measuring(.panDismiss, settings: { var s = LabSettings.default; s.policy = CompletionPolicyPreset.androidBack.policy; return s }())
        h.pan(.began, at: 0, translationYMM: 0)
        h.pan(.changed, at: 0.1, translationYMM: 20)
        h.pan(.ended, at: 0.2, translationYMM: 20)
        let trial = try #require(h.lastTrial)
        var out = JSONLineBytes()
        trial.appendJSON(to: &out)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(out.bytes)) as? [String: Any])
        let flip = try #require(json["flip"] as? [String: Any])
        #expect(Set(flip.keys) == ["threshold", "velocity", "progress", "travelMM", "margin"])
        #expect(flip.values.allSatisfy { $0 is NSNull }, "Android's path decides: \(flip)")
        let margins = try #require(json["margins"] as? [String: [String: Any]])
        #expect(margins["android-back"]?["outcome"] as? String == "finished")
        let kwin = try #require(margins["kwin"])
        #expect(kwin["outcome"] as? String == "cancelled" && kwin["threshold"] as? Double == 0.5 && kwin["travelMM"] as? Double == 0)
        #expect(kwin["margin"] == nil, "a preset's entry has no margin: the deciding rule's is the policy's own, in flip")
    }

    /// The summary line written by hand (`replay --summary`) is the bytes `JSONEncoder` writes for
    /// the documented fields (`ExpectedSummaryLine`), invisible characters escaped: on every recording of the fixtures and the shared ones (apart)
    /// under every transition, with and without margins, with a quote, DEL, a C1 control and a bidi
    /// override in the source's
    /// name, and again with every optional key flipped (set, or left out: a device without a size, a
    /// trial without its gesture).
    @Test(arguments: [true, false]) func theHandWrittenSummaryIsWhatTheEncoderWrites(measuringMargins: Bool) throws {
        let trials = try expectHandWrittenSummaries(ReleaseMarginExactnessTests.fixtureRecordings, measuringMargins: measuringMargins)
        #expect(trials >= 80, "\(trials) trials")  // 82
    }

    @Test(.needs(.sharedRecordings), arguments: [true, false])
    func theHandWrittenSummaryIsWhatTheEncoderWritesOnTheSharedRecordings(measuringMargins: Bool) throws {
        let trials = try expectHandWrittenSummaries(ReleaseMarginExactnessTests.sharedRecordings, measuringMargins: measuringMargins)
        #expect(trials >= 10, "\(trials) trials")  // 12
    }

    /// The checks on each of `paths` under each transition; the number of decided trials (with a
    /// flip when `measuringMargins`).
    func expectHandWrittenSummaries(_ paths: [String], measuringMargins: Bool) throws -> Int {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var trials = 0
        for path in paths {
            let (device, events) = try ReleaseMarginExactnessTests.events(path)
            for transition in TransitionName.allCases {
                var run = try ReplayRun(device: device, transition: transition, settings: .default)
                run.measuresMargins = measuringMargins
                var source = EventList(device: device, events: events)
                var summary = run.run(&source, name: "\"\u{7F}pinchlab-margins-1-0\" \u{9B}\u{202E}" + path) { _ in }.summary
                try expectHandWritten(summary, encoder, "\(path) \(transition)")
                summary.recognizerBugs = 2
                summary.error = RecordingError(path: "a\u{1B}b.evemu", line: 3, kind: .malformedLine, expected: "x", found: "\u{9B}")
                summary.hint = TransitionHint(pinches: 1, pans: 2, chosen: .pinchDismiss, suggested: .panDismiss)
                summary.firstTouch = nil
                summary.source = nil
                // No recording lacks a size, and every trial has its gesture: the other side of those keys.
                summary.device.heightMM = nil
                summary.device.widthMM = nil
                if !summary.trials.isEmpty { summary.trials[0].gesture = nil }
                try expectHandWritten(summary, encoder, "\(path) \(transition), every optional key")
                trials += summary.trials.filter { ($0.flip != nil) == measuringMargins && $0.decision != nil }.count
            }
        }
        return trials
    }

    func expectHandWritten(_ summary: LabSummary, _ encoder: JSONEncoder, _ what: String) throws {
        var out = JSONLineBytes()
        try summary.appendJSON(to: &out)
        let byEncoder = JSONLineBytes.escapingInvisibles(try encoder.encode(ExpectedSummaryLine(summary)))
        let same = Data(out.bytes) == byEncoder  // not in #expect, which would print both lines
        #expect(same, "\(what): \(String(decoding: out.bytes.prefix(300), as: UTF8.self))")
        // The viewer's page keeps the invisible characters as the encoder does.
        var plain = JSONLineBytes()
        plain.escapesInvisibles = false
        try summary.appendJSON(to: &plain)
        let plainSame = Data(plain.bytes) == (try encoder.encode(ExpectedSummaryLine(summary)))
        #expect(plainSame, "\(what), invisible characters as they are")
        // `replay --compare --json`: the summary's keys and "comparisons" in one sorted object.
        let rows = summary.trials.enumerated().map { index, trial in
            PolicyComparisonRow(policy: "kwin\u{202E}\"", trial: index, outcome: trial.outcome, reason: trial.reason, decision: trial.decision)
        }
        let report = try LabSummaryReport(summary: summary, comparisons: rows).jsonLine()
        let reportByEncoder = JSONLineBytes.escapingInvisibles(try encoder.encode(ExpectedReport(summary: summary, comparisons: rows)))
        let reportSame = Data(report) == reportByEncoder
        #expect(reportSame, "\(what), with comparisons: \(String(decoding: report.prefix(300), as: UTF8.self))")
    }

    @Test(arguments: [
        (FlipPoint(value: 0.1312, otherSide: .below, includesValue: false), "0.131 or less"),
        (FlipPoint(value: 0.131, otherSide: .below, includesValue: false), "0.130 or less"),
        (FlipPoint(value: 0.131, otherSide: .below, includesValue: true), "0.131 or less"),
        (FlipPoint(value: 0.5941, otherSide: .above, includesValue: true), "0.595 or more"),
        (FlipPoint(value: 0.594, otherSide: .above, includesValue: false), "0.595 or more"),
    ])
    func aBoundIsRoundedTowardsTheSideThatFlips(_ point: FlipPoint, _ text: String) {
        #expect(Bound.text(point, decimals: 3) == text)
    }

    @Test(arguments: [
        (FlipPoint(value: 0.401, otherSide: .above, includesValue: false), "releasing at 0.41/s or faster"),
        (FlipPoint(value: -0.187, otherSide: .above, includesValue: false), "moving back at 0.18/s or slower"),
        (FlipPoint(value: 0.661, otherSide: .below, includesValue: true), "releasing at 0.66/s or slower"),
        (FlipPoint(value: -1.5, otherSide: .below, includesValue: true), "moving back at 1.50/s or faster"),
        (FlipPoint(value: 0, otherSide: .above, includesValue: false), "releasing at 0.01/s or faster"),
    ])
    func aVelocityIsSaidWithItsDirection(_ point: FlipPoint, _ text: String) {
        #expect(Bound.velocityText(point) == text)
    }
}

private func isClose(_ a: Double, _ b: Double, tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }
