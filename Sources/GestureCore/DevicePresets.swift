/// Device descriptions modelled on real hardware, for generated recordings, tests and demos.
extension DeviceDescription {
    /// A clickpad like a Synaptics/ELAN laptop touchpad: 100 x 60 mm, 4 slots, 12 units/mm
    /// (values within the ranges libinput sees on real laptops), fuzz 0 as most MT touchpads report.
    public static let presetTouchpad: DeviceDescription = {
        let keys: Set<EventCode> = [.btnLeft, .btnToolFinger, .btnToolDoubleTap, .btnToolTripleTap,
                                    .btnToolQuadTap, .btnToolQuintTap, .btnTouch]
        let xMax: Int32 = 1200, yMax: Int32 = 720, resolution: Int32 = 12
        return DeviceDescription(
            name: "pinchlab virtual touchpad",
            id: InputID(bustype: BusType.i8042, vendor: 0x0002, product: 0x0007, version: 0x01b1),
            properties: [.pointer, .buttonpad],
            codes: [.key: keys],
            absInfo: [
                .absX: AbsInfo(minimum: 0, maximum: xMax, resolution: resolution),
                .absY: AbsInfo(minimum: 0, maximum: yMax, resolution: resolution),
                .absPressure: AbsInfo(minimum: 0, maximum: 255),
                .absMTSlot: AbsInfo(minimum: 0, maximum: 3),
                .absMTPositionX: AbsInfo(minimum: 0, maximum: xMax, resolution: resolution),
                .absMTPositionY: AbsInfo(minimum: 0, maximum: yMax, resolution: resolution),
                .absMTTrackingID: AbsInfo(minimum: 0, maximum: 65535),
                .absMTPressure: AbsInfo(minimum: 0, maximum: 255),
            ])
    }()

    /// A 10-finger touchscreen like an I2C HID panel: 290 x 170 mm at 10 units/mm, direct input.
    public static let presetTouchscreen: DeviceDescription = {
        let xMax: Int32 = 2900, yMax: Int32 = 1700, resolution: Int32 = 10
        return DeviceDescription(
            name: "pinchlab virtual touchscreen",
            id: InputID(bustype: BusType.i2c, vendor: 0x04f3, product: 0x2a1c, version: 0x0100),
            properties: [.direct],
            codes: [.key: [.btnTouch]],
            absInfo: [
                .absX: AbsInfo(minimum: 0, maximum: xMax, resolution: resolution),
                .absY: AbsInfo(minimum: 0, maximum: yMax, resolution: resolution),
                .absMTSlot: AbsInfo(minimum: 0, maximum: 9),
                .absMTPositionX: AbsInfo(minimum: 0, maximum: xMax, resolution: resolution),
                .absMTPositionY: AbsInfo(minimum: 0, maximum: yMax, resolution: resolution),
                .absMTTrackingID: AbsInfo(minimum: 0, maximum: 65535),
            ])
    }()
}
