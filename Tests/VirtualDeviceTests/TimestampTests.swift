import CEvdev
import Foundation
import GestureCore
import GestureKit
import Testing
import VirtualEvdev
import PinchlabTestSupport

/// The times on the events: like a kernel device (`.readerClock`), each file gets them in its own
/// clock, `CLOCK_REALTIME` unless it asked for another with `EVIOCSCLOCKID`, at exactly the
/// recorded intervals.
@Suite(.blocking, .needs(.fuse)) struct TimestampTests {
    static func now(_ clock: clockid_t) -> Int64 {
        var ts = timespec()
        clock_gettime(clock, &ts)
        return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1_000
    }

    /// The clocks are years apart on any machine that has been up for less than decades.
    static let sameClockToleranceMicroseconds: Int64 = 5_000_000

    static func intervals(_ events: [InputEvent]) -> [Int64] {
        zip(events.dropFirst(), events).map { $0.time.totalMicroseconds - $1.time.totalMicroseconds }
    }

    @Test func eachFileGetsItsOwnClockAtTheRecordedIntervals() throws {
        let device = try Fixtures.device(test: "time-reader-clock", options: VirtualEvdevOptions(timestamps: .readerClock))
        defer { device.stop() }
        let realtime = try EvdevReader(path: device.path)  // the kernel's default
        let monotonic = try EvdevReader(path: device.path)
        #expect(monotonic.useClock(CLOCK_MONOTONIC))
        let gesture = Fixtures.twoFingerSpread()
        device.enqueue(gesture)
        let a = realtime.read(count: gesture.count, timeoutSeconds: 5)
        let b = monotonic.read(count: gesture.count, timeoutSeconds: 5)
        try #require(a.count == gesture.count && b.count == gesture.count)
        #expect(a.map(\.value) == gesture.map(\.value) && b.map(\.code) == gesture.map(\.code))
        #expect(abs(a[0].time.totalMicroseconds - Self.now(CLOCK_REALTIME)) < Self.sameClockToleranceMicroseconds)
        #expect(abs(b[0].time.totalMicroseconds - Self.now(CLOCK_MONOTONIC)) < Self.sameClockToleranceMicroseconds)
        #expect(Self.intervals(a) == Self.intervals(gesture), "exactly the recorded intervals")
        #expect(Self.intervals(b) == Self.intervals(gesture))
    }

    /// The device layer asks for `CLOCK_MONOTONIC` (as libinput does); without that call the events
    /// would come in the kernel's default `CLOCK_REALTIME`, which NTP can step backwards.
    @Test func theDeviceLayerAsksForTheMonotonicClock() throws {
        let device = try Fixtures.device(test: "time-evdevdevice", options: VirtualEvdevOptions(timestamps: .readerClock))
        defer { device.stop() }
        let input = try EvdevDevice(path: device.path)
        let frame = Fixtures.frames(of: Fixtures.twoFingerSpread())[0]
        device.enqueue(frame)
        var got: [InputEvent] = []
        while got.count < frame.count {
            switch try input.readEvent() {
            case .event(let e): got.append(e)
            case .wouldBlock: try #require(try input.waitReadable(timeoutMS: 5000))
            }
        }
        #expect(got.filter(\.isSynDropped).isEmpty, "the clock was set before anything was queued")
        #expect(abs(got[0].time.totalMicroseconds - Self.now(CLOCK_MONOTONIC)) < Self.sameClockToleranceMicroseconds)
    }

    @Test func generationTimeStampsEachFrameWhenItIsMade() throws {
        let device = try Fixtures.device(test: "time-generation", options: VirtualEvdevOptions(timestamps: .generationTime))
        defer { device.stop() }
        let reader = try EvdevReader(path: device.path)
        #expect(reader.useClock(CLOCK_MONOTONIC))
        let frame = Fixtures.frames(of: Fixtures.twoFingerSpread())[0]
        device.enqueue(frame)
        let got = reader.read(count: frame.count, timeoutSeconds: 5)
        let now = Self.now(CLOCK_MONOTONIC)
        try #require(got.count == frame.count)
        #expect(got.map(\.value) == frame.map(\.value))
        #expect(Set(got.map(\.time)).count == 1, "one packet, one timestamp")
        let age = now - got[0].time.totalMicroseconds
        #expect(age >= 0 && age < Self.sameClockToleranceMicroseconds)
    }

    /// Each pass of a loop is shifted by its own constant: intervals inside a pass are the recorded
    /// ones, a pass starts when it is played, and, played faster than recorded, the next pass still
    /// starts after the previous one ended (times never go backwards).
    @Test func everyLoopPassKeepsItsIntervalsAndTimeNeverGoesBack() throws {
        let device = try Fixtures.device(test: "time-loop", options: VirtualEvdevOptions(timestamps: .readerClock))
        defer { device.stop() }
        let gesture = Fixtures.twoFingerSpread()
        let pauseMicroseconds: Int64 = 20_000
        let speed = 5.0
        device.play(gesture, speed: speed, loop: true, startOnFirstRead: true, loopPauseMicroseconds: pauseMicroseconds)
        let reader = try EvdevReader(path: device.path)
        #expect(reader.useClock(CLOCK_MONOTONIC))
        let passes = 3
        let got = reader.read(count: passes * gesture.count, timeoutSeconds: 10)
        try #require(got.count == passes * gesture.count)
        #expect(abs(got[0].time.totalMicroseconds - Self.now(CLOCK_MONOTONIC)) < Self.sameClockToleranceMicroseconds)
        for pass in 0..<passes {
            let events = Array(got[pass * gesture.count ..< (pass + 1) * gesture.count])
            #expect(Self.intervals(events) == Self.intervals(gesture), "pass \(pass + 1)")
            #expect(events.map(\.value) == gesture.map(\.value))
            if pass > 0 {
                // The pause is in recorded time, played 5x faster like the rest: the pass runs
                // ahead of the clock, and the next one starts after it, not at "now".
                // (Scheduling delays of a few hundred microseconds count 5x too: half the pause.)
                let gap = events[0].time.totalMicroseconds - got[pass * gesture.count - 1].time.totalMicroseconds
                #expect(gap > pauseMicroseconds / 2, "pass \(pass + 1) starts \(gap) us after the last")
            }
        }
    }
}
