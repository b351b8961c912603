import GestureCore

// The checks themselves, where recordings are read (the limits are GestureCore's: the description's
// own numbers are bounded by them).
extension DescriptionLimits {
    /// Checks one axis as a reader reads it, at `line`: throws for what no device can have; returns
    /// the warning for what can still be read, nil when nothing is wrong.
    static func check(axis code: EventCode, _ info: AbsInfo, path: String, line: Int) throws -> DescriptionWarning? {
        guard let problem = problem(axis: code, info) else { return nil }
        if problem.isFatal { throw RecordingError.implausibleAxis(path: path, line: line, axis: code, problem: problem) }
        return DescriptionWarning(path: path, line: line, axis: code, problem: problem)
    }

    /// A read description's warnings in line order: each axis's from `check` (`checked`), and one for
    /// each axis `codes` lists with no range in `absInfo`, at the line it was listed on (`listedAt`;
    /// 0 when not known).
    static func warnings(checked: [EventCode: DescriptionWarning], codes: Set<EventCode>, absInfo: [EventCode: AbsInfo],
                         path: String, listedAt: [EventCode: Int]) -> [DescriptionWarning] {
        let unranged = codes.filter { absInfo[$0] == nil }.sorted().map {
            DescriptionWarning(path: path, line: listedAt[$0] ?? 0, axis: $0, problem: .noRange)
        }
        return (checked.values + unranged).sorted { $0.line < $1.line }
    }

    /// The position axes: their range and resolution make the surface.
    static let positionAxes: Set<EventCode> = [.absX, .absY, .absMTPositionX, .absMTPositionY]

    /// What is wrong with one axis; nil when nothing is.
    package static func problem(axis code: EventCode, _ info: AbsInfo) -> AxisProblem? {
        let minimum = Int64(info.minimum), maximum = Int64(info.maximum)
        if code == .absMTSlot {
            // The kernel numbers slots from 0 (`input_mt_init_slots` sets the axis to 0...n-1) and
            // libevdev counts `maximum + 1` of them: a negative minimum adds none.
            let first = max(minimum, 0)
            if maximum < first { return .slotRangeInverted(minimum: info.minimum, maximum: info.maximum) }
            let count = maximum - first + 1
            if count > Int64(slotCountMax) { return .tooManySlots(count) }
            if minimum < 0 { return .negativeSlotMinimum(minimum: info.minimum, slots: Int(count)) }
            return nil
        }
        if positionAxes.contains(code) {
            if maximum <= minimum { return .emptyPositionRange(minimum: info.minimum, maximum: info.maximum) }
            if info.resolution > 0 {
                let span = Double(maximum - minimum) / Double(info.resolution)
                if span > surfaceSpanMaxMM || span < surfaceSpanMinMM {
                    return .implausibleSurfaceSpan(millimetres: span, resolution: info.resolution)
                }
            }
        } else if maximum < minimum {
            return .rangeInverted(minimum: info.minimum, maximum: info.maximum)
        }
        if info.resolution < 0 { return .negativeResolution(info.resolution) }
        if maximum - minimum > Int64(Int32.max) { return .rangeWiderThan32Bits(minimum: info.minimum, maximum: info.maximum) }
        return nil
    }
}

/// A problem of one axis of a description (`DescriptionLimits.problem(axis:_:)`).
public enum AxisProblem: Hashable, Sendable {
    /// `ABS_MT_SLOT` with more slots than the kernel allows (error).
    case tooManySlots(Int64)
    /// `ABS_MT_SLOT` whose maximum is below its minimum (error).
    case slotRangeInverted(minimum: Int32, maximum: Int32)
    /// `ABS_MT_SLOT` with a minimum below 0 (warning: slots counted from 0, as the kernel numbers
    /// them and libevdev counts them, `slots` of them).
    case negativeSlotMinimum(minimum: Int32, slots: Int)
    /// A position axis with no positions between its ends: minimum at or above maximum (error;
    /// libinput refuses such a device too).
    case emptyPositionRange(minimum: Int32, maximum: Int32)
    /// A position axis whose resolution makes the surface wider than 10 m or narrower than 1 mm
    /// (warning: read as if the device gave no resolution, the size estimated).
    case implausibleSurfaceSpan(millimetres: Double, resolution: Int32)
    /// Another axis whose maximum is below its minimum (warning: pinchlab reads only position,
    /// slot, tracking, pressure and size axes, and their values as given).
    case rangeInverted(minimum: Int32, maximum: Int32)
    /// A negative resolution (warning: read as 0, "not said").
    case negativeResolution(Int32)
    /// A range wider than a 32-bit number holds (warning: libinput computes widths in `int` and
    /// would overflow; pinchlab computes in 64 bits).
    case rangeWiderThan32Bits(minimum: Int32, maximum: Int32)
    /// An axis the code bits list with no range (an evemu `B: 03` bit and no `A:` line; a
    /// libinput record code with no `absinfo:` entry) (warning: read as if the device lacked it).
    case noRange

    /// Whether the file cannot be meant: reading stops with an error at the axis's line.
    public var isFatal: Bool {
        switch self {
        case .tooManySlots, .slotRangeInverted, .emptyPositionRange: return true
        case .negativeSlotMinimum, .implausibleSurfaceSpan, .rangeInverted, .negativeResolution, .rangeWiderThan32Bits,
             .noRange: return false
        }
    }

    /// What a device's axis must be, for an error's "expected ...".
    public var expected: String {
        switch self {
        case .tooManySlots, .slotRangeInverted:
            return "at most \(DescriptionLimits.slotCountMax) slots (the kernel's limit), maximum at or above minimum and 0"
        case .negativeSlotMinimum: return "a slot minimum of 0 (the kernel numbers slots from 0)"
        case .emptyPositionRange: return "a position axis whose maximum is above its minimum"
        case .implausibleSurfaceSpan:
            return "a resolution giving a surface from \(Int(DescriptionLimits.surfaceSpanMinMM)) mm to \(Int(DescriptionLimits.surfaceSpanMaxMM / 1000)) m"
        case .rangeInverted: return "a maximum at or above the minimum"
        case .negativeResolution: return "a resolution of 0 or more"
        case .rangeWiderThan32Bits: return "a range whose width fits 32 bits"
        case .noRange: return "a range for every axis listed"
        }
    }

    /// What the axis has, for an error's "found ..." or a warning.
    public var found: String {
        switch self {
        case .tooManySlots(let count): return "\(count) slots"
        case .slotRangeInverted(let minimum, let maximum), .emptyPositionRange(let minimum, let maximum),
             .rangeInverted(let minimum, let maximum), .rangeWiderThan32Bits(let minimum, let maximum):
            return "minimum \(minimum), maximum \(maximum)"
        case .implausibleSurfaceSpan(let millimetres, let resolution):
            // One decimal of the largest unit that reads well; sizes past Int's range are out of limits anyway.
            func tenths(_ value: Double) -> String {
                let count = Int(min(9e17, (value * 10).rounded()))
                return "\(count / 10).\(count % 10)"
            }
            let size = millimetres >= 1_000_000 ? "\(tenths(millimetres / 1_000_000)) km"
                : millimetres >= 1000 ? "\(tenths(millimetres / 1000)) m"
                : millimetres >= 1 ? "\(tenths(millimetres)) mm" : "\(Int((millimetres * 1000).rounded())) um"
            return "resolution \(resolution) units/mm, a surface \(size) across"
        case .negativeResolution(let resolution): return "resolution \(resolution)"
        case .negativeSlotMinimum(let minimum, _): return "minimum \(minimum)"
        case .noRange: return "the axis listed with no range"
        }
    }

    /// What pinchlab does with a non-fatal problem.
    public var handling: String {
        switch self {
        case .implausibleSurfaceSpan: return "read as if the device gave no resolution (size estimated)"
        case .negativeResolution: return "read as 0 (not said)"
        case .rangeInverted: return "values read as given"
        case .rangeWiderThan32Bits: return "read in 64-bit arithmetic"
        case .noRange: return "read as if the device lacked the axis"
        case .negativeSlotMinimum(_, let slots):
            return "slots counted from 0 as the kernel and libevdev count them (\(slots) slot\(slots == 1 ? "" : "s"))"
        case .tooManySlots, .slotRangeInverted, .emptyPositionRange: return "not read"
        }
    }
}

/// A problem in a description that does not stop reading, with its place.
public struct DescriptionWarning: Hashable, Sendable, CustomStringConvertible {
    /// The file the description is in.
    public var path: String
    /// The description's line for the axis.
    public var line: Int
    /// The axis the problem is with.
    public var axis: EventCode
    /// What is wrong with the axis, and what pinchlab does about it.
    public var problem: AxisProblem

    /// A warning from its place and problem.
    public init(path: String, line: Int, axis: EventCode, problem: AxisProblem) {
        self.path = path
        self.line = line
        self.axis = axis
        self.problem = problem
    }

    /// `FILE:LINE: ABS_X: resolution 1 units/mm, a surface 2147.5 km across (expected ...); read as ...`.
    public var description: String {
        let place = line > 0 ? "\(path):\(line)" : path
        let name = axis.name(for: .abs) ?? "axis \(axis.rawValue)"
        return "\(place): \(name): \(problem.found) (expected \(problem.expected)); \(problem.handling)"
    }
}

extension RecordingError {
    /// The error for a fatal axis problem at `line`.
    static func implausibleAxis(path: String, line: Int, axis: EventCode, problem: AxisProblem) -> RecordingError {
        let name = axis.name(for: .abs) ?? "axis \(axis.rawValue)"
        return RecordingError(path: path, line: line, kind: .implausibleDescription,
                              expected: "\(name) with \(problem.expected)", found: problem.found)
    }
}
