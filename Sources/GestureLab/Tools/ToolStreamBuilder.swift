import GestureCore
import GestureTools

/// pinchlab's recognizer standing in for libinput: the libinput events a gesture tool would read,
/// made from a replay's records (`ToolStream.Source.pinchlab`).
///
/// On a touchpad, libinput's gesture events come from pinchlab's gestures as libinput would send
/// them: a pan of three or more fingers is a swipe, a pinch a pinch, a hold a hold; their
/// translations become unaccelerated deltas in the units of `units`' libinput version. A two-finger
/// pan is libinput's finger scroll and a one-finger pan its pointer motion: neither is a gesture
/// event, so no tool reads them. On a touchscreen, libinput's touch events are the touch frames
/// themselves: a down, a motion when a touch moved (its phase says so), an up, then a frame event.
package struct ToolStreamBuilder: Sendable {
    package private(set) var stream: ToolStream
    private let geometry: SurfaceGeometry?
    /// The gesture in flight: its kind as libinput names it, and the last translation and rotation.
    private var open: (kind: GestureStep.Kind, translation: PointMM, rotation: Double)?

    private let isClickpad: Bool
    /// Semi-MT, or two slots and no resolution (an old Synaptics PS/2 pad, the hp8470p of
    /// evemu-devices): positions libinput does not trust for a pinch. Said once a pinch begins.
    private let hasRoughPositions: Bool
    private var clicked = false
    private var heldOnce = false

    package init(device: DeviceDescription, units: LibinputUnits) {
        geometry = device.geometry
        stream = ToolStream(source: .pinchlab, device: ToolDevice(device, units: units))
        let kind = stream.device.kind
        isClickpad = kind == .touchpad && device.has(.buttonpad)
        hasRoughPositions = kind == .touchpad
            && (!device.supportsMultitouchGestures || device.slotCount <= 2 && (geometry?.isEstimated ?? true))
    }

    /// Takes one record of a replay that records frames (`recordsFrames`).
    package mutating func consume(_ record: LabRecord) {
        switch record {
        case .frame(let frame, let time):
            if stream.device.kind == .touchscreen { addTouches(frame, time: time) }
        case .gesture(let gesture):
            if stream.device.kind == .touchpad { addGesture(gesture.event, time: gesture.time) }
        case .button(let button):
            // Said where it can matter: a clicked clickpad and a hold in the same recording.
            if isClickpad && button.state == .pressed {
                clicked = true
                if heldOnce { note(.clickpadClick) }
            }
        case .transition, .stateChange, .releaseMargins:
            break
        }
    }

    private mutating func addGesture(_ event: GestureEvent, time: Double) {
        let kind: GestureStep.Kind
        switch event.kind {
        case .pinch: kind = .pinch
        case .hold: kind = .hold
        case .pan:
            guard event.fingerCount >= 3 else { return }
            kind = .swipe
        }
        if kind == .pinch && event.state == .began && hasRoughPositions { note(.noMultitouchPositions) }
        if kind == .hold && event.state == .began {
            heldOnce = true
            if clicked { note(.clickpadClick) }
        }
        let units = stream.device.units
        switch event.state {
        case .began:
            open = (kind, event.translationMM, event.rotationDegrees)
            stream.events.append(.gesture(GestureStep(kind: kind, phase: .begin, time: time, fingers: event.fingerCount)))
        case .changed:
            guard let last = open, last.kind == kind else { return }
            let delta = event.translationMM - last.translation
            var angle = event.rotationDegrees - last.rotation
            if angle > 180 { angle -= 360 } else if angle < -180 { angle += 360 }
            open = (kind, event.translationMM, event.rotationDegrees)
            stream.events.append(.gesture(GestureStep(kind: kind, phase: .update, time: time, fingers: event.fingerCount,
                                                      dx: units.units(delta.x), dy: units.units(delta.y),
                                                      scale: kind == .pinch ? event.scale : 1, angleDelta: kind == .pinch ? angle : 0)))
        case .ended, .cancelled:
            guard let last = open, last.kind == kind else { return }
            open = nil
            stream.events.append(.gesture(GestureStep(kind: kind, phase: .end, time: time, fingers: event.fingerCount,
                                                      scale: kind == .pinch ? event.scale : 1, cancelled: event.state == .cancelled)))
        }
    }

    private mutating func note(_ caveat: StandInCaveat) {
        if !stream.caveats.contains(caveat) { stream.caveats.append(caveat) }
    }

    private mutating func addTouches(_ frame: TouchFrame, time: Double) {
        var any = false
        for touch in frame.touches {
            switch touch.phase {
            case .began:
                stream.events.append(.touch(step(.down, touch, time)))
                any = true
            case .moved:
                stream.events.append(.touch(step(.motion, touch, time)))
                any = true
            case .stationary:
                continue
            case .ended:
                stream.events.append(.touch(TouchStep(phase: .up, time: time, slot: Int(touch.slot))))
                any = true
            }
        }
        if any { stream.events.append(.touch(TouchStep(phase: .frame, time: time))) }
    }

    /// The touch's position as libinput's transformed coordinates scale it: the fraction of the
    /// axis range, (raw - minimum) / (maximum - minimum + 1).
    private func step(_ phase: TouchStep.Phase, _ touch: Touch, _ time: Double) -> TouchStep {
        TouchStep(phase: phase, time: time, slot: Int(touch.slot),
                  x: fraction(touch.position.x, scale: geometry?.x, spanMM: geometry?.widthMM),
                  y: fraction(touch.position.y, scale: geometry?.y, spanMM: geometry?.heightMM))
    }

    private func fraction(_ mm: Double, scale: AxisScale?, spanMM: Double?) -> Double {
        guard let scale, let spanMM else { return 0 }
        let range = spanMM * scale.unitsPerMM + 1
        return range > 0 ? mm * scale.unitsPerMM / range : 0
    }
}

extension ToolStreamBuilder {
    /// A corpus entry replayed as `check` replays it (its transition, the owner's device
    /// configuration), its records made into the stream a tool reads: the stream and `check`'s score.
    package static func replay(_ source: inout some InputEventSource, entry: CorpusEntry, settings: LabSettings,
                              units: LibinputUnits) throws -> (stream: ToolStream, score: FileScore) {
        var builder = ToolStreamBuilder(device: source.device, units: units)
        let (score, _) = try CorpusRunner.score(file: entry.file, source: &source, entry: entry, settings: settings, recordsFrames: true) {
            builder.consume($0)
        }
        return (builder.stream, score)
    }
}

extension ToolDevice {
    /// The device as the tools see it: its kind, its size as libinput gives it, `units`' libinput.
    package init(_ device: DeviceDescription, units: LibinputUnits) {
        let geometry = device.geometry
        self.init(kind: device.deviceClass == .touchscreen ? .touchscreen : .touchpad,
                  widthMM: geometry?.widthMM ?? 0, heightMM: geometry?.heightMM ?? 0, units: units)
    }
}

extension ToolStream {
    /// The stream of Debian's libinput itself (`--with-libinput`): the events its verdict kept, in
    /// the units of the libinput that printed them.
    package init(libinput: LibinputVerdict, device: DeviceDescription) {
        self.init(source: .libinput, device: ToolDevice(device, units: LibinputUnits(libinputSays: libinput.version)),
                  events: libinput.steps)
    }
}
