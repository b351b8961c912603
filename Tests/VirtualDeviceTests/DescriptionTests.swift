import CEvdev
import GestureCore
import Testing
import VirtualEvdev
import PinchlabTestSupport

/// libevdev_new_from_fd on the node must see exactly the description it was built from.
@Suite(.blocking) struct DescriptionTests {
    func expectMatches(_ reader: EvdevReader, _ description: DeviceDescription) {
        #expect(String(cString: libevdev_get_name(reader.evdev)) == description.name)
        #expect(libevdev_get_id_bustype(reader.evdev) == Int32(description.id.bustype))
        #expect(libevdev_get_id_vendor(reader.evdev) == Int32(description.id.vendor))
        #expect(libevdev_get_id_product(reader.evdev) == Int32(description.id.product))
        #expect(libevdev_get_id_version(reader.evdev) == Int32(description.id.version))
        #expect(libevdev_get_driver_version(reader.evdev) == EV_VERSION)
        #expect(libevdev_get_phys(reader.evdev) == nil, "no phys must read as ENOENT, not an empty string")
        #expect(libevdev_get_uniq(reader.evdev) == nil)
        for raw in 0...UInt16(INPUT_PROP_MAX) {
            let property = InputProperty(rawValue: raw)
            #expect((libevdev_has_property(reader.evdev, UInt32(raw)) == 1) == description.has(property), "\(property)")
        }
        for type in [EventType.key, .rel, .abs, .msc, .sw, .led, .snd, .ff] {
            #expect((libevdev_has_event_type(reader.evdev, UInt32(type.rawValue)) == 1) == description.has(type), "\(type)")
            guard let maxCode = type.maxCode else { continue }
            for raw in 0...maxCode {
                let has = libevdev_has_event_code(reader.evdev, UInt32(type.rawValue), UInt32(raw)) == 1
                #expect(has == description.has(type, EventCode(rawValue: raw)), "\(type) \(raw)")
            }
        }
        for (code, info) in description.absInfo {
            guard let got = libevdev_get_abs_info(reader.evdev, UInt32(code.rawValue))?.pointee else {
                Issue.record("no absinfo for \(code.rawValue)")
                continue
            }
            #expect(got.minimum == info.minimum && got.maximum == info.maximum, "\(code.rawValue)")
            #expect(got.fuzz == info.fuzz && got.flat == info.flat && got.resolution == info.resolution, "\(code.rawValue)")
        }
        #expect(Int(libevdev_get_num_slots(reader.evdev)) == description.slotCount)
    }

    @Test(.needs(.fuse)) func clickpadLooksLikeTheKernelDevice() throws {
        let device = try Fixtures.device(Fixtures.clickpad, test: "describe-clickpad")
        defer { device.stop() }
        let reader = try EvdevReader(path: device.path)
        expectMatches(reader, Fixtures.clickpad)
        #expect(libevdev_get_num_slots(reader.evdev) == 2)
        #expect(libevdev_get_abs_resolution(reader.evdev, UInt32(EventCode.absMTPositionX.rawValue)) == 12)
        #expect(libevdev_has_property(reader.evdev, UInt32(INPUT_PROP_BUTTONPAD)) == 1)
        // Slots start empty (tracking id -1), as input_mt_init_slots leaves them.
        #expect(libevdev_get_slot_value(reader.evdev, 0, UInt32(ABS_MT_TRACKING_ID)) == -1)
        #expect(libevdev_get_slot_value(reader.evdev, 1, UInt32(ABS_MT_TRACKING_ID)) == -1)
        #expect(device.openCount == 1)
    }

    @Test(.needs(.fuse)) func tenSlotTouchscreenLooksLikeTheKernelDevice() throws {
        let device = try Fixtures.device(Fixtures.touchscreen, test: "describe-touchscreen")
        defer { device.stop() }
        let reader = try EvdevReader(path: device.path)
        expectMatches(reader, Fixtures.touchscreen)
        #expect(libevdev_get_num_slots(reader.evdev) == 10)
        #expect(libevdev_has_property(reader.evdev, UInt32(INPUT_PROP_DIRECT)) == 1)
        #expect(libevdev_has_property(reader.evdev, UInt32(INPUT_PROP_POINTER)) == 0)
    }

    @Test(.needs(.fuse)) func physAndUniqComeFromTheOptions() throws {
        let options = VirtualEvdevOptions(physicalLocation: "isa0060/serio1/input0", uniqueIdentifier: "pinchlab-1")
        let device = try Fixtures.device(test: "describe-phys", options: options)
        defer { device.stop() }
        let reader = try EvdevReader(path: device.path)
        #expect(String(cString: libevdev_get_phys(reader.evdev)) == "isa0060/serio1/input0")
        #expect(String(cString: libevdev_get_uniq(reader.evdev)) == "pinchlab-1")
    }

    @Test func invalidDescriptionIsATypedError() {
        var bad = Fixtures.clickpad
        bad.codes[.key, default: []].insert(EventCode(rawValue: 0x7fff))
        #expect(throws: VirtualEvdevError.self) {
            _ = try VirtualEvdevDevice(description: bad, directory: Fixtures.directory("describe-invalid"), options: .inTests)
        }
    }
}
