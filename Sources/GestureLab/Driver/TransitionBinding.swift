import GestureKit
import InteractiveTransition

/// How a named transition listens to gestures: which kind drives it and how the gesture's values
/// become progress (0...1) and progress velocity (per second).
public struct TransitionBinding: Sendable, Hashable, Codable {
    public enum Mapping: String, Sendable, Hashable, Codable {
        /// Seed 000: `progress = clamp(1 - scale / startScale)`; pinching in dismisses.
        case pinchIn
        /// Pinching out presents: `progress = clamp((scale / startScale - 1) / zoomPresentScaleRange)`.
        case pinchOut
        /// Seed 003: `progress = clamp(downward translation / panDismissDistanceMM)`.
        case panDown
    }

    public var name: String
    public var kind: GestureKind
    public var mapping: Mapping

    public static func named(_ name: String) -> TransitionBinding? {
        switch TransitionName(rawValue: name) {
        case .pinchDismiss: return TransitionBinding(name: name, kind: .pinch, mapping: .pinchIn)
        case .panDismiss: return TransitionBinding(name: name, kind: .pan, mapping: .panDown)
        case .zoomPresent: return TransitionBinding(name: name, kind: .pinch, mapping: .pinchOut)
        case nil: return nil
        }
    }

    /// Progress and progress velocity for `event`, given the scale the gesture began with.
    func progress(of event: GestureEvent, startScale: Double, settings: LabSettings) -> (progress: Double, velocity: Double) {
        switch mapping {
        case .pinchIn:
            return (PinchDismissProgress.progress(scale: event.scale, startScale: startScale),
                    PinchDismissProgress.velocity(scaleVelocity: event.scaleVelocity, startScale: startScale))
        case .pinchOut:
            let range = settings.zoomPresentScaleRange
            let safeStart = startScale > 0 ? startScale : 1
            let p = (event.scale / safeStart - 1) / range
            return (min(max(p.isFinite ? p : 0, 0), 1), finite(event.scaleVelocity / safeStart / range))
        case .panDown:
            return (PanDismissProgress.progress(translationMM: event.translationMM.y, distanceMM: settings.panDismissDistanceMM),
                    PanDismissProgress.velocity(translationVelocityMMPerSecond: event.velocityMMPerSecond.y,
                                                distanceMM: settings.panDismissDistanceMM))
        }
    }
}

@inline(__always) func finite(_ value: Double) -> Double { value.isFinite ? value : 0 }
