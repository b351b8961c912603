/// Turns a stream of evdev events into `TouchFrame`s, one per `SYN_REPORT`.
///
/// Three protocols, chosen from the device description:
/// - multitouch protocol B (`ABS_MT_SLOT` + `ABS_MT_TRACKING_ID`), the main path;
/// - multitouch protocol A (contacts separated by `SYN_MT_REPORT`, no slots), found in old
///   recordings: contacts get identities by the least total squared distance to the previous
///   frame's, as mtdev does (`ProtocolAMatching.swift`);
/// - single touch (`ABS_X`/`ABS_Y` with `BTN_TOUCH`).
///
/// Awkward input is absorbed, never trusted blindly:
/// - a new tracking id in a slot that still holds a contact ends the old contact and begins a new
///   one in the same frame (the kernel skipped the -1);
/// - a slot number outside the device's slot range is ignored until a valid slot is selected;
/// - an event for an axis or key the description does not list is ignored, as libevdev discards
///   it (the readers warn: `EventContradiction`);
/// - events before the first `SYN_REPORT` count towards the first frame;
/// - a contact that never ends is ended by `finish(at:)` at the end of the stream;
/// - after `SYN_DROPPED` the next frame is marked `isResync` (positions may jump).
///
/// Steady-state work allocates nothing: slot state lives in a buffer sized once from the device.
public struct TouchFrameAssembler: Sendable {
    /// The device whose events it assembles.
    public let device: DeviceDescription
    package let geometry: SurfaceGeometry
    /// The touch protocol it reads the device's events with.
    public let mode: Mode

    /// The touch protocols a device may speak, chosen from its axes.
    public enum Mode: String, Sendable {
        /// Multitouch protocol B (slots and tracking ids), protocol A (`SYN_MT_REPORT`), or one touch.
        case multitouchB, multitouchA, singleTouch
    }

    var slots: [SlotState]
    /// Pressure and size of the contact each slot ended this frame, taken when it ended: a new
    /// contact that replaces it without a lift writes its own values into the slot in the same
    /// frame, and the ended touch must keep its last ones. (They belong with `SlotState.endedX`
    /// and `endedY`, and can move there.)
    private var endedReadings: [EndedReading]
    private var currentSlot: Int
    /// The value of the first slot (`DeviceDescription.firstSlot`): slot events count from it.
    private let slotMinimum: Int
    /// The frame the last `SYN_REPORT` completed (see `ingest(_:)`).
    public private(set) var frame = TouchFrame(time: .zero)
    private var nextTouchID: UInt64 = 1
    private var toolFingerCount = 0
    private var toolFingerBits: UInt8 = 0
    /// The buttons held now, and those the description lists (a button it lacks is ignored, as
    /// libevdev discards its events).
    private var buttonsDown: PhysicalButtons = []
    private let describedButtons: PhysicalButtons
    /// `BTN_TOOL_*` raises the finger count only on a touchpad that tracks fewer contacts than
    /// fingers (libinput's fake touches: a two-slot Synaptics reporting three fingers). Elsewhere the
    /// contacts are counted: a protocol-A touchscreen that sets `BTN_TOOL_DOUBLETAP` as its
    /// "touching" flag with one contact is one finger.
    private let toolCountSlots: Int?
    private var resyncPending = false
    /// Frames where `BTN_TOOL_*` said more fingers than there were contacts, nil when none did.
    package private(set) var toolFingerExcess: ToolFingerExcess?
    private var previousFrameTime: EventTime?
    private var sawAnyEvent = false
    // Protocol A: contacts of the frame being built, and of the previous frame.
    var pendingA: ProtocolAContacts
    private var currentA: ProtocolAContact
    private var currentAHasPosition = false
    // Single touch: raw state.
    private var singleDown = false
    private let singleUsesToolFinger: Bool
    /// One bit per axis the description gives a range (`ABS_MAX` is 0x3f): a bit test per event.
    private let describedAxes: UInt64
    /// One bit per tool of `EventCode.fingerCountTools` the description lists (bit i: tool i): with
    /// `BTN_TOUCH` (listed exactly when `singleUsesToolFinger` is false) the only keys read, so a key
    /// event costs a bit test, not a dictionary and set lookup.
    private let describedTools: UInt8

    /// Used when a device has position axes but no usable geometry (should not happen for touch devices).
    private static let unitGeometry = SurfaceGeometry(device: DeviceDescription(
        name: "", id: InputID(bustype: 0, vendor: 0, product: 0, version: 0),
        absInfo: [.absX: AbsInfo(minimum: 0, maximum: 1, resolution: 1), .absY: AbsInfo(minimum: 0, maximum: 1, resolution: 1)]))!

    /// An assembler for this device's events, in the protocol its axes call for.
    public init(device: DeviceDescription) {
        self.device = device
        self.geometry = device.geometry ?? Self.unitGeometry
        if device.isMultitouchB {
            mode = .multitouchB
        } else if device.isMultitouchA {
            mode = .multitouchA
        } else {
            mode = .singleTouch
        }
        let slotCount: Int
        switch mode {
        case .multitouchB: slotCount = device.slotCount
        case .multitouchA: slotCount = ProtocolAContacts.capacity
        case .singleTouch: slotCount = 1
        }
        slots = Array(repeating: SlotState(), count: max(1, slotCount))
        endedReadings = Array(repeating: EndedReading(), count: max(1, slotCount))
        let slotAxis = device.absInfo[.absMTSlot]
        slotMinimum = device.firstSlot
        currentSlot = Int(slotAxis?.value ?? 0) - slotMinimum
        pendingA = ProtocolAContacts()
        currentA = ProtocolAContact()
        singleUsesToolFinger = !device.has(.key, .btnTouch)
        var axes: UInt64 = 0
        for code in device.absInfo.keys where code.rawValue < 64 { axes |= 1 << UInt64(code.rawValue) }
        describedAxes = axes
        var tools: UInt8 = 0
        for (index, tool) in EventCode.fingerCountTools.enumerated() where device.has(.key, tool.code) {
            tools |= UInt8(1) << UInt8(index)
        }
        describedTools = tools
        describedButtons = PhysicalButtons(describedBy: device)
        switch (device.deviceClass, mode) {
        case (.touchpad, .multitouchB): toolCountSlots = device.slotCount
        case (.touchpad, .singleTouch): toolCountSlots = 1
        default: toolCountSlots = nil
        }
    }

    /// Feeds one event. Returns the frame completed by a `SYN_REPORT`, nil otherwise.
    public mutating func consume(_ event: InputEvent) -> TouchFrame? {
        ingest(event) ? frame : nil
    }

    /// Feeds one event; true when it was a `SYN_REPORT` and `frame` now holds the frame it completed.
    ///
    /// The hot-path form of `consume(_:)`: the frame is built in place and read where it is
    /// (`assembler.frame`, passed on as a borrowed argument), never copied. A frame is about 1 KiB.
    @inline(__always)
    public mutating func ingest(_ event: InputEvent) -> Bool {
        sawAnyEvent = true
        switch event.type {
        case .syn:
            switch event.code {
            case .synReport:
                endFrame(at: event.time)
                return true
            case .synMTReport: endProtocolAContact()
            case .synDropped: resyncPending = true
            default: break
            }
        case .key:
            consumeKey(event.code, event.value)
        case .abs:
            guard event.code.rawValue < 64, describedAxes & (1 << UInt64(event.code.rawValue)) != 0 else { break }
            switch mode {
            case .multitouchB: consumeAbsB(event.code, event.value)
            case .multitouchA: consumeAbsA(event.code, event.value)
            case .singleTouch: consumeAbsSingle(event.code, event.value)
            }
        default:
            break
        }
        return false
    }

    /// Ends the stream: every contact still down is reported ended in one last frame (nil if none).
    public mutating func finish(at time: EventTime) -> TouchFrame? {
        var anyDown = false
        for i in slots.indices where slots[i].isDown {
            end(slot: i)
            anyDown = true
        }
        pendingA.count = 0
        toolFingerBits = 0
        toolFingerCount = 0
        guard anyDown else { return nil }
        endFrame(at: time)
        return frame
    }

    // MARK: keys

    private mutating func consumeKey(_ code: EventCode, _ value: Int32) {
        if let button = PhysicalButtons(code: code) {
            guard describedButtons.contains(button) else { return }
            // 2 is a key's autorepeat: still down.
            if value != 0 { buttonsDown.insert(button) } else { buttonsDown.remove(button) }
            return
        }
        for (index, tool) in EventCode.fingerCountTools.enumerated() where tool.code == code {
            let bit = UInt8(1) << UInt8(index)
            guard describedTools & bit != 0 else { return }
            if value != 0 { toolFingerBits |= bit } else { toolFingerBits &= ~bit }
            toolFingerCount = 0
            for (i, t) in EventCode.fingerCountTools.enumerated() where toolFingerBits & (UInt8(1) << UInt8(i)) != 0 {
                toolFingerCount = max(toolFingerCount, t.fingers)
            }
            if mode == .singleTouch && singleUsesToolFinger && code == .btnToolFinger { setSingleDown(value != 0) }
            return
        }
        if code == .btnTouch && mode == .singleTouch && !singleUsesToolFinger { setSingleDown(value != 0) }
    }

    // MARK: protocol B

    private mutating func consumeAbsB(_ code: EventCode, _ value: Int32) {
        if code == .absMTSlot {
            currentSlot = Int(value) - slotMinimum
            return
        }
        guard currentSlot >= 0 && currentSlot < slots.count else { return }
        switch code {
        case .absMTTrackingID:
            if value < 0 {
                if slots[currentSlot].isDown { end(slot: currentSlot) }
            } else if !slots[currentSlot].isDown {
                begin(slot: currentSlot, trackingID: value)
            } else if slots[currentSlot].trackingID != value {
                // The kernel reused the slot without a -1 in between: end the old contact first.
                end(slot: currentSlot)
                begin(slot: currentSlot, trackingID: value)
            }
        case .absMTPositionX:
            if slots[currentSlot].x != value { slots[currentSlot].movedThisFrame = true }
            slots[currentSlot].x = value
        case .absMTPositionY:
            if slots[currentSlot].y != value { slots[currentSlot].movedThisFrame = true }
            slots[currentSlot].y = value
        case .absMTPressure:
            slots[currentSlot].pressure = value
        case .absMTTouchMajor:
            slots[currentSlot].touchMajor = value
        default:
            break
        }
    }

    mutating func begin(slot i: Int, trackingID: Int32) {
        slots[i].trackingID = trackingID
        slots[i].touchID = nextTouchID
        nextTouchID &+= 1
        slots[i].beganThisFrame = true
    }

    mutating func end(slot i: Int) {
        if slots[i].beganThisFrame {
            // Began and ended in one frame: report nothing for it rather than a zero-length touch.
            slots[i].beganThisFrame = false
        } else {
            slots[i].endedThisFrame = true
            slots[i].endedX = slots[i].x
            slots[i].endedY = slots[i].y
            slots[i].endedTouchID = slots[i].touchID
            slots[i].endedTrackingID = slots[i].trackingID
            endedReadings[i] = EndedReading(pressure: slots[i].pressure, touchMajor: slots[i].touchMajor)
        }
        slots[i].touchID = 0
        slots[i].trackingID = -1
    }

    // MARK: single touch

    private mutating func consumeAbsSingle(_ code: EventCode, _ value: Int32) {
        switch code {
        case .absX:
            if slots[0].x != value { slots[0].movedThisFrame = true }
            slots[0].x = value
        case .absY:
            if slots[0].y != value { slots[0].movedThisFrame = true }
            slots[0].y = value
        case .absPressure:
            slots[0].pressure = value
        default:
            break
        }
    }

    private mutating func setSingleDown(_ down: Bool) {
        guard down != singleDown else { return }
        singleDown = down
        if down { begin(slot: 0, trackingID: -1) } else if slots[0].isDown { end(slot: 0) }
    }

    // MARK: protocol A

    private mutating func consumeAbsA(_ code: EventCode, _ value: Int32) {
        switch code {
        case .absMTPositionX: currentA.x = value; currentAHasPosition = true
        case .absMTPositionY: currentA.y = value; currentAHasPosition = true
        case .absMTPressure: currentA.pressure = value
        case .absMTTouchMajor: currentA.touchMajor = value
        case .absMTTrackingID: currentA.trackingID = value
        default: break
        }
    }

    private mutating func endProtocolAContact() {
        // An empty SYN_MT_REPORT (no position) means "no contacts"; it adds nothing.
        if currentAHasPosition {
            pendingA.append(currentA)
        }
        currentA = ProtocolAContact()
        currentAHasPosition = false
    }

    // MARK: frames

    private mutating func endFrame(at time: EventTime) {
        if mode == .multitouchA {
            matchProtocolAContacts()
            // A contact not closed by SYN_MT_REPORT before the SYN_REPORT is dropped, as mtdev
            // does; it must not carry its values into the next frame's first contact.
            currentA = ProtocolAContact()
            currentAHasPosition = false
        }
        frame.reset(time: time, isResync: resyncPending)
        frame.buttons = buttonsDown
        resyncPending = false
        var down = 0
        for i in slots.indices {
            let s = slots[i]
            if s.endedThisFrame {
                let ended = endedReadings[i]
                frame.append(Touch(id: s.endedTouchID, trackingID: s.endedTrackingID, slot: Int32(i), phase: .ended,
                                   position: position(s.endedX, s.endedY), pressure: ended.pressure,
                                   touchMajorMM: majorMM(ended.touchMajor)))
            }
            if s.isDown {
                down += 1
                let phase: TouchPhase = s.beganThisFrame ? .began : (s.movedThisFrame ? .moved : .stationary)
                frame.append(Touch(id: s.touchID, trackingID: s.trackingID, slot: Int32(i), phase: phase,
                                   position: position(s.x, s.y), pressure: s.pressure,
                                   touchMajorMM: majorMM(s.touchMajor)))
            }
            slots[i].clearFrameFlags()
        }
        let counted = toolCountSlots.map { toolFingerCount > $0 } ?? false
        frame.fingerCount = counted ? max(down, toolFingerCount) : down
        // A hovering BTN_TOOL_FINGER with no contact is no excess; a counted one always is.
        if toolFingerCount > down && (down > 0 || counted) {
            noteToolFingerExcess(at: time, contacts: down, counted: counted)
        }
        previousFrameTime = time
    }

    /// Called only for a frame with the excess: nothing per ordinary frame.
    private mutating func noteToolFingerExcess(at time: EventTime, contacts: Int, counted: Bool) {
        let since = previousFrameTime.map { Double(time.totalMicroseconds - $0.totalMicroseconds) / 1_000_000 } ?? 0
        if toolFingerExcess == nil {
            toolFingerExcess = ToolFingerExcess(firstTime: time, slots: device.slotCount)
        } else if toolFingerExcess!.lastTime == previousFrameTime {
            toolFingerExcess!.seconds += since
        }
        toolFingerExcess!.lastTime = time
        toolFingerExcess!.frames += 1
        toolFingerExcess!.mostToolFingers = max(toolFingerExcess!.mostToolFingers, toolFingerCount)
        toolFingerExcess!.mostContacts = max(toolFingerExcess!.mostContacts, contacts)
        if counted { toolFingerExcess!.countedFrames += 1 }
    }


    @inline(__always) private func position(_ x: Int32, _ y: Int32) -> PointMM {
        PointMM(x: geometry.x.millimetres(x), y: geometry.y.millimetres(y))
    }

    @inline(__always) private func majorMM(_ raw: Int32) -> Double {
        raw == 0 ? 0 : geometry.x.millimetres(delta: raw)
    }
}

/// The last pressure and touch size of a contact that ended, in raw units.
private struct EndedReading: Sendable {
    var pressure: Int32 = -1
    var touchMajor: Int32 = 0
}


/// `BTN_TOOL_DOUBLETAP` ... `QUINTTAP` saying more fingers than the contacts down: a touchpad that
/// tracks fewer contacts than it senses fingers (libinput's fake fingers), or one whose contacts
/// went missing.
package struct ToolFingerExcess: Sendable, Hashable {
    /// The first frame with more tool fingers than contacts.
    package var firstTime: EventTime
    /// The last such frame.
    package var lastTime: EventTime
    /// Such frames, and how many of them counted the tool's fingers (a touchpad tracking fewer
    /// slots than the tool says: `TouchFrame.fingerCount`).
    package var frames = 0
    package var countedFrames = 0
    /// Seconds of consecutive such frames, added up.
    package var seconds = 0.0
    package var mostToolFingers = 0
    package var mostContacts = 0
    /// The device's slots.
    package var slots: Int

    init(firstTime: EventTime, slots: Int) {
        self.firstTime = firstTime
        self.lastTime = firstTime
        self.slots = slots
    }
}
