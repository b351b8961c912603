import Foundation
import PinchlabTestSupport
import SettingsTable
import Testing
@testable import GestureCore

/// The settings table is the one list of the recognizer's settings: decoding, range checks,
/// `sanitized`, encoding and the tuner are made from it.
@Suite struct RecognizerThresholdTableTests {
    static let table = GestureRecognizerConfiguration.settings.settings

    /// A value of `t` inside its range that is not its default.
    static func otherValue(_ t: Setting<GestureRecognizerConfiguration>, from c: GestureRecognizerConfiguration) -> SettingValue {
        let v = t.number(in: c)
        let upper = t.range?.upper ?? 1
        switch t.kind {
        case .flag: return .flag(v == 0)
        case .count: return .number(v + 1 <= upper ? v + 1 : v - 1)
        // Halfway to the next whole unit (or to the upper bound), else halfway down.
        case .number: return .number(v < upper ? v + (min(upper, v + 1) - v) / 2 : v / 2)
        case .optionalNumber: return .number(v.isNaN ? 60 : v / 2)
        case .optionalCount: return .number(v.isNaN ? 2 : (v + 1 <= upper ? v + 1 : v - 1))
        case .choice(let names): return .name(names.first { $0 != t.text(in: c) } ?? names[0])
        }
    }

    @Test func everyFieldIsInTheTable() {
        let table = Set(Self.table.map(\.key))
        let fields = Mirror(reflecting: GestureRecognizerConfiguration.default).children.compactMap(\.label)
        for field in fields where field != "device" && field != "velocity" {
            #expect(table.contains(field), "\(field) is not in GestureRecognizerConfiguration.settings")
        }
        for field in Mirror(reflecting: VelocityTrackerConfiguration.default).children.compactMap(\.label) {
            #expect(table.contains("velocity." + field), "velocity.\(field) is not in the table")
        }
        #expect(table.contains("device.fuzzMM"))
        #expect(table.count == Self.table.count, "a key twice")
    }

    /// Every field set to a value that is not its default survives encoding and decoding: a key the
    /// decoder forgot would come back as its default.
    @Test func everyFieldRoundTripsAtANonDefaultValue() throws {
        var c = GestureRecognizerConfiguration.default
        for t in Self.table {
            let before = t.value(in: c)
            t.set(Self.otherValue(t, from: c), in: &c)
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
