import GestureKit
import InteractiveTransition
import SettingsTable

/// How close one release came to going the other way under one policy: the threshold, release
/// velocity and release progress at which it would have (`ReleaseFlip`), and that progress in the
/// gesture's own terms (mm of pan travel, pinch scale).
///
/// `check` reads it for fragility: `TrialSummary.flip` is the release's margin under the policy
/// that decided it (`flip.margin` is the deciding rule's `DecisionMargin`, `flip.threshold` the
/// `--threshold` value that flips it). Made only when an output asks (`ReplayRun.measuresMargins`):
/// JSON writes it as a trial's `"flip"` and as each of its `"margins"`.
package struct ReleaseMargin: Sendable, Hashable {
    package var flip: ReleaseFlip
    /// `flip.progress` in the gesture's terms; nil when the release has no gesture mapped to it.
    package var gesture: GestureFlip?

    package init(flip: ReleaseFlip, gesture: GestureFlip?) {
        self.flip = flip
        self.gesture = gesture
    }

    /// True when the release finishes under this policy.
    package var finishes: Bool { flip.finishes }
}

/// A progress flip in the gesture's own terms: the pan's downward travel (mm) or the pinch's scale
/// at which the release would have decided the other way, beside its value at the release.
package struct GestureFlip: Sendable, Hashable {
    package enum Measure: Sendable, Hashable {
        /// The pan's downward translation, mm (`pan-dismiss`).
        case travelMM
        /// The pinch's scale (`pinch-dismiss`, `zoom-present`).
        case scale
    }

    package var measure: Measure
    /// The gesture's value when the fingers lifted.
    package var atRelease: Double
    /// Where the decision turns, in the gesture's value; nil when the progress cannot turn it.
    package var point: FlipPoint?

    /// How much the gesture's value must change to reach the point (mm more travel when positive).
    package var change: Double? { point.map { $0.value - atRelease } }
}

/// One preset's margin for a release: its outcome and flips, as if that preset had decided it.
package struct PresetMargin: Sendable, Hashable {
    package var preset: CompletionPolicyPreset
    package var margin: ReleaseMargin
}

/// Every preset's margin for one release, in `CompletionPolicyPreset.allCases` order; JSON writes an
/// object keyed by the presets' names.
package struct PresetMargins: Sendable, Hashable {
    package var entries: [PresetMargin]

    package subscript(preset: CompletionPolicyPreset) -> ReleaseMargin? {
        entries.first { $0.preset == preset }?.margin
    }
}

/// A release's margins under the policy that decided it and under every preset, as the pipeline
/// emits them right after the release's transition step (`LabRecord.releaseMargins`).
package struct TrialMargins: Sendable, Hashable {
    /// The transition's progress when the policy was asked, and the release velocity (progress/s).
    package var progress: Double
    package var velocity: Double
    /// The preset the deciding policy is, if it is one (its entry in `presets` is `flip` again).
    package var usedPreset: CompletionPolicyPreset?
    package var flip: ReleaseMargin
    package var presets: PresetMargins
}

/// A release's margins in the record stream, right after its transition step: only when the run
/// measures margins (`ReplayRun.measuresMargins`). Not a JSON line: the summary's trials carry them.
public struct ReleaseMarginsRecord: Sendable, Hashable {
    public var transition: TransitionName
    /// The attempt's index in the summary's `trials` (as the release's transition step numbers it).
    public var trial: Int
    /// The release, seconds from the first event.
    public var time: Double
    package var margins: TrialMargins

    package init(transition: TransitionName, trial: Int, time: Double, margins: TrialMargins) {
        self.transition = transition
        self.trial = trial
        self.time = time
        self.margins = margins
    }
}

// MARK: - JSON

/// A key named at run time: the margin's fields, and the presets' names.
private struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension ReleaseMargin: Encodable {
    /// `{"margin", "progress", "threshold", "velocity"}` and `"travelMM"` (a pan) or `"scale"` (a
    /// pinch), each null when none flips it.
    package func encode(to encoder: any Encoder) throws {
        try encode(to: encoder, outcome: false)
    }

    /// As `encode(to:)`, with `"outcome"` (a preset's entry in `"margins"`).
    func encode(to encoder: any Encoder, outcome: Bool) throws {
        var c = encoder.container(keyedBy: Key.self)
        if outcome { try c.encode(finishes ? "finished" : "cancelled", forKey: Key("outcome")) }
        try c.encode(flip.threshold.map { rounded($0.value) }, forKey: Key("threshold"))
        try c.encode(flip.velocity.map { rounded($0.value) }, forKey: Key("velocity"))
        try c.encode(flip.progress.map { rounded($0.value) }, forKey: Key("progress"))
        switch gesture?.measure {
        case .travelMM?: try c.encode(gesture?.change.map(rounded), forKey: Key("travelMM"))
        case .scale?: try c.encode(gesture?.point.map { rounded($0.value) }, forKey: Key("scale"))
        case nil: break
        }
        if let margin = flip.margin {
            var m = c.nestedContainer(keyedBy: Key.self, forKey: Key("margin"))
            try m.encode(rounded(margin.value), forKey: Key("value"))
            try m.encode(rounded(margin.threshold), forKey: Key("threshold"))
            try m.encode(margin.key, forKey: Key("key"))
            try m.encode(margin.unit, forKey: Key("unit"))
        } else {
            try c.encodeNil(forKey: Key("margin"))
        }
    }
}

extension PresetMargins: Encodable {
    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        for entry in entries {
            try entry.margin.encode(to: c.superEncoder(forKey: Key(entry.preset.rawValue)), outcome: true)
        }
    }
}
