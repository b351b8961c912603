import PinchlabTestSupport
import Testing
@testable import GestureCore

/// Builds event streams by hand, one frame at a time, 10 ms apart.
private struct EventScript {
    var events: [InputEvent] = []
    var timeUS: Int64 = 1_000_000

    mutating func abs(_ code: EventCode, _ value: Int32) { add(.abs, code, value) }
    mutating func key(_ code: EventCode, _ value: Int32) { add(.key, code, value) }
    mutating func add(_ type: EventType, _ code: EventCode, _ value: Int32) {
        events.append(InputEvent(time: EventTime(totalMicroseconds: timeUS), type: type, code: code, value: value))
    }
    mutating func syn() {
        add(.syn, .synReport, 0)
        timeUS += 10_000
    }
}

private func frames(_ device: DeviceDescription, _ events: [InputEvent]) -> [TouchFrame] {
    var assembler = TouchFrameAssembler(device: device)
    return events.compactMap { assembler.consume($0) }
}

private let touchpad = DeviceDescription.presetTouchpad   // 12 units/mm, 4 slots

@Suite struct FrameAssemblerProtocolB {
    @Test func twoFingersBeginMoveAndLiftWithPositionsInMillimetres() throws {
        var s = EventScript()
        s.abs(.absMTSlot, 0); s.abs(.absMTTrackingID, 10); s.abs(.absMTPositionX, 120); s.abs(.absMTPositionY, 240)
        s.abs(.absMTSlot, 1); s.abs(.absMTTrackingID, 11); s.abs(.absMTPositionX, 600); s.abs(.absMTPositionY, 360)
        s.key(.btnTouch, 1); s.key(.btnToolDoubleTap, 1)
        s.syn()
        s.abs(.absMTSlot, 1); s.abs(.absMTPositionX, 612)
        s.syn()
        s.abs(.absMTSlot, 0); s.abs(.absMTTrackingID, -1)
        s.key(.btnToolDoubleTap, 0); s.key(.btnToolFinger, 1)
        s.syn()
        let f = frames(touchpad, s.events)
        try #require(f.count == 3)

        #expect(f[0].touches.count == 2)
        #expect(f[0].fingerCount == 2)
        #expect(f[0].touches[0].phase == .began)
        #expect(f[0].touches[0].position == PointMM(x: 10, y: 20))   // 120/12, 240/12
        #expect(f[0].touches[1].position == PointMM(x: 50, y: 30))
        #expect(f[0].touches[0].trackingID == 10)

        #expect(f[1].touches[0].phase == .stationary)
        #expect(f[1].touches[1].phase == .moved)
        #expect(f[1].touches[1].position.x == 51)
        #expect(f[1].touches[0].id == f[0].touches[0].id)

        #expect(f[2].touches.count == 2)
        #expect(f[2].touches[0].phase == .ended)
        #expect(f[2].touches[0].position == PointMM(x: 10, y: 20))
        #expect(f[2].activeTouchCount == 1)
        #expect(f[2].fingerCount == 1)
        #expect(f[2].time == EventTime(seconds: 1, microseconds: 20_000))
    }

    @Test func fingerCountComesFromToolKeysWhenTheyExceedTheSlots() throws {
        var s = EventScript()
        s.abs(.absMTSlot, 0); s.abs(.absMTTrackingID, 1); s.abs(.absMTPositionX, 100); s.abs(.absMTPositionY, 100)
        s.abs(.absMTSlot, 1); s.abs(.absMTTrackingID, 2); s.abs(.absMTPositionX, 300); s.abs(.absMTPositionY, 100)
        s.key(.btnToolTripleTap, 1)
        s.syn()
        // A two-slot touchpad (a Synaptics of the kind libinput fakes touches for) ...
        var twoSlots = touchpad
        twoSlots.absInfo[.absMTSlot] = AbsInfo(minimum: 0, maximum: 1)
        let f = frames(twoSlots, s.events)
        #expect(f.first?.fingerCount == 3)
        #expect(f.first?.activeTouchCount == 2)
        // ... but with four slots the two contacts are all the fingers there are.
        #expect(frames(touchpad, s.events).first?.fingerCount == 2)
    }

    @Test func trackingIDReplacedWithoutLiftEndsTheOldContactAndBeginsANewOne() throws {
        var s = EventScript()
        s.abs(.absMTSlot, 0); s.abs(.absMTTrackingID, 5); s.abs(.absMTPositionX, 120); s.abs(.absMTPositionY, 120)
        s.syn()
        s.abs(.absMTTrackingID, 6); s.abs(.absMTPositionX, 240)
        s.syn()
        let f = frames(touchpad, s.events)
        try #require(f.count == 2)
        let ended = f[1].touches.filter { $0.phase == .ended }
        let began = f[1].touches.filter { $0.phase == .began }
        #expect(ended.count == 1 && began.count == 1)
        #expect(ended.first?.id == f[0].touches[0].id)
        #expect(ended.first?.position.x == 10)
        #expect(began.first?.id != f[0].touches[0].id)
        #expect(began.first?.position.x == 20)
        #expect(began.first?.trackingID == 6)
    }

    /// The contact that a new tracking id ends keeps its own last pressure and size: the new
    /// contact's values, sent after the id in the same frame, belong to the new touch only.
    @Test func aContactEndedByANewTrackingIDKeepsItsOwnPressureAndSize() throws {
        var screen = DeviceDescription.presetTouchscreen
        screen.absInfo[.absMTPressure] = AbsInfo(minimum: 0, maximum: 255)
        screen.absInfo[.absMTTouchMajor] = AbsInfo(minimum: 0, maximum: 255, resolution: 10)
        var s = EventScript()
        s.abs(.absMTSlot, 0); s.abs(.absMTTrackingID, 5); s.abs(.absMTPositionX, 100); s.abs(.absMTPositionY, 100)
        s.abs(.absMTPressure, 40); s.abs(.absMTTouchMajor, 30)
        s.syn()
        s.abs(.absMTTrackingID, 6); s.abs(.absMTPositionX, 200); s.abs(.absMTPressure, 90); s.abs(.absMTTouchMajor, 70)
        s.syn()
        let f = frames(screen, s.events)
        try #require(f.count == 2)
        let ended = try #require(f[1].touches.first { $0.phase == .ended })
        let began = try #require(f[1].touches.first { $0.phase == .began })
        #expect(ended.trackingID == 5)
        #expect(ended.pressure == 40)
        #expect(ended.touchMajorMM == 3)
        #expect(ended.position.x == 10)
        #expect(began.trackingID == 6)
        #expect(began.pressure == 90)
        #expect(began.touchMajorMM == 7)
    }

    @Test func reusedTrackingIDAfterLiftGetsAFreshIdentity() throws {
        var s = EventScript()
        s.abs(.absMTSlot, 0); s.abs(.absMTTrackingID, 7); s.abs(.absMTPositionX, 120); s.abs(.absMTPositionY, 120)
        s.syn()
        s.abs(.absMTTrackingID, -1)
        s.syn()
        s.abs(.absMTTrackingID, 7)
        s.syn()
        let f = frames(touchpad, s.events)
        try #require(f.count == 3)
        #expect(f[2].touches.count == 1)
        #expect(f[2].touches[0].phase == .began)
        #expect(f[2].touches[0].id != f[0].touches[0].id)
        // Position carries over: the kernel sends only values that changed.
        #expect(f[2].touches[0].position.x == 10)
    }

    @Test func slotBeyondTheSlotCountIsIgnoredUntilAValidSlot() throws {
        var s = EventScript()
        s.abs(.absMTSlot, 9); s.abs(.absMTTrackingID, 3); s.abs(.absMTPositionX, 500)
        s.abs(.absMTSlot, -1); s.abs(.absMTTrackingID, 4)
        s.abs(.absMTSlot, 1); s.abs(.absMTTrackingID, 8); s.abs(.absMTPositionX, 240); s.abs(.absMTPositionY, 12)
        s.syn()
        let f = frames(touchpad, s.events)
        try #require(f.count == 1)
        #expect(f[0].touches.count == 1)
        #expect(f[0].touches[0].slot == 1)
        #expect(f[0].touches[0].position == PointMM(x: 20, y: 1))
    }

    @Test func eventsBeforeTheFirstSynCountTowardsTheFirstFrame() throws {
        var s = EventScript()
        s.abs(.absMTPositionX, 360); s.abs(.absMTPositionY, 120)   // slot 0, no contact yet
        s.abs(.absMTTrackingID, 1)
        s.syn()
        let f = frames(touchpad, s.events)
        #expect(f.count == 1)
        #expect(f.first?.touches.first?.position == PointMM(x: 30, y: 10))
    }

    @Test func aTouchThatNeverEndsIsEndedByFinish() throws {
        var s = EventScript()
        s.abs(.absMTTrackingID, 1); s.abs(.absMTPositionX, 12); s.abs(.absMTPositionY, 12)
        s.abs(.absMTSlot, 2); s.abs(.absMTTrackingID, 2); s.abs(.absMTPositionX, 24); s.abs(.absMTPositionY, 12)
        s.syn()
        var assembler = TouchFrameAssembler(device: touchpad)
        for e in s.events { _ = assembler.consume(e) }
        let finished = assembler.finish(at: EventTime(seconds: 5, microseconds: 0))
        let last = try #require(finished)
        #expect(last.touches.count == 2)
        #expect(last.touches.allSatisfy { $0.phase == .ended })
        #expect(last.activeTouchCount == 0)
        let again = assembler.finish(at: EventTime(seconds: 6, microseconds: 0))
        #expect(again == nil)
    }

    @Test func synDroppedMarksTheNextFrameAsResync() throws {
        var s = EventScript()
        s.abs(.absMTTrackingID, 1); s.abs(.absMTPositionX, 12); s.abs(.absMTPositionY, 12)
        s.syn()
        s.add(.syn, .synDropped, 0)
        s.abs(.absMTPositionX, 600)
        s.syn()
        s.abs(.absMTPositionX, 612)
        s.syn()
        let f = frames(touchpad, s.events)
        try #require(f.count == 3)
        #expect(!f[0].isResync)
        #expect(f[1].isResync)
        #expect(f[1].touches[0].position.x == 50)
        #expect(!f[2].isResync)
    }

    @Test func beganAndEndedInOneFrameReportsNothing() throws {
        var s = EventScript()
        s.abs(.absMTTrackingID, 1); s.abs(.absMTPositionX, 12); s.abs(.absMTTrackingID, -1)
        s.syn()
        let f = frames(touchpad, s.events)
        #expect(f.count == 1)
        #expect(f[0].touches.isEmpty)
    }

    @Test func moreContactsThanFrameCapacityAreLeftOutButCounted() throws {
        var device = DeviceDescription.presetTouchscreen
        device.absInfo[.absMTSlot] = AbsInfo(minimum: 0, maximum: 19)
        var s = EventScript()
        for slot in 0..<20 {
            s.abs(.absMTSlot, Int32(slot)); s.abs(.absMTTrackingID, Int32(slot)); s.abs(.absMTPositionX, Int32(slot * 10))
        }
        s.syn()
        let f = frames(device, s.events)
        #expect(f.first?.touches.count == TouchFrame.capacity)
        #expect(f.first?.fingerCount == 20)
    }

    @Test func randomEventStreamsNeverCrashAndKeepInvariants() {
        var rng = SeededRandom(seed: 42)
        let codes: [EventCode] = [.absMTSlot, .absMTTrackingID, .absMTPositionX, .absMTPositionY, .absMTPressure]
        for _ in 0..<200 {
            var assembler = TouchFrameAssembler(device: touchpad)
            var time: Int64 = 0
            var previousIDs = Set<UInt64>()
            for _ in 0..<300 {
                time += Int64(rng.next() % 20_000)
                let roll = rng.next() % 10
                let event: InputEvent
                if roll == 0 {
                    event = InputEvent(time: EventTime(totalMicroseconds: time), type: .syn, code: .synReport, value: 0)
                } else {
                    let code = codes[Int(rng.next() % UInt64(codes.count))]
                    let value = Int32(truncatingIfNeeded: Int64(rng.next() % 2000) - 100)
                    event = InputEvent(time: EventTime(totalMicroseconds: time), type: .abs, code: code, value: value)
                }
                if let frame = assembler.consume(event) {
                    let ids = frame.touches.map(\.id)
                    #expect(Set(ids).count == ids.count, "identities are unique within a frame")
                    for t in frame.touches {
                        #expect(t.position.x.isFinite && t.position.y.isFinite)
                        if t.phase == .began { #expect(!previousIDs.contains(t.id), "a began touch is new") }
                    }
                    previousIDs = Set(frame.touches.filter { $0.phase.isDown }.map(\.id))
                }
            }
        }
    }

    /// A finger-count key the description does not list is ignored, as libevdev discards it: two
    /// slots and BTN_TOOL_TRIPLETAP make three fingers only on a device that has the key.
    @Test func aToolKeyTheDescriptionLacksIsIgnored() throws {
        var twoSlots = touchpad
        twoSlots.absInfo[.absMTSlot] = AbsInfo(minimum: 0, maximum: 1)
        var withoutTripleTap = twoSlots
        withoutTripleTap.codes[.key]?.remove(.btnToolTripleTap)
        var s = EventScript()
        s.abs(.absMTSlot, 0); s.abs(.absMTTrackingID, 10); s.abs(.absMTPositionX, 120); s.abs(.absMTPositionY, 240)
        s.abs(.absMTSlot, 1); s.abs(.absMTTrackingID, 11); s.abs(.absMTPositionX, 600); s.abs(.absMTPositionY, 360)
        s.key(.btnTouch, 1); s.key(.btnToolTripleTap, 1)
        s.syn()
        let listed = frames(twoSlots, s.events), lacking = frames(withoutTripleTap, s.events)
        try #require(listed.count == 1 && lacking.count == 1)
        #expect(listed[0].fingerCount == 3)
        #expect(lacking[0].fingerCount == 2)
    }
}

@Suite struct FrameAssemblerOtherProtocols {
    static let protocolA = DeviceDescription(
        name: "protocol A panel", id: InputID(bustype: BusType.usb, vendor: 1, product: 2, version: 3),
        properties: [.direct], codes: [.key: [.btnTouch]],
        absInfo: [.absMTPositionX: AbsInfo(minimum: 0, maximum: 1000, resolution: 10),
                  .absMTPositionY: AbsInfo(minimum: 0, maximum: 1000, resolution: 10)])

    /// EP0430M09-like: a protocol-A touchscreen that sets BTN_TOOL_DOUBLETAP as its "touching" flag
    /// with one contact is one finger (libinput counts contacts; tool keys matter only on touchpads
    /// with fewer slots than fingers).
    @Test func aTouchscreenCountsContactsNotToolKeys() throws {
        var device = Self.protocolA
        device.codes[.key] = [.btnTouch, .btnToolFinger, .btnToolDoubleTap]
        var s = EventScript()
        s.key(.btnTouch, 1); s.key(.btnToolDoubleTap, 1)
        s.abs(.absMTPositionX, 100); s.abs(.absMTPositionY, 100); s.add(.syn, .synMTReport, 0); s.syn()
        let f = frames(device, s.events)
        #expect(f.first?.fingerCount == 1)
        #expect(f.first?.activeTouchCount == 1)
    }

    /// On a touchpad the tool key counts only beyond the slots: two slots, BTN_TOOL_DOUBLETAP with
    /// one contact is one finger; BTN_TOOL_TRIPLETAP with two is three.
    @Test func aTouchpadRaisesTheCountOnlyPastItsSlots() throws {
        var s = EventScript()
        s.abs(.absMTSlot, 0); s.abs(.absMTTrackingID, 1); s.abs(.absMTPositionX, 100); s.abs(.absMTPositionY, 100)
        s.key(.btnToolDoubleTap, 1)
        s.syn()
        let f = frames(DeviceDescription.presetTouchpad, s.events)
        #expect(f.first?.fingerCount == 1, "4 slots: the contacts count")
    }

    @Test func protocolAContactsKeepIdentitiesByNearestMatch() throws {
        var s = EventScript()
        func contact(_ x: Int32, _ y: Int32) {
            s.abs(.absMTPositionX, x); s.abs(.absMTPositionY, y); s.add(.syn, .synMTReport, 0)
        }
        contact(100, 100); contact(800, 800); s.syn()
        contact(790, 805); contact(110, 100); s.syn()            // reported in the other order
        contact(120, 100); s.syn()                                 // the second lifted
        s.add(.syn, .synMTReport, 0); s.syn()                      // all lifted
        let f = frames(Self.protocolA, s.events)
        try #require(f.count == 4)
        #expect(f[0].touches.count == 2 && f[0].touches.allSatisfy { $0.phase == .began })
        let a = try #require(f[0].touches.first { $0.position.x == 10 }).id
        let b = try #require(f[0].touches.first { $0.position.x == 80 }).id
        #expect(f[1].touches.first { $0.id == a }?.position == PointMM(x: 11, y: 10))
        #expect(f[1].touches.first { $0.id == b }?.position == PointMM(x: 79, y: 80.5))
        #expect(f[2].touches.first { $0.id == b }?.phase == .ended)
        #expect(f[2].touches.first { $0.id == a }?.phase == .moved)
        #expect(f[3].activeTouchCount == 0)
        #expect(f[3].touches.first?.id == a && f[3].touches.first?.phase == .ended)
    }

    /// Two contacts 4 mm apart moving the same way 3 and 4 mm per frame (the audit's
    /// protoA-swap.yml): the nearest pair first (new left contact with old right one, 1 mm) swaps
    /// them; the least total squared distance, as mtdev computes it, keeps them.
    @Test func protocolAFastCloseContactsKeepTheirIdentities() throws {
        var s = EventScript()
        func contact(_ x: Int32, _ y: Int32) {
            s.abs(.absMTPositionX, x); s.abs(.absMTPositionY, y); s.add(.syn, .synMTReport, 0)
        }
        for i: Int32 in 0..<8 {
            // Reported right contact first in odd frames, as a panel may.
            if i % 2 == 0 { contact(300 + 30 * i, 500); contact(340 + 40 * i, 500) }
            else { contact(340 + 40 * i, 500); contact(300 + 30 * i, 500) }
            s.syn()
        }
        let f = frames(Self.protocolA, s.events)
        try #require(f.count == 8)
        let left = try #require(f[0].touches.first { $0.position.x == 30 }).id
        let right = try #require(f[0].touches.first { $0.position.x == 34 }).id
        for (i, frame) in f.enumerated() {
            #expect(frame.touches.count == 2 && frame.touches.allSatisfy { $0.phase.isDown })
            #expect(frame.touches.first { $0.id == left }?.position.x == 30 + 3 * Double(i), "frame \(i)")
            #expect(frame.touches.first { $0.id == right }?.position.x == 34 + 4 * Double(i), "frame \(i)")
        }
    }

    /// Three contacts where pairing the closest first forces a far pairing on the others: the
    /// assignment with the least total is taken (and one contact lifting leaves the other two).
    @Test func protocolAThreeContactsTakeTheLeastTotalAssignment() throws {
        var s = EventScript()
        func contact(_ x: Int32, _ y: Int32) {
            s.abs(.absMTPositionX, x); s.abs(.absMTPositionY, y); s.add(.syn, .synMTReport, 0)
        }
        contact(100, 100); contact(160, 100); contact(600, 600); s.syn()
        // Both left contacts moved 50 units right: the new (150, 100) is 10 from the old right one.
        contact(150, 100); contact(210, 100); contact(605, 600); s.syn()
        contact(200, 100); contact(610, 600); s.syn()     // the middle contact lifted
        let f = frames(Self.protocolA, s.events)
        try #require(f.count == 3)
        let ids = [10.0, 16, 60].map { x in f[0].touches.first { $0.position.x == x }?.id }
        #expect(f[1].touches.first { $0.position.x == 15 }?.id == ids[0])
        #expect(f[1].touches.first { $0.position.x == 21 }?.id == ids[1])
        #expect(f[1].touches.first { $0.position.x == 60.5 }?.id == ids[2])
        #expect(f[2].touches.first { $0.position.x == 20 }?.id == ids[1], "the nearer old contact")
        #expect(f[2].touches.first { $0.id == ids[0] }?.phase == .ended)
        #expect(f[2].activeTouchCount == 2)
    }

    /// A contact whose SYN_MT_REPORT never came before the SYN_REPORT is dropped (mtdev), and does
    /// not turn up in the next frame.
    @Test func protocolAContactWithoutItsReportDoesNotCarryOver() throws {
        var s = EventScript()
        s.abs(.absMTPositionX, 100); s.abs(.absMTPositionY, 100); s.add(.syn, .synMTReport, 0)
        s.abs(.absMTPositionX, 800); s.abs(.absMTPositionY, 800); s.abs(.absMTPressure, 77)   // no SYN_MT_REPORT
        s.syn()
        s.add(.syn, .synMTReport, 0); s.syn()                 // no contacts
        s.abs(.absMTPositionX, 300); s.add(.syn, .synMTReport, 0); s.syn()   // X only: no stale Y
        let f = frames(Self.protocolA, s.events)
        try #require(f.count == 3)
        #expect(f[0].activeTouchCount == 1)
        #expect(f[0].touches.first?.position == PointMM(x: 10, y: 10))
        #expect(f[1].activeTouchCount == 0, "the unterminated contact came back")
        #expect(f[2].activeTouchCount == 1)
        #expect(f[2].touches.first?.position == PointMM(x: 30, y: 0))
        #expect(f[2].touches.first?.pressure == -1)
    }

    @Test func singleTouchFollowsBtnTouch() throws {
        let device = DeviceDescription(
            name: "single", id: InputID(bustype: BusType.usb, vendor: 1, product: 2, version: 3),
            properties: [.direct], codes: [.key: [.btnTouch]],
            absInfo: [.absX: AbsInfo(minimum: 0, maximum: 1000, resolution: 4), .absY: AbsInfo(minimum: 0, maximum: 800, resolution: 4)])
        var s = EventScript()
        s.abs(.absX, 40); s.abs(.absY, 80); s.key(.btnTouch, 1); s.syn()
        s.abs(.absX, 44); s.syn()
        s.key(.btnTouch, 0); s.syn()
        let f = frames(device, s.events)
        try #require(f.count == 3)
        #expect(f[0].touches.first?.phase == .began)
        #expect(f[0].touches.first?.position == PointMM(x: 10, y: 20))
        #expect(f[1].touches.first?.position.x == 11)
        #expect(f[2].touches.first?.phase == .ended)
        #expect(f[2].fingerCount == 0)
    }

    @Test func resolutionZeroFallsBackToLibinputsNominalTouchpadSize() {
        var device = touchpad
        for code in [EventCode.absMTPositionX, .absMTPositionY] { device.absInfo[code]?.resolution = 0 }
        let geometry = device.geometry!
        #expect(geometry.isEstimated)
        #expect(abs(geometry.widthMM - AxisScale.fallbackWidthMM) < 1e-9)
        #expect(abs(geometry.heightMM - AxisScale.fallbackHeightMM) < 1e-9)
        #expect(!touchpad.geometry!.isEstimated)
        #expect(touchpad.geometry!.widthMM == 100)
    }

    @Test func classification() {
        #expect(touchpad.deviceClass == .touchpad)
        #expect(DeviceDescription.presetTouchscreen.deviceClass == .touchscreen)
        #expect(Self.protocolA.deviceClass == .touchscreen)
        let keyboard = DeviceDescription(name: "kbd", id: InputID(bustype: BusType.usb, vendor: 1, product: 1, version: 1),
                                         codes: [.key: [EventCode(rawValue: 30)]])
        #expect(keyboard.deviceClass == .other)
        // A pen display is INPUT_PROP_DIRECT with BTN_TOUCH (the pen tip), but no finger touches.
        let penDisplay = DeviceDescription(
            name: "Wacom pen display", id: InputID(bustype: BusType.usb, vendor: 0x056a, product: 1, version: 1),
            properties: [.direct], codes: [.key: [.btnToolPen, .btnTouch]],
            absInfo: [.absX: AbsInfo(minimum: 0, maximum: 30000, resolution: 100),
                      .absY: AbsInfo(minimum: 0, maximum: 20000, resolution: 100)])
        #expect(penDisplay.deviceClass == .other)
        var penTablet = penDisplay
        penTablet.properties = [.pointer]
        #expect(penTablet.deviceClass == .other)
        // A touchscreen that also reports a pen on its MT axes still takes fingers.
        var screenWithPen = DeviceDescription.presetTouchscreen
        screenWithPen.codes[.key, default: []].insert(.btnToolPen)
        #expect(screenWithPen.deviceClass == .touchscreen)
        #expect(touchpad.slotCount == 4)
        #expect(touchpad.maxFingerCount == 5)
    }
}

@Suite struct MinimumCostAssignmentTests {
    /// Against every permutation, on random rectangular matrices up to 6 x 6 with ties and with
    /// costs as large as squared INT32 distances.
    @Test func matchesExhaustiveSearch() {
        var random = SeededRandom(seed: 7)
        for trial in 0..<2000 {
            let rows = Int(random.next() % 6) + 1, columns = Int(random.next() % 6) + 1
            let scale: Double = trial % 10 == 0 ? 1.8e19 : 100
            var costs = MinimumCostAssignment.Costs(repeating: 0)
            var matrix = [[Double]](repeating: [Double](repeating: 0, count: columns), count: rows)
            for r in 0..<rows {
                for c in 0..<columns {
                    let v = trial % 3 == 0 ? Double(random.next() % 4) : (Double(random.next() % 1_000_000) / 1_000_000 * scale).rounded()
                    matrix[r][c] = v
                    costs[r * MinimumCostAssignment.capacity + c] = v
                }
            }
            let result = MinimumCostAssignment.solve(costs, rows: rows, columns: columns)
            let paired = (0..<rows).filter { result[$0] >= 0 }
            #expect(paired.count == min(rows, columns), "trial \(trial)")
            #expect(Set(paired.map { result[$0] }).count == paired.count, "a column used twice, trial \(trial)")
            let total = paired.reduce(0.0) { $0 + matrix[$1][result[$1]] }
            let best = Self.bestTotal(matrix, rows: rows, columns: columns)
            #expect(total <= best * (1 + 1e-12), "trial \(trial): \(total) > \(best)")
        }
    }

    /// The least total over every way to pair min(rows, columns) rows with distinct columns.
    static func bestTotal(_ m: [[Double]], rows: Int, columns: Int) -> Double {
        var best = Double.infinity
        func search(_ r: Int, _ used: Set<Int>, _ total: Double, _ pairsLeft: Int, _ rowsLeft: Int) {
            if pairsLeft == 0 { best = min(best, total); return }
            if rowsLeft < pairsLeft { return }
            for c in 0..<columns where !used.contains(c) { search(r + 1, used.union([c]), total + m[r][c], pairsLeft - 1, rowsLeft - 1) }
            search(r + 1, used, total, pairsLeft, rowsLeft - 1)  // row r unpaired (more rows than columns)
        }
        search(0, [], 0, min(rows, columns), rows)
        return best
    }
}
