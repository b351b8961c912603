import GestureCore
import GestureKit
import GestureLab

typealias CorpusDevice = CorpusEntry.Device

/// The large recording the benchmarks read: realistic gestures (the standard corpus's recipes,
/// synthesized with several seeds each), played back to back with a pause between them.
enum BenchmarkFile {
    /// Each corpus recipe is synthesized with this many seeds, so the file is not one sequence repeated.
    static let seedVariantsPerRecipe: UInt64 = 4
    /// Idle time between two gestures, like a person between attempts.
    static let pauseBetweenGesturesMicroseconds: Int64 = 400_000

    static func gestures(on device: CorpusDevice) -> [[InputEvent]] {
        var result: [[InputEvent]] = []
        for variant in 0..<seedVariantsPerRecipe {
            for entry in StandardCorpus.entries() where entry.device == device {
                guard let recipe = entry.recipe, let seed = entry.seed else { continue }
                var events = recipe.events(on: device.description, seed: seed &+ variant)
                guard let first = events.first else { continue }
                // Each gesture is synthesized from slot 0 on; played after another one that ended on
                // a different slot, it must select slot 0 first, as the kernel would.
                if device.description.slotCount > 0 && !(first.type == .abs && first.code == .absMTSlot) {
                    events.insert(InputEvent(time: first.time, type: .abs, code: .absMTSlot, value: 0), at: 0)
                }
                result.append(events)
            }
        }
        return result
    }

    /// Writes `eventCount` events and then the rest of the frame under way, so the file ends on a
    /// `SYN_REPORT` as a recording does (a reader warns about a frame left open). The last gesture
    /// may be cut short, as a recording stopped mid-gesture is. Returns the events written.
    static func generate(path: String, eventCount: Int, device: CorpusDevice) throws -> Int {
        let gestures = gestures(on: device)
        precondition(!gestures.isEmpty, "the standard corpus has no recipes for \(device)")
        let writer = try EvemuWriter(path: path, device: device.description)
        var written = 0
        var lastWasSynReport = true
        var offset: Int64 = 0
        var index = 0
        while written < eventCount || !lastWasSynReport {
            let events = gestures[index % gestures.count]
            index += 1
            let base = events[0].time.totalMicroseconds
            var last = offset
            for var event in events {
                if written >= eventCount && lastWasSynReport { break }
                last = offset + event.time.totalMicroseconds - base
                event.time = EventTime(totalMicroseconds: last)
                try writer.write(event)
                written += 1
                lastWasSynReport = event.isSynReport
            }
            offset = last + pauseBetweenGesturesMicroseconds
        }
        try writer.close()
        return written
    }
}
