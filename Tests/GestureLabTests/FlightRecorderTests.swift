@testable import GestureLab
import GestureCore
import Testing

/// The flight recorder's line ring: plain values (a copy of bytes per line kept), the newest lines
/// kept in order once it wraps.
@Suite struct FlightRecorderTests {
    @Test func aKeptLineIsAPlainValue() {
        // A reference or a string in a line's payload would make keeping each line a call through
        // value witnesses again (the cost the line ring was built to avoid).
        #expect(_isPOD(KeptLine.self))
    }

    @Test func theNewestLinesAreKeptInOrderOnceTheRingWraps() throws {
        // 0.02 s at 310 lines a second: 7 lines kept.
        let recorder = FlightRecorder(seconds: 0.02, device: .presetTouchpad, stateAtOpen: [])
        let times = (0..<30).map { Double($0) * 0.001 }
        for (index, time) in times.enumerated() {
            let event = EventTime(totalMicroseconds: Int64(time * 1_000_000))
            recorder.note(InputEvent(time: event, type: .syn, code: .synReport, value: 0))
            if index % 2 == 0 {
                recorder.note(.button(ButtonRecord(button: .left, state: index % 4 == 0 ? .pressed : .released, time: time)))
            } else {
                recorder.note(.gesture(GestureRecord(event: GestureEvent(kind: .pan, state: .changed, time: event, fingerCount: 2),
                                                     time: time, gesture: 0)))
            }
            recorder.note(.frame(TouchFrame(time: event), time: time))   // not a line: not kept
        }
        let snapshot = try #require(recorder.snapshot(origin: .zero))
        let kept = snapshot.lines.compactMap(FlightRecorder.time(of:))
        #expect(kept == Array(times.suffix(7)))
        #expect(snapshot.linesBeginLate == times[times.count - 7])
    }
}
