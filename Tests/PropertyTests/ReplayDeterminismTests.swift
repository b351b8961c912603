import Foundation
import Testing
import PropertyBased
import GestureCore
import GestureLab
import LabReports
import InteractiveTransition

/// The same events through two pipelines give the same records and summary, byte for byte.
@Suite struct ReplayDeterminismTests {
    static let streamCount = 120

    /// Every gesture and transition record as its JSON line (`replay --json`'s), then the summary.
    static func replay(_ events: [InputEvent], on device: DeviceDescription, transition: TransitionName) throws -> (records: [String], summary: String, frames: Int) {
        var pipeline = try ReplayPipeline(device: device, transition: transition)
        // The summary's trials carry each release's margins: random streams reach them too.
        pipeline.measuresMargins = true
        var lines: [String] = []
        var frames = 0
        let emit: (LabRecord) -> Void = { record in
            switch record {
            case .frame: frames += 1
            case .gesture, .transition, .button: if let line = record.jsonLine(margins: nil) { lines.append(line) }
            case .stateChange: break
            case .releaseMargins(let m):
                // Every flip a finite number: JSON and the sentences print them.
                for margin in [m.margins.flip] + m.margins.presets.entries.map(\.margin) {
                    for point in [margin.flip.threshold, margin.flip.velocity, margin.flip.progress, margin.gesture?.point] {
                        #expect(point.map { $0.value.isFinite } ?? true, "\(margin)")
                    }
                }
                lines.append(m.margins.sentence)
            }
        }
        for event in events { pipeline.consume(event, emit: emit) }
        let summary = pipeline.finish(source: "property", emit: emit)
        var summaryLine = JSONLineBytes()
        try summary.appendJSON(to: &summaryLine)
        return (lines, String(decoding: summaryLine.bytes, as: UTF8.self), frames)
    }

    @Test func sameStreamSameRecords() async throws {
        var sawTransitionRecords = false
        await propertyCheck(count: Self.streamCount, input: Gen.uint64(), Gen.uint32().array(of: 0...120),
                            Gen.int(in: 0...1), Gen.int(in: 0...(TransitionName.allCases.count - 1))) { seed, words, index, nameIndex in
            let name = TransitionName.allCases[nameIndex]
            let device = EventStreams.devices[index]
            // Realistic gestures followed by random touches, so both paths are covered.
            var events = EventStreams.synthesized(seed: seed, on: device)
            let tail = EventStreams.protocolB(words, on: device)
            let shift = (events.last?.time.totalMicroseconds ?? 0) + 100_000
            events += tail.map { var e = $0; e.time = EventTime(totalMicroseconds: e.time.totalMicroseconds + shift); return e }

            let first = try Self.replay(events, on: device, transition: name)
            let second = try Self.replay(events, on: device, transition: name)
            #expect(first.records == second.records)
            #expect(first.summary == second.summary)
            #expect(first.frames == second.frames)
            #expect(first.summary.contains("\"events\":\(events.count)"))
            if first.records.contains(where: { $0.contains("\"type\":\"transition\"") }) { sawTransitionRecords = true }
        }
        #expect(sawTransitionRecords)
    }
}
