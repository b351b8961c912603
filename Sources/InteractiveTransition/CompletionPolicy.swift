/// Decides at release whether an interactive transition finishes or cancels — data the tuner can search,
/// instead of the seeds' hard-coded `progress > 0.5`.
///
/// Rules, in order:
/// 1. Flick: if `flickVelocity` is set and |velocity| >= it, the sign of the velocity decides
///    (towards completion finishes, backwards cancels).
/// 2. Projection: if `decelerationRatePerMS` r is set, the progress the motion would coast to,
///    `p + (v / 1000) x r / (1 - r)` (WWDC 2018 "Designing Fluid Interfaces"), must exceed the threshold.
/// 3. Otherwise progress itself must exceed `progressThreshold` (strictly, as the seed's `progress > 0.5`).
public struct CompletionPolicy: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Finish when the (projected) progress is strictly above this, 0...1.
    public var progressThreshold: Double
    /// Per-millisecond deceleration rate r in (0, 1) for velocity projection; nil = no projection.
    public var decelerationRatePerMS: Double?
    /// Progress per second at or above which the direction of the velocity alone decides; nil = never.
    public var flickVelocity: Double?

    /// UIScrollView's `.normal` deceleration rate per ms.
    public static let normalDecelerationRatePerMS = 0.998
    /// UIScrollView's `.fast` deceleration rate per ms.
    public static let fastDecelerationRatePerMS = 0.99

    public init(progressThreshold: Double, decelerationRatePerMS: Double? = nil,
                flickVelocity: Double? = nil) throws(TransitionError) {
        guard progressThreshold.isFinite, (0...1).contains(progressThreshold) else {
            throw .invalidPolicy(reason: "progressThreshold must be in 0...1, got \(progressThreshold)")
        }
        if let rate = decelerationRatePerMS, !(rate > 0 && rate < 1) {
            throw .invalidPolicy(reason: "decelerationRatePerMS must be in (0, 1), got \(rate)")
        }
        if let flick = flickVelocity, !(flick.isFinite && flick > 0) {
            throw .invalidPolicy(reason: "flickVelocity must be finite and > 0 progress/s, got \(flick)")
        }
        self.progressThreshold = progressThreshold
        self.decelerationRatePerMS = decelerationRatePerMS
        self.flickVelocity = flickVelocity
    }

    private init(unchecked threshold: Double, _ rate: Double?, _ flick: Double?) {
        progressThreshold = threshold; decelerationRatePerMS = rate; flickVelocity = flick
    }

    /// Exactly seed 000's rule: finish when progress > 0.5, velocity ignored.
    public static let seed = CompletionPolicy(unchecked: 0.5, nil, nil)
    /// Projection with UIKit's normal deceleration (a release at v progress/s coasts about v/2 further)
    /// and a flick above 1.5 progress/s (the whole transition in two thirds of a second).
    public static let `default` = CompletionPolicy(unchecked: 0.5, normalDecelerationRatePerMS, 1.5)
    /// Fast deceleration (coasts about v/10 further) but an easier flick at 0.75 progress/s: quick
    /// throws decide, slow drags go by position.
    public static let fluid = CompletionPolicy(unchecked: 0.5, fastDecelerationRatePerMS, 0.75)

    /// How far (progress units) a release at `velocity` progress/s coasts with per-ms rate `rate`.
    public static func projectedDistance(velocity: Double, decelerationRatePerMS rate: Double) -> Double {
        (velocity / 1000) * rate / (1 - rate)
    }

    /// The decision for a release at `progress` with `velocity` (progress/s, positive = towards finish).
    /// Non-finite inputs count as 0 and are flagged in the result; every number in the result is finite.
    public func decide(progress: Double, velocity: Double) -> CompletionDecision {
        let progressWasNonFinite = !progress.isFinite
        let velocityWasNonFinite = !velocity.isFinite
        let p = progressWasNonFinite ? 0 : progress
        let v = velocityWasNonFinite ? 0 : velocity
        let reason: CompletionReason
        let shouldFinish: Bool
        if let flick = flickVelocity, abs(v) >= flick {
            reason = .flick(velocity: v, flickVelocity: flick)
            shouldFinish = v > 0
        } else if let rate = decelerationRatePerMS {
            var projected = p + Self.projectedDistance(velocity: v, decelerationRatePerMS: rate)
            if !projected.isFinite { projected = v > 0 ? .greatestFiniteMagnitude : -.greatestFiniteMagnitude }
            reason = .projected(projectedProgress: projected, threshold: progressThreshold)
            shouldFinish = projected > progressThreshold
        } else {
            reason = .progress(progress: p, threshold: progressThreshold)
            shouldFinish = p > progressThreshold
        }
        return CompletionDecision(shouldFinish: shouldFinish, reason: reason,
                                  progressWasNonFinite: progressWasNonFinite,
                                  velocityWasNonFinite: velocityWasNonFinite)
    }

    private enum CodingKeys: String, CodingKey { case progressThreshold, decelerationRatePerMS, flickVelocity }

    /// Decodes over `CompletionPolicy.default`: see `init(from:defaults:)`.
    public init(from decoder: any Decoder) throws {
        try self.init(from: decoder, defaults: .default)
    }

    /// A key left out keeps its value from `defaults`; an explicit `null` turns that rule off (no
    /// projection, no flick), so `{"progressThreshold": 0.6}` changes only the threshold.
    public init(from decoder: any Decoder, defaults: CompletionPolicy) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func optional(_ key: CodingKeys, _ fallback: Double?) throws -> Double? {
            guard container.contains(key) else { return fallback }
            return try container.decodeNil(forKey: key) ? nil : container.decode(Double.self, forKey: key)
        }
        try self.init(
            progressThreshold: container.decodeIfPresent(Double.self, forKey: .progressThreshold) ?? defaults.progressThreshold,
            decelerationRatePerMS: optional(.decelerationRatePerMS, defaults.decelerationRatePerMS),
            flickVelocity: optional(.flickVelocity, defaults.flickVelocity))
    }

    /// Every key is written, a rule that is off as `null` (an optional encoded whole, not
    /// `encodeIfPresent`), so that decoding over the defaults gives this policy back rather than the
    /// defaults' rule.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(progressThreshold, forKey: .progressThreshold)
        try container.encode(decelerationRatePerMS, forKey: .decelerationRatePerMS)
        try container.encode(flickVelocity, forKey: .flickVelocity)
    }

    public var description: String {
        var parts = ["progress > \(progressThreshold)"]
        if let rate = decelerationRatePerMS { parts.append("projection r=\(rate)/ms") }
        if let flick = flickVelocity { parts.append("flick >= \(flick)/s") }
        return parts.joined(separator: ", ")
    }
}

/// Which rule of a `CompletionPolicy` decided, with the numbers it compared.
public enum CompletionReason: Hashable, Sendable, Codable {
    /// |velocity| >= flickVelocity: the sign decided.
    case flick(velocity: Double, flickVelocity: Double)
    /// The projected progress was compared with the threshold.
    case projected(projectedProgress: Double, threshold: Double)
    /// The progress was compared with the threshold.
    case progress(progress: Double, threshold: Double)
}

/// The outcome of `CompletionPolicy.decide`.
public struct CompletionDecision: Hashable, Sendable, Codable, CustomStringConvertible {
    public let shouldFinish: Bool
    public let reason: CompletionReason
    /// The progress given was NaN or infinite and was taken as 0.
    public let progressWasNonFinite: Bool
    /// The velocity given was NaN or infinite and was taken as 0.
    public let velocityWasNonFinite: Bool

    public var description: String {
        let verdict = shouldFinish ? "finish" : "cancel"
        var text: String
        switch reason {
        case .flick(let velocity, let flick):
            text = "\(verdict): flick, |velocity| \(Self.short(abs(velocity)))/s >= \(Self.short(flick))/s, "
                + (velocity > 0 ? "towards completion" : "backwards")
        case .projected(let projected, let threshold):
            text = "\(verdict): projected progress \(Self.short(projected)) \(shouldFinish ? ">" : "<=") threshold \(Self.short(threshold))"
        case .progress(let progress, let threshold):
            text = "\(verdict): progress \(Self.short(progress)) \(shouldFinish ? ">" : "<=") threshold \(Self.short(threshold))"
        }
        if progressWasNonFinite { text += " (non-finite progress taken as 0)" }
        if velocityWasNonFinite { text += " (non-finite velocity taken as 0)" }
        return text
    }

    /// Three decimals: enough to see why, short enough to read in a log line.
    static func short(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
}
