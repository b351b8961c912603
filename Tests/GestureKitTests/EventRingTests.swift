import GestureCore
@testable import GestureKit
import Testing

/// The flight recorder's ring drops its oldest events a block at a time: the window it gives must
/// still begin at a frame boundary with the device state there, whatever the ring dropped.
@Suite struct EventRingTests {
    static let device = DeviceDescription.presetTouchpad

    /// Frames of two fingers that land, move and lift in turn, so the state at any point has a
    /// different set of touches down and a different current slot.
    static func events(frames: Int) -> [InputEvent] {
        var events: [InputEvent] = []
        for frame in 0..<frames {
            let time = EventTime(totalMicroseconds: Int64(frame) * 8_000)
            func add(_ type: EventType, _ code: EventCode, _ value: Int32) {
                events.append(InputEvent(time: time, type: type, code: code, value: value))
            }
            let phase = frame % 40
            for slot in 0..<2 {
                add(.abs, .absMTSlot, Int32(slot))
                if phase == slot * 5 { add(.abs, .absMTTrackingID, Int32(frame + slot)) }
                if phase == 30 + slot * 3 { add(.abs, .absMTTrackingID, -1); continue }
                add(.abs, .absMTPositionX, Int32(1000 + frame * (slot + 1) % 900))
                if frame % 3 == 0 { add(.abs, .absMTPositionY, Int32(2000 - frame % 700)) }
            }
            add(.key, .btnTouch, phase < 33 ? 1 : 0)
            add(.syn, .synReport, 0)
        }
        return events
    }

    /// What the state is just before event `index`, followed event by event from the start.
    static func state(before index: Int, of events: [InputEvent]) -> [InputEvent] {
        var tracker = EvdevStateTracker(device: device)
        tracker.seed(with: [])
        for event in events[..<index] { tracker.apply(event) }
        return tracker.stateEvents()
    }

    @Test(arguments: [7, 64, 500, 1_000])
    func theWindowStartsAtAFrameWithTheStateThere(capacity: Int) {
        let all = Self.events(frames: 300)
        let ring = EventRing(capacity: capacity, device: Self.device, stateAtOpen: [])
        var checked = 0
        for (index, event) in all.enumerated() {
            ring.append(event)
            guard index % 97 == 0 || index == all.count - 1 else { continue }
            #expect(ring.count >= min(index + 1, capacity))
            #expect(ring.count <= capacity + ring.dropBlock)
            let window = ring.window()
            guard let first = window.events.first else { continue }
            // The window is a run of the events appended, starting right after a SYN_REPORT.
            #expect(Array(all[window.firstEventIndex..<(window.firstEventIndex + window.events.count)]) == window.events)
            #expect(window.firstEventIndex == 0 || all[window.firstEventIndex - 1].isSynReport)
            #expect(window.events.last?.isSynReport == true)
            #expect(first == all[window.firstEventIndex])
            #expect(window.stateEvents == Self.state(before: window.firstEventIndex, of: all))
            checked += 1
        }
        #expect(checked > 5)
    }

    /// The ring is sized by the events of a frame of two moving fingers: every one of them counts,
    /// the closing `SYN_REPORT` too.
    @Test func aFrameOfTwoMovingFingersIsEveryEventOfIt() {
        let time = EventTime(totalMicroseconds: 8_000)
        var frame: [InputEvent] = []
        func add(_ type: EventType, _ code: EventCode, _ value: Int32) {
            frame.append(InputEvent(time: time, type: type, code: code, value: value))
        }
        for slot: Int32 in 0..<2 {
            add(.abs, .absMTSlot, slot)
            add(.abs, .absMTPositionX, 100 + slot)
            add(.abs, .absMTPositionY, 200 + slot)
            add(.abs, .absMTPressure, 40)
        }
        add(.abs, .absX, 100)
        add(.abs, .absY, 200)
        add(.abs, .absPressure, 40)
        add(.syn, .synReport, 0)
        #expect(EventRing.eventsPerFrame(Self.device) == frame.count)
        var withTimestamp = Self.device
        withTimestamp.codes[.msc, default: []].insert(EventCode(rawValue: 0x05))
        #expect(EventRing.eventsPerFrame(withTimestamp) == frame.count + 1)
        #expect(EventRing.capacity(seconds: 60, device: Self.device) == 60 * EventRing.assumedFramesPerSecond * frame.count)
    }

    @Test func aRingOfNothingKeepsNothing() {
        let ring = EventRing(capacity: 0, device: Self.device, stateAtOpen: [])
        for event in Self.events(frames: 10) { ring.append(event) }
        #expect(ring.count == 0)
        #expect(ring.window().events.isEmpty)
    }
}
