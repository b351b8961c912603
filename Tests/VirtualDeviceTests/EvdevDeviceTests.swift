import Foundation
import GestureKit
import Testing
import VirtualEvdev

/// GestureKit's device layer (`EvdevDevice`, libevdev on a real file descriptor) against the
/// virtual node: what was served comes back exactly, as events and as touch frames.
@Suite struct EvdevDeviceTests {
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

    @Test(arguments: ["clickpad", "touchscreen"])
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

    @Test func synDroppedIsFollowedByAResyncThatRestoresTheTouchState() throws {
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
        for e in first { _ = assembler.consume(e) }
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
    }

    @Test func aRemovedDeviceThrowsDeviceRemoved() throws {
        let device = try Fixtures.device(test: "evdevdevice-removed")
        defer { device.stop() }
        let input = try EvdevDevice(path: device.path)
        let served = Fixtures.frames(of: Fixtures.twoFingerSpread())[0]
        device.enqueue(served)
        #expect(try read(input, count: served.count) == served)
        device.remove()
        #expect(throws: EvdevError.deviceRemoved(path: device.path)) {
            _ = try input.waitReadable(timeoutMS: 2000)
            _ = try input.readEvent()
        }
    }

    @Test func openingErrorsAreTyped() throws {
        #expect(throws: EvdevError.noSuchDevice(path: "/nonexistent/event0")) { _ = try EvdevDevice(path: "/nonexistent/event0") }
        let plain = Fixtures.directory("plain-file")
        _ = FileManager.default.createFile(atPath: plain, contents: Data("not a device".utf8))
        do {
            _ = try EvdevDevice(path: plain)
            Issue.record("a plain file opened as an evdev device")
        } catch let error as EvdevError {
            guard case .notAnEvdevDevice(let path, _) = error else { Issue.record("\(error)"); return }
            #expect(path == plain)
            #expect(error.description.contains("not an evdev device"))
        }
        #expect(EvdevError.opening("/dev/input/event3", errno: EACCES) == .permissionDenied(path: "/dev/input/event3"))
        #expect(EvdevError.permissionDenied(path: "/dev/input/event3").description.contains("input"))
    }

    @Test func discoveryListsTheVirtualDeviceAndPicksItAsTheDefault() throws {
        let device = try Fixtures.device(Fixtures.touchscreen, test: "evdevdevice-discovery")
        defer { device.stop() }
        let found = try DeviceDiscovery.scan(directory: device.directory)
        #expect(found.count == 1)
        #expect(found.first?.path == device.path)
        #expect(found.first?.description?.deviceClass == .touchscreen)
        #expect(try DeviceDiscovery.defaultTouchDevice(directory: device.directory) == device.path)
    }
}
