import Foundation
import GestureKit
import GestureLab
import InteractiveTransition

/// What a replay takes from a flight recorder's dump (`live --keep`): its own settings, unless
/// `--config` names others, its own transition, unless `--transition` names another, and where
/// its window sits in the session, so the replay's lines carry the session's times and numbers.
/// Says on stderr which settings and transition are used.
struct DumpedSession {
    /// The dump's settings; nil when `--config` was given (those are used instead).
    var settings: LabSettings?
    var position: SessionPosition?
    /// The transition to drive: the dump's own, unless `--transition` was given (or the dump names
    /// none this version knows).
    var transition: TransitionName

    /// Nil for any recording that is not a dump.
    init?(_ source: any RecordingSource, name: String, transition: TransitionOptions, quiet: Bool = false) throws {
        guard let reader = source as? LibinputRecordReader,
              let settingsText = reader.extras.texts[FlightDump.Key.settings] else { return nil }
        position = SessionPosition(extras: reader.extras)
        if transition.config != nil {
            if !quiet { printError("pinchlab: \(name) is a live dump; --config given: replaying with \(transition.config!), not the dump's own settings") }
        } else {
            do {
                settings = try LabSettings(fileBytes: Array(settingsText.utf8))
            } catch {
                // "NAME (the dump's pinchlab: settings:): at 'policy': ...", with line and column for bad JSON.
                throw CLIError(status: .badData,
                               message: LabSettingsError(path: "\(name) (the dump's pinchlab: settings:)", reason: error).description)
            }
            if !quiet { printError("pinchlab: \(name) is a live dump: replaying with its own settings (--config FILE uses others)") }
        }
        let made = reader.extras.texts[FlightDump.Key.transition]
        switch (transition.chosenTransition, made.flatMap(TransitionName.init(rawValue:))) {
        case (let chosen?, _):
            self.transition = chosen
            if !quiet, let made, made != chosen.rawValue {
                printError("pinchlab: note: the dump was made with --transition \(made); --transition given: this replay drives \(chosen.rawValue)")
            }
        case (nil, let own?):
            self.transition = own
            if !quiet { printError("pinchlab: \(name) is a live dump: driving its own transition, \(own.rawValue) (--transition NAME drives another)") }
        case (nil, nil):
            self.transition = transition.transition
            if !quiet, let made {
                printError("pinchlab: warning: the dump's transition \(made) is not one this version knows; this replay drives \(transition.transition.rawValue)")
            }
        }
    }
}
