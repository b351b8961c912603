/// Where a touch is in its life, as seen in one frame.
public enum TouchPhase: UInt8, Sendable, Hashable, Codable {
    /// First frame of this contact.
    case began
    /// Still down; moved since the previous frame.
    case moved
    /// Still down; did not move.
    case stationary
    /// Lifted in this frame; its position is the last one reported. Gone from the next frame.
    case ended

    /// Whether the finger is on the surface in this frame (not lifted).
    public var isDown: Bool { self != .ended }
}

/// One contact in a frame.
public struct Touch: Sendable, Hashable {
    // Fields ordered widest first: frames hold 16 touches inline and are passed by value, so every
    // byte of padding is copied at each frame.

    /// Stable for the contact's life and never reused within one stream (unlike kernel tracking ids).
    public var id: UInt64
    /// Position on the surface, in millimetres from the axis minimum.
    public var position: PointMM
    /// `ABS_MT_TOUCH_MAJOR` in millimetres, 0 when the device has none.
    public var touchMajorMM: Double
    /// The kernel's `ABS_MT_TRACKING_ID`, or -1 where the protocol has none.
    public var trackingID: Int32
    /// The protocol-B slot, or the contact's index for protocol A and single-touch devices.
    public var slot: Int32
    /// `ABS_MT_PRESSURE` / `ABS_PRESSURE` in device units, -1 when the device has none.
    public var pressure: Int32
    /// Whether the touch began, moved, stayed or ended in this frame.
    public var phase: TouchPhase

    /// A touch from its ids, phase and position.
    public init(id: UInt64, trackingID: Int32, slot: Int32, phase: TouchPhase, position: PointMM,
                pressure: Int32 = -1, touchMajorMM: Double = 0) {
        self.id = id
        self.trackingID = trackingID
        self.slot = slot
        self.phase = phase
        self.position = position
        self.pressure = pressure
        self.touchMajorMM = touchMajorMM
    }
}

/// The physical buttons of a touch device (`BTN_LEFT`, `BTN_RIGHT`, `BTN_MIDDLE`): on a clickpad
/// (`INPUT_PROP_BUTTONPAD`) the whole surface is the left one.
public struct PhysicalButtons: OptionSet, Sendable, Hashable {
    /// The buttons as bits: left 1, right 2, middle 4.
    public let rawValue: UInt8
    /// Buttons from their bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The left button (`BTN_LEFT`; on a clickpad, the whole surface).
    public static let left = PhysicalButtons(rawValue: 1 << 0)
    /// The right button (`BTN_RIGHT`).
    public static let right = PhysicalButtons(rawValue: 1 << 1)
    /// The middle button (`BTN_MIDDLE`).
    public static let middle = PhysicalButtons(rawValue: 1 << 2)

    /// The button a key code is, nil for any other key.
    @inline(__always)
    public init?(code: EventCode) {
        switch code {
        case .btnLeft: self = .left
        case .btnRight: self = .right
        case .btnMiddle: self = .middle
        default: return nil
        }
    }

    /// The buttons `device` lists: events for others are ignored, as libevdev discards them.
    public init(describedBy device: DeviceDescription) {
        self = []
        for code in [EventCode.btnLeft, .btnRight, .btnMiddle] where device.has(.key, code) { insert(PhysicalButtons(code: code)!) }
    }

    /// Its name in output (`"left"`), for one button.
    public var name: String {
        switch self {
        case .left: "left"
        case .right: "right"
        case .middle: "middle"
        default: "buttons"
        }
    }
}

/// Everything true of the surface at one `SYN_REPORT`.
///
/// Touches live in an array with room for `capacity` made once with the frame: the assembler builds
/// every frame in place in the same storage, so following a device touches the heap only when a
/// frame is kept (a copy shares the storage until the assembler writes the next frame). A device with
/// more than `TouchFrame.capacity` simultaneous contacts has the extra ones left out (the finger count
/// still counts them).
public struct TouchFrame: Sendable {
    /// The most contacts one frame carries. Real touchpads track at most 5; touchscreens often 10.
    public static let capacity = 16

    /// The `SYN_REPORT`'s timestamp.
    public var time: EventTime
    /// Fingers down: the larger of the touches down and what `BTN_TOOL_*` says (a touchpad with two
    /// slots can report three fingers).
    public var fingerCount: Int
    /// True for the first frame after a `SYN_DROPPED` resync or a device reset: positions may jump.
    public var isResync: Bool
    /// The physical buttons held down at this frame.
    public var buttons: PhysicalButtons = []
    /// The touches of the frame.
    public private(set) var touches: Touches

    /// An empty frame at a time, with the finger count the device reports.
    public init(time: EventTime, fingerCount: Int = 0, isResync: Bool = false) {
        self.time = time
        self.fingerCount = fingerCount
        self.isResync = isResync
        self.touches = Touches()
    }

    /// Starts over as an empty frame at `time`, keeping the storage (nothing is rewritten but the
    /// header: the touches past `count` are never read).
    mutating func reset(time: EventTime, isResync: Bool) {
        self.time = time
        self.isResync = isResync
        fingerCount = 0
        touches.removeAll()
    }

    /// Adds a touch; returns false when the frame is full.
    @discardableResult
    public mutating func append(_ touch: Touch) -> Bool { touches.append(touch) }

    /// The touches still down (phase other than `.ended`).
    public var activeTouchCount: Int {
        var n = 0
        for t in touches where t.phase.isDown { n += 1 }
        return n
    }

    /// A list of at most `TouchFrame.capacity` touches. Not an `InlineArray`: the recognizer reads
    /// frames as borrowed arguments, and indexing an `InlineArray` held by a borrowed value copies
    /// the whole array first (1 KiB here, Swift 6.3 at -O), once for every touch read.
    ///
    /// Emptied by its count alone: the touches past `count` stay in the storage and are written
    /// over (`Array.removeAll(keepingCapacity:)` cost about 70 instructions a frame).
    public struct Touches: RandomAccessCollection, Sendable {
        private var storage: [Touch]
        /// How many touches it holds.
        public private(set) var count = 0

        init() {
            storage = []
            storage.reserveCapacity(TouchFrame.capacity)
        }

        /// The first touch's index, 0.
        public var startIndex: Int { 0 }
        /// One past the last touch's index.
        public var endIndex: Int { count }
        /// The touch at index `i`.
        public subscript(i: Int) -> Touch {
            precondition(i >= 0 && i < count, "touch index out of range")
            return storage[i]
        }

        mutating func removeAll() { count = 0 }

        mutating func append(_ touch: Touch) -> Bool {
            guard count < TouchFrame.capacity else { return false }
            if count < storage.count { storage[count] = touch } else { storage.append(touch) }
            count += 1
            return true
        }

        /// The touch with this id, if the frame has it.
        public func first(withID id: UInt64) -> Touch? {
            for t in self where t.id == id { return t }
            return nil
        }
    }
}

extension TouchFrame: Equatable {
    /// Equal when time, finger count, resync flag, buttons and touches are equal.
    public static func == (a: TouchFrame, b: TouchFrame) -> Bool {
        a.time == b.time && a.fingerCount == b.fingerCount && a.isResync == b.isResync && a.buttons == b.buttons
            && a.touches.elementsEqual(b.touches)
    }
}
