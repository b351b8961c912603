import Foundation
import PinchlabTestSupport
import Testing
@testable import GestureCore
@testable import GestureKit

/// docs/recognizer-states.md is the specification: every transition the recognizer takes on the
/// corpus and on scripted gestures must be in its table, and every state must be reached.
@Suite struct RecognizerStateDiagramTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The `| from | to |` rows of the document.
    static func documentedTransitions() throws -> Set<String> {
        let text = try String(contentsOf: root.appendingPathComponent("docs/recognizer-states.md"), encoding: .utf8)
        var pairs = Set<String>()
        for line in text.split(separator: "\n") where line.hasPrefix("| ") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 2, RecognizerMode(rawValue: cells[0]) != nil, RecognizerMode(rawValue: cells[1]) != nil else { continue }
            pairs.insert("\(cells[0]) -> \(cells[1])")
        }
        return pairs
    }

    static func transitions(of frames: [TouchFrame], configuration: GestureRecognizerConfiguration,
                            into seen: inout Set<String>) {
        var r = TouchGestureRecognizer(configuration: configuration)
        func note() { for c in r.stateChanges { seen.insert("\(c.from.rawValue) -> \(c.to.rawValue)") } }
        for f in frames {
            _ = r.process(f)
            note()
        }
        if let last = frames.last {
            _ = r.finish(at: last.time.adding(milliseconds: 1))
            note()
        }
        #expect(r.bugCount == 0)
    }

    @Test func theCodeTakesOnlyTransitionsTheDiagramDraws() throws {
        let documented = try Self.documentedTransitions()
        #expect(documented.count >= 15, "the table was not found")
        var seen = Set<String>()
        // The corpus: real-shaped pinches, scrolls, swipes and pans on both device classes.
        let corpus = Self.root.appendingPathComponent("Fixtures/corpus")
        let walk = try #require(FileManager.default.enumerator(atPath: corpus.path))
        var files = 0
        for case let relative as String in walk where relative.hasSuffix(".evemu") {
            var source = try openRecording(path: corpus.appendingPathComponent(relative).path)
            var assembler = TouchFrameAssembler(device: source.device)
            var frames: [TouchFrame] = []
            while let event = try source.nextEvent() {
                if let frame = assembler.consume(event) { frames.append(frame) }
            }
            Self.transitions(of: frames, configuration: GestureRecognizerConfiguration(device: source.device), into: &seen)
            files += 1
        }
        #expect(files >= 47)
        // Scripted: a hold that a pinch takes over, a finger added mid-pinch for good and briefly,
        // a finger replaced mid-pan, a scroll corrected into a pinch.
        let pinch = [
            ScriptedFinger(id: 1, upMS: 700, path: linear(PointMM(x: 50, y: 20), PointMM(x: 0, y: -20), fromS: 0.1)),
            ScriptedFinger(id: 2, upMS: 700, path: linear(PointMM(x: 50, y: 40), PointMM(x: 0, y: 20), fromS: 0.1)),
        ]
        Self.transitions(of: makeFrames(pinch), configuration: .default, into: &seen)
        Self.transitions(of: makeFrames(pinch + [ScriptedFinger(id: 3, downMS: 300, upMS: 700, path: still(PointMM(x: 20, y: 30)))]),
                         configuration: .default, into: &seen)
        Self.transitions(of: makeFrames(pinch + [ScriptedFinger(id: 3, downMS: 300, upMS: 340, path: still(PointMM(x: 20, y: 30)))]),
                         configuration: .default, into: &seen)
        let still3 = (0..<3).map { i in ScriptedFinger(id: UInt64(i + 1), upMS: 400, path: still(PointMM(x: 20 + 12 * Double(i), y: 30))) }
        Self.transitions(of: makeFrames(still3), configuration: .default, into: &seen)
        // A clickpad pressed during a pinch, and under three fingers before they could hold.
        var clickpad = GestureRecognizerConfiguration.default
        clickpad.device = GestureDeviceTraits(deviceClass: .touchpad, heightMM: 60, isClickpad: true)
        func pressed(_ frames: [TouchFrame], fromMS: Double, toMS: Double) -> [TouchFrame] {
            frames.map { var f = $0; if milliseconds(f.time) >= fromMS && milliseconds(f.time) < toMS { f.buttons = .left }; return f }
        }
        Self.transitions(of: pressed(makeFrames(pinch), fromMS: 300, toMS: 500), configuration: clickpad, into: &seen)
        Self.transitions(of: pressed(makeFrames(still3), fromMS: 100, toMS: 200), configuration: clickpad, into: &seen)

        let undocumented = seen.subtracting(documented)
        #expect(undocumented.isEmpty, "transitions the diagram lacks: \(undocumented.sorted())")
        for mode in RecognizerMode.allCases {
            #expect(seen.contains { $0.hasSuffix("-> \(mode.rawValue)") }, "\(mode.rawValue) never reached")
        }
    }
}
