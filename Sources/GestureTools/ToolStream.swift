/// What a gesture tool is fed: libinput's events for one device, in the recording's seconds.
///
/// Every tool pinchlab emulates is a pure function of such a stream. touchegg, fusuma,
/// libinput-gestures, InputActions and KWin read libinput's gesture events (swipe, pinch, hold:
/// begin, updates, end); lisgd reads its touch events. The stream comes from Debian's real libinput
/// (`libinput debug-events` on the recording served on a virtual node) or from pinchlab's own
/// recognizer converted to libinput's units; `source` says which, and every output repeats it.
package struct ToolStream: Sendable {
    package enum Source: String, Sendable, Hashable, Encodable {
        /// Debian's `libinput`, run on the recording.
        case libinput
        /// pinchlab's recognizer standing in for libinput (its gestures in libinput's units, its
        /// touch frames as libinput's touch events).
        case pinchlab
    }

    package var source: Source
    package var device: ToolDevice
    /// In time order.
    package var events: [ToolEvent]
    /// Where pinchlab's recognizer, standing in for libinput, is known to read this recording
    /// otherwise than libinput would (docs/reference/libinput.md); empty for libinput's own stream.
    package var caveats: [StandInCaveat] = []

    package init(source: Source, device: ToolDevice, events: [ToolEvent] = []) {
        self.source = source
        self.device = device
        self.events = events
    }
}

/// The device as the tools see it.
package struct ToolDevice: Sendable, Hashable {
    package enum Kind: String, Sendable, Hashable, Encodable {
        case touchpad, touchscreen
    }

    package var kind: Kind
    /// libinput's size of the device (`libinput_device_get_size`), mm.
    package var widthMM: Double
    package var heightMM: Double
    /// How libinput's unaccelerated deltas relate to millimetres for the libinput the stream is in.
    package var units: LibinputUnits

    package init(kind: Kind, widthMM: Double, heightMM: Double, units: LibinputUnits) {
        self.kind = kind
        self.widthMM = widthMM
        self.heightMM = heightMM
        self.units = units
    }
}

/// One libinput event a tool reads.
package enum ToolEvent: Sendable, Hashable {
    case gesture(GestureStep)
    case touch(TouchStep)

    package var time: Double {
        switch self {
        case .gesture(let step): step.time
        case .touch(let step): step.time
        }
    }
}

/// A libinput gesture event (`LIBINPUT_EVENT_GESTURE_*`).
package struct GestureStep: Sendable, Hashable {
    package enum Kind: String, Sendable, Hashable, Encodable {
        case swipe, pinch, hold
    }

    package enum Phase: String, Sendable, Hashable {
        case begin, update, end
    }

    package var kind: Kind
    package var phase: Phase
    /// Seconds since the recording's first event.
    package var time: Double
    package var fingers: Int
    /// Unaccelerated delta of this update (`libinput_event_gesture_get_dx_unaccelerated`), in
    /// libinput's units; 0 on begin and end.
    package var dx: Double
    package var dy: Double
    /// The accelerated delta (`libinput_event_gesture_get_dx`), libinput's pointer units: what
    /// fusuma reads. From pinchlab's recognizer it is the unaccelerated one (pinchlab does not model
    /// libinput's acceleration curve).
    package var acceleratedDX: Double
    package var acceleratedDY: Double
    /// Pinch: the scale since the begin (`libinput_event_gesture_get_scale`), 1 at the begin.
    package var scale: Double
    /// Pinch: this update's angle change, degrees, clockwise positive (`get_angle_delta`).
    package var angleDelta: Double
    /// End only: libinput cancelled the gesture (`libinput_event_gesture_get_cancelled`).
    package var cancelled: Bool

    package init(kind: Kind, phase: Phase, time: Double, fingers: Int, dx: Double = 0, dy: Double = 0,
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
package struct TouchStep: Sendable, Hashable {
    package enum Phase: String, Sendable, Hashable {
        case down, motion, up, cancel, frame
    }

    package var phase: Phase
    package var time: Double
    /// libinput's slot (`libinput_event_touch_get_slot`); -1 for a frame.
    package var slot: Int
    /// The position as a fraction of the axis' range, as `libinput_event_touch_get_x_transformed`
    /// scales it: (raw - minimum) / (maximum - minimum + 1). Down and motion only.
    package var x: Double
    package var y: Double

    package init(phase: Phase, time: Double, slot: Int = -1, x: Double = 0, y: Double = 0) {
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
package enum StandInCaveat: String, Sendable, Hashable, Encodable {
    /// A clickpad pressed with fingers resting (a three-finger click): pinchlab may begin one- and
    /// two-finger holds where libinput, which leaves a clicked clickpad to the pointer, reports
    /// nothing.
    case clickpadClick = "clickpad-click"
    /// A touchpad without trustworthy multitouch positions (semi-MT; or two slots and no
    /// resolution, as old Synaptics PS/2 pads): its jumpy two-finger positions may read as a pinch
    /// to pinchlab where libinput scrolls.
    case noMultitouchPositions = "no-multitouch-positions"
}
