import GestureKit

/// One recognizer threshold the tuner may move, with the values it tries.
struct TunableThreshold: Sendable {
    let name: String
    let values: [Double]
    let read: @Sendable (GestureRecognizerConfiguration) -> Double
    let write: @Sendable (inout GestureRecognizerConfiguration, Double) -> Void

    /// The thresholds that decide pinch versus pan, how soon a gesture begins, and the velocity the
    /// policy sees at release; the values bracket libinput's figures (the defaults).
    static let all: [TunableThreshold] = [
        .init(name: "minMoveMM", values: [1.0, 1.25, 1.5, 2.0], read: { $0.minMoveMM }, write: { $0.minMoveMM = $1 }),
        .init(name: "maxMoveMM", values: [3.0, 4.0, 5.0, 6.0], read: { $0.maxMoveMM }, write: { $0.maxMoveMM = $1 }),
        .init(name: "undecidedMoveMM", values: [0.5, 1.0], read: { $0.undecidedMoveMM }, write: { $0.undecidedMoveMM = $1 }),
        .init(name: "panSlopMM", values: [2.0, 3.0, 4.0], read: { $0.panSlopMM }, write: { $0.panSlopMM = $1 }),
        .init(name: "pinchSpanSlopMM", values: [0.5, 1.0, 1.5, 2.0], read: { $0.pinchSpanSlopMM }, write: { $0.pinchSpanSlopMM = $1 }),
        .init(name: "scrollDecisionTimeoutMS", values: [100, 150, 200], read: { $0.scrollDecisionTimeoutMS },
              write: { $0.scrollDecisionTimeoutMS = $1 }),
        .init(name: "pinchCorrectionWindowMS", values: [200, 300, 400], read: { $0.pinchCorrectionWindowMS },
              write: { $0.pinchCorrectionWindowMS = $1 }),
        .init(name: "pinchOpposingMinMoveMM", values: [0.75, 1.0, 1.25], read: { $0.pinchOpposingMinMoveMM },
              write: { $0.pinchOpposingMinMoveMM = $1 }),
        .init(name: "oneSidedPinchMaximumAngleDegrees", values: [20, 30, 40], read: { $0.oneSidedPinchMaximumAngleDegrees },
              write: { $0.oneSidedPinchMaximumAngleDegrees = $1 }),
        .init(name: "velocity.horizonMS", values: [60, 80, 100, 150], read: { $0.velocity.horizonMS },
              write: { $0.velocity.horizonMS = $1 }),
        .init(name: "velocity.polynomialDegree", values: [1, 2], read: { Double($0.velocity.polynomialDegree) },
              write: { $0.velocity.polynomialDegree = Int($1) }),
    ]

    /// Every configuration one step from `configuration`: one threshold moved to another of its values.
    static func neighbours(of configuration: GestureRecognizerConfiguration) -> [GestureRecognizerConfiguration] {
        all.flatMap { threshold in
            threshold.values.filter { $0 != threshold.read(configuration) }.map { value in
                var moved = configuration
                threshold.write(&moved, value)
                return moved
            }
        }
    }

    /// How many of the searched thresholds differ between two configurations.
    static func changes(from base: GestureRecognizerConfiguration, to other: GestureRecognizerConfiguration) -> Int {
        all.filter { $0.read(base) != $0.read(other) }.count
    }
}

