import Foundation

/// The closed-form motion of a damped spring released at t = 0 with displacement `x0` and velocity `v0`
/// (progress units and progress units per second). Time is seconds since release; nothing reads a clock.
public struct SpringMotion: Hashable, Sendable, Codable {
    /// The spring.
    public let parameters: SpringParameters
    /// The displacement at release, progress units.
    public let initialDisplacement: Double
    /// The velocity at release, progress units per second.
    public let initialVelocity: Double

    /// Settling is searched at most this far. A spring that has not settled by then is cut there and
    /// `settling(rule:)` says so (`reachedSearchLimit`): a damping ratio near 0 (the envelope decays at
    /// ζ ω0 per second) or far above 1 (the slow mode decays at about ω0 / 2ζ per second) gets this far.
    public static let maximumSettleSearchSeconds = 60.0
    /// Largest grid step of the settle search, seconds.
    static let settleSearchStepSeconds = 0.001
    /// At least this many grid steps per undamped period, so stiff springs are not stepped over.
    static let settleSearchStepsPerPeriod = 64.0
    /// The settle time is refined by bisection to this precision, seconds.
    static let settleTimePrecisionSeconds = 1e-9
    /// The most grid steps of one settle search, whatever the spring: a spring built in code may
    /// have a period of a femtosecond (settings files are held to `SpringParameters.responseRange`,
    /// whose 1 ms gives at most 3.84 million steps), and the search must still end.
    static let settleSearchStepCountMax = 1 << 22

    /// Non-finite start values are taken as 0 so the motion is always finite.
    public init(parameters: SpringParameters, initialDisplacement: Double, initialVelocity: Double) {
        self.parameters = parameters
        self.initialDisplacement = initialDisplacement.isFinite ? initialDisplacement : 0
        self.initialVelocity = initialVelocity.isFinite ? initialVelocity : 0
    }

    /// x(t). For t <= 0 (or NaN) the release state.
    public func displacement(at time: Double) -> Double { evaluate(at: time).displacement }

    /// x'(t).
    public func velocity(at time: Double) -> Double { evaluate(at: time).velocity }

    /// Displacement and velocity together (one set of exponentials).
    public func evaluate(at time: Double) -> (displacement: Double, velocity: Double) {
        guard time > 0 else { return (initialDisplacement, initialVelocity) }
        let x0 = initialDisplacement, v0 = initialVelocity
        let omega = parameters.undampedAngularFrequency
        let zeta = parameters.dampingRatio
        let t = time
        switch parameters.regime {
        case .criticallyDamped:
            // x = (x0 + (v0 + ω0 x0) t) e^(-ω0 t)
            let b = v0 + omega * x0
            let decay = exp(-omega * t)
            let x = (x0 + b * t) * decay
            return (x, (b - omega * (x0 + b * t)) * decay)
        case .underdamped:
            // x = e^(-ζ ω0 t) [x0 cos(ωd t) + ((v0 + ζ ω0 x0)/ωd) sin(ωd t)]
            let omegaD = omega * (1 - zeta * zeta).squareRoot()
            let decayRate = zeta * omega
            let c = (v0 + decayRate * x0) / omegaD
            let envelope = exp(-decayRate * t)
            let cosine = cos(omegaD * t), sine = sin(omegaD * t)
            let inner = x0 * cosine + c * sine
            let innerRate = -x0 * omegaD * sine + c * omegaD * cosine
            return (envelope * inner, envelope * (innerRate - decayRate * inner))
        case .overdamped:
            // γ± = -ζ ω0 ± ω0 sqrt(ζ² - 1); γ+ taken as ω0²/γ- (γ+ γ- = ω0²) to avoid cancellation.
            let gammaMinus = -omega * (zeta + (zeta * zeta - 1).squareRoot())
            let gammaPlus = omega * omega / gammaMinus
            let b = (gammaMinus * x0 - v0) / (gammaMinus - gammaPlus)
            let a = x0 - b
            let fast = exp(gammaMinus * t), slow = exp(gammaPlus * t)
            return (a * fast + b * slow, a * gammaMinus * fast + b * gammaPlus * slow)
        }
    }

    /// Whether the motion has settled by `time` under `rule`.
    public func isSettled(at time: Double, rule: SpringSettleRule = .standard) -> Bool {
        let state = evaluate(at: time)
        return rule.isSettled(displacement: state.displacement, velocity: state.velocity)
    }

    /// The first time (seconds) at which `rule` holds, found on a fine grid and refined by bisection;
    /// 0 when already settled at release, `maximumSettleSearchSeconds` if never within the search
    /// (use `settling(rule:)` to tell that case from a spring that really settles there).
    public func settleTime(rule: SpringSettleRule = .standard) -> Double {
        settling(rule: rule).seconds
    }

    /// When the motion settles by `rule`, and whether the search gave up at `maximumSettleSearchSeconds`
    /// first (the motion is then still moving there, by `displacement` and `velocity` at that time).
    package func settling(rule: SpringSettleRule = .standard) -> SpringSettling {
        if let seconds = firstSettledTime(rule: rule) {
            return SpringSettling(seconds: seconds, reachedSearchLimit: false, displacement: 0, velocity: 0)
        }
        let limit = Self.maximumSettleSearchSeconds
        let state = evaluate(at: limit)
        return SpringSettling(seconds: limit, reachedSearchLimit: true, displacement: state.displacement,
                              velocity: state.velocity)
    }

    /// The first time the rule holds within the search, nil if it never does there.
    private func firstSettledTime(rule: SpringSettleRule) -> Double? {
        if isSettled(at: 0, rule: rule) { return 0 }
        let step = max(min(Self.settleSearchStepSeconds, parameters.response / Self.settleSearchStepsPerPeriod),
                       Self.maximumSettleSearchSeconds / Double(Self.settleSearchStepCountMax))
        let stepCount = Int((Self.maximumSettleSearchSeconds / step).rounded(.up))
        var previous = 0.0
        for index in 1...stepCount {
            let time = min(Double(index) * step, Self.maximumSettleSearchSeconds)
            if isSettled(at: time, rule: rule) {
                var unsettled = previous, settled = time
                while settled - unsettled > Self.settleTimePrecisionSeconds {
                    let middle = (unsettled + settled) / 2
                    if isSettled(at: middle, rule: rule) { settled = middle } else { unsettled = middle }
                }
                return settled
            }
            previous = time
        }
        return nil
    }
}

/// The outcome of a settle search (`SpringMotion.settling(rule:)`).
public struct SpringSettling: Hashable, Sendable, Codable {
    /// Seconds (spring time) until the rule holds, or `SpringMotion.maximumSettleSearchSeconds` when it
    /// never held within the search.
    public let seconds: Double
    /// True when the rule never held within `SpringMotion.maximumSettleSearchSeconds`: an animation
    /// using this spring is cut at `seconds` and jumps onto its target from `displacement`.
    public let reachedSearchLimit: Bool
    /// Displacement left at `seconds` (progress units): 0 when the rule held, the size of the final
    /// jump when the search limit was reached.
    public let displacement: Double
    /// Velocity left at `seconds` (progress units per second): 0 when the rule held.
    public let velocity: Double
}

/// UIKit's normalised spring velocity (`UISpringTimingParameters.initialVelocity`,
/// `initialSpringVelocity`): the release velocity divided by the distance still to travel, so 1 means
/// "would cover the remaining distance in one second at this speed".
package enum SpringVelocity {
    /// Progress per second -> UIKit's normalised velocity. 0 when nothing is left to travel.
    package static func normalized(velocity: Double, from current: Double, to target: Double) -> Double {
        let remaining = target - current
        guard velocity.isFinite, remaining.isFinite, remaining != 0 else { return 0 }
        let result = velocity / remaining
        return result.isFinite ? result : 0
    }

    /// UIKit's normalised velocity -> progress per second for a move from `current` to `target`.
    package static func progressPerSecond(normalized: Double, from current: Double, to target: Double) -> Double {
        let result = normalized * (target - current)
        return result.isFinite ? result : 0
    }
}
