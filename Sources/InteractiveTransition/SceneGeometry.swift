/// A point in a scene, in points (UIKit's layout unit), not pixels and not millimetres.
public struct ScenePoint: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Horizontal coordinate, points.
    public var x: Double
    /// Vertical coordinate, points (down is positive, as in UIKit).
    public var y: Double
    /// A point from its coordinates.
    public init(x: Double, y: Double) { self.x = x; self.y = y }
    /// The origin.
    public static let zero = ScenePoint(x: 0, y: 0)
    /// The point as `(x, y)`.
    public var description: String { "(\(x), \(y))" }
}

/// A rectangle in a scene, in points: origin (top-left) and size, like `CGRect`.
public struct SceneRect: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The left edge, points.
    public var x: Double
    /// The top edge, points.
    public var y: Double
    /// The width, points.
    public var width: Double
    /// The height, points.
    public var height: Double
    /// A rectangle from its origin and size.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    /// The empty rectangle at the origin.
    public static let zero = SceneRect(x: 0, y: 0, width: 0, height: 0)

    /// The top-left corner.
    public var origin: ScenePoint { ScenePoint(x: x, y: y) }
    /// The horizontal centre.
    public var midX: Double { x + width / 2 }
    /// The vertical centre.
    public var midY: Double { y + height / 2 }
    /// Whether every number is finite.
    public var isFinite: Bool { x.isFinite && y.isFinite && width.isFinite && height.isFinite }

    /// The same rectangle moved by `dx`, `dy`.
    public func offsetBy(dx: Double, dy: Double) -> SceneRect {
        SceneRect(x: x + dx, y: y + dy, width: width, height: height)
    }
    /// The rectangle as `(x, y, width x height)`.
    public var description: String { "(\(x), \(y), \(width) x \(height))" }
}

/// One view of a hierarchy as UIKit's `convert(_:to:)` sees it: where its frame sits in its superview,
/// and its bounds origin (a scroll view's content offset shifts everything drawn inside it).
public struct ViewSpace: Hashable, Sendable, Codable {
    /// The view's frame in its superview's coordinates.
    public var frameInSuperview: SceneRect
    /// The view's `bounds.origin`; for a scroll view this is the content offset.
    public var boundsOrigin: ScenePoint

    /// A view from its frame and bounds origin.
    public init(frameInSuperview: SceneRect, boundsOrigin: ScenePoint = .zero) {
        self.frameInSuperview = frameInSuperview
        self.boundsOrigin = boundsOrigin
    }

    /// A rectangle given in this view's own coordinates, expressed in its superview's coordinates.
    public func convertToSuperview(_ rect: SceneRect) -> SceneRect {
        rect.offsetBy(dx: frameInSuperview.x - boundsOrigin.x, dy: frameInSuperview.y - boundsOrigin.y)
    }
}

/// Converting a rectangle into the transition container's coordinate space.
///
/// The seeds' zoom transition takes a collection-view cell's `frame` — which is in the collection view's
/// scrolled coordinates — and must convert it into the container before animating from it; forgetting the
/// conversion makes the zoom start from the wrong place as soon as the list is scrolled or offset.
package enum CoordinateConversion {
    /// Converts `rect`, given in the coordinates of the innermost view of `ancestors`, up through every
    /// view in `ancestors` (innermost first) into the coordinates of the last one's superview — the container.
    /// An empty chain means `rect` is already in container coordinates.
    package static func convert(_ rect: SceneRect, throughAncestors ancestors: [ViewSpace]) -> SceneRect {
        var converted = rect
        for space in ancestors { converted = space.convertToSuperview(converted) }
        return converted
    }
}
