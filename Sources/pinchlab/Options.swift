import ArgumentParser
import Foundation
import GestureKit
import GestureLab
import InteractiveTransition

/// Where a recording comes from: one file (evemu, `libinput record` or an evtest log, detected by content), or the
/// two halves of an old split evemu recording, and which device of a multi-device libinput file.
struct RecordingOptions: ParsableArguments {
    @Argument(help: ArgumentHelp(
        "A recording: evemu (.evemu), `libinput record` YAML (.yml) or an evtest log (as pasted in a bug report), detected by content; - reads standard input.",
        discussion: "Read once from the start, so a pipe works too: `xz -dc bug.evemu.xz | pinchlab replay -`."))
    var file: String

    /// The file as messages name it (`<stdin>` for `-`, as the readers do).
    var displayName: String { recordingDisplayName(file) }

    @Option(name: .customLong("events"), help: "The .events half of an old split evemu recording (FILE is the .desc half; - reads standard input).")
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

    /// Opens the recording; a file with a description and no events gets the hint of a split
    /// recording's `.desc` half read alone (it would replay to nothing, without a word).
    func open() throws -> any InputEventSource {
        let source = try openRecording(path: file, secondPath: eventsFile, device: selector)
        if let evemu = source as? EvemuReader, evemu.holdsOnlyADescription {
            printError("pinchlab: warning: \(SplitRecording.descriptionOnlyHint(displayName, path: file))")
        }
        return source
    }

    /// Refuses an output path that names an input file, by identity on disk rather than by spelling:
    /// `./in.evemu`, a symbolic or a hard link to the input would otherwise be truncated before the
    /// input is read.
    func refuseOutput(_ output: String, option: String = "-o", doing action: String) throws {
        let inputs = [file] + (eventsFile.map { [$0] } ?? [])
        if let input = FileIdentity.firstPath(in: inputs, sameFileAs: output) {
            throw ValidationError("\(option) \(output) is the input file \(input) (the same file on disk): "
                                  + "\(action) would destroy it; write to another file")
        }
        // `convert - -o F < F`: standard input is a file, and the output names it.
        if inputs.contains("-"), let standardInput = FileIdentity(regularFileOpenAs: .standardInput),
           FileIdentity(path: output) == standardInput {
            throw ValidationError("\(option) \(output) is the file on standard input (the same file on disk): "
                                  + "\(action) would destroy it; write to another file")
        }
    }
}

// Closed sets of names on the command line: ArgumentParser lists the values in the help, offers them
// to shell completion, and refuses anything else with the list.
extension TransitionName: ExpressibleByArgument {}
extension CompletionPolicyPreset: ExpressibleByArgument {
    /// A preset's name, or an older name still accepted (`seed`).
    public init?(argument: String) { self.init(named: argument) }
}

/// The presets of a `--compare` list (comma-separated names or aliases), in order; an unknown or
/// empty name is a usage error that names it and lists the presets.
func comparedPolicies(_ list: String?) throws -> [PolicyComparison.Policy] {
    guard let list else { return [] }
    return try list.split(separator: ",", omittingEmptySubsequences: false).map { name in
        guard let preset = CompletionPolicyPreset(named: String(name)) else {
            throw ValidationError("unknown policy '\(name)' in --compare; choose from "
                                  + CompletionPolicyPreset.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return PolicyComparison.Policy(preset)
    }
}

extension CompletionTiming: ExpressibleByArgument {
    public init?(argument: String) { self.init(named: argument) }
    public static var allValueStrings: [String] { named.map(\.name) }
    public var defaultValueDescription: String {
        Self.named.first { $0.timing == self }?.name ?? description
    }
}

extension RecordingFormat: ExpressibleByArgument {
    /// `evemu`, or `libinput` for `libinput record` YAML (also `libinput-record`, `yml`, `yaml`).
    public init?(argument: String) {
        switch argument {
        case "evemu": self = .evemu
        case "libinput", "libinput-record", "yml", "yaml": self = .libinputRecord
        default: return nil
        }
    }
    public static var allValueStrings: [String] { ["evemu", "libinput"] }
    public var defaultValueDescription: String { self == .evemu ? "evemu" : "libinput" }
}

/// What turns gestures into a transition: which transition, which policy, which settings file.
struct TransitionOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The transition the gesture drives.", valueName: "name"))
    var transition: TransitionName = .pinchDismiss

    @Option(help: ArgumentHelp("Settings saved by `pinchlab tune --write` (recognizer thresholds, policy, mappings).",
                               valueName: "file"))
    var config: String?

    @Option(help: ArgumentHelp("Finish/cancel policy preset instead of the configured one: \(CompletionPolicyPreset.allCases.map(\.rawValue).joined(separator: ", ")) (seed = uikit-seed).",
                               discussion: "gnome, kwin, hyprland and android-back decide as those systems do, with their shipped figures; uikit-seed is progress > 0.5 only, as in the seeds.",
                               valueName: "preset"))
    var policy: CompletionPolicyPreset?

    @Option(parsing: .unconditional, help: ArgumentHelp("Progress threshold for finishing (0...1), overriding the policy's.", valueName: "p"))
    var threshold: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Millimetres of downward travel that make a pan-dismiss complete.", valueName: "mm"))
    var panDistance: Double?

    @Option(help: ArgumentHelp("How the completion animates after the release. A spring continues from the release velocity. Default: the transition's own.",
                               valueName: "timing"))
    var completion: CompletionTiming?

    @Option(parsing: .unconditional, help: ArgumentHelp("UIKit's completionSpeed (> 0): the completion after the release runs this many times faster (default 1).",
                                                      valueName: "factor"))
    var completionSpeed: Double?

    func validate() throws {
        if let threshold, !(threshold >= 0 && threshold <= 1) {
            throw ValidationError("--threshold must be within 0...1, got \(threshold)")
        }
        // The settings file's ranges (`LabSettings.ranges`): an option and a key take the same values.
        if let panDistance, let range = LabSettings.range(forKey: "panDismissDistanceMM"), !range.contains(panDistance) {
            throw ValidationError("--pan-distance must be a positive number of millimetres in \(range.rangeText), got \(panDistance)")
        }
        if let completionSpeed, let range = LabSettings.range(forKey: "completionSpeed"), !range.contains(completionSpeed) {
            throw ValidationError("--completion-speed must be a positive factor in \(range.rangeText), got \(completionSpeed)")
        }
    }

    /// The policy as the viewer names it: a preset's name (`seed` as `uikit-seed`), `configured`
    /// when --config or --threshold set it, else `default`.
    var policyName: String {
        if threshold != nil { return "configured" }
        if let policy { return policy.rawValue }
        return config == nil ? "default" : "configured"
    }

    func settings() throws -> LabSettings {
        var settings = LabSettings.default
        if let config { settings = try LabSettingsFile.load(path: config) }
        if let policy { settings.policy = policy.policy }
        if let threshold {
            guard settings.policy.kind == .pinchlab else {
                throw CLIError(status: .usage, message: "--threshold sets pinchlab's own rule; the \(settings.policy.kind.name.rawValue) "
                               + "policy has its own figures (set them in a --config file)")
            }
            settings.policy = try CompletionPolicy(progressThreshold: threshold,
                                                   decelerationRatePerMS: settings.policy.decelerationRatePerMS,
                                                   flickVelocity: settings.policy.flickVelocity)
        }
        if let panDistance { settings.panDismissDistanceMM = panDistance }
        if let completion { settings.completion = completion }
        if let completionSpeed { settings.completionSpeed = completionSpeed }
        return settings
    }
}

/// Reads and writes `LabSettings` as JSON, with errors that name the file.
enum LabSettingsFile {
    static func load(path: String) throws -> LabSettings {
        let data: Data
        do {
            data = Data(try FileDescriptor.contents(ofFile: path))
        } catch {
            let status: ExitStatus = error.kind == .permissionDenied ? .permissionDenied : .noInput
            throw CLIError(status: status, message: "\(path): cannot read the settings file (\(error)); "
                           + "`pinchlab tune CORPUS --write FILE` writes one, and any key left out keeps its default")
        }
        // Syntax first, with the line and column: Foundation's decoder would say only "not valid JSON".
        if let syntax = JSONSyntax.firstError(in: data) {
            throw CLIError(status: .badData, message: "\(path):\(syntax.line):\(syntax.column): not valid JSON: \(syntax)")
        }
        let settings: LabSettings
        do {
            // Unknown keys first: a misspelt key would otherwise leave its setting at the default.
            if let unknown = try? LabSettings.unknownKeys(inJSON: data), let first = unknown.first {
                let parent = first.split(separator: ".").dropLast().joined(separator: ".")
                let known = LabSettings.knownKeys(at: parent)
                throw CLIError(status: .badData, message: "\(path): unknown key '\(first)'"
                               + (unknown.count > 1 ? " (and \(unknown.count - 1) more: \(unknown.dropFirst().joined(separator: ", ")))" : "")
                               + "; known \(parent.isEmpty ? "keys" : "keys in '\(parent)'"): \(known.joined(separator: ", "))")
            }
            // Ranges before decoding, from one table, so every number's message names key, value and range.
            if let (at, problem) = try LabSettings.rangeProblems(inJSON: data).first {
                throw CLIError(status: .badData, message: "\(path): " + (at.isEmpty ? "" : "at '\(at)': ") + problem)
            }
            settings = try JSONDecoder().decode(LabSettings.self, from: data)
        } catch let error as CLIError {
            throw error
        } catch let DecodingError.dataCorrupted(context) where !context.codingPath.isEmpty {
            let where_ = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw CLIError(status: .badData, message: "\(path): at '\(where_)': \(context.debugDescription)")
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
        // Only the keys that differ from the defaults: the file shows what was tuned.
        let data = try settings.settingsFileData()
        do {
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw CLIError(status: .ioError, message: "\(path): cannot write the settings file (\(error.localizedDescription))")
        }
    }
}
