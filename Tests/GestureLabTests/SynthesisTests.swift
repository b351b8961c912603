import Testing
import GestureCore
@testable import GestureLab

@Suite struct SynthesisTests {
    func frames(_ entry: CorpusEntry) -> [TouchFrame] {
        let events = entry.recipe!.events(on: entry.device!.description, seed: entry.seed!)
        var assembler = TouchFrameAssembler(device: entry.device!.description)
        return events.compactMap { assembler.consume($0) }
    }

    @Test func theStandardCorpusHasAtLeastFortyFilesOnTwoDevices() {
        let entries = StandardCorpus.entries()
        #expect(entries.count >= 40)
        #expect(Set(entries.compactMap(\.device)).count == 2)
        #expect(Set(entries.map(\.file)).count == entries.count, "file names are unique")
        #expect(Set(entries.map(\.gesture)).count >= 8)
    }

    @Test func sameSeedSameEventsDifferentSeedDifferentEvents() {
        let entry = StandardCorpus.entries()[0]
        let a = entry.recipe!.events(on: entry.device!.description, seed: entry.seed!)
        let b = entry.recipe!.events(on: entry.device!.description, seed: entry.seed!)
        let c = entry.recipe!.events(on: entry.device!.description, seed: entry.seed! &+ 1)
        #expect(a == b)
        #expect(a != c)
    }

    @Test(arguments: StandardCorpus.entries())
    func framesComeAtScanIntervalsAndEveryTouchEnds(entry: CorpusEntry) throws {
        let f = frames(entry)
        try #require(f.count > 3)
        // A frame in which nothing changed is not sent (the kernel drops empty frames), so a still
        // finger leaves longer gaps; most gaps are one scan interval.
        let gapsUS = zip(f, f.dropFirst()).map { $1.time.totalMicroseconds - $0.time.totalMicroseconds }
        #expect(gapsUS.allSatisfy { $0 >= 7_000 })
        let oneScan = gapsUS.filter { $0 <= 14_000 }.count
        #expect(Double(oneScan) >= 0.7 * Double(gapsUS.count), "\(oneScan) of \(gapsUS.count) gaps are one scan")
        #expect(f.last!.activeTouchCount == 0)
        #expect(f.map(\.activeTouchCount).max() == entry.recipe!.fingerCount)
    }

    @Test func aSlowPinchInClosesTheFingersToTheRecipesScale() throws {
        let entry = try #require(StandardCorpus.entries().first { $0.file == "touchpad/pinch-in-slow-finish-01.evemu" })
        guard case .pinch(let motion) = entry.recipe!.motion else { Issue.record("not a pinch"); return }
        let twoFinger = frames(entry).filter { $0.activeTouchCount == 2 }
        let first = try #require(twoFinger.first), last = try #require(twoFinger.last)
        func spread(_ f: TouchFrame) -> Double { f.touches[0].position.distance(to: f.touches[1].position) }
        // Within 0.5 mm: sensor noise (0.05 mm sd) plus one device unit (1/12 mm) of rounding.
        #expect(abs(spread(first) - motion.startSeparationMM) < 0.5)
        let endScale = motion.scale.keyframes.last!.value
        #expect(abs(spread(last) - motion.startSeparationMM * endScale) < 0.5)
    }

    @Test func minimumJerkStartsAndEndsAtRestAndIsSymmetric() {
        #expect(MinimumJerk.position(0) == 0)
        #expect(MinimumJerk.position(1) == 1)
        #expect(abs(MinimumJerk.position(0.5) - 0.5) < 1e-12)
        let h = 1e-6
        #expect(abs((MinimumJerk.position(h) - MinimumJerk.position(0)) / h) < 1e-6)
        #expect(abs(MinimumJerk.position(0.3) + MinimumJerk.position(0.7) - 1) < 1e-12)
    }
}
