import Foundation
import PinchlabTestSupport
import Testing
@testable import GestureCore

@Suite struct RecognizerLifecycleTests {
    @Test func legalPath() {
        var l = GestureLifecycle()
        #expect(l.state == .possible)
        #expect(l.begin() == .began)
        #expect(l.change() == .changed)
        #expect(l.change() == .changed)
        #expect(l.end() == .ended)
        #expect(l.reset() == true)
        #expect(l.begin() == .began)
        #expect(l.cancel() == .cancelled)
        #expect(l.reset() == true)
        #expect(l.fail() == true)
        #expect(l.state == .failed)
    }

    @Test func illegalStepsAreRefusedAndChangeNothing() {
        var l = GestureLifecycle()
        #expect(l.change() == nil)
        #expect(l.end() == nil)
        #expect(l.cancel() == nil)
        #expect(l.state == .possible)
        _ = l.begin()
        #expect(l.begin() == nil, "no second began")
        #expect(l.fail() == false, "a began gesture cannot fail")
        #expect(l.reset() == false, "a began gesture cannot be dropped without its end")
        #expect(l.state == .began)
        _ = l.end()
        #expect(l.end() == nil, "exactly one end")
        #expect(l.cancel() == nil)
        #expect(l.change() == nil)
        #expect(l.state == .ended)
        var failed = GestureLifecycle()
        _ = failed.fail()
        #expect(failed.begin() == nil)
        #expect(failed.state == .failed)
    }

    @Test func eventsEncodeWithStableLowercaseNames() throws {
        let e = GestureEvent(kind: .pinch, state: .changed, time: EventTime(seconds: 1_700_000_000, microseconds: 123_456),
                             fingerCount: 2, scale: 1.5, rotationDegrees: -12, centerMM: PointMM(x: 3, y: 4),
                             scaleVelocity: 0.25, translationMM: PointMM(x: 1, y: -1), velocityMMPerSecond: PointMM(x: 10, y: 0))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(e), as: UTF8.self)
        #expect(json.contains(#""kind":"pinch""#))
        #expect(json.contains(#""state":"changed""#))
        #expect(json.contains(#""centerMM":{"x":3,"y":4}"#))
        #expect(json.contains(#""fingerCount":2"#))
        let back = try JSONDecoder().decode(GestureEvent.self, from: Data(json.utf8))
        #expect(back == e, "time round-trips to the microsecond")
        #expect(GestureKind.allCases.map(\.rawValue) == ["pinch", "pan", "hold"])
        #expect(GestureState.allCases.map(\.rawValue) == ["began", "changed", "ended", "cancelled"])
        #expect(RecognizerState.allCases.map(\.rawValue) == ["possible", "began", "changed", "ended", "cancelled", "failed"])
    }

    @Test func nonFiniteValuesNeverReachAnEvent() {
        let e = GestureEvent(kind: .pan, state: .changed, time: .zero, fingerCount: 1, scale: .nan,
                             rotationDegrees: .infinity, centerMM: PointMM(x: .nan, y: 0), scaleVelocity: -.infinity)
        #expect(e.scale == 1 && e.rotationDegrees == 0 && e.centerMM == .zero && e.scaleVelocity == 0)
    }

    @Test func configurationRoundTripsAndSanitizes() throws {
        let data = try JSONEncoder().encode(GestureRecognizerConfiguration.default)
        let back = try JSONDecoder().decode(GestureRecognizerConfiguration.self, from: data)
        #expect(back == .default)
        var bad = GestureRecognizerConfiguration.default
        bad.minMoveMM = .nan
        bad.pinchMinimumSpanMM = 0
        bad.jumpDistanceMM = -3
        bad.velocity.polynomialDegree = 7
        let fixed = bad.sanitized
        #expect(fixed.minMoveMM == 1.5)
        #expect(fixed.pinchMinimumSpanMM > 0)
        #expect(fixed.jumpDistanceMM == 20)
        #expect(fixed.velocity.polynomialDegree == 2)
        #expect(GestureRecognizerConfiguration.default.sanitized == .default)
    }

    /// A settings file may name only what it changes; what it leaves out comes from the defaults
    /// of the class it names (so older files, written before a threshold existed, keep loading).
    @Test func partialConfigurationDecodesOverTheDefaults() throws {
        let pad = try JSONDecoder().decode(GestureRecognizerConfiguration.self, from: Data(#"{"minMoveMM": 2.5}"#.utf8))
        var expected = GestureRecognizerConfiguration.default
        expected.minMoveMM = 2.5
        #expect(pad == expected)
        let screen = try JSONDecoder().decode(GestureRecognizerConfiguration.self,
                                              from: Data(#"{"device": {"deviceClass": "touchscreen", "fuzzMM": 0}, "velocity": {"horizonMS": 80}}"#.utf8))
        #expect(screen.panMinimumFingerCount == 1 && !screen.suppressRestingThumb, "touchscreen defaults")
        #expect(screen.velocity.horizonMS == 80 && screen.velocity.stopGapMS == 40 && screen.velocity.polynomialDegree == 1)
        #expect(throws: DecodingError.self) {
            _ = try JSONDecoder().decode(GestureRecognizerConfiguration.self, from: Data(#"{"minMoveMM": "far"}"#.utf8))
        }
    }

    @Test func configurationFromDevice() {
        let pad = DeviceDescription(
            name: "pad", id: InputID(bustype: 0x18, vendor: 1, product: 2, version: 0),
            codes: [.key: [.btnToolFinger, .btnTouch]],
            absInfo: [.absMTSlot: AbsInfo(minimum: 0, maximum: 4),
                      .absMTPositionX: AbsInfo(minimum: 0, maximum: 4000, fuzz: 8, resolution: 40),
                      .absMTPositionY: AbsInfo(minimum: 0, maximum: 3000, fuzz: 4, resolution: 40)])
        let c = GestureRecognizerConfiguration(device: pad)
        #expect(c.device.deviceClass == .touchpad)
        #expect(abs(c.device.fuzzMM - 0.2) < 1e-12)
        #expect(c.panMinimumFingerCount == 2)
    }
}
