import GestureCore
import GestureLab
import InteractiveTransition

/// Arbitrary event streams through TouchFrameAssembler, TouchGestureRecognizer and the transition
/// driver (ReplayPipeline), checking what must hold for any input: every value finite, gesture
/// states in a legal order, nothing left open after `finish`.
///
/// Input: byte 0 picks the device, byte 1 the transition, byte 2 bit 0 asks for `advance(to:)` after
/// each frame (the live path); byte 2 bit 1 replaces the device's slot and position axes by the
/// next 28 bytes (seven little-endian Int32: slot maximum, x minimum, maximum, resolution, y
/// minimum, maximum, resolution: descriptions no reader would accept included); then 10-byte events: type (1), code (2, LE), value (4, LE), time step
/// in microseconds (3, LE; 0xFFFFFF steps 50 ms back). `Fuzz/make-pipeline-seed.py` writes seeds.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPipeline(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 3 else { return 0 }
    var device = FuzzDevices.all[Int(data[0]) % FuzzDevices.all.count]
    let transition = TransitionName.allCases[Int(data[1]) % TransitionName.allCases.count]
    let advances = data[2] & 1 != 0
    var offset = 3
    if data[2] & 2 != 0 {
        guard size >= offset + 28 else { return 0 }
        func int32(_ i: Int) -> Int32 {
            let at = offset + 4 * i
            return Int32(bitPattern: UInt32(data[at]) | UInt32(data[at + 1]) << 8 | UInt32(data[at + 2]) << 16 | UInt32(data[at + 3]) << 24)
        }
        FuzzDevices.replaceAxes(of: &device, slotMaximum: int32(0), x: (int32(1), int32(2), int32(3)),
                                y: (int32(4), int32(5), int32(6)))
        offset += 28
    }
    guard var pipeline = try? ReplayPipeline(device: device, transition: transition) else {
        fatalError("the catalog transition \(transition) could not be built")
    }
    pipeline.recordsStateChanges = true
    var checker = RecordChecker()
    var time: Int64 = 1_000_000
    var count = 0
    while offset + 10 <= size {
        func byte(_ i: Int) -> UInt32 { UInt32(data[offset + i]) }
        let type = EventType(rawValue: UInt16(data[offset]))
        let code = EventCode(rawValue: UInt16(byte(1) | byte(2) << 8))
        let value = Int32(bitPattern: byte(3) | byte(4) << 8 | byte(5) << 16 | byte(6) << 24)
        let step = Int64(byte(7) | byte(8) << 8 | byte(9) << 16)
        time += step == 0xFF_FFFF ? -50_000 : step
        let event = InputEvent(time: EventTime(totalMicroseconds: time), type: type, code: code, value: value)
        pipeline.consume(event) { checker.check($0) }
        if advances && event.isSynReport {
            pipeline.advance(to: EventTime(totalMicroseconds: time + 20_000)) { checker.check($0) }
        }
        count += 1
        offset += 10
    }
    let summary = pipeline.finish { checker.check($0) }
    precondition(checker.open == nil, "gesture \(checker.open!) still open after finish")
    precondition(summary.events == count, "summary counted \(summary.events) events of \(count)")
    precondition(summary.duration.isFinite, "summary duration \(summary.duration)")
    for gesture in summary.gestures {
        precondition(gesture.begin.isFinite && gesture.end.isFinite, "summary gesture times \(gesture)")
    }
    return 0
}

enum FuzzDevices {
    static let all: [DeviceDescription] = {
        var protocolA = DeviceDescription.presetTouchscreen
        protocolA.absInfo[.absMTSlot] = nil
        protocolA.codes[.abs]?.remove(.absMTSlot)
        var noResolution = DeviceDescription.presetTouchpad
        for code in Array(noResolution.absInfo.keys) { noResolution.absInfo[code]?.resolution = 0 }
        return [.presetTouchpad, .presetTouchscreen, protocolA, noResolution]
    }()

    /// Sets the slot axis (when the device has one) and both pairs of position axes.
    static func replaceAxes(of device: inout DeviceDescription, slotMaximum: Int32,
                            x: (Int32, Int32, Int32), y: (Int32, Int32, Int32)) {
        if device.absInfo[.absMTSlot] != nil { device.absInfo[.absMTSlot] = AbsInfo(minimum: 0, maximum: slotMaximum) }
        for code in [EventCode.absX, .absMTPositionX] where device.absInfo[code] != nil {
            device.absInfo[code] = AbsInfo(minimum: x.0, maximum: x.1, resolution: x.2)
        }
        for code in [EventCode.absY, .absMTPositionY] where device.absInfo[code] != nil {
            device.absInfo[code] = AbsInfo(minimum: y.0, maximum: y.1, resolution: y.2)
        }
    }
}

struct RecordChecker {
    var open: GestureKind?

    mutating func check(_ record: LabRecord) {
        switch record {
        case .frame(let frame, let time):
            precondition(time.isFinite, "frame time \(time)")
            for touch in frame.touches {
                precondition(touch.position.x.isFinite && touch.position.y.isFinite, "touch position \(touch)")
                precondition(touch.touchMajorMM.isFinite, "touch major \(touch)")
            }
        case .gesture(let record):
            let e = record.event
            precondition(record.time.isFinite, "gesture time \(record.time)")
            for value in [e.scale, e.rotationDegrees, e.centerMM.x, e.centerMM.y, e.scaleVelocity,
                          e.translationMM.x, e.translationMM.y, e.velocityMMPerSecond.x, e.velocityMMPerSecond.y] {
                precondition(value.isFinite, "non-finite value in \(e)")
            }
            switch e.state {
            case .began:
                precondition(open == nil, "\(e.kind) began while \(open!) was open")
                open = e.kind
            case .changed:
                precondition(open == e.kind, "\(e.kind) changed while \(String(describing: open)) was open")
            case .ended, .cancelled:
                precondition(open == e.kind, "\(e.kind) \(e.state) while \(String(describing: open)) was open")
                open = nil
            }
        case .transition(let step):
            precondition(step.time.isFinite && step.progress.isFinite, "transition step \(step)")
            if let velocity = step.velocity { precondition(velocity.isFinite, "transition velocity \(velocity)") }
        case .stateChange(let change, let time):
            precondition(time.isFinite, "state change time \(time)")
            // The machine's diagram (docs/recognizer-states.md) must hold for any input.
            precondition(!change.isBug, "recognizer bug: \(change.input) in \(change.from)")
        case .button(let button):
            precondition(button.time.isFinite, "button time \(button.time)")
        case .releaseMargins(let record):
            // Only when margins are measured (package API; PropertyTests' random streams measure them).
            precondition(record.time.isFinite, "margins time \(record.time)")
        }
    }
}
