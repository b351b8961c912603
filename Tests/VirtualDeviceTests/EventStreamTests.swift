import CEvdev
import Foundation
import GestureCore
import GestureKit
import Testing
import VirtualEvdev
import PinchlabTestSupport

/// What read() and poll() deliver.
@Suite(.blocking, .needs(.fuse)) struct EventStreamTests {
    @Test func servedEventsReadBackExactly() throws {
        let device = try Fixtures.device(test: "stream-exact")
        defer { device.stop() }
        let reader = try EvdevReader(path: device.path)
        let gesture = Fixtures.twoFingerSpread()
        device.enqueue(gesture)
        let got = reader.read(count: gesture.count, timeoutSeconds: 5)
        #expect(got == gesture)
        #expect(reader.next().status == -EAGAIN)
        #expect(device.pendingEventCount == 0)
        #expect(device.generatedEventCount == gesture.count)
    }

    @Test func readNeedsRoomForAWholeEventAndHonoursNonblock() throws {
        let device = try Fixtures.device(test: "stream-read-rules")
        defer { device.stop() }
        let fd = open(device.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        try #require(fd >= 0)
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 64)
        // (A 0-byte read never reaches a FUSE server: the kernel answers 0 itself.)
        #expect(read(fd, &buffer, 64) == -1 && errno == EAGAIN, "empty + O_NONBLOCK is EAGAIN")
        device.enqueue(Fixtures.frames(of: Fixtures.twoFingerSpread())[0])
        #expect(read(fd, &buffer, MemoryLayout<input_event>.size - 1) == -1 && errno == EINVAL)
        // A 64-byte buffer holds two 24-byte events: whole events only.
        #expect(read(fd, &buffer, 64) == 2 * MemoryLayout<input_event>.size)
        #expect(lseek(fd, 0, SEEK_SET) == -1 && errno == ESPIPE, "nonseekable like a character device")
    }

    @Test func pollWakesWhenEventsAreEnqueued() throws {
        let device = try Fixtures.device(test: "stream-poll")
        defer { device.stop() }
        let reader = try EvdevReader(path: device.path)
        var pfd = pollfd(fd: reader.fd, events: Int16(POLLIN), revents: 0)
        #expect(poll(&pfd, 1, 0) == 0, "nothing to read yet")
        let enqueueDelaySeconds = 0.2
        let frame = Fixtures.frames(of: Fixtures.twoFingerSpread())[0]
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: enqueueDelaySeconds)
            device.enqueue(frame)
        }
        let started = Date()
        let ready = poll(&pfd, 1, 5_000)
        let waited = Date().timeIntervalSince(started)
        #expect(ready == 1)
        #expect(pfd.revents & Int16(POLLIN) != 0)
        #expect(waited >= enqueueDelaySeconds * 0.5, "poll returned before anything was enqueued")
        #expect(waited < 4, "poll was not woken by the enqueue")
        #expect(reader.drain().events == frame)
    }

    @Test func blockingReadWaitsForEvents() throws {
        let device = try Fixtures.device(test: "stream-blocking")
        defer { device.stop() }
        let fd = open(device.path, O_RDONLY | O_CLOEXEC)
        try #require(fd >= 0)
        defer { close(fd) }
        let frame = Fixtures.frames(of: Fixtures.twoFingerSpread())[1]
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 0.2)
            device.enqueue(frame)
        }
        var buffer = [input_event](repeating: input_event(), count: 16)
        let bytes = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        #expect(bytes == frame.count * MemoryLayout<input_event>.size)
        #expect(buffer.prefix(frame.count).map(EvdevReader.event) == frame)
    }

    @Test func realTimePlayKeepsTheRecordedPace() throws {
        let device = try Fixtures.device(test: "stream-realtime")
        defer { device.stop() }
        let reader = try EvdevReader(path: device.path)
        let gapMicroseconds: Int64 = 150_000
        let events = Fixtures.frame(1_000_000, [(.abs, .absX, 10)]) + Fixtures.frame(1_000_000 + gapMicroseconds, [(.abs, .absX, 20)])
        let started = Date()
        device.play(events, speed: 1)
        let first = reader.read(count: 2, timeoutSeconds: 2)
        let firstAt = Date().timeIntervalSince(started)
        let second = reader.read(count: 2, timeoutSeconds: 2)
        let secondAt = Date().timeIntervalSince(started)
        #expect(first == Array(events.prefix(2)))
        #expect(second == Array(events.suffix(2)), "recorded timestamps are kept by default")
        #expect(firstAt < 0.1)
        #expect(secondAt >= 0.8 * Double(gapMicroseconds) / 1e6, "second frame came early")
    }

    /// A libevdev reader reads the device's state with ioctls between open() and its first read;
    /// real-time playback that waits for that first read never generates a frame in the window.
    @Test func realTimePlaybackCanWaitForTheFirstReader() throws {
        let device = try Fixtures.device(test: "stream-first-read")
        defer { device.stop() }
        let gesture = Fixtures.twoFingerSpread()
        device.play(gesture, startOnFirstRead: true)
        let input = try EvdevDevice(path: device.path)   // libevdev_new_from_fd: ioctls only
        #expect(device.totalOpens == 1)
        #expect(device.readerCount == 0, "libevdev's initial sync issues no read()")
        usleep(100_000)
        #expect(device.generatedEventCount == 0, "nothing plays before the reader is ready")

        var got: [InputEvent] = []
        let deadline = Date().addingTimeInterval(5)
        while got.count < gesture.count, Date() < deadline {
            switch try input.readEvent() {
            case .event(let e): got.append(e)
            case .wouldBlock: _ = try input.waitReadable(timeoutMS: 200)
            }
        }
        #expect(device.readerCount == 1)
        #expect(device.waitUntilReading(clients: 1, timeoutSeconds: 0))
        #expect(!device.waitUntilReading(clients: 2, timeoutSeconds: 0.05))
        #expect(got == gesture, "every event exactly once, none folded into the initial state")
    }

    /// A recording starts in slot 0 without saying so and may end in another slot (this one ends in
    /// slot 1); a second pass must still put its first touch in slot 0, or libevdev sees a "double
    /// tracking ID" and the pass turns into nonsense.
    @Test func everyLoopPassStartsInSlotZeroLikeTheRecording() throws {
        let device = try Fixtures.device(test: "stream-loop-slot")
        defer { device.stop() }
        let recording = Array(Fixtures.twoFingerSpread().drop { $0.code == .absMTSlot && $0.value == 0 })
        try #require(recording.count == Fixtures.twoFingerSpread().count - 1)
        // At speed 1 a pass takes 31 ms: a reader descheduled by a loaded machine does not fall a
        // whole buffer behind (SYN_DROPPED would lose frames, as the kernel's queue does).
        device.play(recording, speed: 1, loop: true, startOnFirstRead: true, loopPauseMicroseconds: 10_000)
        let input = try EvdevDevice(path: device.path)
        var assembler = TouchFrameAssembler(device: input.device)
        var frames: [TouchFrame] = []
        var events: [InputEvent] = []
        let deadline = Date().addingTimeInterval(10)
        while frames.count < 12, Date() < deadline {
            switch try input.readEvent() {
            case .event(let e):
                events.append(e)
                if let frame = assembler.consume(e) { frames.append(frame) }
            case .wouldBlock: _ = try input.waitReadable(timeoutMS: 200)
            }
        }
        try #require(frames.count >= 12)
        let shape = { (f: TouchFrame) in f.touches.filter { $0.phase.isDown }.map { [$0.position.x, $0.position.y] } }
        for pass in 1..<3 {
            #expect(frames[4 * pass ..< 4 * pass + 4].map(shape) == frames[0..<4].map(shape), "pass \(pass + 1) = pass 1")
        }
        #expect(frames[0].activeTouchCount == 2 && frames[4].activeTouchCount == 2 && frames[8].activeTouchCount == 2)
        // Pass 1 starts in slot 0 already: nothing added. Later passes get one ABS_MT_SLOT 0 each.
        let slotZero = events.filter { $0.code == .absMTSlot && $0.value == 0 }.count
        #expect(slotZero == 3 * 3 + 2, "the recording's own three per pass, plus one for each later pass")
    }

    @Test func streamingFeedsLazilyWithBoundedMemory() throws {
        let device = try Fixtures.device(test: "stream-lazy")
        defer { device.stop() }
        let reader = try EvdevReader(path: device.path)
        let frameCount = 500
        let maxPending = 64
        let done = Thread.detachNewThreadWithResult {
            // Built lazily: the whole sequence never exists as an array.
            let frames = (0..<frameCount).lazy.flatMap { i in
                Fixtures.frame(Int64(i) * Fixtures.frameIntervalMicroseconds, [(.abs, .absX, Int32(i % 1000))])
            }
            return device.stream(frames, timing: .asFastAsRead, maxPendingEvents: maxPending)
        }
        var got: [InputEvent] = []
        var mostPending = 0
        let deadline = Date().addingTimeInterval(20)
        while got.count < 2 * frameCount, Date() < deadline {
            mostPending = max(mostPending, device.pendingEventCount)
            got += reader.read(count: 2 * frameCount - got.count, timeoutSeconds: 0.2)
        }
        #expect(got.count == 2 * frameCount)
        #expect(got.filter { $0.type == .abs }.map(\.value) == (0..<frameCount).map { Int32($0 % 1000) })
        #expect(mostPending <= maxPending)
        #expect(done.wait(timeoutSeconds: 5) == true)
    }
}

extension Thread {
    /// Runs `body` on a new thread; the box reports its result.
    static func detachNewThreadWithResult<T: Sendable>(_ body: @escaping @Sendable () -> T) -> ResultBox<T> {
        let box = ResultBox<T>()
        Thread.detachNewThread { box.set(body()) }
        return box
    }
}

final class ResultBox<T: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var value: T?

    func set(_ newValue: T) {
        condition.lock()
        value = newValue
        condition.broadcast()
        condition.unlock()
    }

    func wait(timeoutSeconds: Double) -> T? {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        condition.lock()
        defer { condition.unlock() }
        while value == nil, condition.wait(until: deadline) {}
        return value
    }
}
