#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One touch as the recognizer follows it across frames.
struct TrackedTouch: Sendable {
    var id: UInt64
    /// The position after the hysteresis filter: what every decision uses.
    var position: PointMM
    /// The position as reported, before the filter: what jump detection compares.
    var raw: PointMM
    /// Where the touch was when the current decision started (libinput's `gesture.initial`).
    var initial: PointMM
    /// A resting thumb, ignored until it lifts.
    var isThumb: Bool
    /// The last frame's movement normalized to libinput's 12 ms reference frame (jump detection).
    var lastStepMM = 0.0
    /// Its edge-scroll state (`none` unless the scroll method is edge scrolling).
    var edgeScroll = EdgeScrollTouchState.none

    /// Not one of the recognizer's fingers: a resting thumb, or a touch edge scrolling has.
    var isLeftOut: Bool { isThumb || edgeScroll.leavesTouchOut }

    var movedMM: Double { position.distance(to: initial) }
    var displacement: PointMM { position - initial }
}

/// libinput's touchpad jump detection (`tp_detect_jumps` in evdev-mt-touchpad.c, 1.22): a touch's
/// movement is normalized to a 12 ms frame; more than 20 mm, or 7 mm more than the frame before, is
/// a jump. Frames more than 30 ms apart (2.5 reference frames) are not judged.
struct JumpDetection: Sendable {
    static let referenceIntervalMS = 12.0
    static let longestJudgedIntervalMS = 30.0
    var enabled: Bool
    var distanceMM: Double
    var increaseMM: Double
}

/// What updating from a frame found wrong with it.
enum TouchFault: Sendable {
    case none
    /// A touch moved farther in one frame than a finger can: its id, the distance normalized to
    /// the 12 ms reference frame, and its normalized move in the frame before.
    case jump(UInt64, Double, previous: Double)
    /// A touch position was NaN, infinite or absurdly far away; that touch kept its last good
    /// position, or was left out if it had none.
    case invalidPosition
}

/// The touches down.
///
/// Two arrays with room for `TouchFrame.capacity` touches, made once: `update` follows the touches
/// in place when the frame has the same ones, else builds the next list in `spare` and swaps the
/// two, so following a frame allocates nothing (a copy of the recognizer shares them until one side
/// writes). Not an `InlineArray`: the recognizer reads these several times
/// a frame, and a non-mutating method that indexes an `InlineArray` stored in its `self` copies the
/// whole array first (1,152 bytes here, Swift 6.3 at -O), once per element read.
struct TrackedTouches: Sendable {
    /// Positions farther than this from the surface origin are garbage, not a finger (100 m).
    static let maximumCoordinateMM = 100_000.0

    private var storage: [TrackedTouch]
    private var spare: [TrackedTouch]

    init() {
        storage = []
        storage.reserveCapacity(TouchFrame.capacity)
        spare = []
        spare.reserveCapacity(TouchFrame.capacity)
    }

    var count: Int { storage.count }

    subscript(i: Int) -> TrackedTouch {
        get { storage[i] }
        set { storage[i] = newValue }
    }

    /// How far touch `i` moved since it landed, read in place (no copy of the touch).
    func movedMM(at i: Int) -> Double { storage[i].movedMM }

    func index(of id: UInt64) -> Int? {
        for i in 0..<count where storage[i].id == id { return i }
        return nil
    }

    mutating func removeAll() { storage.removeAll(keepingCapacity: true) }

    /// Follows the frame's touches that are down: known ids keep their history, new ids start at
    /// their first position, lifted ones are dropped.
    mutating func update(from frame: TouchFrame, hysteresisMM: Double, secondsSincePrevious dt: Double,
                         jumps: JumpDetection) -> TouchFault {
        let intervalMS = dt * 1_000
        let judgesJumps = jumps.enabled && intervalMS > 0 && intervalMS <= JumpDetection.longestJudgedIntervalMS
        if isSameTouchesInOrder(as: frame) {
            // Nearly every frame: the same touches as the frame before, every position good. Each
            // is followed where it is, as the loop below would make it anew (copying every touch
            // into the spare list and back cost about 200 instructions a frame).
            var fault = TouchFault.none
            var k = 0
            for touch in frame.touches where touch.phase.isDown {
                Self.follow(&storage[k], to: touch.position, intervalMS: intervalMS, judgesJumps: judgesJumps,
                            jumps: jumps, hysteresisMM: hysteresisMM, fault: &fault)
                k += 1
            }
            return fault
        }
        spare.removeAll(keepingCapacity: true)
        var fault = TouchFault.none
        for touch in frame.touches where touch.phase.isDown {
            let p = touch.position
            guard spare.count < TouchFrame.capacity else { break }
            guard Self.isGood(p) else {
                fault = .invalidPosition
                // A known touch stays where it last was, and stays a thumb if it was one: the finger
                // did not lift, only one reading was bad. A touch never seen at a good position has
                // nowhere to be and is left out until it has one.
                if let i = index(of: touch.id) { spare.append(storage[i]) }
                continue
            }
            if let i = index(of: touch.id) {
                var tracked = storage[i]
                Self.follow(&tracked, to: p, intervalMS: intervalMS, judgesJumps: judgesJumps, jumps: jumps,
                            hysteresisMM: hysteresisMM, fault: &fault)
                spare.append(tracked)
            } else {
                spare.append(TrackedTouch(id: touch.id, position: p, raw: p, initial: p, isThumb: false))
            }
        }
        swap(&storage, &spare)
        return fault
    }

    /// A position a finger can be at: finite, and not absurdly far from the origin.
    @inline(__always)
    private static func isGood(_ p: PointMM) -> Bool {
        p.isFinite && abs(p.x) <= maximumCoordinateMM && abs(p.y) <= maximumCoordinateMM
    }

    /// The frame's touches down are exactly these, in this order, each at a good position: what
    /// the list the loop of `update` makes would then be, touch for touch. Ids are unique within a
    /// frame (`Touch.id` is never reused within a stream): with a repeated id the loop would give
    /// both the first one's history, where this pairs them by place.
    private func isSameTouchesInOrder(as frame: TouchFrame) -> Bool {
        var k = 0
        for touch in frame.touches where touch.phase.isDown {
            guard k < storage.count, storage[k].id == touch.id, Self.isGood(touch.position) else { return false }
            k += 1
        }
        return k == storage.count
    }

    /// A known touch moved to `p` (a good position): a jump restarts it where it landed (nothing is
    /// decided on the jump; the first jump of the frame is its fault), any other move goes through
    /// the hysteresis filter.
    @inline(__always)
    private static func follow(_ tracked: inout TrackedTouch, to p: PointMM, intervalMS: Double, judgesJumps: Bool,
                               jumps: JumpDetection, hysteresisMM: Double, fault: inout TouchFault) {
        let step = tracked.raw.distance(to: p)
        let normalized = step * JumpDetection.referenceIntervalMS / intervalMS
        if judgesJumps && (normalized > jumps.distanceMM || normalized - tracked.lastStepMM > jumps.increaseMM) {
            if case .none = fault { fault = .jump(tracked.id, normalized, previous: tracked.lastStepMM) }
            tracked.position = p
            tracked.initial = p
            tracked.lastStepMM = normalized
        } else {
            if judgesJumps { tracked.lastStepMM = normalized }
            tracked.position = hysteresis(from: tracked.position, to: p, marginMM: hysteresisMM)
        }
        tracked.raw = p
    }

    /// Movement inside the margin is jitter and ignored; beyond it the filtered point trails the
    /// reported one by the margin (libinput's motion hysteresis, applied to the distance).
    static func hysteresis(from current: PointMM, to input: PointMM, marginMM: Double) -> PointMM {
        guard marginMM > 0 else { return input }
        let d = input - current
        let length = d.length
        if length <= marginMM { return current }
        return input - d * (marginMM / length)
    }

    /// Starts a new decision: every touch's `initial` becomes where it is now.
    mutating func rebaseline() {
        for i in 0..<count { storage[i].initial = storage[i].position }
    }

    /// Touches that are not the recognizer's fingers (`TrackedTouch.isLeftOut`). Inlined: asked
    /// on every frame, where the call cost more than the loop over two or three touches.
    var leftOutCount: Int {
        @inline(__always) get {
            var n = 0
            for i in 0..<count where storage[i].isLeftOut { n += 1 }
            return n
        }
    }

    /// The farthest any finger (not a left-out touch) moved since the decision began.
    var largestFingerMoveMM: Double {
        var largest = 0.0
        for i in 0..<count where !storage[i].isLeftOut { largest = max(largest, storage[i].movedMM) }
        return largest
    }

    /// Centroid of the fingers (touches not left out); nil when there are none.
    var fingerCentroid: PointMM? {
        var sum = PointMM.zero
        var n = 0
        for i in 0..<count where !storage[i].isLeftOut {
            sum = sum + storage[i].position
            n += 1
        }
        return n == 0 ? nil : sum * (1 / Double(n))
    }

    /// The topmost and bottommost fingers (touches not left out) (smallest and largest y; y grows downwards on
    /// evdev surfaces). For two touches, the two; for more, the pair libinput follows, since a pinching
    /// hand's thumb is the lowest touch and one of its fingers the highest.
    var topAndBottom: (top: UInt64, bottom: UInt64)? { topAndBottom(excluding: nil) }

    /// The same, leaving out one more touch (a thumb about to be suppressed).
    func topAndBottom(excluding excluded: UInt64?) -> (top: UInt64, bottom: UInt64)? {
        var top: Int?
        var bottom: Int?
        for i in 0..<count where !storage[i].isLeftOut && storage[i].id != excluded {
            if top == nil || storage[i].position.y < storage[top!].position.y { top = i }
        }
        for i in 0..<count where !storage[i].isLeftOut && storage[i].id != excluded && i != top {
            if bottom == nil || storage[i].position.y >= storage[bottom!].position.y { bottom = i }
        }
        guard let top, let bottom else { return nil }
        return (storage[top].id, storage[bottom].id)
    }

    /// Identifies the set of fingers (touches not left out), to notice one finger replaced by another
    /// in a frame. Inlined, as `leftOutCount` is: asked on every frame of a decided gesture.
    var fingerSignature: TouchSignature {
        @inline(__always) get {
            var s = TouchSignature()
            for i in 0..<count where !storage[i].isLeftOut {
                s.count += 1
                s.sum &+= storage[i].id
                s.mix ^= storage[i].id &* 0x9E37_79B9_7F4A_7C15
            }
            return s
        }
    }
}

struct TouchSignature: Sendable, Equatable {
    var count = 0
    var sum: UInt64 = 0
    var mix: UInt64 = 0
}

/// Eight compass directions as bits (bit 0 north, clockwise: bit 2 east, bit 4 south, bit 6 west),
/// the way libinput classifies a touch's movement before comparing two touches.
struct CompassDirections: Sendable, Equatable {
    var bits: UInt8

    /// A movement exactly along a compass point (within `snapEighths` of an eighth of a turn) is that
    /// point alone; anything between two points is both. Zero movement has no direction.
    init(_ d: PointMM, snapEighths: Double) {
        guard let eighths = Self.headingEighths(d) else { self.init(bits: 0); return }
        self.init(eighths: eighths, snapEighths: snapEighths)
    }

    /// A movement's heading in eighths of a turn, 0 ..< 8: 0 pointing up the surface (y
    /// decreasing), growing clockwise; nil for no movement.
    @inline(__always) static func headingEighths(_ d: PointMM) -> Double? {
        guard d.length > 0, d.isFinite else { return nil }
        let eighths = atan2(d.x, -d.y) / (Double.pi / 4)
        return eighths < 0 ? eighths + 8 : eighths
    }

    @inline(__always) init(bits: UInt8) { self.bits = bits }

    /// The directions of a heading (`headingEighths`), as `snapEighths` snaps it.
    @inline(__always) init(eighths: Double, snapEighths: Double) {
        let lower = Int(eighths.rounded(.down)) % 8
        let fraction = eighths - eighths.rounded(.down)
        if fraction < snapEighths {
            bits = 1 << UInt8(lower)
        } else if fraction > 1 - snapEighths {
            bits = 1 << UInt8((lower + 1) % 8)
        } else {
            bits = (1 << UInt8(lower)) | (1 << UInt8((lower + 1) % 8))
        }
    }

    /// The same direction or a neighbouring one: two fingers moving together.
    func isSameOrNeighbour(of other: CompassDirections) -> Bool {
        let widened = bits | (bits << 1 | bits >> 7) | (bits >> 1 | bits << 7)
        return widened & other.bits != 0
    }
}
