import SettingsTable

/// How the rest of a transition animates after the user lets go (UIKit's `completionCurve`, extended
/// with springs).
public enum CompletionTiming: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Follow a cubic-Bézier curve for `remaining progress x duration / completionSpeed` seconds.
    case curve(CubicBezierCurve)
    /// Continue as a spring from the release velocity until it settles (its own time, not `duration`).
    case spring(SpringTiming)

    /// UIKit's default `completionCurve`.
    public static let `default` = CompletionTiming.curve(.easeInOut)

    /// The curve or spring, as one line.
    public var description: String {
        switch self {
        case .curve(let curve): return curve.description
        case .spring(let spring): return spring.description
        }
    }

    /// Every timing with a name, as the command line and settings files take them: UIKit's four
    /// curves, then the spring presets.
    public static let named: [(name: String, timing: CompletionTiming)] = [
        ("ease-in-out", .curve(.easeInOut)), ("ease-in", .curve(.easeIn)), ("ease-out", .curve(.easeOut)),
        ("linear", .curve(.linear)),
    ] + SpringPresets.all.map { ($0.name, CompletionTiming.spring($0.timing)) }

    /// The timing called `name` in `named`, or by one of its older names (`SpringPresets.aliases`:
    /// `seed003-present` and the other names of the seed documents), if any.
    public init?(named name: String) {
        let name = SpringPresets.aliases[name] ?? name
        guard let found = Self.named.first(where: { $0.name == name }) else { return nil }
        self = found.timing
    }
}

// In JSON a timing is a name from `CompletionTiming.named` ("appstore-card-dismiss", or an alias such as "seed003-dismiss"), or
// {"curve": {"p1x": …, "p1y": …, "p2x": …, "p2y": …}}, or {"spring": {"parameters": {"mass": …,
// "stiffness": …, "damping": …}, "normalizedInitialVelocity": …, "settleRule": {…}}} (the spring's
// velocity and settle rule may be left out).
extension CompletionTiming {
    private enum CodingKeys: String, CodingKey { case curve, spring }

    /// Every key a timing object may hold (`curve.p1x`, `spring.parameters.mass`, ...).
    public static var everyKey: [String] {
        CubicBezierCurve.settings.keys.map { "curve." + $0 } + SpringTiming.settings.keys.map { "spring." + $0 }
    }

    /// The timing a settings value describes: a name, or an object with one key, `curve` or
    /// `spring`, read from their tables.
    public init(settings json: JSONValue, at section: [String] = []) throws(SettingsProblem) {
        if case .string(let name) = json {
            guard let timing = CompletionTiming(named: name) else {
                throw SettingsProblem(at: section, .unknownName(what: "timing", name: name, choices: Self.named.map(\.name),
                                                                orElse: "give a curve or spring object"))
            }
            self = timing
            return
        }
        guard let members = json.object else {
            throw SettingsProblem(at: Array(section.dropLast()),
                                  .wrongType(key: section.last ?? "", expected: "a timing name or an object", found: json.kindName))
        }
        switch (members["curve"], members["spring"], members.count) {
        case (let curve?, nil, 1):
            self = .curve(try CubicBezierCurve.settings.decode(curve, over: .linear, at: section + ["curve"]))
        case (nil, let spring?, 1):
            self = .spring(try SpringTiming(settings: spring, at: section + ["spring"]))
        default:
            throw SettingsProblem(at: section, .invalid("expected a timing name, or an object with one key: curve or spring"))
        }
    }

    /// Reads a timing from its JSON form (`curve` or `spring`).
    public init(from decoder: any Decoder) throws {
        self = try SettingsDecoding.read(from: decoder) { json throws(SettingsProblem) in try Self(settings: json) }
    }

    /// Writes the timing in its JSON form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .curve(let curve): try container.encode(curve, forKey: .curve)
        case .spring(let spring): try container.encode(spring, forKey: .spring)
        }
    }
}

/// A spring used to complete a transition, like `UIView.animate(withDuration:usingSpringWithDamping:
/// initialSpringVelocity:)` or `UISpringTimingParameters`.
public struct SpringTiming: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The spring's mass, stiffness and damping.
    public var parameters: SpringParameters
    /// UIKit's normalised initial velocity, used only when the completion starts without a gesture
    /// velocity (`finish(at:velocity: nil)`); a real release velocity always wins.
    public var normalizedInitialVelocity: Double
    /// When the spring counts as settled.
    public var settleRule: SpringSettleRule

    /// A spring timing from its parameters, initial velocity and settle rule.
    public init(parameters: SpringParameters, normalizedInitialVelocity: Double = 0,
                settleRule: SpringSettleRule = .standard) {
        self.parameters = parameters
        self.normalizedInitialVelocity = normalizedInitialVelocity.isFinite ? normalizedInitialVelocity : 0
        self.settleRule = settleRule
    }

    /// The spring's parameters, as one line.
    public var description: String {
        "spring(ζ: \(parameters.dampingRatio), response: \(parameters.response) s, v: \(normalizedInitialVelocity))"
    }

    /// Its keys in a settings file: the three numbers of `parameters` are needed; the velocity
    /// (default 0) and the settle rule (default `.standard`) may be left out.
    public static let settings = SettingsTable<SpringTiming>(
        SpringParameters.settings.settings.map { $0.nested(in: \.parameters, prefix: "parameters") }
            + [.number("normalizedInitialVelocity", \.normalizedInitialVelocity, "", SettingRange(-100...100),
                       source: "UIKit initialSpringVelocity: the seeds use 0 to 1; 100 is the whole move in a hundredth of its duration")]
            + SpringSettleRule.settings.settings.map { $0.nested(in: \.settleRule, prefix: "settleRule") },
        optionalSections: ["settleRule"])

    /// The spring a settings section describes, from the table, then checked as its inits check it.
    public init(settings json: JSONValue, at section: [String] = []) throws(SettingsProblem) {
        let read = try Self.settings.decode(json, over: SpringTiming(parameters: SpringPresets.appStoreCardDismiss.parameters),
                                            at: section)
        do {
            self.init(parameters: try SpringParameters(mass: read.parameters.mass, stiffness: read.parameters.stiffness,
                                                       damping: read.parameters.damping),
                      normalizedInitialVelocity: read.normalizedInitialVelocity,
                      settleRule: try SpringSettleRule(settleDistance: read.settleRule.settleDistance,
                                                       settleVelocity: read.settleRule.settleVelocity))
        } catch {
            throw SettingsProblem(at: section, .invalid(error.description))
        }
    }

    /// Reads a spring timing from its JSON form, checked as its init checks it.
    public init(from decoder: any Decoder) throws {
        self = try SettingsDecoding.read(from: decoder) { json throws(SettingsProblem) in try Self(settings: json) }
    }
}

/// The springs the seeds use, and Android/Material defaults.
///
/// UIKit's spring API takes a duration; pinchlab reads the seeds' duration as the spring's response
/// (its undamped period, SwiftUI's "perceptual duration") and lets the spring settle in its own time.
package enum SpringPresets {
    private static func make(dampingRatio: Double, response: Double, velocity: Double) -> SpringTiming {
        // The literals below are valid by construction; a failure would be a typo in this file.
        let parameters = try! SpringParameters(dampingRatio: dampingRatio, response: response)
        return SpringTiming(parameters: parameters, normalizedInitialVelocity: velocity)
    }
    private static func make(dampingRatio: Double, stiffness: Double) -> SpringTiming {
        SpringTiming(parameters: try! SpringParameters(dampingRatio: dampingRatio, stiffness: stiffness))
    }

    /// The App Store card's presentation (seed 003, an App Store "Today" card copy): damping 0.7,
    /// initial velocity 0.7, 0.6 s.
    package static let appStoreCardPresent = make(dampingRatio: 0.7, response: 0.6, velocity: 0.7)
    /// The App Store card's dismissal (seed 003): damping 0.7, initial velocity 0, 0.7 s.
    package static let appStoreCardDismiss = make(dampingRatio: 0.7, response: 0.7, velocity: 0)
    /// The App Store cell's touch-down bounce (seed 003, to scale 0.96): damping 1, initial velocity 1, 0.5 s.
    package static let appStoreCellBounce = make(dampingRatio: 1.0, response: 0.5, velocity: 1)
    /// The slide-in menu (seed 004, a modal menu whose items slide in on presentation and out on
    /// dismissal): damping 0.7, initial velocity 0.8. The seed does not show its duration; 0.5 s assumed.
    package static let slideInMenu = make(dampingRatio: 0.7, response: 0.5, velocity: 0.8)

    /// Android `SpringForce` default: `DAMPING_RATIO_MEDIUM_BOUNCY` 0.5, `STIFFNESS_MEDIUM` 1500, mass 1.
    package static let androidDefault = make(dampingRatio: 0.5, stiffness: 1500)
    /// Android `DAMPING_RATIO_NO_BOUNCY` 1.0 with `STIFFNESS_LOW` 200.
    static let androidNoBouncyLow = make(dampingRatio: 1.0, stiffness: 200)
    /// Material 3 default spatial spring: damping 0.9, stiffness 700.
    package static let material3SpatialDefault = make(dampingRatio: 0.9, stiffness: 700)

    /// Every preset by a stable name (for reports and the tuner), named by what it animates.
    package static let all: [(name: String, timing: SpringTiming)] = [
        ("appstore-card-present", appStoreCardPresent), ("appstore-card-dismiss", appStoreCardDismiss),
        ("appstore-cell-bounce", appStoreCellBounce), ("slide-in-menu", slideInMenu),
        ("android-default", androidDefault), ("android-no-bouncy-low", androidNoBouncyLow),
        ("material3-spatial-default", material3SpatialDefault),
    ]

    /// Older names still accepted on the command line and in settings files: the seed documents'
    /// numbers, which name documents a user has never seen. Each maps to its name in `all`.
    package static let aliases: [String: String] = [
        "seed003-present": "appstore-card-present", "seed003-dismiss": "appstore-card-dismiss",
        "seed003-bounce": "appstore-cell-bounce", "seed004-menu": "slide-in-menu",
    ]
}
