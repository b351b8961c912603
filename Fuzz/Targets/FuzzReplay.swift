import GestureCore
import GestureKit
import GestureLab
import InteractiveTransition

/// Plays what a reader read through the whole pipeline (frames, recognizer, transition), so that a
/// mutated description line (a slot axis of two billion slots, an axis range that overflows, a
/// resolution kilometres wide) reaches every place a description's numbers are used: slot
/// buffers, millimetres, the summary. Checks what must hold for any description: memory bounded
/// by the slot limit, sizes finite and never negative, every value finite.
enum FuzzReplay {
    static func play(_ reader: some RecordingSource) {
        var reader = reader
        let device = reader.device
        precondition(device.slotCount <= DescriptionLimits.slotCountMax, "slot count \(device.slotCount) past the limit")
        guard var pipeline = try? ReplayPipeline(device: device, transition: .pinchDismiss) else { return }
        var count = 0
        while count < fuzzMaximumEvents, let event = try? reader.nextEvent() {
            pipeline.consume(event) { record in
                if case .frame(let frame, _) = record {
                    for touch in frame.touches {
                        precondition(touch.position.x.isFinite && touch.position.y.isFinite, "touch position \(touch)")
                    }
                }
            }
            count += 1
        }
        precondition(count < fuzzMaximumEvents, "reader did not stop")
        let summary = pipeline.finish { _ in }
        precondition(summary.duration.isFinite, "summary duration \(summary.duration)")
        if let geometry = device.geometry {
            for size in [geometry.widthMM, geometry.heightMM] {
                precondition(size.isFinite && size >= 0, "surface size \(size) mm")
            }
        }
        _ = reader.descriptionWarnings.map(\.description)
        _ = reader.eventContradictions.map(\.description)
    }
}
