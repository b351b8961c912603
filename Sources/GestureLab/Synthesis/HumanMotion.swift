#if canImport(Glibc)
import Glibc
#endif
import GestureCore

/// Human reaching movements follow the minimum-jerk profile (Flash & Hogan 1985): smooth start,
/// peak speed mid-way, smooth stop. Finger paths are built from segments of it.
package enum MinimumJerk {
    /// Fraction of the distance covered at fraction `u` of the time: 10u³ - 15u⁴ + 6u⁵.
    package static func position(_ u: Double) -> Double {
        let u = min(max(u, 0), 1)
        return u * u * u * (10 - 15 * u + 6 * u * u)
    }
}

/// A value that moves through keyframes, each segment with a minimum-jerk profile and holds in
/// between where two keyframes share a value.
package struct KeyframeTrack: Sendable, Hashable, Codable {
    package struct Keyframe: Sendable, Hashable, Codable {
        /// Seconds since the movement started.
        package var time: Double
        package var value: Double
        package init(_ time: Double, _ value: Double) { self.time = time; self.value = value }
    }
    package var keyframes: [Keyframe]

    package init(_ keyframes: [Keyframe]) {
        precondition(!keyframes.isEmpty, "a track needs at least one keyframe")
        self.keyframes = keyframes.sorted { $0.time < $1.time }
    }

    package func value(at time: Double) -> Double {
        guard let first = keyframes.first, time > first.time else { return keyframes[0].value }
        for (a, b) in zip(keyframes, keyframes.dropFirst()) where time <= b.time {
            let span = b.time - a.time
            guard span > 0 else { return b.value }
            return a.value + (b.value - a.value) * MinimumJerk.position((time - a.time) / span)
        }
        return keyframes[keyframes.count - 1].value
    }

    package var endTime: Double { keyframes.last!.time }
}

/// One finger: when it touches, when it lifts, and where it is in between (millimetres).
package struct FingerTrack: Sendable {
    var downAt: Double
    var upAt: Double
    package var position: @Sendable (Double) -> PointMM

    package init(downAt: Double, upAt: Double, position: @escaping @Sendable (Double) -> PointMM) {
        self.downAt = downAt
        self.upAt = upAt
        self.position = position
    }

    package func isDown(at time: Double) -> Bool { time >= downAt && time < upAt }
}

/// Two-finger geometry: a centre, a separation along an axis, and the axis angle.
struct TwoFingerPose: Sendable {
    package var center: PointMM
    var separationMM: Double
    var angleRadians: Double
    /// 0: both fingers move symmetrically; 1: the first finger stays put and the second does all
    /// the moving (a thumb anchored while the index finger pinches).
    package var anchoring: Double

    package func fingers(startSeparationMM d0: Double) -> (PointMM, PointMM) {
        let ux = cos(angleRadians), uy = sin(angleRadians)
        let d = separationMM
        let toFirst = d0 / 2 + (d - d0) * (1 - anchoring) / 2
        let toSecond = d0 / 2 + (d - d0) * (1 + anchoring) / 2
        return (PointMM(x: center.x - ux * toFirst, y: center.y - uy * toFirst),
                PointMM(x: center.x + ux * toSecond, y: center.y + uy * toSecond))
    }
}
