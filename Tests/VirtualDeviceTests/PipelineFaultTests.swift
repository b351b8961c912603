import PinchlabTestSupport
import Foundation
import GestureCore
import GestureKit
import GestureLab
import Testing
import VirtualEvdev

/// Faults seen by the whole live path (libevdev, frames, recognizer, transition) through
/// `LiveSession`, the loop `pinchlab live` runs: a storm of buffer overflows mid-gesture, and a
/// reader slower than the device.
@Suite(.blocking, .needs(.fuse)) struct PipelineFaultTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/corpus").path

    /// A corpus recording, as its device and its frames (each frame's events, SYN_REPORT last).
    static func recording(_ file: String) throws -> (DeviceDescription, [[InputEvent]]) {
        var source = try openRecording(path: corpus + "/" + file)
        var events: [InputEvent] = []
        while let e = try source.nextEvent() { events.append(e) }
        return (source.device, Fixtures.frames(of: events))
    }

    /// What a session produced, and checks that hold for any stream whatever happened to it.
    struct Run {
        var events: [InputEvent] = []
        var frames: [TouchFrame] = []
        var gestures: [GestureRecord] = []
        var transitions: [TransitionRecord] = []
        var summary: LabSummary?

        mutating func record(_ r: LabRecord) {
            switch r {
            case .frame(let f, _): frames.append(f)
            case .gesture(let g): gestures.append(g)
            case .transition(let t): transitions.append(t)
            case .stateChange, .button, .releaseMargins: break
            }
        }

        /// Every began closed exactly once, in order; every number finite; progress within reach.
        func expectLegal(sourceLocation: SourceLocation = #_sourceLocation) {
            var checker = GestureOrderChecker()
            checker.check(gestures.map(\.event))
            checker.finish()
            #expect(checker.violations == [], sourceLocation: sourceLocation)
            for t in transitions {
                #expect(t.progress.isFinite && t.progress > -0.5 && t.progress < 1.5, sourceLocation: sourceLocation)
            }
            #expect(transitions.last.map { $0.state == .finished || $0.state == .cancelled } ?? true,
                    "the transition came to rest", sourceLocation: sourceLocation)
        }
    }

    /// Overflow after overflow while two fingers pinch: each SYN_DROPPED is followed by libevdev's
    /// resync, the pinch in flight is cancelled (positions may have jumped) rather than jumping, and
    /// after the storm the touch state is the device's true state (the fingers lift, nothing is
    /// left down).
    @Test func aSynDroppedStormMidPinchCancelsAndRecovers() throws {
        let (description, frames) = try Self.recording("touchpad/pinch-in-slow-finish-01.evemu")
        let device = try Fixtures.device(description, test: "pipeline-storm")
        defer { device.stop() }
        let input = try EvdevDevice(path: device.path)
        var session = LiveSession(input: input, pipeline: try ReplayPipeline(device: input.device, transition: .pinchDismiss,
                                                                           recordsFrames: true),
                                  idleTimeoutSeconds: 0.5)
        let stormStart = 30, stormBursts = 10, framesPerBurst = 3
        device.enqueue(frames[..<stormStart].joined())
        var run = Run()
        var next = stormStart, bursts = 0, synReports = 0
        let stop = try session.run(shouldStop: { false }, emit: { run.record($0) }, afterEvent: { event, _ in
            run.events.append(event)
            guard event.isSynReport else { return }
            synReports += 1
            // Every time the reader has caught up, the device outruns it again.
            guard synReports >= stormStart, next < frames.count, device.pendingEventCount == 0 else { return }
            if bursts < stormBursts {
                let burst = frames[next..<min(next + framesPerBurst, frames.count)].joined()
                next += framesPerBurst
                bursts += 1
                device.overflow(generating: Array(burst))
            } else {
                device.enqueue(frames[next...].joined())
                next = frames.count
            }
        })
        #expect(stop == .idle)
        run.summary = session.finish(source: nil) { run.record($0) }

        let dropped = run.events.filter(\.isSynDropped).count
        #expect(dropped == stormBursts, "one SYN_DROPPED per overflow")
        #expect(run.frames.filter(\.isResync).count == stormBursts)
        let pinchBegan = try #require(run.gestures.first { $0.event.kind == .pinch && $0.event.state == .began })
        let firstResync = try #require(run.frames.first { $0.isResync })
        let origin = frames[0][0].time.totalMicroseconds
        #expect(pinchBegan.time < Double(firstResync.time.totalMicroseconds - origin) / 1_000_000,
                "the storm hits a pinch in flight")
        let firstEnd = try #require(run.gestures.first { $0.event.state.isFinal && $0.event.kind != .hold })
        #expect(firstEnd.event.kind == .pinch && firstEnd.event.state == .cancelled,
                "the pinch in flight is cancelled by the first resync, not continued across a jump")
        #expect(run.summary?.trials.first?.outcome == .cancelled)
        // The true state at the end: every finger lifted, as in the recording.
        #expect(run.frames.last?.activeTouchCount == 0)
        #expect(input.slotValue(slot: 0, code: .absMTTrackingID) == -1)
        #expect(input.slotValue(slot: 1, code: .absMTTrackingID) == -1)
        run.expectLegal()
    }

    /// A reader that takes longer per frame than the device takes between frames loses events to
    /// the kernel-style buffer overflow; it must come out of it with the right state and a legal,
    /// closed gesture stream, whatever was lost.
    @Test func aReaderSlowerThanTheDeviceRecovers() throws {
        let (description, frames) = try Self.recording("touchscreen/pinch-in-slow-finish-01.evemu")
        let device = try Fixtures.device(description, test: "pipeline-slow-reader",
                                         options: VirtualEvdevOptions(clientBufferEvents: 32))
        defer { device.stop() }
        device.play(Array(frames.joined()), speed: 2, startOnFirstRead: true)
        let input = try EvdevDevice(path: device.path)
        var session = LiveSession(input: input, pipeline: try ReplayPipeline(device: input.device, transition: .pinchDismiss,
                                                                           recordsFrames: true),
                                  idleTimeoutSeconds: 0.5)
        var run = Run()
        let stop = try session.run(shouldStop: { false }, emit: { run.record($0) }, afterEvent: { event, _ in
            run.events.append(event)
            if event.isSynReport { usleep(15_000) }  // the device sends a frame every 3.5-7 ms at 2x
        })
        #expect(stop == .idle)
        run.summary = session.finish(source: nil) { run.record($0) }
        #expect(device.generatedEventCount == frames.joined().count, "the device played everything")
        #expect(run.events.contains { $0.isSynDropped }, "the slow reader overflowed")
        #expect(run.events.count < frames.joined().count + 40 * run.events.filter(\.isSynDropped).count)
        #expect(run.frames.last?.activeTouchCount == 0, "the last state is the device's: fingers lifted")
        #expect(input.slotValue(slot: 0, code: .absMTTrackingID) == -1 && input.slotValue(slot: 1, code: .absMTTrackingID) == -1)
        run.expectLegal()
    }
}
