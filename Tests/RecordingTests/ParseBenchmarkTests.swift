import Glibc
import Testing
import GestureKit

/// The parse benchmark: pinchlab's evemu reader against libevemu on a 1,000,000-event file.
/// Slow (it writes a ~50 MB file), so it runs only with `PINCHLAB_BENCHMARK=1`, and its 5x
/// requirement only means something in a release build (`swift test -c release`). That the
/// readers stream, in bounded memory, is `StreamingReadTests`' job (always run): the peak RSS of
/// a test process running suites in parallel says nothing about one reader.
@Suite struct ParseBenchmarkTests {
    static let eventCount = 1_000_000
    static let requiredSpeedup = 5.0

    static var isEnabled: Bool { getenv("PINCHLAB_BENCHMARK") != nil }

    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        var start = timespec()
        var end = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        try body()
        clock_gettime(CLOCK_MONOTONIC, &end)
        return Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9
    }

    @Test(.enabled(if: isEnabled, "a benchmark: runs with PINCHLAB_BENCHMARK=1 only"))
    func readsFiveTimesFasterThanLibevemu() throws {
        let path = makeTemporaryDirectory() + "/million.evemu"
        let writer = try EvemuWriter(path: path, device: Fixtures.touchpad)
        for event in Fixtures.events(count: Self.eventCount, startSeconds: 0) { try writer.write(event) }
        try writer.close()

        var libevemuCount = 0
        let libevemuSeconds = Self.seconds { libevemuCount = Libevemu.countEvents(path) }
        #expect(libevemuCount == Self.eventCount)

        var pinchlabCount = 0
        let pinchlabSeconds = try Self.seconds {
            let reader = try EvemuReader(path: path)
            while try reader.nextEvent() != nil { pinchlabCount += 1 }
        }
        #expect(pinchlabCount == Self.eventCount)
        let speedup = libevemuSeconds / pinchlabSeconds
        #if !DEBUG // an unoptimised build says nothing about the parser's speed
        #expect(speedup >= Self.requiredSpeedup,
                "pinchlab \(Int(Double(pinchlabCount) / pinchlabSeconds)) events/s, libevemu \(Int(Double(libevemuCount) / libevemuSeconds)) events/s")
        #endif
        _ = speedup
    }
}
