import Foundation
import GestureKit
import GestureLab

/// What a replay takes from a flight recorder's dump (`live --keep`): its own settings, unless
/// `--config` names others, and where its window sits in the session, so the replay's lines
/// carry the session's times and numbers. Says on stderr which settings are used.
struct DumpedSession {
    /// The dump's settings; nil when `--config` was given (those are used instead).
    var settings: LabSettings?
    var position: SessionPosition?

    /// Nil for any recording that is not a dump.
    init?(_ source: any InputEventSource, name: String, transition: TransitionOptions, quiet: Bool = false) throws {
        guard let reader = source as? LibinputRecordReader,
              let settingsText = reader.extras.texts[FlightDump.Key.settings] else { return nil }
        position = SessionPosition(extras: reader.extras)
        if transition.config != nil {
            if !quiet { printError("pinchlab: \(name) is a live dump; --config given: replaying with \(transition.config!), not the dump's own settings") }
        } else {
            do {
                settings = try LabSettings(settingsFile: Data(settingsText.utf8))
            } catch {
                throw CLIError(status: .badData, message: "\(name): the dump's settings (pinchlab: settings:): \(error.message)")
            }
            if !quiet { printError("pinchlab: \(name) is a live dump: replaying with its own settings (--config FILE uses others)") }
        }
        if !quiet, let made = reader.extras.texts[FlightDump.Key.transition], made != transition.transition.rawValue {
            printError("pinchlab: note: the dump was made with --transition \(made); this replay drives \(transition.transition.rawValue)")
        }
    }
}
