import ArgumentParser
import Foundation
import GestureKit
import GestureLab
import InteractiveTransition

/// Where a recording comes from: one file (evemu or `libinput record`, detected by content), or the
/// two halves of an old split evemu recording, and which device of a multi-device libinput file.
struct RecordingOptions: ParsableArguments {
    @Argument(help: "A recording: evemu (.evemu) or `libinput record` YAML (.yml). Detected by content.")
    var file: String

    @Option(name: .customLong("events"), help: "The .events half of an old split evemu recording (FILE is the .desc half).")
    var eventsFile: String?

    @Option(name: .customLong("device"), help: ArgumentHelp(
        "Which device of a multi-device `libinput record` file: an index (0, 1, ...) or a node (/dev/input/event5).",
        discussion: "Default: the first touchpad or touchscreen in the file."))
    var deviceSelector: String?

    var selector: RecordingDeviceSelector {
        guard let deviceSelector else { return .firstTouchDevice }
        if let index = Int(deviceSelector) { return .index(index) }
        return .node(deviceSelector)
    }

    func validate() throws {
        if let deviceSelector, deviceSelector.isEmpty { throw ValidationError("--device needs an index or a node") }
    }

    func open() throws -> any InputEventSource {
        try openRecording(path: file, secondPath: eventsFile, device: selector)
    }
}

/// What turns gestures into a transition: which transition, which policy, which settings file.
struct TransitionOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The transition the gesture drives: \(TransitionCatalog.names.joined(separator: ", ")).",
                               valueName: "name"))
    var transition: String = TransitionName.pinchDismiss.rawValue

    @Option(help: ArgumentHelp("Settings saved by `pinchlab tune --write` (recognizer thresholds, policy, mappings).",
                               valueName: "file"))
    var config: String?

    @Option(help: ArgumentHelp("Finish/cancel policy preset instead of the configured one: seed (progress > 0.5 only, as in the seeds), default, fluid.",
                               valueName: "preset"))
    var policy: String?

    @Option(help: ArgumentHelp("Progress threshold for finishing (0...1), overriding the policy's.", valueName: "p"))
    var threshold: Double?

    @Option(help: ArgumentHelp("Millimetres of downward travel that make a pan-dismiss complete.", valueName: "mm"))
    var panDistance: Double?

    func validate() throws {
        guard TransitionName(rawValue: transition) != nil else {
            throw ValidationError("unknown transition '\(transition)'; choose one of \(TransitionCatalog.names.joined(separator: ", "))")
        }
        if let policy, Self.presets[policy] == nil {
            throw ValidationError("unknown policy '\(policy)'; choose one of \(Self.presets.keys.sorted().joined(separator: ", "))")
        }
        if let threshold, !(threshold >= 0 && threshold <= 1) {
            throw ValidationError("--threshold must be within 0...1, got \(threshold)")
        }
        if let panDistance, !(panDistance > 0 && panDistance.isFinite) {
            throw ValidationError("--pan-distance must be a positive number of millimetres")
        }
    }

    static let presets: [String: CompletionPolicy] = ["seed": .seed, "default": LabSettings.default.policy, "fluid": .fluid]

    func settings() throws -> LabSettings {
        var settings = LabSettings.default
        if let config { settings = try LabSettingsFile.load(path: config) }
        if let policy, let preset = Self.presets[policy] { settings.policy = preset }
        if let threshold {
            settings.policy = try CompletionPolicy(progressThreshold: threshold,
                                                   decelerationRatePerMS: settings.policy.decelerationRatePerMS,
                                                   flickVelocity: settings.policy.flickVelocity)
        }
        if let panDistance { settings.panDismissDistanceMM = panDistance }
        return settings
    }
}

/// Reads and writes `LabSettings` as JSON, with errors that name the file.
enum LabSettingsFile {
    static func load(path: String) throws -> LabSettings {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CLIError(status: .noInput, message: "\(path): cannot read the settings file")
        }
        let settings: LabSettings
        do {
            settings = try JSONDecoder().decode(LabSettings.self, from: data)
        } catch let DecodingError.dataCorrupted(context) {
            throw CLIError(status: .badData, message: "\(path): not a pinchlab settings file (JSON): \(context.debugDescription)")
        } catch let DecodingError.keyNotFound(key, _) {
            throw CLIError(status: .badData, message: "\(path): expected the key '\(key.stringValue)'")
        } catch let DecodingError.typeMismatch(_, context) {
            let where_ = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw CLIError(status: .badData, message: "\(path): wrong type at '\(where_)': \(context.debugDescription)")
        } catch {
            throw CLIError(status: .badData, message: "\(path): \(error)")
        }
        if let problem = settings.validationError() { throw CLIError(status: .badData, message: "\(path): \(problem)") }
        return settings
    }

    static func save(_ settings: LabSettings, path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(settings)
        guard FileManager.default.createFile(atPath: path, contents: data + Data("\n".utf8)) else {
            throw CLIError(status: .ioError, message: "\(path): cannot write the settings file")
        }
    }
}
