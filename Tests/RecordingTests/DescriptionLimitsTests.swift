import Testing
@testable import GestureCore
@testable import GestureKit

/// The limits a description is held to, and the arithmetic on a description's numbers that must
/// never trap, whatever the numbers (they come from files anyone can edit).
@Suite struct DescriptionLimitsTests {
    @Test func theSlotLimitIsTheKernels() {
        #expect(DescriptionLimits.problem(axis: .absMTSlot, AbsInfo(minimum: 0, maximum: 1023)) == nil)
        #expect(DescriptionLimits.problem(axis: .absMTSlot, AbsInfo(minimum: 0, maximum: 1024)) == .tooManySlots(1025))
        #expect(DescriptionLimits.problem(axis: .absMTSlot, AbsInfo(minimum: .min, maximum: .max)) == .tooManySlots(1 << 31), "counted from 0, as libevdev does")
        #expect(DescriptionLimits.problem(axis: .absMTSlot, AbsInfo(minimum: 3, maximum: 2))?.isFatal == true)
    }

    /// A description built in code (not read) past the limit still gets a bounded slot buffer.
    @Test func theSlotCountNeverPassesTheLimit() {
        var device = DeviceDescription.presetTouchpad
        device.absInfo[.absMTSlot] = AbsInfo(minimum: 0, maximum: .max)
        #expect(device.slotCount == DescriptionLimits.slotCountMax)
        let assembler = TouchFrameAssembler(device: device)
        #expect(assembler.slots.count == DescriptionLimits.slotCountMax)
    }

    @Test func extremeRangesGiveFiniteSizesWithoutTrapping() throws {
        var device = DeviceDescription.presetTouchpad
        for code in [EventCode.absX, .absMTPositionX] {
            device.absInfo[code] = AbsInfo(minimum: .min, maximum: .max, resolution: 1)
        }
        for code in [EventCode.absY, .absMTPositionY] {
            device.absInfo[code] = AbsInfo(minimum: 100, maximum: 0, resolution: 0)
        }
        let geometry = try #require(device.geometry)
        #expect(geometry.widthMM == AxisScale.fallbackWidthMM, "2147 km at 1 unit/mm is not believed")
        #expect(geometry.x.isEstimated)
        #expect(geometry.heightMM == 0, "an inverted range is no negative height")
        #expect(geometry.x.raw(.infinity) == .max)
        #expect(geometry.x.raw(-1e300) == .min)
        #expect(geometry.x.raw(.nan) == 0)
        #expect(device.sizeInWholeMillimetres != nil)
        var minusOne = device
        minusOne.absInfo[.absX] = AbsInfo(minimum: 0, maximum: .min, resolution: -1)
        #expect(minusOne.sizeInWholeMillimetres?.width == .min, "INT_MIN / -1 wraps as C's int would, no trap")
    }

    @Test func plausibleSurfacesKeepTheirResolution() throws {
        let geometry = try #require(DeviceDescription.presetTouchpad.geometry)
        #expect(!geometry.isEstimated)
        #expect(DescriptionLimits.problem(axis: .absMTPositionX, AbsInfo(minimum: 0, maximum: 100_000, resolution: 10)) == nil,
                "a 10 m wall is the widest surface believed")
        #expect(DescriptionLimits.problem(axis: .absMTPositionX, AbsInfo(minimum: 0, maximum: 100_001, resolution: 10))?.isFatal == false)
        #expect(DescriptionLimits.problem(axis: .absPressure, AbsInfo(minimum: 5, maximum: 0)) == .rangeInverted(minimum: 5, maximum: 0))
    }
}
