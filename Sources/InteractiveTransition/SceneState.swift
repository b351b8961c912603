/// One extra animated number of a scene besides the main view — the seeds' dimming-view alpha, the
/// presenting view's scale, the close button's y — i.e. what an "alongside" animation animates.
public struct SceneProperty: Hashable, Sendable, Codable {
    /// The property's name (`dimmingAlpha`, ...).
    public var name: String
    /// The property's value.
    public var value: Double
    /// Values are clamped into this range when interpolated (a spring overshoot must not make an
    /// alpha exceed 1); nil = unbounded.
    public var limits: ClosedRange<Double>?

    /// A property from its name, value and limits.
    public init(name: String, value: Double, limits: ClosedRange<Double>? = nil) {
        self.name = name; self.value = value; self.limits = limits
    }

    /// The seeds' names for alongside properties.
    public static let dimmingAlphaName = "dimmingAlpha"
    /// The presenting view's scale.
    public static let presentingScaleName = "presentingScale"
    /// The close button's y.
    public static let closeButtonYName = "closeButtonY"

    /// The dimming view's alpha, limited to 0...1.
    public static func dimmingAlpha(_ value: Double) -> SceneProperty {
        SceneProperty(name: dimmingAlphaName, value: value, limits: 0...1)
    }
    /// The presenting view's scale.
    public static func presentingScale(_ value: Double) -> SceneProperty {
        SceneProperty(name: presentingScaleName, value: value, limits: 0...Double.greatestFiniteMagnitude)
    }
    /// The close button's y, points.
    public static func closeButtonY(_ value: Double) -> SceneProperty {
        SceneProperty(name: closeButtonYName, value: value)
    }
}

/// What the transition animates: one view (frame, corner radius, alpha, scale) plus named extras.
/// Lengths in points.
public struct SceneState: Hashable, Sendable, Codable {
    /// The view's frame in the container, points.
    public var frame: SceneRect
    /// The view's corner radius, points.
    public var cornerRadius: Double
    /// The view's alpha, 0...1.
    public var alpha: Double
    /// The view's scale.
    public var scale: Double
    /// Alongside properties, in a fixed order shared by the from-state and the to-state.
    public var extras: [SceneProperty]

    /// A scene from its view's values and extras.
    public init(frame: SceneRect, cornerRadius: Double = 0, alpha: Double = 1, scale: Double = 1,
                extras: [SceneProperty] = []) {
        self.frame = frame; self.cornerRadius = cornerRadius; self.alpha = alpha; self.scale = scale
        self.extras = extras
    }

    /// The value of the extra named `name`, if the scene has one.
    public func value(named name: String) -> Double? {
        extras.first { $0.name == name }?.value
    }

    /// Names of the extras in order.
    public var extraNames: [String] { extras.map(\.name) }

    /// Why this state cannot be animated, if it cannot: a non-finite number, a value outside its
    /// limits, a negative size/radius/scale, an alpha outside 0...1.
    public func validationError() -> TransitionError? {
        if !frame.isFinite { return .invalidSceneValue(name: "frame") }
        if !(frame.width >= 0 && frame.height >= 0) { return .invalidSceneValue(name: "frame.size") }
        if !(cornerRadius.isFinite && cornerRadius >= 0) { return .invalidSceneValue(name: "cornerRadius") }
        if !(alpha.isFinite && (0...1).contains(alpha)) { return .invalidSceneValue(name: "alpha") }
        if !(scale.isFinite && scale >= 0) { return .invalidSceneValue(name: "scale") }
        for extra in extras {
            guard extra.value.isFinite else { return .invalidSceneValue(name: extra.name) }
            if let limits = extra.limits, !limits.contains(extra.value) { return .invalidSceneValue(name: extra.name) }
        }
        return nil
    }

    /// The scene at `progress` between `from` (0) and `to` (1), property by property.
    ///
    /// Endpoints are exact: progress 0 returns `from` and progress 1 returns `to` unchanged, bit for bit.
    /// Progress outside 0...1 (a spring overshoot) extrapolates, but alpha stays in 0...1, sizes, corner
    /// radius and scale stay >= 0, and extras stay in their limits. NaN progress counts as 0.
    /// `from` and `to` must have the same extras in the same order (`TransitionSpec` checks this); an
    /// extra missing from `to` keeps its `from` value.
    public static func interpolate(from: SceneState, to: SceneState, progress: Double) -> SceneState {
        var result = from
        interpolate(from: from, to: to, progress: progress, into: &result)
        return result
    }

    /// As `interpolate(from:to:progress:)`, writing into `result` so a per-frame caller can reuse one
    /// buffer (no allocation once `result` has the right extras).
    public static func interpolate(from: SceneState, to: SceneState, progress: Double, into result: inout SceneState) {
        guard progress.isFinite, progress != 0 else { result = from; return }
        if progress == 1 { result = to; return }
        let t = progress
        result.frame = SceneRect(
            x: lerp(from.frame.x, to.frame.x, t), y: lerp(from.frame.y, to.frame.y, t),
            width: max(0, lerp(from.frame.width, to.frame.width, t)),
            height: max(0, lerp(from.frame.height, to.frame.height, t)))
        result.cornerRadius = max(0, lerp(from.cornerRadius, to.cornerRadius, t))
        result.alpha = min(max(lerp(from.alpha, to.alpha, t), 0), 1)
        result.scale = max(0, lerp(from.scale, to.scale, t))
        if result.extras.count != from.extras.count { result.extras = from.extras }
        for index in from.extras.indices {
            let start = from.extras[index]
            var value = start.value
            if index < to.extras.count, to.extras[index].name == start.name {
                value = lerp(start.value, to.extras[index].value, t)
            }
            if let limits = start.limits { value = min(max(value, limits.lowerBound), limits.upperBound) }
            if result.extras[index].name != start.name { result.extras[index] = start }
            result.extras[index].value = value
        }
    }

    /// The scene a transition in `phase` at `progress` shows: `from` exactly while idle or once
    /// cancelled, `to` exactly once finished, otherwise the interpolation at `progress`. The one rule
    /// for a transition's own scene and for anything that redraws it from a record (the viewer).
    public static func shown(in phase: TransitionPhase, progress: Double, from: SceneState, to: SceneState,
                             into result: inout SceneState) {
        switch phase {
        case .idle, .cancelled: result = from
        case .finished: result = to
        case .interactive, .finishing, .cancelling: interpolate(from: from, to: to, progress: progress, into: &result)
        }
    }

    @inline(__always) static func lerp(_ a: Double, _ b: Double, _ t: Double) -> Double {
        let value = a + (b - a) * t
        return value.isFinite ? value : a
    }
}
