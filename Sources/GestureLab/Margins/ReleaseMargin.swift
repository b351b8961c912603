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
    /// The deciding rule's margin (`check`'s fragility): the measured value, its threshold, the setting's key.
    package var margin: DecisionMargin? { flip.margin }
    /// The threshold at which the release decides the other way (`--threshold` for pinchlab's rule).
    package var threshold: FlipPoint? { flip.threshold }
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
    /// The transition the release was of.
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

extension ReleaseMargin {
    /// `{"margin", "progress", "threshold", "velocity"}` and `"travelMM"` (a pan) or `"scale"` (a
    /// pinch), each null when none flips it; a preset's entry (`outcome`) has `"outcome"`, no
    /// `"margin"` (the deciding rule's margin is the policy's own: `flip` has it) and no `"progress"`
    /// (its scale or travel says it). By hand, keys in sorted order, as `JSONEncoder` (`.sortedKeys`)
    /// writes them: about fifty times cheaper, and a summary of a thousand trials writes eight for each.
    func appendJSON(to out: inout JSONLineBytes, outcome: Bool) {
        // margin (the policy's own only), outcome (a preset's only), progress, scale, threshold, travelMM, velocity
        if outcome {
            out.raw(finishes ? "{\"outcome\":\"finished\"" : "{\"outcome\":\"cancelled\"")
        } else if let margin = flip.margin {
            out.raw("{\"margin\":")
            margin.appendJSON(to: &out)
        } else {
            out.raw("{\"margin\":null")
        }
        if !outcome {
            out.raw(",\"progress\":")
            Self.append(flip.progress?.value, to: &out)
        }
        if gesture?.measure == .scale {
            out.raw(",\"scale\":")
            Self.append(gesture?.point?.value, to: &out)
        }
        out.raw(",\"threshold\":")
        Self.append(flip.threshold?.value, to: &out)
        if gesture?.measure == .travelMM {
            out.raw(",\"travelMM\":")
            Self.append(gesture?.change, to: &out)
        }
        out.raw(",\"velocity\":")
        Self.append(flip.velocity?.value, to: &out)
        out.byte(UInt8(ascii: "}"))
    }

    private static func append(_ value: Double?, to out: inout JSONLineBytes) {
        if let value { out.number(rounded(value)) } else { out.raw("null") }
    }
}

extension PresetMargins {
    /// `{"android-back": {...}, "default": {...}, ...}` by hand, the presets' names in sorted order.
    func appendJSON(to out: inout JSONLineBytes) {
        out.byte(UInt8(ascii: "{"))
        var first = true
        for preset in Self.sortedPresets {
            guard let margin = self[preset] else { continue }
            if !first { out.byte(UInt8(ascii: ",")) }
            first = false
            // A preset's name needs no escaping: its quotes and the name as they are.
            out.byte(UInt8(ascii: "\""))
            out.append(utf8: preset.rawValue)
            out.raw("\":")
            margin.appendJSON(to: &out, outcome: true)
        }
        out.byte(UInt8(ascii: "}"))
    }

    /// The presets as `.sortedKeys` orders their names.
    private static let sortedPresets = CompletionPolicyPreset.allCases.sorted { $0.rawValue.utf8.lexicographicallyPrecedes($1.rawValue.utf8) }
}
