/// The summary's parts in words, as the terminal summary and the plot's facts both show them.
extension LabSummary.Gesture {
    /// `pinch, 2 fingers, 0.211-0.843 s, ended, scale 0.33, rotation -4.8°`.
    public var text: String {
        var text = "\(kind.rawValue), \(fingers) finger\(fingers == 1 ? "" : "s"), "
            + "\(FixedPoint.string(begin, decimals: 3))-\(FixedPoint.string(end, decimals: 3)) s, \(ended.rawValue)"
        if let scale { text += ", scale \(FixedPoint.string(scale, decimals: 2))" }
        if let rotation { text += ", rotation \(FixedPoint.string(rotation, decimals: 1))°" }
        if let t = translation {
            text += ", translation (\(FixedPoint.string(t.x, decimals: 1)), \(FixedPoint.string(t.y, decimals: 1))) mm"
        }
        return text
    }
}

extension LabSummary.Device {
    /// `"pinchlab virtual touchpad" (touchpad, 100.0 x 60.0 mm, 4 slots)`.
    public var text: String {
        var size = ""
        if let widthMM, let heightMM {
            size = ", \(FixedPoint.string(widthMM, decimals: 1)) x \(FixedPoint.string(heightMM, decimals: 1)) mm"
        }
        return "\"\(name)\" (\(self.class)\(size)"
            + (resolutionEstimated ? ", size estimated: no resolution" : "") + ", \(slots) slots)"
    }
}
