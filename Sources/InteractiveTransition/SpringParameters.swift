import Foundation
import SettingsTable

/// A damped spring `m x'' + c x' + k x = 0`: mass m, stiffness k (N/m-like, per s² for unit mass),
/// damping coefficient c. The animated quantity here is progress, so x is "progress still to travel".
public struct SpringParameters: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The mass m.
    public private(set) var mass: Double
    /// The stiffness k.
    public private(set) var stiffness: Double
    /// The damping coefficient c.
    public private(set) var damping: Double

    /// |ζ - 1| at or below this counts as critically damped: the under/over-damped closed forms divide by
    /// a quantity that vanishes at ζ = 1, and the critical form is exact to this tolerance.
    public static let criticalDampingTolerance = 1e-6

    /// Mass, stiffness and damping directly (Android `SpringForce` style uses mass 1).
    public init(mass: Double = 1, stiffness: Double, damping: Double) throws(TransitionError) {
        guard mass.isFinite, mass > 0 else { throw .invalidSpring(reason: "mass must be finite and > 0, got \(mass)") }
        guard stiffness.isFinite, stiffness > 0 else {
            throw .invalidSpring(reason: "stiffness must be finite and > 0, got \(stiffness)")
        }
        guard damping.isFinite, damping > 0 else {
            throw .invalidSpring(reason: "damping must be finite and > 0 (an undamped spring never settles), got \(damping)")
        }
        self.mass = mass; self.stiffness = stiffness; self.damping = damping
    }

    /// Damping ratio ζ and response T in seconds (the period of the undamped spring), as in
    /// "Designing Fluid Interfaces" (WWDC 2018): `k = (2π/T)² m`, `c = 4π ζ m / T`.
    public init(dampingRatio: Double, response: Double, mass: Double = 1) throws(TransitionError) {
        guard dampingRatio.isFinite, dampingRatio > 0 else {
            throw .invalidSpring(reason: "damping ratio must be finite and > 0, got \(dampingRatio)")
        }
        guard response.isFinite, response > 0 else {
            throw .invalidSpring(reason: "response must be finite and > 0 s, got \(response)")
        }
        let angular = 2 * Double.pi / response
        try self.init(mass: mass, stiffness: angular * angular * mass, damping: 4 * Double.pi * dampingRatio * mass / response)
    }

    /// Damping ratio ζ and stiffness k (Android `SpringForce(dampingRatio, stiffness)`, mass 1 by default).
    public init(dampingRatio: Double, stiffness: Double, mass: Double = 1) throws(TransitionError) {
        guard dampingRatio.isFinite, dampingRatio > 0 else {
            throw .invalidSpring(reason: "damping ratio must be finite and > 0, got \(dampingRatio)")
        }
        guard stiffness.isFinite, stiffness > 0, mass.isFinite, mass > 0 else {
            throw .invalidSpring(reason: "stiffness and mass must be finite and > 0, got \(stiffness), \(mass)")
        }
        try self.init(mass: mass, stiffness: stiffness, damping: 2 * dampingRatio * (stiffness * mass).squareRoot())
    }

    /// ω0 = sqrt(k / m), radians per second.
    public var undampedAngularFrequency: Double { (stiffness / mass).squareRoot() }
    /// ζ = c / (2 sqrt(k m)).
    public var dampingRatio: Double { damping / (2 * (stiffness * mass).squareRoot()) }
    /// T = 2π / ω0, seconds.
    public var response: Double { 2 * Double.pi / undampedAngularFrequency }

    /// The periods (`response`) a spring may have to animate a transition: from 1 ms (one display
    /// tick at the highest frame rate a settings file may ask for, 1000 Hz; a shorter spring is
    /// over between two ticks, and its settle search steps a fraction of a period) to the settle
    /// search's 60 s.
    public static let responseRange: ClosedRange<Double> = 0.001...SpringMotion.maximumSettleSearchSeconds

    /// How fast the slowest part of the motion dies away, per second: the envelope's ζ ω0 below
    /// critical damping, ω0 at it, and the slow mode's ω0 (ζ - √(ζ² - 1)) above it (computed as
    /// ω0 / (ζ + √(ζ² - 1)), without cancellation). A far overdamped spring creeps at about
    /// k / c, an almost undamped one rings at ζ ω0: either can take hours to settle.
    public var slowestDecayRate: Double {
        let omega = undampedAngularFrequency, zeta = dampingRatio
        switch regime {
        case .underdamped: return zeta * omega
        case .criticallyDamped: return omega
        case .overdamped: return omega / (zeta + (zeta * zeta - 1).squareRoot())
        }
    }

    /// About how long the motion takes to shrink from a displacement of 1 (the whole transition,
    /// from rest) to `settleDistance`: ln(1 / settleDistance) / `slowestDecayRate`, seconds. An
    /// estimate (the critically damped form settles a little later, a release velocity changes
    /// it), good for refusing a spring that could never settle within the settle search.
    public func estimatedSettleSeconds(settleDistance: Double = SpringSettleRule.standard.settleDistance) -> Double {
        max(0, log(1 / settleDistance)) / slowestDecayRate
    }

    /// Under-, critically or overdamped, from the damping ratio.
    public var regime: SpringRegime {
        let zeta = dampingRatio
        if abs(zeta - 1) <= Self.criticalDampingTolerance { return .criticallyDamped }
        return zeta < 1 ? .underdamped : .overdamped
    }

    /// The spring's numbers, damping ratio and response, as one line.
    public var description: String {
        "spring(m: \(mass), k: \(stiffness), c: \(damping), ζ: \(dampingRatio), response: \(response) s)"
    }

    /// Its keys in a settings file, all three needed. The init takes any finite value above 0 (the
    /// closed forms' domain); a file takes these, and `LabSettings` bounds the period and settle
    /// time they make together.
    public static let settings = SettingsTable<SpringParameters>([
        .number("mass", \.mass, "", SettingRange(0, 1000, lowerIsOpen: true), required: true,
                source: "above 0 (the equation divides by it); Android SpringForce uses 1"),
        .number("stiffness", \.stiffness, "", SettingRange(0, 1_000_000, lowerIsOpen: true), required: true,
                source: "above 0; Android STIFFNESS_HIGH is 10000"),
        .number("damping", \.damping, "", SettingRange(0, 100_000, lowerIsOpen: true), required: true,
                source: "above 0: an undamped spring never settles"),
    ])

    private static let placeholder = SpringParameters(unchecked: 1, 1, 1)
    private init(unchecked mass: Double, _ stiffness: Double, _ damping: Double) {
        self.mass = mass; self.stiffness = stiffness; self.damping = damping
    }

    /// Reads a spring from its JSON form, checked as its inits check it.
    public init(from decoder: any Decoder) throws {
        let read = try Self.settings.decode(from: decoder, over: .placeholder)
        try self.init(mass: read.mass, stiffness: read.stiffness, damping: read.damping)
    }
}

/// Which closed form solves the spring.
public enum SpringRegime: String, Sendable, Codable, CaseIterable {
    /// ζ < 1: oscillates inside a decaying envelope (overshoots).
    case underdamped
    /// ζ = 1: the fastest return without overshoot from rest.
    case criticallyDamped
    /// ζ > 1: creeps back without oscillating.
    case overdamped
}

/// When a spring animation counts as finished: `SpringSettleRule` — the first time at which
/// |displacement| < `settleDistance` **and** |velocity| < `settleVelocity`, both in progress units.
public struct SpringSettleRule: Hashable, Sendable, Codable {
    /// Progress units (1 = the whole transition).
    public var settleDistance: Double
    /// Progress units per second.
    public var settleVelocity: Double

    /// A rule from its two limits; throws `TransitionError` unless both are finite and > 0.
    public init(settleDistance: Double, settleVelocity: Double) throws(TransitionError) {
        guard settleDistance.isFinite, settleDistance > 0, settleVelocity.isFinite, settleVelocity > 0 else {
            throw .invalidSpring(reason: "settle distance and velocity must be finite and > 0")
        }
        self.settleDistance = settleDistance; self.settleVelocity = settleVelocity
    }

    private init(unchecked distance: Double, _ velocity: Double) {
        settleDistance = distance; settleVelocity = velocity
    }

    /// 0.001 progress (a thousandth of the transition: under a point on a 1000-point move) and 0.01 progress/s.
    public static let standard = SpringSettleRule(unchecked: 0.001, 0.01)

    /// Its keys in a settings file, both needed when the rule is given.
    public static let settings = SettingsTable<SpringSettleRule>([
        .number("settleDistance", \.settleDistance, "progress", SettingRange(0, 1, lowerIsOpen: true), required: true,
                source: "above 0 (0 never holds), at most the whole transition"),
        .number("settleVelocity", \.settleVelocity, "progress/s", SettingRange(0, 100, lowerIsOpen: true), required: true,
                source: "above 0 (0 never holds); 100 transitions a second is no longer settled"),
    ])

    /// Validated like `init(settleDistance:settleVelocity:)`: a rule of 0 never settles.
    public init(from decoder: any Decoder) throws {
        let read = try Self.settings.decode(from: decoder, over: .standard)
        try self.init(settleDistance: read.settleDistance, settleVelocity: read.settleVelocity)
    }

    /// Whether a displacement and velocity are both within the rule's limits.
    public func isSettled(displacement: Double, velocity: Double) -> Bool {
        abs(displacement) < settleDistance && abs(velocity) < settleVelocity
    }
}
