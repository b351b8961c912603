/// The values one number of a settings file may take: an interval whose ends may be open (a
/// duration or a stiffness of 0 breaks the arithmetic; a deceleration rate of 1 never stops).
public struct SettingRange: Sendable, Hashable {
    /// The lower bound.
    public let lower: Double
    /// The upper bound.
    public let upper: Double
    /// Whether the lower bound itself is outside the range.
    public let lowerIsOpen: Bool
    /// Whether the upper bound itself is outside the range.
    public let upperIsOpen: Bool

    /// A range from its bounds, each closed unless said otherwise.
    public init(_ lower: Double, _ upper: Double, lowerIsOpen: Bool = false, upperIsOpen: Bool = false) {
        self.lower = lower
        self.upper = upper
        self.lowerIsOpen = lowerIsOpen
        self.upperIsOpen = upperIsOpen
    }

    /// The closed range `closed`.
    public init(_ closed: ClosedRange<Double>) { self.init(closed.lowerBound, closed.upperBound) }

    /// Finite and inside.
    public func contains(_ value: Double) -> Bool {
        value.isFinite && (lowerIsOpen ? value > lower : value >= lower) && (upperIsOpen ? value < upper : value <= upper)
    }

    /// "0...50", or with an open end in interval notation: "(0, 1)", "(0, 1000]".
    public var text: String {
        let low = Self.text(lower), high = Self.text(upper)
        if !lowerIsOpen && !upperIsOpen { return "\(low)...\(high)" }
        return (lowerIsOpen ? "(" : "[") + "\(low), \(high)" + (upperIsOpen ? ")" : "]")
    }

    /// "-3 mm is outside 0...50 mm": how every number outside its range is reported.
    public func outsideText(_ value: Double, unit: String) -> String {
        let unitText = unit.isEmpty ? "" : " \(unit)"
        return "\(Self.text(value))\(unitText) is outside \(text)\(unitText)"
    }

    /// A number as messages and tables show it: whole numbers without a fraction.
    public static func text(_ value: Double) -> String {
        value.isFinite && value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
