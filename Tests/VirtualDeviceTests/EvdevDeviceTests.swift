import CEvdev
import Foundation
import GestureCore
import GestureKit
import SystemPackage
import Testing
import VirtualEvdev
import PinchlabTestSupport

/// GestureKit's device layer (`EvdevDevice`, libevdev on a real file descriptor) against the
/// virtual node: what was served comes back exactly, as events and as touch frames.
@Suite(.blocking) struct EvdevDeviceTests {
    /// Reads until `count` events arrived (or the device stays quiet for two seconds).
    func read(_ input: EvdevDevice, count: Int) throws -> [InputEvent] {
        var events: [InputEvent] = []
        while events.count < count {
            switch try input.readEvent() {
            case .event(let e): events.append(e)
            case .wouldBlock:
                guard try input.waitReadable(timeoutMS: 2000) else { return events }
            }
        }
        return events
    }

    func frames(_ device: DeviceDescription, _ events: [InputEvent]) -> [TouchFrame] {
        var assembler = TouchFrameAssembler(device: device)
        return events.compactMap { assembler.consume($0) }
    }

    func expectSameDescription(_ got: DeviceDescription, _ want: DeviceDescription) {
        #expect(got.name == want.name)
        #expect(got.id == want.id)
        #expect(got.properties == want.properties)
        #expect(got.codes[.key] == want.codes[.key])
        #expect(got.codes[.abs] == want.codes[.abs])
        for (code, info) in want.absInfo {
            let g = got.absInfo[code]
            #expect(g?.minimum == info.minimum && g?.maximum == info.maximum && g?.fuzz == info.fuzz
                    && g?.resolution == info.resolution, "axis \(code.rawValue)")
        }
        #expect(got.slotCount == want.slotCount)
        #expect(got.deviceClass == want.deviceClass)
    }

    @Test(.needs(.fuse), arguments: ["clickpad", "touchscreen"])
    func servedEventsAndFramesComeBackExactly(which: String) throws {
        let description = which == "clickpad" ? Fixtures.clickpad : Fixtures.touchscreen
        let device = try Fixtures.device(description, test: "evdevdevice-\(which)")
        defer { device.stop() }
        let input = try EvdevDevice(path: device.path)
        expectSameDescription(input.device, description)
        #expect(input.device.deviceClass == (which == "clickpad" ? .touchpad : .touchscreen))

        let served = Fixtures.twoFingerSpread()
        device.enqueue(served)
        // libevdev drops codes the device does not have (the touchscreen has no BTN_TOOL_DOUBLETAP).
        let expected = served.filter { $0.type == .syn || description.has($0.type, $0.code) }
        let got = try read(input, count: expected.count)
        #expect(got == expected)
        #expect(which == "touchscreen" ? expected.count < served.count : expected.count == served.count)

        let f = frames(input.device, got)
        #expect(f == frames(description, served))
        #expect(f.count == 4)
        let scale = Double(description.absInfo[.absMTPositionX]!.resolution)
        #expect(f[2].touches.map(\.position.x) == [460 / scale, 740 / scale])
        #expect(f[3].activeTouchCount == 0)
    }

    @Test(.needs(.fuse)) func synDroppedIsFollowedByAResyncThatRestoresTheTouchState() throws {
        let device = try Fixtures.device(test: "evdevdevice-dropped")
        defer { device.stop() }
        let input = try EvdevDevice(path: device.path)
        let all = Fixtures.frames(of: Fixtures.twoFingerSpread())
        device.enqueue(all[0])
        let first = try read(input, count: all[0].count)
        #expect(first == all[0])

        // Frames 2 and 3 overflow the client's buffer: the kernel drops them and says SYN_DROPPED.
        device.overflow(generating: all[1] + all[2])
        var assembler = TouchFrameAssembler(device: input.device)
        let before = try #require(first.compactMap { assembler.consume($0) }.last)
        var events: [InputEvent] = []
        var frames: [TouchFrame] = []
        reading: while true {
            switch try input.readEvent() {
            case .event(let e):
                events.append(e)
                if let frame = assembler.consume(e) { frames.append(frame) }
            case .wouldBlock:
                if try !input.waitReadable(timeoutMS: 500) { break reading }
            }
        }
        #expect(events.contains { $0.isSynDropped })
        let resync = try #require(frames.first { $0.isResync })
        // After the resync the assembler holds the true positions of frame 3 (460 and 740 units).
        let xs = resync.touches.filter { $0.phase.isDown }.map(\.position.x).sorted()
        #expect(xs == [460.0 / 12, 740.0 / 12])
        #expect(input.slotValue(slot: 0, code: .absMTPositionX) == 460)
        #expect(input.slotValue(slot: 1, code: .absMTPositionX) == 740)
        // The same two contacts as before the drop: identities survive a resync.
        #expect(before.touches.count == 2)
        #expect(resync.touches.map(\.id) == before.touches.map(\.id))
        #expect(resync.touches.map(\.trackingID) == [100, 101])
        #expect(resync.touches.allSatisfy { $0.phase == .moved })
    }

    /// While the reader lags, finger 0 lifts and a new finger lands in its slot, and finger 1 moves:
    /// after the resync finger 1 is still the same touch where it really is, the old finger 0 has
    /// ended and the new one began with its own identity, at its own position.
    @Test(.needs(.fuse)) func aResyncSeesAFingerLiftedAndLandedDuringTheDrop() throws {
        let device = try Fixtures.device(test: "evdevdevice-dropped-lift")
        defer { device.stop() }
        let input = try EvdevDevice(path: device.path)
        let landed = Fixtures.frames(of: Fixtures.twoFingerSpread())[0]
        device.enqueue(landed)
        var assembler = TouchFrameAssembler(device: input.device)
        var frames: [TouchFrame] = []
        var sawDropped = false
        func readAll() throws {
            while true {
                switch try input.readEvent() {
                case .event(let e):
                    sawDropped = sawDropped || e.isSynDropped
                    if let frame = assembler.consume(e) { frames.append(frame) }
                case .wouldBlock:
                    if try !input.waitReadable(timeoutMS: 500) { return }
                }
            }
        }
        try readAll()
        let start = try #require(frames.last)
        try #require(start.touches.count == 2)
        let (finger0, finger1) = (start.touches[0].id, start.touches[1].id)

        let t: Int64 = 20_000_000
        device.overflow(generating: Fixtures.frame(t, [
            (.abs, .absMTSlot, 1), (.abs, .absMTPositionX, 900), (.abs, .absMTSlot, 0), (.abs, .absMTTrackingID, -1),
            (.key, .btnToolDoubleTap, 0), (.key, .btnToolFinger, 1),
        ]) + Fixtures.frame(t + 7_000, [
            (.abs, .absMTTrackingID, 102), (.abs, .absMTPositionX, 111), (.abs, .absMTPositionY, 222),
            (.key, .btnToolFinger, 0), (.key, .btnToolDoubleTap, 1),
        ]))
        frames.removeAll()
        try readAll()
        #expect(sawDropped)
        #expect(frames.first?.isResync == true)
        let after = frames.flatMap(\.touches)
        #expect(after.contains { $0.id == finger0 && $0.phase == .ended }, "the lifted finger ended")
        #expect(!after.contains { $0.id == finger0 && $0.phase.isDown }, "and never came back")
        let newcomer = try #require(after.first { $0.trackingID == 102 })
        #expect(newcomer.phase == .began && newcomer.id != finger0 && newcomer.id != finger1)
        #expect(newcomer.position.x == 111.0 / 12 && newcomer.position.y == 222.0 / 12)
        let last = try #require(frames.last)
        #expect(last.touches.filter(\.phase.isDown).map(\.id).sorted() == [finger1, newcomer.id].sorted())
        let stayed = try #require(last.touches.first { $0.id == finger1 })
        #expect(stayed.position.x == 900.0 / 12 && stayed.trackingID == 101, "finger 1 is the same touch, where it really is")
        #expect(!after.contains { $0.id == finger1 && $0.phase == .ended })
    }

    @Test(.needs(.fuse)) func aRemovedDeviceThrowsDeviceRemoved() throws {
        let device = try Fixtures.device(test: "evdevdevice-removed")
        defer { device.stop() }
        let input = try EvdevDevice(path: device.path)
        let served = Fixtures.frames(of: Fixtures.twoFingerSpread())[0]
        device.enqueue(served)
        #expect(try read(input, count: served.count) == served)
        device.remove()
        // read() itself fails with ENODEV: readEvent maps it, without poll() saying so first.
        #expect(throws: EvdevError.deviceRemoved(path: device.path)) { _ = try input.readEvent() }
        #expect(throws: EvdevError.deviceRemoved(path: device.path)) { _ = try input.nextEvent() }
        #expect(throws: EvdevError.deviceRemoved(path: device.path)) { _ = try input.waitReadable(timeoutMS: 2000) }
    }

    @Test func openingErrorsAreTyped() throws {
        #expect(throws: EvdevError.noSuchDevice(path: "/nonexistent/event0")) { _ = try EvdevDevice(path: "/nonexistent/event0") }
        let plain = Fixtures.directory("plain-file")
        _ = FileManager.default.createFile(atPath: plain, contents: Data("not a device".utf8))
        let loop = Fixtures.directory("symlink-loop")
        try? FileManager.default.removeItem(atPath: loop)
        try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: loop)
        defer {
            try? FileManager.default.removeItem(atPath: plain)
            try? FileManager.default.removeItem(atPath: loop)
        }
        // Paths that cannot lead to a node are "no such device" (66), not a system error (69).
        #expect(throws: EvdevError.noSuchDevice(path: plain + "/event0")) { _ = try EvdevDevice(path: plain + "/event0") }
        #expect(throws: EvdevError.noSuchDevice(path: loop)) { _ = try EvdevDevice(path: loop) }
        do {
            _ = try EvdevDevice(path: plain)
            Issue.record("a plain file opened as an evdev device")
        } catch let error as EvdevError {
            guard case .notAnEvdevDevice(let path, _) = error else { Issue.record("\(error)"); return }
            #expect(path == plain)
            #expect(error.description.contains("not an evdev device"))
        }
        #expect(EvdevError.opening("/dev/input/event3", errno: Errno(rawValue: EACCES)) == .permissionDenied(path: "/dev/input/event3"))
        // What happened only: the advice (the 'input' group) is the CLI's, tested from the CLI.
        #expect(EvdevError.permissionDenied(path: "/dev/input/event3").description == "/dev/input/event3: permission denied.")
    }

    /// Only `eventN` names are evdev nodes, listed by number: event2 before event10.
    @Test func discoveryListsEventNodesInNumericOrder() throws {
        let directory = Fixtures.directory("discovery-names")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for name in ["event10", "event2", "event1", "event", "eventx", "event3.bak", "event-4", "mouse0", "event 5"] {
            _ = FileManager.default.createFile(atPath: directory + "/" + name, contents: Data("x".utf8))
        }
        try FileManager.default.createDirectory(atPath: directory + "/by-path", withIntermediateDirectories: false)
        let found = try DeviceDiscovery.scan(directory: directory)
        #expect(found.map(\.path) == ["event1", "event2", "event10"].map { directory + "/" + $0 })
        #expect(found.allSatisfy { if case .failure(.notAnEvdevDevice) = $0.result { true } else { false } })
    }

    /// A kernel keeps microseconds below a million, but a device is any file that answers the
    /// ioctls: out-of-range microseconds are carried into the seconds (or clamped), never a trap.
    @Test(.needs(.fuse)) func eventTimesWithMicrosecondsOutOfRangeAreCarried() throws {
        let device = try Fixtures.device(test: "evdevdevice-usec")
        defer { device.stop() }
        let input = try EvdevDevice(path: device.path)
        let writer = open(device.path, O_WRONLY | O_CLOEXEC)
        try #require(writer >= 0)
        defer { close(writer) }
        func raw(_ seconds: Int, _ microseconds: Int, _ type: EventType, _ code: EventCode, _ value: Int32) -> input_event {
            var event = input_event()
            cevdev_event_set_time(&event, seconds, microseconds)
            event.type = type.rawValue
            event.code = code.rawValue
            event.value = value
            return event
        }
        var events = [
            raw(7, 2_500_000, .abs, .absX, 10), raw(7, 2_500_000, .syn, .synReport, 0),
            raw(8, -250_000, .abs, .absX, 11), raw(8, -250_000, .syn, .synReport, 0),
            raw(Int.max, 999_999, .abs, .absX, 12), raw(Int.max, 999_999, .syn, .synReport, 0),
            raw(3, 5_000_000_000, .abs, .absX, 13), raw(3, 5_000_000_000, .syn, .synReport, 0),  // beyond Int32
        ]
        let size = events.count * MemoryLayout<input_event>.size
        #expect(events.withUnsafeMutableBytes { write(writer, $0.baseAddress, size) } == size)
        let got = try read(input, count: events.count)
        try #require(got.count == events.count)
        #expect(got.map(\.value) == [10, 0, 11, 0, 12, 0, 13, 0])
        #expect(got[0].time.totalMicroseconds == 9_500_000)
        #expect(got[2].time.totalMicroseconds == 7_750_000)
        #expect(got[4].time.totalMicroseconds == Int64.max, "clamped")
        #expect(got[6].time.totalMicroseconds == 5_003_000_000)
    }

    @Test(.needs(.fuse)) func discoveryListsTheVirtualDeviceAndPicksItAsTheDefault() throws {
        let device = try Fixtures.device(Fixtures.touchscreen, test: "evdevdevice-discovery")
        defer { device.stop() }
        let found = try DeviceDiscovery.scan(directory: device.directory)
        #expect(found.count == 1)
        #expect(found.first?.path == device.path)
        #expect(found.first?.description?.deviceClass == .touchscreen)
        #expect(try DeviceDiscovery.defaultTouchDevice(directory: device.directory) == device.path)
    }
}
