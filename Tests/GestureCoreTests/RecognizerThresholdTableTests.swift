import Foundation
import PinchlabTestSupport
import SettingsTable
import Testing
@testable import GestureCore

/// The settings table is the one list of the recognizer's settings: decoding, range checks,
/// `sanitized`, encoding and the tuner are made from it.
@Suite struct RecognizerThresholdTableTests {
    static let table = GestureRecognizerConfiguration.settings.settings

    /// Read from the device the recognizer runs on, never from a settings file.
    static let deviceOnly = ["fingerPositionsTracked": "a semi-MT touchpad says so itself (INPUT_PROP_SEMI_MT)",
                             "isClickpad": "a clickpad says so itself (INPUT_PROP_BUTTONPAD)"]

    /// The table is the only declaration of each setting besides its stored property: every row
    /// sets the property its key names, and every stored property has a row.
    @Test func everyRowIsAStoredSettingAndEveryStoredSettingHasARow() {
        let recognizer = SettingsCoverage.mismatches(GestureRecognizerConfiguration.settings, in: .default,
                                                     notSettings: Dictionary(uniqueKeysWithValues: Self.deviceOnly.map { ("device." + $0, $1) }))
        #expect(recognizer.isEmpty, "\(recognizer)")
        let touchscreen = SettingsCoverage.mismatches(GestureRecognizerConfiguration.settings, in: .touchscreen,
                                                      notSettings: Dictionary(uniqueKeysWithValues: Self.deviceOnly.map { ("device." + $0, $1) }))
        #expect(touchscreen.isEmpty, "\(touchscreen)")
        let velocity = SettingsCoverage.mismatches(VelocityTrackerConfiguration.settings, in: .default)
        #expect(velocity.isEmpty, "\(velocity)")
        let traits = SettingsCoverage.mismatches(GestureDeviceTraits.settings, in: GestureDeviceTraits(), notSettings: Self.deviceOnly)
        #expect(traits.isEmpty, "\(traits)")
    }

    /// The check itself finds a key that is not the property its key path sets, a property
    /// without a row, and a key with two rows.
    @Test func theCoverageCheckFindsEachKindOfMismatch() {
        typealias C = VelocityTrackerConfiguration
        let misnamed = SettingsTable<C>([.number("horizonMS", \.stopGapMS, "ms", SettingRange(0...10_000), source: "")]
                                        + C.settings.settings.filter { $0.key == "polynomialDegree" })
        #expect(SettingsCoverage.mismatches(misnamed, in: .default) == [
            .rowSetsOtherProperties(key: "horizonMS", changed: ["stopGapMS"]), .propertyWithoutRow("horizonMS"),
        ])
        let twice = SettingsTable<C>(C.settings.settings + C.settings.settings.prefix(1))
        #expect(SettingsCoverage.mismatches(twice, in: .default) == [.keyTwice("horizonMS")])
        #expect(SettingsCoverage.mismatches(C.settings, in: .default, notSettings: ["horizon": "stale"]) == [.unknownException("horizon")])
    }

    /// Every field set to a value that is not its default survives encoding and decoding: a key the
    /// decoder forgot would come back as its default.
    @Test func everyFieldRoundTripsAtANonDefaultValue() throws {
        var c = GestureRecognizerConfiguration.default
        for t in Self.table {
            let before = t.value(in: c)
            t.set(SettingsCoverage.otherValue(of: t, in: c), in: &c)
            #expect(t.value(in: c) != before, "\(t.key) kept its default")
            #expect(t.rangeProblem(in: c) == nil, "\(t.key): \(t.rangeProblem(in: c)?.text ?? "")")
        }
        #expect(c != .default)
        let back = try JSONDecoder().decode(GestureRecognizerConfiguration.self, from: JSONEncoder().encode(c))
        for t in Self.table {
            #expect(t.value(in: back) == t.value(in: c), "\(t.key) did not round-trip")
        }
        #expect(back == c)
        #expect(c.sanitized == c, "in-range values are left alone")
    }

    @Test func aValueOutsideItsRangeIsRefusedNamingKeyValueAndRange() {
        #expect {
            _ = try JSONDecoder().decode(GestureRecognizerConfiguration.self, from: Data(#"{"minMoveMM": -3}"#.utf8))
        } throws: { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return false }
            return context.debugDescription == "minMoveMM: -3 mm is outside 0...50 mm"
        }
        #expect(throws: DecodingError.self) {
            _ = try JSONDecoder().decode(GestureRecognizerConfiguration.self, from: Data(#"{"velocity": {"polynomialDegree": 5}}"#.utf8))
        }
        #expect(throws: DecodingError.self) {
            _ = try JSONDecoder().decode(GestureRecognizerConfiguration.self, from: Data(#"{"oneSidedPinchMaximumAngleDegrees": 120}"#.utf8))
        }
    }

    @Test func sanitizedRepairsFromTheTable() {
        var bad = GestureRecognizerConfiguration.default
        bad.pinchSpanSlopMM = -1          // below: the default
        bad.directionSnapEighths = 3      // above: the upper bound
        bad.pinchMinimumFingerCount = 0   // a count: clamped
        bad.holdTimeoutMS = .infinity     // not finite: the default
        let fixed = bad.sanitized
        #expect(fixed.pinchSpanSlopMM == 1)
        #expect(fixed.directionSnapEighths == 0.5)
        #expect(fixed.pinchMinimumFingerCount == 2)
        #expect(fixed.holdTimeoutMS == 180)
    }
}
