import Foundation
import GestureCore
@testable import GestureLab
import InteractiveTransition
import SettingsTable
import Testing

/// `LabRecord.appendJSONLine` writes, by hand, what `JSONEncoder` (`.sortedKeys`,
/// `.withoutEscapingSlashes`) writes for each record's fields as docs/reference/json-lines.md lists
/// them: the records have no `Encodable` form of their own (the writer is their one field list),
/// so the fields are listed again here, on the test's side (`ExpectedGestureLine`...). Every record
/// of every corpus file under every transition is compared byte for byte, and the string and number
/// writers on their edge cases.
@Suite struct JSONLineBytesTests {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    static func encoded(_ record: LabRecord, margins: GestureRecognizerConfiguration? = nil) throws -> String? {
        let data: Data
        switch record {
        case .frame, .stateChange, .releaseMargins: return nil
        case .gesture(let gesture):
            let margin = margins.flatMap { gesture.event.state == .changed ? nil : gesture.event.decision?.margin(in: $0) }
            data = try encoder.encode(ExpectedGestureLine(gesture, margin: margin))
        case .transition(let step): data = try encoder.encode(ExpectedTransitionLine(step))
        case .button(let button): data = try encoder.encode(ExpectedButtonLine(button))
        }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    static func handWritten(_ record: LabRecord, margins: GestureRecognizerConfiguration? = nil) -> String? {
        var line = JSONLineBytes()
        return record.appendJSONLine(to: &line, margins: margins) ? String(decoding: line.bytes, as: UTF8.self) : nil
    }

    @Test func everyCorpusRecordMatchesTheEncoder() throws {
        let files = try LoadedRecording.loadCorpus(directory: CorpusFixtureTests.corpusDirectory)
        var compared = 0, kinds = Set<String>()
        for file in files {
            for transition in TransitionName.allCases {
                var pipeline = try ReplayPipeline(device: file.device, transition: transition, settings: .default,
                                                  recordsFrames: true)
                var records: [LabRecord] = []
                for event in file.events { pipeline.consume(event) { records.append($0) } }
                _ = pipeline.finish(source: file.entry.file) { records.append($0) }
                let margins = pipeline.recognizerConfiguration
                for record in records {
                    let expected = try Self.encoded(record, margins: margins)
                    #expect(Self.handWritten(record, margins: margins) == expected, "\(file.entry.file) \(transition)")
                    if let expected {
                        compared += 1
                        kinds.insert(String(expected.prefix(while: { $0 != "," })))
                    }
                }
            }
        }
        #expect(compared > 1000)
        #expect(kinds.count >= 3, "\(kinds)")
    }

    @Test(arguments: [
        GestureKind.pinch, .pan, .hold,
    ]) func everyGestureShapeWithEveryEvidenceKeyMatches(kind: GestureKind) throws {
        var evidence = GestureEvidence()
        evidence.angleDegrees = 171.123456789
        evidence.angleLimitDegrees = 135
        evidence.movedMM = 0.0000004
        evidence.otherMovedMM = -2.5e-7
        evidence.moveLimitMM = 1e16
        evidence.waitedMS = 300
        evidence.timeoutMS = 1.5e-5
        evidence.spanChangeMM = -12.25
        evidence.horizontalSpreadMM = 3
        evidence.verticalSpreadMM = 4
        evidence.fromBottomMM = 5
        evidence.fingersBefore = 2
        evidence.fingersAfter = 3
        evidence.jumpMM = 20
        evidence.increaseLimitMM = 7
        evidence.previousStepMM = 0.1
        evidence.touch = 12
        for state in GestureState.allCases {
            for decision in [nil, GestureDecision(.opposingFingers, evidence)] {
                let event = GestureEvent(kind: kind, state: state, time: EventTime(totalMicroseconds: 1_250_000), fingerCount: 2,
                                         scale: 1.0000005, rotationDegrees: -179.9999999, centerMM: PointMM(x: -0.0000001, y: 1e-6),
                                         scaleVelocity: 123456789.123, translationMM: PointMM(x: 12, y: -3.5),
                                         velocityMMPerSecond: PointMM(x: 0, y: 1e21), decision: decision)
                let record = GestureRecord(event: event, time: 123.4567891, gesture: -7)
                #expect(Self.handWritten(.gesture(record)) == (try Self.encoded(.gesture(record))))
                let margin = DecisionMargin(value: 171.1234567, threshold: 1e-7, key: "touchpadRecognizer.\"odd", unit: "mm")
                var line = JSONLineBytes()
                record.appendJSON(to: &line, margin: margin)
                #expect(String(decoding: line.bytes, as: UTF8.self)
                        == String(decoding: try Self.encoder.encode(ExpectedGestureLine(record, margin: margin)), as: UTF8.self))
            }
        }
    }

    @Test func transitionAndButtonShapesMatch() throws {
        for reason in [nil, TrialReason(.gestureCancelled, springCutAfterSeconds: 2.5)] {
            for velocity in [nil, -0.00000049, 3.0] {
                var step = TransitionRecord(name: .zoomPresent, trial: 3, state: .cancelling, time: 0.000001,
                                            progress: 0.4999995, reason: reason, velocity: velocity)
                step.decision = nil
                #expect(Self.handWritten(.transition(step)) == (try Self.encoded(.transition(step))))
            }
        }
        for button in [PhysicalButtons.left, .right, .middle] {
            let record = LabRecord.button(ButtonRecord(button: button, state: .released, time: 99))
            #expect(Self.handWritten(record) == (try Self.encoded(record)))
        }
    }

    /// Members go where their keys sort among the object's: first, between, last, into an empty
    /// object, past values whose strings and nested objects hold commas, braces and quotes.
    @Test func membersAreInsertedWhereTheirKeysSort() throws {
        let object = Array(#"{"b":{"x":[1,{"y":"}],\""}]},"d":"a,b}","f":[]}"#.utf8)
        let members: [(key: String, json: [UInt8])] = [("g", Array("null".utf8)), ("a", Array("[1,2]".utf8)),
                                                       ("c", Array(#"{"k":true}"#.utf8)), ("e", Array("0.5".utf8))]
        let merged = String(decoding: JSONLineBytes.inserting(members, into: object), as: UTF8.self)
        #expect(merged == #"{"a":[1,2],"b":{"x":[1,{"y":"}],\""}]},"c":{"k":true},"d":"a,b}","e":0.5,"f":[],"g":null}"#)
        #expect(String(decoding: JSONLineBytes.inserting([("a", Array("1".utf8))], into: Array("{}".utf8)), as: UTF8.self) == #"{"a":1}"#)
        #expect(JSONLineBytes.inserting([], into: object) == object)
    }

    /// As the encoder escapes, and every invisible character the encoder leaves (DEL, C1 controls,
    /// bidirectional and zero-width characters) as `\uxxxx`; its neighbours in UTF-8 (U+00A0,
    /// U+0600, U+2030, U+FEFE, an emoji) as they are. `escapingInvisibles` makes the encoder's bytes
    /// the same.
    @Test func stringsAreEscapedAsTheEncoderDoesAndInvisibleCharactersToo() throws {
        let invisible: [Character] = ["\u{7F}", "\u{85}", "\u{9B}", "\u{AD}", "\u{61C}", "\u{200B}", "\u{200F}", "\u{2028}",
                                      "\u{202A}", "\u{202E}", "\u{2060}", "\u{2066}", "\u{2069}", "\u{FEFF}", "\u{FFFB}"]
        let text = "a/b\"c\\\u{00}\u{01}\u{08}\u{09}\u{0A}\u{0C}\u{0D}\u{1F}é\u{A0}\u{600}\u{2030}\u{FEFE}ÿ😀" + String(invisible)
        var bytes = JSONLineBytes()
        bytes.string(text)
        let encoded = String(decoding: try Self.encoder.encode(text), as: UTF8.self)
        let escaped = invisible.reduce(encoded) { text, character in
            let value = character.unicodeScalars.first!.value
            let hex = String(value, radix: 16)
            return text.replacingOccurrences(of: String(character), with: "\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
        }
        #expect(String(decoding: bytes.bytes, as: UTF8.self) == escaped)
        #expect(escaped.contains("\\u202e") && escaped.contains("\\u007f") && escaped.contains("é\u{A0}\u{600}\u{2030}\u{FEFE}"))
        #expect(String(decoding: JSONLineBytes.escapingInvisibles(try Self.encoder.encode(text)), as: UTF8.self) == escaped)
        #expect(try JSONDecoder().decode(String.self, from: Data(bytes.bytes)) == text, "reads back as it was")
    }

    @Test(arguments: [0, 1, -1, 0.1, 1e-6, 1.5e-5, 123456.789, 1e15, 1e16, 1.2345678901234568e16, 0.000123, 100,
                      1e21, -1e-6, 0.3333333, 5e-324, Double.greatestFiniteMagnitude, -123.456])
    func numbersAreWrittenAsTheEncoderWritesThem(value: Double) throws {
        var bytes = JSONLineBytes()
        bytes.number(value)
        #expect(String(decoding: bytes.bytes, as: UTF8.self) == String(decoding: try Self.encoder.encode(value), as: UTF8.self))
    }

    /// The fixed-point writer (values of at most six decimals) against Swift's shortest form, as
    /// JSONEncoder writes it, on values of every magnitude it takes and the edges where it gives way.
    @Test func roundedNumbersOfEveryMagnitudeAreWrittenAsTheEncoderWritesThem() throws {
        var generator = SystemRandomNumberGenerator()
        var values: [Double] = [0.0001, 0.00011, 0.0000999, 0.000099, 0.0002, 0.001, 8_589_934_591.999999, 8_589_934_592,
                                9_007_199_254.740991, 1e-6, 5e-6, 0.5, 1, 10, 100.000001]
        for exponent in -6...12 {
            for _ in 0..<2_000 {
                let raw = Double.random(in: 0..<pow(10, Double(exponent)), using: &generator)
                values.append(rounded(raw))
                values.append(rounded(-raw))
            }
        }
        var mismatches: [String] = []
        for value in values {
            var bytes = JSONLineBytes()
            bytes.number(value)
            let expected = String(decoding: try Self.encoder.encode(value), as: UTF8.self)
            let written = String(decoding: bytes.bytes, as: UTF8.self)
            if written != expected { mismatches.append("\(value): \(written) != \(expected)") }
        }
        let firstMismatches = mismatches.prefix(10).joined(separator: "; ")
        #expect(firstMismatches == "")
    }

    @Test(arguments: [0, 7, -7, 10, 1234567890, Int.max, Int.min])
    func integersAreWrittenAsTheEncoderWritesThem(value: Int) throws {
        var bytes = JSONLineBytes()
        bytes.integer(value)
        #expect(String(decoding: bytes.bytes, as: UTF8.self) == String(decoding: try Self.encoder.encode(value), as: UTF8.self))
    }
}

/// A gesture record's line as docs/reference/json-lines.md documents it, with its decision's margin
/// as `replay --json` prints a decision's line (the writer makes the margin from the recognizer's
/// configuration: `LabRecord.jsonLine(margins:)`), encoded by `JSONEncoder` for the comparison.
struct ExpectedGestureLine: Encodable {
    var record: GestureRecord
    var margin: DecisionMargin?
    init(_ record: GestureRecord, margin: DecisionMargin?) { self.record = record; self.margin = margin }

    enum CodingKeys: String, CodingKey {
        case type, gesture, kind, state, time, fingers, scale, rotation, center, scaleVelocity, translation, velocity, rule, evidence,
             margin
    }

    func encode(to encoder: any Encoder) throws {
        let event = record.event
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode("gesture", forKey: .type)
        try c.encode(record.gesture, forKey: .gesture)
        try c.encode(event.kind.rawValue, forKey: .kind)
        try c.encode(event.state.rawValue, forKey: .state)
        try c.encode(rounded(record.time), forKey: .time)
        try c.encode(event.fingerCount, forKey: .fingers)
        switch event.kind {
        case .pinch:
            try c.encode(rounded(event.scale), forKey: .scale)
            try c.encode(rounded(event.rotationDegrees), forKey: .rotation)
            try c.encode(ExpectedPoint(event.centerMM), forKey: .center)
            try c.encode(rounded(event.scaleVelocity), forKey: .scaleVelocity)
        case .pan:
            try c.encode(ExpectedPoint(event.translationMM), forKey: .translation)
            try c.encode(ExpectedPoint(event.velocityMMPerSecond), forKey: .velocity)
        case .hold:
            try c.encode(ExpectedPoint(event.centerMM), forKey: .center)
        }
        if let decision = event.decision {
            try c.encode(decision.rule, forKey: .rule)
            try c.encode(ExpectedEvidence(evidence: decision.evidence), forKey: .evidence)
        }
        try c.encodeIfPresent(margin.map(ExpectedMargin.init), forKey: .margin)
    }
}

/// A decision's evidence: only the measured values, each key naming its unit; counts and touch
/// ids whole numbers.
struct ExpectedEvidence: Encodable {
    var evidence: GestureEvidence

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyKey.self)
        for (key, value) in evidence.entries {
            if ["fingersBefore", "fingersAfter", "touch"].contains(key) {
                try c.encode(Int(value), forKey: AnyKey(key))
            } else {
                try c.encode(rounded(value), forKey: AnyKey(key))
            }
        }
    }
}

/// A transition step's line as docs/reference/json-lines.md documents it.
struct ExpectedTransitionLine: Encodable {
    var step: TransitionRecord
    init(_ step: TransitionRecord) { self.step = step }

    enum CodingKeys: String, CodingKey { case type, transition, trial, state, time, progress, reason, velocity }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode("transition", forKey: .type)
        try c.encode(step.name.rawValue, forKey: .transition)
        try c.encode(step.trial, forKey: .trial)
        try c.encode(step.state.rawValue, forKey: .state)
        try c.encode(rounded(step.time), forKey: .time)
        try c.encode(rounded(step.progress), forKey: .progress)
        try c.encodeIfPresent(step.reason?.description, forKey: .reason)
        try c.encodeIfPresent(step.velocity.map(rounded), forKey: .velocity)
    }
}

/// A button's line as docs/reference/json-lines.md documents it.
struct ExpectedButtonLine: Encodable {
    var button: ButtonRecord
    init(_ button: ButtonRecord) { self.button = button }

    enum CodingKeys: String, CodingKey { case type, button, state, time }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode("button", forKey: .type)
        try c.encode(button.button.name, forKey: .button)
        try c.encode(button.state.rawValue, forKey: .state)
        try c.encode(rounded(button.time), forKey: .time)
    }
}
