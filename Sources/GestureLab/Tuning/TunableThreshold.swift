import GestureKit

/// One recognizer threshold the tuner may move, with the values it tries.
struct TunableThreshold: Sendable {
    let name: String
    let values: [Double]
    let read: @Sendable (GestureRecognizerConfiguration) -> Double
    let write: @Sendable (inout GestureRecognizerConfiguration, Double) -> Void

    /// The thresholds that decide pinch versus pan, how soon a gesture begins, and the velocity the
    /// policy sees at release: those of the recognizer's threshold table with tuning values (which
    /// bracket libinput's figures, the defaults).
    static let all: [TunableThreshold] = GestureRecognizerConfiguration.settings.settings
        .filter { !$0.tuningValues.isEmpty }
        .map { t in
            TunableThreshold(name: t.key, values: t.tuningValues, read: { t.number(in: $0) }, write: { t.set($1, in: &$0) })
        }

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

