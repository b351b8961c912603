import Testing
import PropertyBased
import GestureKit
import GestureLab

/// Whatever touches arrive, the recognizer reports gestures in a legal order with finite values, and
/// `finish(at:)` leaves nothing open.
@Suite struct RecognizerPropertyTests {
    static let streamCount = 300

    /// Runs events through assembler and recognizer, then finishes; returns the checker.
    static func recognize(_ events: [InputEvent], on device: DeviceDescription) -> (GestureStateChecker, TouchGestureRecognizer) {
        var assembler = TouchFrameAssembler(device: device)
        var recognizer = TouchGestureRecognizer(configuration: GestureRecognizerConfiguration(device: device))
        var checker = GestureStateChecker()
        for event in events {
            guard let frame = assembler.consume(event) else { continue }
            for gesture in recognizer.process(frame) { checker.check(gesture) }
        }
        let end = events.last?.time ?? .zero
        if let frame = assembler.finish(at: end) {
            for gesture in recognizer.process(frame) { checker.check(gesture) }
        }
        for gesture in recognizer.finish(at: end) { checker.check(gesture) }
        return (checker, recognizer)
    }

    @Test func randomProtocolBStreamsGiveLegalGestureSequences() async {
        await propertyCheck(count: Self.streamCount, input: Gen.uint32().array(of: 0...400), Gen.int(in: 0...1)) { words, index in
            let device = EventStreams.devices[index]
            let (checker, recognizer) = Self.recognize(EventStreams.protocolB(words, on: device), on: device)
            #expect(checker.violations == [])
            #expect(checker.open == nil, "a gesture is still open after finish(at:)")
            #expect(recognizer.gestureInFlight == nil)
            #expect(checker.beganCount == checker.closedCount, "every began is closed by exactly one ended/cancelled")
        }
    }

    @Test func randomSynthesizedGesturesGiveLegalGestureSequences() async {
        var recognizedAny = false
        await propertyCheck(count: Self.streamCount, input: Gen.uint64(), Gen.int(in: 0...1)) { seed, index in
            let device = EventStreams.devices[index]
            let events = EventStreams.synthesized(seed: seed, on: device)
            let (checker, recognizer) = Self.recognize(events, on: device)
            #expect(checker.violations == [])
            #expect(checker.open == nil)
            #expect(recognizer.gestureInFlight == nil)
            #expect(checker.beganCount == checker.closedCount)
            if checker.beganCount > 0 { recognizedAny = true }
        }
        // The generated gestures are real enough to be recognized, so the rules are exercised.
        #expect(recognizedAny)
    }
}
