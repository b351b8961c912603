import CEvdev
import Foundation
import Testing
import VirtualEvdev
import PinchlabTestSupport

/// Readers that open the node while others are reading. A file gets every event generated after
/// its open in its queue; the state it reads with ioctls before its first read() must not already
/// hold those events, or libevdev sees a touch begin twice ("double tracking ID") and drops it.
@Suite(.blocking, .needs(.fuse)) struct ConcurrentReaderTests {
    /// The race made certain: the file is open, a frame is generated (by another reader reading),
    /// and only then does libevdev read the state with its ioctls.
    @Test func aFrameGeneratedBetweenOpenAndTheStateIoctlsIsSeenOnce() throws {
        let device = try Fixtures.device(test: "concurrent-window")
        defer { device.stop() }
        let first = try EvdevReader(path: device.path)
        let secondFile = open(device.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        try #require(secondFile >= 0)
        let frames = Fixtures.frames(of: Fixtures.twoFingerSpread())
        device.enqueue(frames[0])
        #expect(first.read(count: frames[0].count, timeoutSeconds: 5) == frames[0], "generated, and queued for both files")

        let second = try EvdevReader(openedFile: secondFile)
        #expect(libevdev_get_slot_value(second.evdev, 0, UInt32(ABS_MT_TRACKING_ID)) == -1,
                "its state is the one at its open: the frame is in its queue, not in its state")
        #expect(second.read(count: frames[0].count, timeoutSeconds: 5) == frames[0])
        #expect(second.libevdevBugs.isEmpty, "\(second.libevdevBugs)")
        #expect(libevdev_get_slot_value(second.evdev, 0, UInt32(ABS_MT_TRACKING_ID)) == 100)
        #expect(libevdev_get_slot_value(second.evdev, 1, UInt32(ABS_MT_TRACKING_ID)) == 101)

        // Once reading, a resync after SYN_DROPPED sees the device's current state, as the kernel's.
        device.overflow(generating: frames[1] + frames[2])
        let (status, dropped) = second.next()
        #expect(status == LIBEVDEV_READ_STATUS_SYNC.rawValue && dropped?.isSynDropped == true)
        while second.next(sync: true).status == LIBEVDEV_READ_STATUS_SYNC.rawValue {}
        #expect(libevdev_get_slot_value(second.evdev, 0, UInt32(ABS_MT_POSITION_X)) == 460)
        #expect(second.libevdevBugs.isEmpty, "\(second.libevdevBugs)")
    }

    /// Two readers opening at once while the device plays in real time, again and again (as `serve`
    /// with `live` and `record` started together): neither ever sees a touch begin twice, and each
    /// ends in the device's true state, both fingers lifted.
    @Test func twoReadersOpeningDuringPlaybackNeverSeeATouchTwice() throws {
        let device = try Fixtures.device(test: "concurrent-readers")
        defer { device.stop() }
        let rounds = 12
        for round in 0..<rounds {
            // A gesture every 2 ms for a while, so the opens land mid-gesture.
            let gestures = (0..<40).flatMap { Fixtures.twoFingerSpread(startingAt: Int64($0) * 30_000) }
            device.play(gestures, speed: 15)
            let readers = (0..<2).map { _ in
                Thread.detachNewThreadWithResult { () -> [String] in
                    guard let reader = try? EvdevReader(path: device.path) else { return ["cannot open"] }
                    var quiet = 0
                    while quiet < 5 {  // until the device has been quiet for 5 x 50 ms
                        if reader.read(count: 1, timeoutSeconds: 0.05).isEmpty { quiet += 1 } else { quiet = 0 }
                        _ = reader.drain()
                    }
                    var problems = reader.libevdevBugs
                    for slot: UInt32 in 0..<2 where libevdev_get_slot_value(reader.evdev, slot, UInt32(ABS_MT_TRACKING_ID)) != -1 {
                        problems.append("slot \(slot) still holds a touch after the last lift")
                    }
                    return problems
                }
            }
            for (index, reader) in readers.enumerated() {
                let problems = reader.wait(timeoutSeconds: 30)
                #expect(problems == [], "round \(round), reader \(index)")
            }
        }
    }
}
