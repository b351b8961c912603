import SettingsTable

/// The gesture tools pinchlab emulates. Raw values are the names `--tool` takes and outputs print.
package enum GestureToolName: String, Sendable, Hashable, CaseIterable, Encodable {
    case touchegg
    case fusuma
    case libinputGestures = "libinput-gestures"
    case inputactions
    case lisgd
    case kwinGestures = "kwin-gestures"

    /// Whether the tool reads a device of `kind`: lisgd reads touch events (touchscreens), touchegg
    /// a touchpad's gesture events and a touchscreen's touches, the others gesture events
    /// (touchpads; InputActions also reads a touchscreen's touches, which pinchlab does not emulate yet).
    package func reads(_ kind: ToolDevice.Kind) -> Bool {
        switch self {
        case .lisgd: kind == .touchscreen
        case .touchegg: true
        case .fusuma, .libinputGestures, .inputactions, .kwinGestures: kind == .touchpad
        }
    }
}

/// One gesture a tool would act on, in the tool's own words and figures.
package struct FiredGesture: Sendable, Hashable {
    /// The tool's name for the gesture: lisgd's `LR`, `DLUR`...; touchegg's `SWIPE`, `PINCH`;
    /// libinput-gestures' and fusuma's `swipe`, `pinch`, `hold`.
    package var gesture: String
    package var fingers: Int
    /// The tool's direction word (touchegg `UP`...`IN`, `OUT`; libinput-gestures `left_up`...), nil
    /// where the gesture name says it (lisgd).
    package var direction: String?
    /// Whether the tool would finish the action (touchegg: the percentage reached
    /// `action_execute_threshold`; KWin: the progress passed its threshold); nil for a tool that has
    /// no such second decision (it fires or it does not).
    package var executed: Bool?
    /// Seconds since the recording's first event: the gesture's first and last event the tool read.
    package var begin: Double
    package var end: Double
    /// The tool's own measures of the gesture.
    package var figures: ToolFigures
    /// The closest of the tool's thresholds to deciding otherwise: for a fired gesture, the one it
    /// passed; the setting's key is the tool's own option name.
    package var margin: DecisionMargin?

    package init(gesture: String, fingers: Int, direction: String? = nil, executed: Bool? = nil, begin: Double, end: Double,
                figures: ToolFigures = ToolFigures(), margin: DecisionMargin? = nil) {
        self.gesture = gesture
        self.fingers = fingers
        self.direction = direction
        self.executed = executed
        self.begin = begin
        self.end = end
        self.figures = figures
        self.margin = margin
    }
}

/// A tool's measures of one gesture, in its units; nil where the tool has no such measure.
package struct ToolFigures: Sendable, Hashable {
    /// touchegg: the action's percentage at the end (0...100); KWin: progress x 100.
    package var percentage: Double?
    /// The distance the tool compared with its threshold, in the threshold's unit (libinput units
    /// for touchpad tools, lisgd's screen units for lisgd).
    package var distance: Double?
    /// The direction's angle, degrees (lisgd: from its start to end point, 0 = right,
    /// counter-clockwise with y up as lisgd computes it).
    package var angleDegrees: Double?
    /// Pinch: libinput's scale at the end.
    package var scale: Double?
    /// lisgd: the edge the swipe touched (`L`, `TR`, `N`...) and its length class (`S`, `M`, `L`).
    package var edge: String?
    package var lengthClass: String?
    /// lisgd: fired by a pressed-mode (`P`) binding while the finger moved, not at release.
    package var pressed: Bool?
    /// A speed the tool measured, in its margin's unit: fusuma's window speed (swipe: accelerated
    /// units per 10 ms; rotate: degrees per 10 ms); InputActions' sampled mean delta per event.
    package var speed: Double?

    package init(percentage: Double? = nil, distance: Double? = nil, angleDegrees: Double? = nil, scale: Double? = nil,
                edge: String? = nil, lengthClass: String? = nil, pressed: Bool? = nil, speed: Double? = nil) {
        self.percentage = percentage
        self.distance = distance
        self.angleDegrees = angleDegrees
        self.scale = scale
        self.edge = edge
        self.lengthClass = lengthClass
        self.pressed = pressed
        self.speed = speed
    }
}

/// What one tool would have done with a recording.
package struct ToolVerdict: Sendable {
    package var name: GestureToolName
    /// Where the libinput events the tool read came from.
    package var source: ToolStream.Source
    /// The libinput version whose units the stream is in.
    package var units: LibinputUnits
    /// Every gesture the tool would act on if every gesture were bound, in order.
    package var fired: [FiredGesture]
    /// Why the tool has nothing to say about this recording (it reads another kind of device).
    package var note: Note?
    /// Where the stream's stand-in for libinput is known to differ from libinput here.
    package var caveats: [StandInCaveat] = []
    /// The configuration's thresholds in libinput's units, to be said in mm on both sides of
    /// libinput 1.18 (set where the output says them: the user's own configuration, chosen units).
    package var unitThresholds: [UnitThreshold] = []

    package init(name: GestureToolName, source: ToolStream.Source, units: LibinputUnits, fired: [FiredGesture], note: Note? = nil) {
        self.name = name
        self.source = source
        self.units = units
        self.fired = fired
        self.note = note
    }

    package enum Note: Sendable, Hashable {
        /// The tool reads only this kind of device; the recording is of the other.
        case readsOnly(ToolDevice.Kind)
    }
}
