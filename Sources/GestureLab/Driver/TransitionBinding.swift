import GestureCore
import InteractiveTransition

/// How a named transition listens to gestures: which kind drives it and how the gesture's values
/// become a change of progress and a progress velocity (per second).
package struct TransitionBinding: Sendable, Hashable, Codable {
    package enum Mapping: String, Sendable, Hashable, Codable {
        /// Seed 000: change `1 - scale / startScale`; pinching in dismisses.
        case pinchIn
        /// Pinching out presents: change `(scale / startScale - 1) / zoomPresentScaleRange`.
        case pinchOut
        /// Seed 003: change `downward translation / panDismissDistanceMM`.
        case panDown

        /// The figure of `settings` the change is divided by (`zoomPresentScaleRange`,
        /// `panDismissDistanceMM`); nil for the pinch-in, which divides by the start scale only.
        package func divisor(_ settings: LabSettings) -> Double? {
            switch self {
            case .pinchIn: nil
            case .pinchOut: settings.zoomPresentScaleRange
            case .panDown: settings.panDismissDistanceMM
            }
        }
    }

    package var name: TransitionName
    package var kind: GestureKind
    package var mapping: Mapping

    package init(_ name: TransitionName) {
        self.name = name
        switch name {
        case .pinchDismiss: (kind, mapping) = (.pinch, .pinchIn)
        case .panDismiss: (kind, mapping) = (.pan, .panDown)
        case .zoomPresent: (kind, mapping) = (.pinch, .pinchOut)
        }
    }

    package static func named(_ name: String) -> TransitionBinding? {
        TransitionName(rawValue: name).map(TransitionBinding.init)
    }

    /// The transitions a gesture of `kind` drives, in catalog order.
    package static func transitions(drivenBy kind: GestureKind) -> [TransitionName] {
        TransitionName.allCases.filter { TransitionBinding($0).kind == kind }
    }

    /// The change of progress since the gesture began, and the progress velocity, for `event`.
    ///
    /// The change is deliberately not clamped: a gesture that grabbed back a running completion at
    /// progress p must be able to move progress below p as well as above it, so only the sum
    /// `p + change` is clamped to 0...1 (by the driver). For a gesture that starts a transition
    /// (p = 0) this is exactly the seeds' `clamp(mapping)`. Always finite; bad input gives 0.
    ///
    /// - Parameter divisor: the mapping's figure of the settings (`Mapping.divisor`), taken once by the
    ///   driver: handing it the settings (about 1 KB) on every change of the gesture copied them.
    func progressChange(of event: GestureEvent, startScale: Double,
                        divisor: Double?) -> (change: Double, velocity: Double) {
        switch mapping {
        case .pinchIn:
            return (PinchDismissProgress.unclampedProgress(scale: event.scale, startScale: startScale),
                    PinchDismissProgress.velocity(scaleVelocity: event.scaleVelocity, startScale: startScale))
        case .pinchOut:
            let range = divisor ?? 1
            let safeStart = startScale > 0 && startScale.isFinite ? startScale : 1
            return (finite((event.scale / safeStart - 1) / range), finite(event.scaleVelocity / safeStart / range))
        case .panDown:
            let distanceMM = divisor ?? 1
            return (PanDismissProgress.unclampedProgress(translationMM: event.translationMM.y, distanceMM: distanceMM),
                    PanDismissProgress.velocity(translationVelocityMMPerSecond: event.velocityMMPerSecond.y,
                                                distanceMM: distanceMM))
        }
    }
}

@inline(__always) func finite(_ value: Double) -> Double { value.isFinite ? value : 0 }
