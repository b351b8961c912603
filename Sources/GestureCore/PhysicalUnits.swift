/// A position or displacement in millimetres on the device's surface.
public struct PointMM: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Horizontal position or distance, mm.
    public var x: Double
    /// Vertical position or distance, mm (down is positive, as on the device).
    public var y: Double
    /// A point or vector from its coordinates in millimetres.
    public init(x: Double, y: Double) { self.x = x; self.y = y }
    /// The origin.
    public static let zero = PointMM(x: 0, y: 0)

    /// The vector's length, mm.
    public var length: Double { (x * x + y * y).squareRoot() }
    /// The sum of two vectors.
    public static func + (a: PointMM, b: PointMM) -> PointMM { PointMM(x: a.x + b.x, y: a.y + b.y) }
    /// The difference of two points: the vector from `b` to `a`.
    public static func - (a: PointMM, b: PointMM) -> PointMM { PointMM(x: a.x - b.x, y: a.y - b.y) }
    /// The vector scaled by `s`.
    public static func * (a: PointMM, s: Double) -> PointMM { PointMM(x: a.x * s, y: a.y * s) }
    /// The distance between two points, mm.
    public func distance(to other: PointMM) -> Double { (self - other).length }
    /// The coordinates with their unit, as `(x, y) mm`.
    public var description: String { "(\(x), \(y)) mm" }
}

/// Converts raw axis values into millimetres.
///
/// Positions are measured from the axis minimum and divided by the axis resolution (units/mm).
/// When a device reports resolution 0 it has not said how big it is; pinchlab then does what
/// libinput's touchpad code does (`tp_init_default_resolution`) and assumes the axis range spans a
/// nominal 69 x 50 mm surface, and marks the scale `isEstimated` so reports can say so.
public struct AxisScale: Hashable, Sendable {
    /// libinput's assumed width for a touchpad that reports no resolution.
    public static let fallbackWidthMM = 69.0
    /// libinput's assumed height for a touchpad that reports no resolution.
    public static let fallbackHeightMM = 50.0

    /// The raw value at 0 mm.
    public var minimum: Double
    /// Raw units per millimetre.
    public var unitsPerMM: Double
    /// Whether the resolution was guessed because the device reported none.
    public var isEstimated: Bool

    /// A resolution that makes the axis span more than `DescriptionLimits.surfaceSpanMaxMM` or less
    /// than `surfaceSpanMinMM` is not believed: the axis is scaled as if the device gave none (the
    /// readers warn about it). Widths are computed in 64 bits: a range of -2^31...2^31-1 is read.
    public init(axis: AbsInfo, fallbackSpanMM: Double) {
        minimum = Double(axis.minimum)
        let span = Double(axis.maximum) - Double(axis.minimum)
        let statedSpanMM = axis.resolution > 0 ? span / Double(axis.resolution) : 0
        if axis.resolution > 0,
           statedSpanMM >= DescriptionLimits.surfaceSpanMinMM && statedSpanMM <= DescriptionLimits.surfaceSpanMaxMM
            || span <= 0 {
            unitsPerMM = Double(axis.resolution)
            isEstimated = false
        } else {
            unitsPerMM = span > 0 ? span / fallbackSpanMM : 1
            isEstimated = true
        }
    }

    /// A raw position as millimetres from the axis's minimum.
    @inline(__always) public func millimetres(_ raw: Int32) -> Double { (Double(raw) - minimum) / unitsPerMM }
    /// A raw distance (fuzz, a delta) in millimetres.
    @inline(__always) public func millimetres(delta raw: Int32) -> Double { Double(raw) / unitsPerMM }
    /// A raw distance given as a `Double` (a width that may not fit 32 bits) in millimetres.
    @inline(__always) public func millimetres(delta raw: Double) -> Double { raw / unitsPerMM }
    /// Millimetres back to a raw value, rounded to the nearest unit and clamped to 32 bits (used by
    /// generators).
    public func raw(_ mm: Double) -> Int32 {
        let value = (mm * unitsPerMM + minimum).rounded()
        guard value.isFinite else { return value > 0 ? .max : value < 0 ? .min : 0 }
        return Int32(max(Double(Int32.min), min(Double(Int32.max), value)))
    }
}

/// The device's surface in millimetres with the scales for x and y.
public struct SurfaceGeometry: Hashable, Sendable {
    /// The horizontal axis's scale.
    public var x: AxisScale
    /// The vertical axis's scale.
    public var y: AxisScale
    /// The surface's width, mm.
    public var widthMM: Double
    /// The surface's height, mm.
    public var heightMM: Double
    /// Whether either axis's resolution was guessed.
    public var isEstimated: Bool { x.isEstimated || y.isEstimated }

    /// Uses the MT position axes when present, otherwise `ABS_X`/`ABS_Y`. Nil without position axes.
    public init?(device: DeviceDescription) {
        let xAxis = device.absInfo[.absMTPositionX] ?? device.absInfo[.absX]
        let yAxis = device.absInfo[.absMTPositionY] ?? device.absInfo[.absY]
        guard let xAxis, let yAxis else { return nil }
        x = AxisScale(axis: xAxis, fallbackSpanMM: AxisScale.fallbackWidthMM)
        y = AxisScale(axis: yAxis, fallbackSpanMM: AxisScale.fallbackHeightMM)
        // A range the readers refuse (maximum below minimum) may still come from code: never negative.
        widthMM = max(0, x.millimetres(delta: Double(xAxis.maximum) - Double(xAxis.minimum)))
        heightMM = max(0, y.millimetres(delta: Double(yAxis.maximum) - Double(yAxis.minimum)))
    }
}

extension DeviceDescription {
    /// The surface in millimetres, or nil when the device has no position axes.
    public var geometry: SurfaceGeometry? { SurfaceGeometry(device: self) }
}
