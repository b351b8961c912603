import Foundation
import GestureCore
import GestureKit
import GestureLab
import Testing
import VirtualEvdev
import PinchlabTestSupport

/// A device opened while fingers are already down: the state the kernel reports at open (slots,
/// keys, axes) is where the touches come from, as libinput's touchpad code syncs them.
@Suite(.blocking, .needs(.fuse)) struct OpenMidGestureTests {
    @Test func theStateAtOpenHoldsTheFingersAlreadyDown() throws {
        let device = try Fixtures.device(test: "midgesture-state")
        defer { device.stop() }
        let frames = Fixtures.frames(of: Fixtures.twoFingerSpread())
        // Nobody has the node open: only the device's state moves (as fingers that landed before
        // anyone looked).
        device.overflow(generating: frames[0] + frames[1])
        let input = try EvdevDevice(path: device.path)
        let state = input.currentStateEvents().map { [Int($0.type.rawValue), Int($0.code.rawValue), Int($0.value)] }
        let abs = Int(EventType.abs.rawValue), key = Int(EventType.key.rawValue)
        func a(_ code: EventCode, _ value: Int) -> [Int] { [abs, Int(code.rawValue), value] }
        #expect(state == [
            a(.absMTSlot, 0), a(.absMTTrackingID, 100), a(.absMTPositionX, 480), a(.absMTPositionY, 400), a(.absMTPressure, 0),
            a(.absMTSlot, 1), a(.absMTTrackingID, 101), a(.absMTPositionX, 720), a(.absMTPositionY, 400), a(.absMTPressure, 0),
            a(.absMTSlot, 1),
            a(.absX, 480), a(.absY, 400), a(.absPressure, 0),
            [key, Int(EventCode.btnTouch.rawValue), 1], [key, Int(EventCode.btnToolDoubleTap.rawValue), 1],
        ])

        // Seeded, the assembler sees both fingers in the first frame read, where they really are.
        var assembler = TouchFrameAssembler(device: input.device)
        assembler.seed(withState: input.currentStateEvents())
        device.enqueue(frames[2] + frames[3])
        var got: [TouchFrame] = []
        while got.count < 2 {
            switch try input.readEvent() {
            case .event(let e): if let frame = assembler.consume(e) { got.append(frame) }
            case .wouldBlock: try #require(try input.waitReadable(timeoutMS: 5000))
            }
        }
        #expect(got[0].touches.map(\.phase) == [.began, .began])
        #expect(got[0].touches.map(\.trackingID) == [100, 101])
        let expectedX: [Double] = [460.0 / 12, 740.0 / 12]
        #expect(got[0].touches.map(\.position.x) == expectedX)
        #expect(got[0].fingerCount == 2)
        #expect(got[1].touches.map(\.phase) == [.ended, .ended])
    }

    /// `pinchlab live` started in the middle of a pinch: the session starts from the device's state,
    /// so the pinch is recognized from there, and ends when the fingers lift.
    @Test func aLiveSessionOpenedMidPinchRecognizesIt() throws {
        let (description, frames) = try PipelineFaultTests.recording("touchpad/pinch-in-slow-finish-01.evemu")
        let device = try Fixtures.device(description, test: "midgesture-live")
        defer { device.stop() }
        let openedAt = 30  // both fingers down and pinching (replay recognizes the pinch before this)
        device.overflow(generating: Array(frames[..<openedAt].joined()))
        let input = try EvdevDevice(path: device.path)
        var session = LiveSession(input: input, pipeline: try ReplayPipeline(device: input.device, transition: .pinchDismiss,
                                                                           recordsFrames: true),
                                  idleTimeoutSeconds: 0.5)
        device.enqueue(frames[openedAt...].joined())
        var run = PipelineFaultTests.Run()
        let stop = try session.run(shouldStop: { false }, emit: { run.record($0) }, afterEvent: { event, _ in run.events.append(event) })
        #expect(stop == .idle)
        run.summary = session.finish(source: nil) { run.record($0) }

        #expect(run.frames.first?.activeTouchCount == 2, "the fingers already down are in the first frame")
        #expect(run.frames.first?.touches.allSatisfy { $0.phase == .began } == true)
        let pinch = run.gestures.filter { $0.event.kind == .pinch }
        #expect(pinch.first?.event.state == .began)
        #expect(pinch.last?.event.state == .ended, "ended by the fingers lifting, not cancelled")
        #expect(run.summary?.trials.count == 1)
        #expect(run.summary.map { $0.outcome != .none } == true, "the pinch drove the transition")
        run.expectLegal()
    }
}
