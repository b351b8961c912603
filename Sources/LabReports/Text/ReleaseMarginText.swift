import GestureLab
import InteractiveTransition

// The "would have" sentences of a release's margins (`replay --explain`, the plot's labels and the
// viewer's decision): made here, from the typed flips, where they are printed from. Every number is
// rounded towards the side that flips, so what a sentence promises is true of the rounded figure too.

extension TrialMargins {
    /// "cancelled at 43%: a threshold of 0.433 or less, 3.5 mm more travel, or releasing at 0.41/s
    /// or faster would have finished it (gnome: finished; kwin: 3.0 mm short; ...)": the policy
    /// that decided, then every other preset.
    package var sentence: String {
        var text = flip.sentence(at: progress)
        let others = presets.entries.filter { $0.preset != usedPreset }
        if !others.isEmpty {
            text += " (" + others.map { "\($0.preset.rawValue): \($0.margin.comparedText(with: flip.finishes))" }
                .joined(separator: "; ") + ")"
        }
        return text
    }
}

extension ReleaseMargin {
    /// "cancelled at 43%: a threshold of 0.433 or less, 3.5 mm more travel, or releasing at 0.41/s
    /// or faster would have finished it"; "... : nothing at this release would have cancelled it".
    package func sentence(at progress: Double) -> String {
        "\(finishes ? "finished" : "cancelled") at \(Int((min(max(progress, 0), 1) * 100).rounded()))%: " + wouldHave
    }

    /// "a threshold of 0.433 or less, 3.5 mm more travel, or releasing at 0.41/s or faster would
    /// have finished it"; "no threshold, travel or release velocity would have cancelled it".
    package var wouldHave: String {
        let other = finishes ? "cancelled" : "finished"
        let ways = wayTexts
        guard !ways.isEmpty else { return "no threshold, travel or release velocity would have \(other) it" }
        // A comma before the last "or" even of two: "0.594 or more, or a scale of ..." reads as two ways.
        let listed = ways.count == 1 ? ways[0] : ways.dropLast().joined(separator: ", ") + ", or " + ways[ways.count - 1]
        return listed + " would have \(other) it"
    }

    /// The first way it flips, short, for a plot's label: "threshold ≤ 0.131 finishes",
    /// "≤ 0.66/s cancels", "3.5 mm further finishes", "scale ≤ 0.15 finishes".
    package var shortWouldHave: String? {
        let verb = finishes ? "cancels" : "finishes"
        func bound(_ point: FlipPoint, _ decimals: Int) -> String {
            (point.otherSide == .above ? "≥ " : "≤ ") + FixedPoint.string(Bound.rounded(point, decimals: decimals), decimals: decimals)
        }
        if let point = flip.threshold {
            return "\(flip.thresholdSetting.name) \(bound(point, 3)) \(verb)"
        }
        if let point = flip.velocity { return "\(bound(point, 2))/s \(verb)" }
        guard let gesture, let point = gesture.point else { return nil }
        switch gesture.measure {
        case .travelMM:
            guard let travel = gesture.travelToFlip else { return nil }
            return "\(travel.mm) mm \(travel.more ? "further" : "shorter") \(verb)"
        case .scale: return "scale \(bound(point, 2)) \(verb)"
        }
    }

    /// The ways a release flips, each as a clause: threshold, gesture, velocity.
    var wayTexts: [String] {
        var ways: [String] = []
        if let point = flip.threshold {
            ways.append("a \(flip.thresholdSetting.name) of \(Bound.text(point, decimals: 3))")
        }
        if let gesture, let text = gesture.wayText { ways.append(text) }
        if let point = flip.velocity { ways.append(Bound.velocityText(point)) }
        return ways
    }

    /// Beside another decision: "finished" when this preset decides otherwise, else how far it was
    /// from flipping in the gesture's terms ("3.0 mm short", "scale 0.05 to spare"), or "cancelled too".
    /// Rounded as the preset's own sentence rounds it, so each stays true as printed: what it was
    /// short of rounded up (the same figure as "3.0 mm more travel"), what it had to spare down.
    func comparedText(with used: Bool) -> String {
        let outcome = finishes ? "finished" : "cancelled"
        guard finishes == used else { return outcome }
        guard let gesture, let point = gesture.point else { return "\(outcome) too" }
        let decimals = gesture.measure == .travelMM ? 1 : 2
        let amount = abs(point.value - gesture.atRelease)
        let shown = finishes
            ? Bound.roundedWithin(amount, decimals: decimals, strict: point.includesValue)
            : Bound.roundedAway(amount, decimals: decimals, strict: !point.includesValue)
        let room = finishes ? "to spare" : "short"
        switch gesture.measure {
        case .travelMM: return "\(FixedPoint.string(shown, decimals: 1)) mm \(room)"
        case .scale: return "scale \(FixedPoint.string(shown, decimals: 2)) \(room)"
        }
    }
}

extension ReleaseFlip.ThresholdSetting {
    /// "threshold", "cancel ratio".
    var name: String {
        switch self {
        case .progressThreshold: return "threshold"
        case .cancelRatio: return "cancel ratio"
        }
    }
}

extension GestureFlip {
    /// "3.5 mm more travel", "2.0 mm less travel", "a scale of 0.55 or less"; nil without a point.
    var wayText: String? {
        guard let point else { return nil }
        switch measure {
        case .travelMM:
            guard let travel = travelToFlip else { return nil }
            return "\(travel.mm) mm \(travel.more ? "more" : "less") travel"
        case .scale:
            return "a scale of \(Bound.text(point, decimals: 2))"
        }
    }

    /// A pan's travel to its flip, mm at one decimal rounded up (one step further when the flip
    /// point itself does not flip), so that travelling that much more (or less) flips it as
    /// printed; `more` when it is further down. nil for a pinch or without a point.
    var travelToFlip: (mm: String, more: Bool)? {
        guard measure == .travelMM, let point else { return nil }
        let needed = point.value - atRelease
        let amount = Bound.roundedAway(abs(needed), decimals: 1, strict: !point.includesValue)
        return (FixedPoint.string(amount, decimals: 1), needed >= 0)
    }
}

/// A flip point as words, its figure rounded towards the side that flips.
package enum Bound {
    /// "0.433 or less", "0.594 or more".
    package static func text(_ point: FlipPoint, decimals: Int) -> String {
        let value = rounded(point, decimals: decimals)
        return FixedPoint.string(value, decimals: decimals) + (point.otherSide == .above ? " or more" : " or less")
    }

    /// "releasing at 0.41/s or faster", "releasing at 0.20/s or slower", "moving back at 0.60/s or
    /// faster", "moving back at 0.59/s or slower" (velocity is positive towards finishing).
    package static func velocityText(_ point: FlipPoint) -> String {
        let value = rounded(point, decimals: 2)
        let speed = FixedPoint.string(abs(value), decimals: 2) + "/s"
        switch (point.otherSide, value > 0 || (value == 0 && point.otherSide == .above)) {
        case (.above, true): return "releasing at \(speed) or faster"
        case (.above, false): return "moving back at \(speed) or slower"
        case (.below, true): return "releasing at \(speed) or slower"
        case (.below, false): return "moving back at \(speed) or faster"
        }
    }

    /// The point's value at `decimals`, rounded towards the side that flips: one step further when
    /// it lands on a value that does not flip itself.
    package static func rounded(_ point: FlipPoint, decimals: Int) -> Double {
        var unit = 1.0
        for _ in 0..<decimals { unit *= 10 }
        let scaled = point.value * unit
        var steps = point.otherSide == .above ? scaled.rounded(.up) : scaled.rounded(.down)
        if steps == scaled && !point.includesValue { steps += point.otherSide == .above ? 1 : -1 }
        return steps / unit
    }

    /// A positive amount at `decimals`, rounded up (one step further when exact and `strict`).
    package static func roundedAway(_ amount: Double, decimals: Int, strict: Bool) -> Double {
        rounded(FlipPoint(value: amount, otherSide: .above, includesValue: !strict), decimals: decimals)
    }

    /// A positive amount at `decimals`, rounded down (one step less when exact and `strict`): room
    /// that stays within what there was.
    package static func roundedWithin(_ amount: Double, decimals: Int, strict: Bool) -> Double {
        rounded(FlipPoint(value: amount, otherSide: .below, includesValue: !strict), decimals: decimals)
    }
}
