import Testing
@testable import GestureCore

/// Evidence compares and hashes by every value set: two that differ only in the last slot
/// (`previousStepMM`) differ, and the JSON form lists it.
@Suite struct GestureEvidenceTests {
    @Test func everySlotCountsInEqualityHashAndEntries() {
        var a = GestureEvidence(), b = GestureEvidence()
        a.jumpMM = 30
        b.jumpMM = 30
        #expect(a == b && a.hashValue == b.hashValue)
        b.previousStepMM = 1.5
        #expect(a != b)
        a.previousStepMM = 1.5
        #expect(a == b && a.hashValue == b.hashValue)
        #expect(a.entries.map(\.key) == ["jumpMM", "previousStepMM"])
    }
}
