import Foundation
import Testing
import GestureKit
@testable import GestureLab

@Test func probeCorpusScores() throws {
    var correct = 0
    for entry in StandardCorpus.entries() {
        let device = entry.device.description
        let events = entry.recipe!.events(on: device, seed: entry.seed!)
        let (score, summary) = try CorpusRunner.score(file: entry.file, device: device, events: events, label: entry.label, settings: .default)
        if score.correct { correct += 1 }
        print("PROBE \(score.correct ? "ok " : "BAD") \(entry.file) expect \(score.expectedKind.rawValue)\(score.expectedFingers ?? 0)/\(score.expectedOutcome.rawValue) got \(score.recognizedKind.rawValue)\(score.recognizedFingers ?? 0)/\(score.outcome.rawValue) lat=\(score.beginLatencyMS.map { String(format: "%.0f", $0) } ?? "-") \(summary.reason ?? "")")
    }
    print("PROBE correct \(correct)")
}
