/// What a gesture tool is fed: libinput's events for one device, in the recording's seconds.
///
/// Every tool pinchlab emulates is a pure function of such a stream. touchegg, fusuma,
/// libinput-gestures, InputActions and KWin read libinput's gesture events (swipe, pinch, hold:
/// begin, updates, end); lisgd reads its touch events. The stream comes from Debian's real libinput
/// (`libinput debug-events` on the recording served on a virtual node) or from pinchlab's own
/// recognizer converted to libinput's units; `source` says which, and every output repeats it.
public struct ToolStream: Sendable {
    public enum Source: String, Sendable, Hashable, Encodable {
        /// Debian's `libinput`, run on the recording.
        case libinput
        /// pinchlab's recognizer standing in for libinput (its gestures in libinput's units, its
        /// touch frames as libinput's touch events).
        case pinchlab
    }

    public var source: Source
    public var device: ToolDevice
    /// In time order.
    public var events: [ToolEvent]
    /// Where pinchlab's recognizer, standing in for libinput, is known to read this recording
    /// otherwise than libinput would (docs/reference/libinput.md); empty for libinput's own stream.
    public var caveats: [StandInCaveat] = []

    public init(source: Source, device: ToolDevice, events: [ToolEvent] = []) {
        self.source = source
        self.device = device
        self.events = events
    }
}

/// The device as the tools see it.
public struct ToolDevice: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, Encodable {
        case touchpad, touchscreen
    }

    public var kind: Kind
    /// libinput's size of the device (`libinput_device_get_size`), mm.
    public var widthMM: Double
    public var heightMM: Double
    /// How libinput's unaccelerated deltas relate to millimetres for the libinput the stream is in.
    public var units: LibinputUnits

    public init(kind: Kind, widthMM: Double, heightMM: Double, units: LibinputUnits) {
        self.kind = kind
        self.widthMM = widthMM
        self.heightMM = heightMM
        self.units = units
    }
}

/// One libinput event a tool reads.
public enum ToolEvent: Sendable, Hashable {
    case gesture(GestureStep)
    case touch(TouchStep)

    public var time: Double {
        switch self {
        case .gesture(let step): step.time
        case .touch(let step): step.time
        }
    }
}

/// A libinput gesture event (`LIBINPUT_EVENT_GESTURE_*`).
public struct GestureStep: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, Encodable {
        case swipe, pinch, hold
    }

    public enum Phase: String, Sendable, Hashable {
        case begin, update, end
    }

    public var kind: Kind
    public var phase: Phase
    /// Seconds since the recording's first event.
    public var time: Double
    public var fingers: Int
    /// Unaccelerated delta of this update (`libinput_event_gesture_get_dx_unaccelerated`), in
    /// libinput's units; 0 on begin and end.
    public var dx: Double
    public var dy: Double
    /// The accelerated delta (`libinput_event_gesture_get_dx`), libinput's pointer units: what
    /// fusuma reads. From pinchlab's recognizer it is the unaccelerated one (pinchlab does not model
    /// libinput's acceleration curve).
    public var acceleratedDX: Double
    public var acceleratedDY: Double
    /// Pinch: the scale since the begin (`libinput_event_gesture_get_scale`), 1 at the begin.
    public var scale: Double
    /// Pinch: this update's angle change, degrees, clockwise positive (`get_angle_delta`).
    public var angleDelta: Double
    /// End only: libinput cancelled the gesture (`libinput_event_gesture_get_cancelled`).
    public var cancelled: Bool

    public init(kind: Kind, phase: Phase, time: Double, fingers: Int, dx: Double = 0, dy: Double = 0,
                acceleratedDX: Double? = nil, acceleratedDY: Double? = nil,
                scale: Double = 1, angleDelta: Double = 0, cancelled: Bool = false) {
        self.kind = kind
        self.phase = phase
        self.time = time
        self.fingers = fingers
        self.dx = dx
        self.dy = dy
        self.acceleratedDX = acceleratedDX ?? dx
        self.acceleratedDY = acceleratedDY ?? dy
        self.scale = scale
        self.angleDelta = angleDelta
        self.cancelled = cancelled
    }
}

/// A libinput touch event (`LIBINPUT_EVENT_TOUCH_*`), of a touchscreen.
public struct TouchStep: Sendable, Hashable {
    public enum Phase: String, Sendable, Hashable {
        case down, motion, up, cancel, frame
    }

    public var phase: Phase
    public var time: Double
    /// libinput's slot (`libinput_event_touch_get_slot`); -1 for a frame.
    public var slot: Int
    /// The position as a fraction of the axis' range, as `libinput_event_touch_get_x_transformed`
    /// scales it: (raw - minimum) / (maximum - minimum + 1). Down and motion only.
    public var x: Double
    public var y: Double

    public init(phase: Phase, time: Double, slot: Int = -1, x: Double = 0, y: Double = 0) {
        self.phase = phase
        self.time = time
        self.slot = slot
        self.x = x
        self.y = y
    }
}

/// A known difference between pinchlab's recognizer and libinput that a stream from pinchlab
/// carries, so that every tool's verdict says it: the differences the corpus measured and no
/// setting of pinchlab's removes.
public enum StandInCaveat: String, Sendable, Hashable, Encodable {
    /// A clickpad pressed with fingers resting (a three-finger click): pinchlab may begin one- and
    /// two-finger holds where libinput, which leaves a clicked clickpad to the pointer, reports
    /// nothing.
    case clickpadClick = "clickpad-click"
    /// A touchpad without trustworthy multitouch positions (semi-MT; or two slots and no
    /// resolution, as old Synaptics PS/2 pads): its jumpy two-finger positions may read as a pinch
    /// to pinchlab where libinput scrolls.
    case noMultitouchPositions = "no-multitouch-positions"
}
