import Foundation
import GestureCore
@testable import GestureLab
import InteractiveTransition
import SettingsTable

/// The summary line as docs/reference/json-lines.md documents it, encoded by `JSONEncoder` for the
/// comparison with the hand-written line (`LabSummary.appendJSON`): the summary and its trials have
/// no `Encodable` form of their own (the writer is their one field list), so the fields are listed
/// again here, on the test's side, and a key missing from either side, or extra, fails.
struct ExpectedSummaryLine: Encodable {
    var summary: LabSummary
    init(_ summary: LabSummary) { self.summary = summary }

    enum CodingKeys: String, CodingKey {
        case type, source, device, transition, outcome, outcomes, reason, decision, gestures, gestureCount, trials,
             trialCount, hint, events, frames, duration, firstTouch, touches, policy, error, recognizerBugs
    }

    func encode(to encoder: any Encoder) throws {
        let s = summary
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode("summary", forKey: .type)
        try c.encodeIfPresent(s.source, forKey: .source)
        try c.encode(ExpectedDevice(device: s.device), forKey: .device)
        try c.encode(s.transition.rawValue, forKey: .transition)
        try c.encode(s.outcome.rawValue, forKey: .outcome)
        try c.encode(["finished": s.outcomes.finished, "cancelled": s.outcomes.cancelled], forKey: .outcomes)
        try c.encodeIfPresent(s.reason?.description, forKey: .reason)
        try c.encodeIfPresent(s.decision.map(ExpectedDecision.init), forKey: .decision)
        try c.encode(s.gestures.map(ExpectedSummaryGesture.init), forKey: .gestures)
        try c.encode(s.gestureCount, forKey: .gestureCount)
        try c.encode(s.trials.map(ExpectedTrial.init), forKey: .trials)
        try c.encode(s.trialCount, forKey: .trialCount)
        if let hint = s.hint {
            try c.encode(ExpectedHint(pinches: hint.pinches, pans: hint.pans, transition: hint.suggested.rawValue), forKey: .hint)
        }
        try c.encode(s.events, forKey: .events)
        try c.encode(s.frames, forKey: .frames)
        try c.encode(rounded(s.duration), forKey: .duration)
        try c.encodeIfPresent(s.firstTouch.map(rounded), forKey: .firstTouch)
        try c.encode(ExpectedTouches(count: s.touches.count, maxFingers: s.touches.maxFingers, seconds: rounded(s.touches.seconds)),
                     forKey: .touches)
        try c.encode(s.policy, forKey: .policy)
        try c.encodeIfPresent(s.error.map { "\($0)" }, forKey: .error)
        if s.recognizerBugs > 0 { try c.encode(s.recognizerBugs, forKey: .recognizerBugs) }
    }
}

/// `replay --compare --json`'s summary: the summary's keys and `"comparisons"` in one object.
struct ExpectedReport: Encodable {
    var summary: LabSummary
    var comparisons: [PolicyComparisonRow]

    enum CodingKeys: String, CodingKey { case comparisons }

    func encode(to encoder: any Encoder) throws {
        try ExpectedSummaryLine(summary).encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(comparisons.map(ExpectedComparisonRow.init), forKey: .comparisons)
    }
}

/// One attempt under one compared policy: `{"policy", "trial", "outcome", "reason", "decision"}`.
struct ExpectedComparisonRow: Encodable {
    var row: PolicyComparisonRow
    init(_ row: PolicyComparisonRow) { self.row = row }

    enum CodingKeys: String, CodingKey { case policy, trial, outcome, reason, decision }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(row.policy, forKey: .policy)
        try c.encode(row.trial, forKey: .trial)
        try c.encode(row.outcome.rawValue, forKey: .outcome)
        try c.encodeIfPresent(row.reason?.description, forKey: .reason)
        try c.encodeIfPresent(row.decision.map(ExpectedDecision.init), forKey: .decision)
    }
}

struct ExpectedDevice: Encodable {
    var device: LabSummary.Device

    enum CodingKeys: String, CodingKey { case name, `class`, widthMM, heightMM, resolutionEstimated, slots }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(device.name, forKey: .name)
        try c.encode(device.class, forKey: .class)
        try c.encodeIfPresent(device.widthMM, forKey: .widthMM)
        try c.encodeIfPresent(device.heightMM, forKey: .heightMM)
        try c.encode(device.resolutionEstimated, forKey: .resolutionEstimated)
        try c.encode(device.slots, forKey: .slots)
    }
}

struct ExpectedHint: Encodable {
    var pinches: Int
    var pans: Int
    var transition: String
}

struct ExpectedTouches: Encodable {
    var count: Int
    var maxFingers: Int
    var seconds: Double
}

/// A gesture of the summary's `gestures`.
struct ExpectedSummaryGesture: Encodable {
    var gesture: LabSummary.Gesture
    init(_ gesture: LabSummary.Gesture) { self.gesture = gesture }

    enum CodingKeys: String, CodingKey { case kind, fingers, begin, end, ended, scale, rotation, translation, rule, fingersDown }

    func encode(to encoder: any Encoder) throws {
        let g = gesture
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(g.kind.rawValue, forKey: .kind)
        try c.encode(g.fingers, forKey: .fingers)
        try c.encode(rounded(g.begin), forKey: .begin)
        try c.encode(rounded(g.end), forKey: .end)
        try c.encode(g.ended.rawValue, forKey: .ended)
        try c.encodeIfPresent(g.scale.map(rounded), forKey: .scale)
        try c.encodeIfPresent(g.rotation.map(rounded), forKey: .rotation)
        try c.encodeIfPresent(g.translation.map(ExpectedPoint.init), forKey: .translation)
        try c.encodeIfPresent(g.rule?.rawValue, forKey: .rule)
        try c.encodeIfPresent(g.fingersDown.map(rounded), forKey: .fingersDown)
    }
}

/// A trial's or the summary's `decision`: the release's figures as they are (not rounded).
struct ExpectedDecision: Encodable {
    var progress: Double
    var velocity: Double
    var finish: Bool
    init(_ decision: TrialSummary.Decision) {
        progress = decision.progress
        velocity = decision.velocity
        finish = decision.finish
    }
}

/// A trial of the summary's `trials`, with its release margins (`flip`, `margins`).
struct ExpectedTrial: Encodable {
    var trial: TrialSummary
    init(_ trial: TrialSummary) { self.trial = trial }

    enum CodingKeys: String, CodingKey { case begin, gesture, release, end, outcome, reason, decision, grabbedCount, flip, margins }

    func encode(to encoder: any Encoder) throws {
        let t = trial
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(t.begin, forKey: .begin)
        try c.encodeIfPresent(t.gesture, forKey: .gesture)
        try c.encodeIfPresent(t.release, forKey: .release)
        try c.encodeIfPresent(t.end, forKey: .end)
        try c.encode(t.outcome.rawValue, forKey: .outcome)
        try c.encodeIfPresent(t.reason?.description, forKey: .reason)
        try c.encodeIfPresent(t.decision.map(ExpectedDecision.init), forKey: .decision)
        try c.encode(t.grabbedCount, forKey: .grabbedCount)
        try c.encodeIfPresent(t.flip.map { ExpectedReleaseMargin(margin: $0, preset: false) }, forKey: .flip)
        if let margins = t.margins {
            var nested = c.nestedContainer(keyedBy: AnyKey.self, forKey: .margins)
            for entry in margins.entries {
                try nested.encode(ExpectedReleaseMargin(margin: entry.margin, preset: true), forKey: AnyKey(entry.preset.rawValue))
            }
        }
    }
}

/// A release's margin: `flip` (`preset` false) or a preset's entry in `margins` (with `outcome`,
/// without `margin` and `progress`), every number `null` when nothing flips it.
struct ExpectedReleaseMargin: Encodable {
    var margin: ReleaseMargin
    var preset: Bool

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyKey.self)
        func number(_ value: Double?, _ key: String) throws {
            if let value { try c.encode(rounded(value), forKey: AnyKey(key)) } else { try c.encodeNil(forKey: AnyKey(key)) }
        }
        let flip = margin.flip
        if preset { try c.encode(margin.finishes ? "finished" : "cancelled", forKey: AnyKey("outcome")) }
        try number(flip.threshold?.value, "threshold")
        try number(flip.velocity?.value, "velocity")
        if !preset { try number(flip.progress?.value, "progress") }
        switch margin.gesture?.measure {
        case .travelMM?: try number(margin.gesture?.change, "travelMM")
        case .scale?: try number(margin.gesture?.point?.value, "scale")
        case nil: break
        }
        if !preset {
            if let deciding = flip.margin {
                try c.encode(ExpectedMargin(deciding), forKey: AnyKey("margin"))
            } else {
                try c.encodeNil(forKey: AnyKey("margin"))
            }
        }
    }
}

/// A decision's margin, as a gesture line and a trial's `flip` write it.
struct ExpectedMargin: Encodable {
    var margin: DecisionMargin
    init(_ margin: DecisionMargin) { self.margin = margin }

    enum CodingKeys: String, CodingKey { case key, threshold, unit, value }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(margin.key, forKey: .key)
        try c.encode(rounded(margin.threshold), forKey: .threshold)
        try c.encode(margin.unit, forKey: .unit)
        try c.encode(rounded(margin.value), forKey: .value)
    }
}

/// A point: `{"x", "y"}`, each rounded.
struct ExpectedPoint: Encodable {
    var x: Double
    var y: Double
    init(_ point: PointMM) { x = rounded(point.x); y = rounded(point.y) }
}

/// A key named at run time (evidence, margins by preset).
struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
