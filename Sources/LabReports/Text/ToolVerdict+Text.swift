import GestureLab
import GestureTools

extension ToolVerdict {
    /// The human lines of `replay --tool`: a heading naming the tool, where its events came from and
    /// the libinput whose units they are in, then one line per gesture it would act on.
    package var textLines: [String] {
        let from = source == .libinput ? "Debian's libinput \(units.version)" : "pinchlab's recognizer in libinput \(units.version)'s units"
        var lines = ["\(name.rawValue) (fed by \(from)): \(fired.count) gesture\(fired.count == 1 ? "" : "s")"]
        if case .readsOnly(let kind) = note {
            lines.append("  \(name.rawValue) reads only a \(kind.rawValue)'s events: nothing to judge")
        }
        lines += fired.map { "  \($0.text)" }
        lines += unitThresholds.map { "  " + $0.text(now: units) }
        return lines
    }
}

extension [ToolVerdict] {
    /// Every verdict's lines, then, once, where the stream's stand-in for libinput is known to read
    /// the recording otherwise than libinput (the tools that judged share one stream).
    package var textLines: [String] {
        var lines = flatMap(\.textLines)
        var said: Set<StandInCaveat> = []
        for caveat in filter({ $0.note == nil }).flatMap(\.caveats) where said.insert(caveat).inserted {
            switch caveat {
            case .clickpadClick:
                lines.append("note: the clickpad was clicked with fingers down: pinchlab may hold where libinput, which leaves a "
                             + "clicked clickpad to the pointer, sends nothing (--with-libinput feeds the tools libinput's own events)")
            case .noMultitouchPositions:
                lines.append("note: this touchpad's two-finger positions are rough (semi-MT, or two slots and no resolution): "
                             + "pinchlab may pinch where libinput scrolls (--with-libinput feeds the tools libinput's own events)")
            }
        }
        return lines
    }
}

extension FiredGesture {
    /// `SWIPE UP, 3 fingers, 0.120-0.640 s: executed, 34.2 % against action_execute_threshold 20 % (14.2 % above)`.
    package var text: String {
        var head = gesture + (direction.map { " \($0)" } ?? "") + ", \(fingers) finger\(fingers == 1 ? "" : "s"), "
            + "\(FixedPoint.string(begin, decimals: 3))-\(FixedPoint.string(end, decimals: 3)) s"
        var parts: [String] = []
        if let executed { parts.append(executed ? "executed" : "cancelled") }
        if let margin {
            let side = margin.value >= margin.threshold ? "above" : "short"
            parts.append("\(Self.figure(margin.value)) \(margin.unit) against \(margin.key) \(Self.figure(margin.threshold)) \(margin.unit) "
                         + "(\(Self.figure(margin.distance)) \(side))")
        }
        if let angle = figures.angleDegrees { parts.append("angle \(FixedPoint.string(angle, decimals: 1)) deg") }
        if let scale = figures.scale { parts.append("scale \(FixedPoint.string(scale, decimals: 2))") }
        if !parts.isEmpty { head += ": " + parts.joined(separator: ", ") }
        return head
    }

    /// One decimal for percentages, units and px; two under 10 (progress, scale), where one would
    /// print KWin's 0.25 as 0.3.
    private static func figure(_ value: Double) -> String { FixedPoint.string(value, decimals: abs(value) < 10 ? 2 : 1) }
}

extension RealToolCheck {
    /// `lisgd (/usr/bin/lisgd) fired 2: 1 UD, 3 LR: the emulation agrees` or what each fired.
    package var text: String {
        func list(_ fired: [Fired]) -> String { fired.isEmpty ? "nothing" : fired.map { "\($0.fingers) \($0.gesture)" }.joined(separator: ", ") }
        return "real lisgd (\(tool)) fired \(list(fired)): "
            + (agrees ? "the emulation agrees" : "the emulation differs: it fired \(list(emulated))")
    }
}

extension UnitThreshold {
    /// `swipe_threshold 400 units is 38.0 mm under libinput 1.22.1 (since 1.18), was 10.2 mm before 1.18`.
    package func text(now: LibinputUnits) -> String {
        let old = LibinputUnits(version: LibinputVersion(major: 1, minor: 17, patch: 0))
        let new = LibinputUnits(version: LibinputUnits.scaledSince)
        let current = now.version < LibinputUnits.scaledSince ? old : new
        let other = now.version < LibinputUnits.scaledSince ? new : old
        let otherName = now.version < LibinputUnits.scaledSince ? "from libinput 1.18 on" : "before libinput 1.18"
        return "\(key) \(FixedPoint.string(units, decimals: 0)) units is \(FixedPoint.string(millimetres(in: current), decimals: 1)) mm "
            + "under libinput \(now.version), \(FixedPoint.string(millimetres(in: other), decimals: 1)) mm \(otherName)"
    }
}
