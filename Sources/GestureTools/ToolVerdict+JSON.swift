import SettingsTable

/// The summary's `tools` entries: `{"name", "source", "libinput", "fired": [...], "note"}`.
extension ToolVerdict: Encodable {
    private enum CodingKeys: String, CodingKey { case name, source, libinput, fired, note, caveats }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(source, forKey: .source)
        try c.encode(units, forKey: .libinput)
        try c.encode(fired, forKey: .fired)
        if !caveats.isEmpty { try c.encode(caveats, forKey: .caveats) }
        if case .readsOnly(let kind) = note {
            try c.encode("\(name.rawValue) reads only a \(kind.rawValue)'s events", forKey: .note)
        }
    }
}

extension FiredGesture: Encodable {
    private enum CodingKeys: String, CodingKey {
        case gesture, fingers, direction, executed, begin, end, percentage, distance, angle, scale, edge, length, pressed, speed, margin
    }
    private enum MarginKeys: String, CodingKey { case value, threshold, key, unit }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(gesture, forKey: .gesture)
        try c.encode(fingers, forKey: .fingers)
        try c.encodeIfPresent(direction, forKey: .direction)
        try c.encodeIfPresent(executed, forKey: .executed)
        try c.encode(Self.round(begin), forKey: .begin)
        try c.encode(Self.round(end), forKey: .end)
        try c.encodeIfPresent(figures.percentage.map(Self.round), forKey: .percentage)
        try c.encodeIfPresent(figures.distance.map(Self.round), forKey: .distance)
        try c.encodeIfPresent(figures.angleDegrees.map(Self.round), forKey: .angle)
        try c.encodeIfPresent(figures.scale.map(Self.round), forKey: .scale)
        try c.encodeIfPresent(figures.edge, forKey: .edge)
        try c.encodeIfPresent(figures.lengthClass, forKey: .length)
        try c.encodeIfPresent(figures.pressed, forKey: .pressed)
        try c.encodeIfPresent(figures.speed.map(Self.round), forKey: .speed)
        if let margin {
            var m = c.nestedContainer(keyedBy: MarginKeys.self, forKey: .margin)
            try m.encode(Self.round(margin.value), forKey: .value)
            try m.encode(Self.round(margin.threshold), forKey: .threshold)
            try m.encode(margin.key, forKey: .key)
            try m.encode(margin.unit, forKey: .unit)
        }
    }

    /// Four decimals: the tools' figures are percentages, units and degrees, and a summary that
    /// changed in its tenth decimal from one libinput run to the next would say nothing.
    static func round(_ value: Double) -> Double {
        value.isFinite ? (value * 10_000).rounded() / 10_000 : 0
    }
}
