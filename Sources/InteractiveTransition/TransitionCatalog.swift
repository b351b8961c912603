/// The seeds' transitions by name.
public enum TransitionName: String, Hashable, Sendable, Codable, CaseIterable {
    /// Seed 000: the zoomed image shrinks back into its cell while the backdrop fades, driven by a pinch.
    case pinchDismiss = "pinch-dismiss"
    /// Seed 003: the App Store card shrinks to 0.85 and rounds its corners as the user drags down.
    case panDismiss = "pan-dismiss"
    /// Seeds 000/001: a cell zooms to fill the container; dimming, presenting-view scale and close
    /// button animate alongside.
    case zoomPresent = "zoom-present"
}

/// Printed as its name on the command line (`pinch-dismiss`), not as the Swift case.
extension TransitionName: CustomStringConvertible {
    /// The name as the command line writes it (`pinch-dismiss`).
    public var description: String { rawValue }
}

/// The transitioning delegate: hands out the animator (`TransitionSpec`) for a named transition, laid
/// out in one container with one source cell.
public struct TransitionCatalog: Hashable, Sendable, Codable {
    /// A phone-sized container (points).
    public static let defaultContainer = SceneRect(x: 0, y: 0, width: 390, height: 844)
    /// The default source cell: a 170 x 170 cell at (20, 400) inside a collection view that sits at
    /// y = 100 in the container and is scrolled down by 150 points — so the cell is at (20, 350) in the
    /// container, and forgetting the conversion would put it at (20, 400).
    public static let defaultSourceCell = ZoomSource(
        cellFrame: SceneRect(x: 20, y: 400, width: 170, height: 170),
        ancestors: [ViewSpace(frameInSuperview: SceneRect(x: 0, y: 100, width: 390, height: 744),
                              boundsOrigin: ScenePoint(x: 0, y: 150))])

    /// Seed 000's zoom and pinch-dismiss duration (`TimeInterval(1)`).
    public static let zoomDurationSeconds = 1.0
    /// Seed 003's dismissal duration (spring, 0.7 s).
    public static let panDismissDurationSeconds = 0.7
    /// Seed 003's `targetShrinkScale`.
    public static let panDismissTargetScale = 0.85
    /// Seed 003 uses `GlobalConstants.cornerRadius` without showing it; 20 points assumed.
    public static let panDismissTargetCornerRadius = 20.0
    /// Seed 000's presentation controller: dimming alpha 0 -> 1, presenting view 1 -> 0.8,
    /// close button y -80 (off screen) -> 60.
    public static let dimmedAlpha = 1.0
    /// The presenting view's scale while presented.
    public static let presentingScaleWhilePresented = 0.8
    /// The close button's y while hidden, off screen.
    public static let closeButtonHiddenY = -80.0
    /// The close button's y while shown.
    public static let closeButtonShownY = 60.0

    /// The container the transitions are laid out in, points.
    public var container: SceneRect
    /// The cell a zoom starts from.
    public var source: ZoomSource

    package init(container: SceneRect = defaultContainer, source: ZoomSource = defaultSourceCell) {
        self.container = container; self.source = source
    }

    /// Every transition's name.
    public static let names: [String] = TransitionName.allCases.map(\.rawValue)

    /// The transition named `name` (`pinch-dismiss`, `pan-dismiss`, `zoom-present`).
    public func spec(named name: String) throws(TransitionError) -> TransitionSpec {
        guard let known = TransitionName(rawValue: name) else { throw .unknownTransition(name: name) }
        return try spec(known)
    }

    /// The transition `name`, laid out in this catalog's container.
    public func spec(_ name: TransitionName) throws(TransitionError) -> TransitionSpec {
        switch name {
        case .pinchDismiss: return try pinchDismiss()
        case .panDismiss: return try panDismiss()
        case .zoomPresent: return try zoomPresent()
        }
    }

    /// The presented scene: the image fills the container, backdrop dimmed, presenting view shrunk,
    /// close button shown.
    private var presentedState: SceneState {
        SceneState(frame: container, extras: [
            .dimmingAlpha(Self.dimmedAlpha), .presentingScale(Self.presentingScaleWhilePresented),
            .closeButtonY(Self.closeButtonShownY),
        ])
    }

    /// The scene before presenting / after dismissing: the image sits on its cell (in container
    /// coordinates), no dimming, presenting view at full size, close button off screen.
    private var cellState: SceneState {
        SceneState(frame: source.frameInContainer, extras: [
            .dimmingAlpha(0), .presentingScale(1), .closeButtonY(Self.closeButtonHiddenY),
        ])
    }

    /// Seed 000/001's zoom: the cell grows to fill the container.
    public func zoomPresent() throws(TransitionError) -> TransitionSpec {
        try TransitionSpec(name: TransitionName.zoomPresent.rawValue, role: .presentation,
                           duration: Self.zoomDurationSeconds, completionTiming: .curve(.easeInOut),
                           containerBounds: container, fromState: cellState, toState: presentedState)
    }

    /// Seed 000's pinch to dismiss: the image shrinks back into its cell.
    public func pinchDismiss() throws(TransitionError) -> TransitionSpec {
        try TransitionSpec(name: TransitionName.pinchDismiss.rawValue, role: .dismissal,
                           duration: Self.zoomDurationSeconds, completionTiming: .curve(.easeInOut),
                           containerBounds: container, fromState: presentedState, toState: cellState)
    }

    /// Seed 003's pan to dismiss: the card shrinks and rounds its corners.
    public func panDismiss() throws(TransitionError) -> TransitionSpec {
        let card = SceneState(frame: container, extras: [.dimmingAlpha(Self.dimmedAlpha)])
        var shrunk = card
        shrunk.scale = Self.panDismissTargetScale
        shrunk.cornerRadius = Self.panDismissTargetCornerRadius
        shrunk.extras = [.dimmingAlpha(0)]
        return try TransitionSpec(name: TransitionName.panDismiss.rawValue, role: .dismissal,
                                  duration: Self.panDismissDurationSeconds,
                                  completionTiming: .spring(SpringPresets.appStoreCardDismiss),
                                  containerBounds: container, fromState: card, toState: shrunk)
    }
}

/// Where a zoom starts: a cell's frame in its own superview's coordinates, and the chain of views
/// (innermost first) between it and the container.
public struct ZoomSource: Hashable, Sendable, Codable {
    /// The cell's `frame`, in the coordinates of `ancestors.first` (e.g. the collection view's content).
    public var cellFrame: SceneRect
    /// Views from the cell's superview up to (not including) the container.
    public var ancestors: [ViewSpace]

    /// A source from the cell's frame and the views above it.
    public init(cellFrame: SceneRect, ancestors: [ViewSpace]) {
        self.cellFrame = cellFrame; self.ancestors = ancestors
    }

    /// The cell's frame in container coordinates (UIKit: `collectionView.convert(cell.frame, to: container)`).
    public var frameInContainer: SceneRect {
        CoordinateConversion.convert(cellFrame, throughAncestors: ancestors)
    }
}

/// Seed 000's pinch mapping: progress grows as the fingers close.
package enum PinchDismissProgress {
    /// `clamp(1 - scale / startScale, 0, 1)`. A non-positive or non-finite `startScale`, or a NaN result,
    /// gives 0.
    package static func progress(scale: Double, startScale: Double) -> Double {
        min(max(unclampedProgress(scale: scale, startScale: startScale), 0), 1)
    }

    /// `1 - scale / startScale` without the clamp: negative when the fingers have spread. A gesture that
    /// grabbed back a running completion adds this to the grabbed progress, so spreading can take
    /// progress down. Bad input gives 0; an overflow saturates at the largest finite value.
    package static func unclampedProgress(scale: Double, startScale: Double) -> Double {
        guard startScale.isFinite, startScale > 0, scale.isFinite else { return 0 }
        return saturated(1 - scale / startScale)
    }

    /// A pinch velocity (scale per second) as progress per second: d/dt (1 - s / s0) = -s' / s0.
    package static func velocity(scaleVelocity: Double, startScale: Double) -> Double {
        guard startScale.isFinite, startScale > 0, scaleVelocity.isFinite else { return 0 }
        let velocity = -scaleVelocity / startScale
        return velocity.isFinite ? velocity : 0
    }
}

/// Seed 003's pan mapping: `(currentY - startY) / 100`, measured here in millimetres of the surface.
package enum PanDismissProgress {
    /// Seed 003 divides the drag by 100 UIKit points, about 16 mm on a phone. Read as 100 mm it could
    /// never be reached on a touchpad about 60 mm tall; 40 mm is two thirds of that and reachable on
    /// touchpads and touchscreens alike. A settings file's `panDismissDistanceMM` starts from it, so
    /// the library and the command line map a drag to the same progress.
    package static let defaultDistanceMM = 40.0

    /// `clamp(translationMM / distanceMM, 0, 1)`; downward translation is positive. Bad input gives 0.
    package static func progress(translationMM: Double, distanceMM: Double = defaultDistanceMM) -> Double {
        min(max(unclampedProgress(translationMM: translationMM, distanceMM: distanceMM), 0), 1)
    }

    /// `translationMM / distanceMM` without the clamp: negative for an upward drag (see
    /// `PinchDismissProgress.unclampedProgress` for why). Bad input gives 0; an overflow saturates.
    package static func unclampedProgress(translationMM: Double, distanceMM: Double = defaultDistanceMM) -> Double {
        guard distanceMM.isFinite, distanceMM > 0, translationMM.isFinite else { return 0 }
        return saturated(translationMM / distanceMM)
    }

    /// A downward velocity in mm/s as progress per second.
    package static func velocity(translationVelocityMMPerSecond velocity: Double,
                                distanceMM: Double = defaultDistanceMM) -> Double {
        guard distanceMM.isFinite, distanceMM > 0, velocity.isFinite else { return 0 }
        let progressPerSecond = velocity / distanceMM
        return progressPerSecond.isFinite ? progressPerSecond : 0
    }
}

/// An overflow (finite inputs whose quotient is infinite) as the largest finite value of its sign, so
/// clamping the result still gives the right end of 0...1 and nothing infinite escapes.
private func saturated(_ value: Double) -> Double {
    if value.isFinite { return value }
    if value.isNaN { return 0 }
    return value > 0 ? .greatestFiniteMagnitude : -.greatestFiniteMagnitude
}
