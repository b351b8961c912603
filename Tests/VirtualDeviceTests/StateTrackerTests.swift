import GestureKit
import Testing
import VirtualEvdev
import PinchlabTestSupport

/// The flight recorder's state tracker against libevdev itself: after every event read from a real
/// file descriptor, the state the tracker followed from the same events lists exactly what
/// libevdev's does (`EvdevDevice.currentStateEvents()`), so a dump's first frame is what `record`
/// would write for the fingers down at that point.
@Suite(.blocking, .needs(.fuse)) struct StateTrackerTests {
    @Test func theTrackerFollowsLibevdevEventByEvent() throws {
        let (description, frames) = try PipelineFaultTests.recording("touchpad/pinch-in-slow-finish-01.evemu")
        let device = try Fixtures.device(description, test: "state-tracker")
        defer { device.stop() }
        let input = try EvdevDevice(path: device.path)
        var tracker = EvdevStateTracker(device: input.device)
        tracker.seed(with: input.currentStateEvents())
        let events = Array(frames.joined())
        device.enqueue(events)
        var read = 0
        var twoDown = 0
        var slotChangedMidFrame = 0
        while read < events.count {
            switch try input.readEvent() {
            case .event(let event):
                read += 1
                tracker.apply(event)
                let libevdev = input.currentStateEvents()
                #expect(tracker.stateEvents() == libevdev, "after \(read) events")
                guard StateAtOpen(libevdev).touchCount >= 2 else { continue }
                twoDown += 1
                // The current slot, said last, is not the last slot listed: the order matters.
                let slots = libevdev.filter { $0.code == .absMTSlot }.map(\.value)
                if slots.count >= 2, slots[slots.count - 1] != slots[slots.count - 2] { slotChangedMidFrame += 1 }
            case .wouldBlock:
                try #require(try input.waitReadable(timeoutMS: 5000))
            }
        }
        #expect(twoDown > 100)
        #expect(slotChangedMidFrame > 10)
    }
}
