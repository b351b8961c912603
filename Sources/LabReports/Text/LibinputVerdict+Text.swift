import GestureLab

extension LibinputGesture {
    /// One line: `pinch, 2 fingers, 0.238-0.843 s, scale 0.34, angle -3.1 deg` (times in the
    /// recording's seconds).
    package var text: String {
        var parts = ["\(kind.rawValue)" + (fingers.map { ", \($0) finger\($0 == 1 ? "" : "s")" } ?? ""),
                     "\(FixedPoint.string(begin, decimals: 3))-\(FixedPoint.string(end, decimals: 3)) s"]
        if let scale { parts.append("scale \(FixedPoint.string(scale, decimals: 2))") }
        if let angle { parts.append("angle \(FixedPoint.string(angle, decimals: 1)) deg") }
        if kind != .pinch, let dx, let dy {
            parts.append("dx \(FixedPoint.string(dx, decimals: 1)) dy \(FixedPoint.string(dy, decimals: 1))")
        }
        if cancelled { parts.append("cancelled") }
        return parts.joined(separator: ", ")
    }
}

extension LibinputVerdict {
    /// The human lines of `pinchlab libinput` and `replay --with-libinput`.
    package var textLines: [String] {
        var lines = ["libinput \(version): \(gestures.count) gesture\(gestures.count == 1 ? "" : "s")"]
        if let note { lines.append("  \(note.rawValue)") }
        lines += gestures.map { "  \($0.text)" }
        if let timing, timing.late {
            lines.append("  warning: \(timing.lateEvents) of \(timing.events) events reached libinput more than "
                         + "\(FixedPoint.string(timing.lateThresholdMS, decimals: 0)) ms late (at most "
                         + "\(FixedPoint.string(timing.maximumLateMS, decimals: 1)) ms) in \(timing.runs) runs: its "
                         + "timers may have decided differently than on a real device")
        }
        if let gaps = shortenedGaps, !gaps.isEmpty {
            let longest = FixedPoint.string(ShortenedGaps.longestPlayedSeconds, decimals: 0)
            let listed = gaps.prefix(3).map { "\(FixedPoint.string($0.seconds, decimals: 1)) s at \(FixedPoint.string($0.at, decimals: 3)) s" }
                .joined(separator: ", ") + (gaps.count > 3 ? " and \(gaps.count - 3) more" : "")
            lines.append("  note: \(gaps.count) idle gap\(gaps.count == 1 ? "" : "s") over \(longest) s (\(listed)) played to libinput as "
                         + "\(longest) s: its timers had all run out by then, and it cannot tell the difference")
        }
        return lines
    }
}

extension LibinputAgreement {
    package var text: String {
        "agreement with libinput: \(matched) matched, \(libinputOnly.count) libinput only, "
            + "\(pinchlabOnly.count) pinchlab only (\(FixedPoint.string(ratio * 100, decimals: 0)) %)"
    }
}
