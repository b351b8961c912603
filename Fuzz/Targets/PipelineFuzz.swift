import GestureKit
import GestureLab
import InteractiveTransition

/// Arbitrary event streams through TouchFrameAssembler, TouchGestureRecognizer and the transition
/// driver (ReplayPipeline), checking what must hold for any input: every value finite, gesture
/// states in a legal order, nothing left open after `finish`.
///
/// Input: byte 0 picks the device, byte 1 the transition, byte 2 bit 0 asks for `advance(to:)` after
/// each frame (the live path); then 10-byte events: type (1), code (2, LE), value (4, LE), time step
/// in microseconds (3, LE; 0xFFFFFF steps 50 ms back). `Fuzz/make-pipeline-seed.py` writes seeds.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPipeline(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 3 else { return 0 }
    let device = FuzzDevices.all[Int(data[0]) % FuzzDevices.all.count]
    let transition = TransitionName.allCases[Int(data[1]) % TransitionName.allCases.count].rawValue
    let advances = data[2] & 1 != 0
    guard var pipeline = try? ReplayPipeline(device: device, transition: transition) else {
        fatalError("the catalog transition \(transition) could not be built")
    }
    var checker = RecordChecker()
    var time: Int64 = 1_000_000
    var count = 0
    var offset = 3
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
    let summary = pipeline.finish(source: nil) { checker.check($0) }
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
        }
    }
}
