import GestureCore
@testable import GestureKit
import GestureLab
import Testing

/// `ReplayRun.run` takes its source's events a batch at a time (`nextEvents`), and still asks
/// `shouldStop` before every event: a stop part-way through a batch consumes nothing after it.
@Suite struct ReplayRunBatchTests {
    /// Hands its events over in batches of `size`, as a reader on another thread does.
    struct Batches: InputEventSource {
        let device: DeviceDescription
        let events: [InputEvent]
        let size: Int
        var next = 0
        var calls = 0

        mutating func nextEvent() -> InputEvent? {
            guard next < events.count else { return nil }
            defer { next += 1 }
            return events[next]
        }

        mutating func nextEvents(_ body: (Span<InputEvent>) -> Bool) -> Bool? {
            guard next < events.count else { return nil }
            calls += 1
            let end = min(next + size, events.count)
            let batch = Array(events[next..<end])
            next = end
            return body(batch.span)
        }
    }

    static let path = CorpusFixtureTests.corpusDirectory + "/touchpad/pinch-in-slow-finish-01.evemu"

    @Test(arguments: [1, 7, 1_000_000]) func batchesReplayAsSingleEventsDo(size: Int) throws {
        let (device, events) = try ReleaseMarginExactnessTests.events(Self.path)
        var single = EventList(device: device, events: events)
        var one = try ReplayRun(device: device)
        var singleRecords: [String] = []
        let expected = one.run(&single, name: "pinch") { singleRecords.append("\($0)") }.summary

        var batches = Batches(device: device, events: events, size: size)
        var run = try ReplayRun(device: device)
        var records: [String] = []
        let summary = run.run(&batches, name: "pinch") { records.append("\($0)") }.summary
        #expect(records == singleRecords)
        #expect(summary.events == events.count && expected.events == events.count)
        #expect(summary.outcome == expected.outcome && summary.gestures.count == expected.gestures.count)
        #expect(batches.calls == (events.count + size - 1) / size, "one call per batch")
    }

    @Test(arguments: [0, 1, 6, 7, 8, 100]) func aStopPartWayConsumesNothingAfterIt(after stopAt: Int) throws {
        let (device, events) = try ReleaseMarginExactnessTests.events(Self.path)
        var batches = Batches(device: device, events: events, size: 7)
        var run = try ReplayRun(device: device)
        var consumed = 0
        let result = run.run(&batches, name: "pinch", shouldStop: { consumed >= stopAt },
                             afterEvent: { _ in consumed += 1 }, emit: { _ in })
        #expect(result.wasInterrupted)
        #expect(consumed == stopAt)
        #expect(result.summary.events == stopAt)
    }

    /// The same through the reader on another thread, as replay reads a large file: stopped at the
    /// tenth event, inside its second batch of 7.
    @Test func aStopPartWayThroughAReadAheadBatch() throws {
        let reader = try EvemuReader(path: Self.path, readsLinesInOneScan: true, bufferBytes: 4_096,
                                     readAheadMinimumFileBytes: 0)
        let ahead = try #require(EventReadAhead.reading(reader, batchEvents: 7))
        defer { ahead.stop() }
        var source: any InputEventSource = ahead
        var run = try ReplayRun(device: ahead.device)
        var consumed = 0
        let result = run.run(&source, name: "pinch", shouldStop: { consumed >= 10 },
                             afterEvent: { _ in consumed += 1 }, emit: { _ in })
        #expect(result.wasInterrupted)
        #expect(consumed == 10)
        #expect(result.summary.events == 10)
    }
}
