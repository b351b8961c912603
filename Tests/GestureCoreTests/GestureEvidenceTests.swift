import Testing
@testable import GestureCore

/// Evidence compares and hashes by every value set: two that differ only in one slot
/// (`previousStepMM`, or a heading kept for the margin) differ, and the JSON form lists the printed ones.
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
        // What is kept for the margin only counts too, and is not printed.
        b.otherHeadingEighths = 2.5
        #expect(a != b)
        a.otherHeadingEighths = 2.5
        #expect(a == b && a.hashValue == b.hashValue)
        #expect(a.entries.map(\.key) == ["jumpMM", "previousStepMM"])
        // The headings live in what was padding: evidence, and every gesture event carrying it,
        // is no bigger to copy for them.
        #expect(MemoryLayout<GestureEvidence>.size == 16 * MemoryLayout<Double>.size + 16)
    }

    /// The touch id in the JSON and trace form is the id `--explain` names (it once went through
    /// `Double(bitPattern:)`, and every touch read 0).
    @Test func theTouchIdIsTheSameNumberInEveryForm() {
        for id: UInt64 in [1, 2, 279, 1 << 40] {
            var e = GestureEvidence()
            e.touch = id
            #expect(e.entries.first { $0.key == "touch" }?.value == Double(id))
            // Beside the other slots (the headings live in what was padding), the id stays whole,
            // and unset it is gone from every form.
            var kept = GestureDecision(.touchJump, e).evidence
            kept.jumpMM = 30
            kept.headingEighths = 1.25
            kept.otherHeadingEighths = 6.75
            #expect(kept.touch == id && kept.entries.first { $0.key == "touch" }?.value == Double(id))
            kept.touch = nil
            #expect(kept.touch == nil && !kept.entries.contains { $0.key == "touch" } && abs((kept.headingEighths ?? 0) - 1.25) < 1e-3)
        }
    }
}
