#if canImport(Glibc)
import Glibc
#endif
import GestureCore

/// Everything needed to regenerate one synthetic gesture exactly: the motion, the timing of
/// landing and lifting, and the noise. Stored in the corpus manifest next to the seed.
package struct GestureRecipe: Codable, Sendable, Hashable {
    package enum Motion: Codable, Sendable, Hashable {
        /// Two fingers: separation follows `scale` (1 = start separation), the axis turns by
        /// `rotationDegrees`, the centre stays.
        case pinch(PinchMotion)
        /// `fingers` fingers side by side move together by `dx`/`dy` millimetres.
        case pan(PanMotion)
        /// A thumb rests still while one finger moves.
        case restingThumb(RestingThumbMotion)
        /// Fingers land and lift without moving.
        case tap(TapMotion)
    }

    package struct PinchMotion: Codable, Sendable, Hashable {
        package var center: PointMM
        package var startSeparationMM: Double
        package var angleDegrees: Double
        /// 0 symmetric; 1 the first finger stays where it landed.
        package var anchoring: Double
        package var scale: KeyframeTrack
        package var rotationDegrees: KeyframeTrack
    }

    package struct PanMotion: Codable, Sendable, Hashable {
        package var fingers: Int
        package var start: PointMM
        package var spacingMM: Double
        package var dx: KeyframeTrack
        package var dy: KeyframeTrack
    }

    package struct RestingThumbMotion: Codable, Sendable, Hashable {
        package var thumb: PointMM
        package var fingerStart: PointMM
        package var dx: KeyframeTrack
        package var dy: KeyframeTrack
    }

    package struct TapMotion: Codable, Sendable, Hashable {
        package var fingers: Int
        package var center: PointMM
        package var spacingMM: Double
    }

    package var motion: Motion
    /// Seconds between the first and each further finger landing.
    package var landingStaggerS: Double
    /// Seconds from the last landing to the start of the movement.
    package var settleS: Double
    /// Seconds from the start of the movement to the first finger lifting. A release before the
    /// motion's last keyframe lifts the fingers while they still move (a flick).
    package var releaseAtS: Double
    /// Seconds between the first and each further finger lifting.
    package var liftStaggerS: Double
    /// Standard deviation of the sensor noise in millimetres; nil uses the device's fuzz.
    package var jitterMM: Double?

    package var fingerCount: Int {
        switch motion {
        case .pinch: return 2
        case .pan(let pan): return pan.fingers
        case .restingThumb: return 2
        case .tap(let tap): return tap.fingers
        }
    }

    /// The finger tracks this recipe describes, times in seconds from the first landing.
    package func tracks() -> [FingerTrack] {
        let n = fingerCount
        let moveStart = landingStaggerS * Double(n - 1) + settleS
        let release = moveStart + releaseAtS
        func down(_ i: Int) -> Double { landingStaggerS * Double(i) }
        func up(_ i: Int) -> Double { release + liftStaggerS * Double(i) }
        // Fingers lifting after the first one freeze where they were at release: a person stops
        // moving once the gesture is over.
        @Sendable func motionTime(_ t: Double) -> Double { max(0, min(t, release) - moveStart) }

        switch motion {
        case .pinch(let pinch):
            return (0..<2).map { i in
                FingerTrack(downAt: down(i), upAt: up(i)) { t in
                    let m = motionTime(t)
                    let pose = TwoFingerPose(
                        center: pinch.center,
                        separationMM: pinch.startSeparationMM * pinch.scale.value(at: m),
                        angleRadians: (pinch.angleDegrees + pinch.rotationDegrees.value(at: m)) * .pi / 180,
                        anchoring: pinch.anchoring)
                    let (a, b) = pose.fingers(startSeparationMM: pinch.startSeparationMM)
                    return i == 0 ? a : b
                }
            }
        case .pan(let pan):
            return (0..<pan.fingers).map { i in
                FingerTrack(downAt: down(i), upAt: up(i)) { t in
                    let m = motionTime(t)
                    return PointMM(x: pan.start.x + Double(i) * pan.spacingMM + pan.dx.value(at: m),
                                   y: pan.start.y + pan.dy.value(at: m))
                }
            }
        case .restingThumb(let rest):
            return [
                FingerTrack(downAt: down(0), upAt: up(1)) { _ in rest.thumb },
                FingerTrack(downAt: down(1), upAt: up(0)) { t in
                    let m = motionTime(t)
                    return PointMM(x: rest.fingerStart.x + rest.dx.value(at: m), y: rest.fingerStart.y + rest.dy.value(at: m))
                },
            ]
        case .tap(let tap):
            return (0..<tap.fingers).map { i in
                FingerTrack(downAt: down(i), upAt: up(i)) { _ in
                    PointMM(x: tap.center.x + Double(i) * tap.spacingMM, y: tap.center.y)
                }
            }
        }
    }

    /// The recording this recipe makes on `device`, reproducible from `seed`.
    package func events(on device: DeviceDescription, seed: UInt64) -> [InputEvent] {
        var random = SeededRandom(seed: seed)
        let synthesizer = EventSynthesizer(device: device, jitterMM: jitterMM)
        return synthesizer.events(for: tracks(), random: &random)
    }
}
