#if canImport(Glibc)
import Glibc
#endif
import GestureCore

/// Human reaching movements follow the minimum-jerk profile (Flash & Hogan 1985): smooth start,
/// peak speed mid-way, smooth stop. Finger paths are built from segments of it.
public enum MinimumJerk {
    /// Fraction of the distance covered at fraction `u` of the time: 10u³ - 15u⁴ + 6u⁵.
    public static func position(_ u: Double) -> Double {
        let u = min(max(u, 0), 1)
        return u * u * u * (10 - 15 * u + 6 * u * u)
    }
}

/// A value that moves through keyframes, each segment with a minimum-jerk profile and holds in
/// between where two keyframes share a value.
public struct KeyframeTrack: Sendable, Hashable, Codable {
    public struct Keyframe: Sendable, Hashable, Codable {
        /// Seconds since the movement started.
        public var time: Double
        public var value: Double
        public init(_ time: Double, _ value: Double) { self.time = time; self.value = value }
    }
    public var keyframes: [Keyframe]

    public init(_ keyframes: [Keyframe]) {
        precondition(!keyframes.isEmpty, "a track needs at least one keyframe")
        self.keyframes = keyframes.sorted { $0.time < $1.time }
    }

    public func value(at time: Double) -> Double {
        guard let first = keyframes.first, time > first.time else { return keyframes[0].value }
        for (a, b) in zip(keyframes, keyframes.dropFirst()) where time <= b.time {
            let span = b.time - a.time
            guard span > 0 else { return b.value }
            return a.value + (b.value - a.value) * MinimumJerk.position((time - a.time) / span)
        }
        return keyframes[keyframes.count - 1].value
    }

    public var endTime: Double { keyframes.last!.time }
}

/// One finger: when it touches, when it lifts, and where it is in between (millimetres).
public struct FingerTrack: Sendable {
    public var downAt: Double
    public var upAt: Double
    public var position: @Sendable (Double) -> PointMM

    public init(downAt: Double, upAt: Double, position: @escaping @Sendable (Double) -> PointMM) {
        self.downAt = downAt
        self.upAt = upAt
        self.position = position
    }

    public func isDown(at time: Double) -> Bool { time >= downAt && time < upAt }
}

/// Two-finger geometry: a centre, a separation along an axis, and the axis angle.
public struct TwoFingerPose: Sendable {
    public var center: PointMM
    public var separationMM: Double
    public var angleRadians: Double
    /// 0: both fingers move symmetrically; 1: the first finger stays put and the second does all
    /// the moving (a thumb anchored while the index finger pinches).
    public var anchoring: Double

    public func fingers(startSeparationMM d0: Double) -> (PointMM, PointMM) {
        let ux = cos(angleRadians), uy = sin(angleRadians)
        let d = separationMM
        let toFirst = d0 / 2 + (d - d0) * (1 - anchoring) / 2
        let toSecond = d0 / 2 + (d - d0) * (1 + anchoring) / 2
        return (PointMM(x: center.x - ux * toFirst, y: center.y - uy * toFirst),
                PointMM(x: center.x + ux * toSecond, y: center.y + uy * toSecond))
    }
}
