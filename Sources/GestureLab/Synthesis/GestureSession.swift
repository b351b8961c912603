import GestureCore
import GestureKit

/// Several synthesized gestures in one recording with idle stretches between them, as a real
/// session holds (each corpus file holds one gesture). Made from the standard corpus's recipes, so a
/// session is regenerated bit for bit like the corpus (`pinchlab generate-corpus DIR --session FILE`).
package struct GestureSession: Sendable {
    /// The corpus files (relative to the corpus, one device) whose recipes are played one after another.
    package var files: [String]
    /// Seconds with no finger down between one gesture's last lift and the next one's first landing.
    var pauseS: Double
    package var seed: UInt64

    package init(files: [String], pauseS: Double, seed: UInt64) {
        self.files = files
        self.pauseS = pauseS
        self.seed = seed
    }

    /// A touchscreen session of six attempts for pan-dismiss and pinch-dismiss: a pan that cancels,
    /// one that finishes, a three-finger swipe, a pinch that reverses late, a pan flick, a two-finger
    /// tap; 2.5 s idle between them. The CLI tests replay the committed copy in `Fixtures/sessions`.
    package static let touchscreen = GestureSession(
        files: ["touchscreen/pan-down-cancel-01.evemu", "touchscreen/pan-down-finish-01.evemu",
                "touchscreen/three-finger-swipe-01.evemu", "touchscreen/pinch-in-late-reversal-01.evemu",
                "touchscreen/pan-down-flick-01.evemu", "touchscreen/two-finger-tap-01.evemu"],
        pauseS: 2.5, seed: StandardCorpus.masterSeed)

    /// The device of the recipes (that of the first file).
    package var device: DeviceDescription {
        (Self.entries(files).first?.device ?? .touchscreen).description
    }

    /// Each recipe's finger tracks, shifted so that it starts `pauseS` after the previous one ended.
    package func tracks() -> [FingerTrack] {
        var tracks: [FingerTrack] = []
        var start = 0.0
        for entry in Self.entries(files) {
            guard let recipe = entry.recipe else { continue }
            let own = recipe.tracks()
            guard let first = own.map(\.downAt).min(), let last = own.map(\.upAt).max() else { continue }
            let offset = start - first
            tracks += own.map { track in
                FingerTrack(downAt: track.downAt + offset, upAt: track.upAt + offset) { t in track.position(t - offset) }
            }
            start += last - first + pauseS
        }
        return tracks
    }

    /// The session's events: one synthesizer run over every track, so tracking ids keep counting up
    /// and the idle stretches hold no events.
    package func events() -> [InputEvent] {
        var random = SeededRandom(seed: seed)
        return EventSynthesizer(device: device).events(for: tracks(), random: &random)
    }

    /// Writes the session as an evemu recording.
    package func write(to path: String) throws {
        try writeRecording(events(), of: device, to: path)
    }

    private static func entries(_ files: [String]) -> [CorpusEntry] {
        let all = StandardCorpus.entries()
        return files.compactMap { file in all.first { $0.file == file } }
    }
}
