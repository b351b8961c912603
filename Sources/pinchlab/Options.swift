import ArgumentParser
import Foundation
import GestureCore
import GestureKit
import GestureLab
import GestureTools
import InteractiveTransition
import SettingsTable
import SystemPackage

/// Where a recording comes from: one file (evemu, `libinput record` or an evtest log, detected by content), or the
/// two halves of an old split evemu recording, and which device of a multi-device libinput file.
struct RecordingOptions: ParsableArguments {
    @Argument(help: ArgumentHelp(
        "A recording: evemu (.evemu), `libinput record` YAML (.yml) or an evtest log (as pasted in a bug report), detected by content; - reads standard input.",
        discussion: "Read once from the start, so a pipe works too: `xz -dc bug.evemu.xz | pinchlab replay -`."),
        completion: .file())
    var file: String

    /// The file as messages name it (`<stdin>` for `-`, as the readers do).
    var displayName: String { recordingDisplayName(file) }

    @Option(name: .customLong("events"), help: "The .events half of an old split evemu recording (FILE is the .desc half; - reads standard input).", completion: .file())
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
    func open(readAhead: RecordingReadAhead = .lines) throws -> any RecordingSource {
        let source = try openRecording(path: file, secondPath: eventsFile, device: selector, readAhead: readAhead)
        if let evemu = source as? EvemuReader, evemu.holdsOnlyADescription {
            printError("pinchlab: warning: \(SplitRecording.descriptionOnlyHint(displayName, path: file))")
        }
        return source
    }

    /// The files this recording is read from (`-` for standard input).
    var inputPaths: [String] { [file] + (eventsFile.map { [$0] } ?? []) }

    /// Refuses an output path that names an input file of the run (this recording, and `also`:
    /// a settings file), by identity on disk rather than by spelling: `OutputFile.refuse`.
    func refuseOutput(_ output: String, option: String = "-o", also other: [String] = [], doing action: String) throws {
        try OutputFile.refuse(output, option: option, overwriting: inputPaths + other, doing: action)
    }
}

// Closed sets of names on the command line: ArgumentParser lists the values in the help, offers them
// to shell completion, and refuses anything else with the list.
extension TransitionName: ExpressibleByArgument {}
extension ScrollMethod: ExpressibleByArgument {}
extension CompletionPolicyPreset: ExpressibleByArgument {
    /// A preset's name, or an older name still accepted (`seed`).
    public init?(argument: String) { self.init(named: argument) }
}

/// A `--compare` list (comma-separated names), read once: the policy presets (or their aliases) in
/// order, and the gesture tools named in it (`replay` takes them as `--tool` takes them). An unknown
/// or empty name, or a tool where the command draws no tools (`plot`, `view`), is a usage error that
/// names it and lists what it takes.
struct ComparedList {
    var policies: [PolicyComparison.Policy] = []
    var tools: [GestureToolName] = []

    init(_ list: String?, takesTools: Bool) throws {
        guard let list else { return }
        for name in list.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
            if let tool = GestureToolName(rawValue: name) {
                guard takesTools else { throw ValidationError("--compare \(name): this command shows no gesture tool yet (replay does)") }
                tools.append(tool)
            } else if let preset = CompletionPolicyPreset(named: name) {
                policies.append(PolicyComparison.Policy(preset))
            } else {
                throw ValidationError("unknown policy\(takesTools ? " or tool" : "") '\(name)' in --compare; choose from "
                                      + CompletionPolicyPreset.allCases.map(\.rawValue).joined(separator: ", ")
                                      + (takesTools ? ", or a tool: " + GestureToolName.allCases.map(\.rawValue).joined(separator: ", ") : ""))
            }
        }
    }
}

extension CompletionTiming: ExpressibleByArgument {
    public init?(argument: String) { self.init(named: argument) }
    public static var allValueStrings: [String] { named.map(\.name) }
    public static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
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
    public static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
    public var defaultValueDescription: String { self == .evemu ? "evemu" : "libinput" }
}

/// What turns gestures into a transition: which transition, which policy, which settings file.
struct TransitionOptions: ParsableArguments {
    @Option(name: .customLong("transition"),
            help: ArgumentHelp("The transition the gesture drives (default: pinch-dismiss; a live dump's own when replaying one).",
                               valueName: "name"))
    var chosenTransition: TransitionName?

    /// The transition given, or the default: `replay` and `report` take a live dump's own instead
    /// of the default (`DumpedSession`), so they need to know whether one was given.
    var transition: TransitionName { chosenTransition ?? .pinchDismiss }

    @Option(help: ArgumentHelp("Settings saved by `pinchlab tune --write` (recognizer thresholds, policy, mappings).",
                               valueName: "file"), completion: .file(extensions: ["json"]))
    var config: String?

    @Option(help: ArgumentHelp("Finish/cancel policy preset instead of the configured one: \(CompletionPolicyPreset.allCases.map(\.rawValue).joined(separator: ", ")) (seed = uikit-seed).",
                               discussion: "gnome, kwin, hyprland and android-back decide as those systems do, with their shipped figures; uikit-seed is progress > 0.5 only, as in the seeds.",
                               valueName: "preset"))
    var policy: CompletionPolicyPreset?

    @Option(parsing: .unconditional, help: ArgumentHelp("Progress threshold for finishing (\(Self.thresholdOption.rangeText)), overriding the policy's.",
                                                      valueName: "p"))
    var threshold: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Millimetres of downward travel that make a pan-dismiss complete.", valueName: "mm"))
    var panDistance: Double?

    @Option(help: ArgumentHelp("How the completion animates after the release. A spring continues from the release velocity. Default: the transition's own.",
                               discussion: "The seed documents' names are still accepted: seed003-present, seed003-dismiss, seed003-bounce (appstore-...), seed004-menu (slide-in-menu).",
                               valueName: "timing"))
    var completion: CompletionTiming?

    @Option(parsing: .unconditional, help: ArgumentHelp("UIKit's completionSpeed (\(Self.completionSpeedOption.rangeText)): the completion after the release runs this many times faster (default \(Self.completionSpeedOption.defaultText)).",
                                                      valueName: "factor"))
    var completionSpeed: Double?

    /// The settings these options set, found by their properties: the help's ranges and
    /// `validate()`'s checks are their rows', so an option and the key it overrides take the same values.
    static let thresholdOption = SettingOption(CompletionPolicy.settings, \.progressThreshold, name: "--threshold", mustBe: "within")
    static let panDistanceOption = SettingOption(LabSettings.settings, \.panDismissDistanceMM, name: "--pan-distance",
                                                 mustBe: "a positive number of millimetres in")
    static let completionSpeedOption = SettingOption(LabSettings.settings, \.completionSpeed, name: "--completion-speed",
                                                     mustBe: "a positive factor in", default: LabSettings.default)

    func validate() throws {
        try Self.thresholdOption.check(threshold)
        try Self.panDistanceOption.check(panDistance)
        try Self.completionSpeedOption.check(completionSpeed)
    }

    /// The settings file read, if any: an input of the run that no output may overwrite.
    var inputPaths: [String] { config.map { [$0] } ?? [] }

    /// The policy as the viewer names it: a preset's name (`seed` as `uikit-seed`), `configured`
    /// when --config or --threshold set it, else `default`.
    var policyName: String {
        if threshold != nil { return "configured" }
        if let policy { return policy.rawValue }
        return config == nil ? "default" : "configured"
    }

    /// The settings: `--config`'s file, else `base` (a dump's own, else the defaults), with the
    /// options set on top.
    func settings(base: LabSettings = .default) throws -> LabSettings {
        var settings = base
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
        // An option may break what the file's figures held (a slower --completion-speed for its spring).
        if let problem = settings.validationError() {
            throw CLIError(status: .usage, message: "with these options, \(problem)")
        }
        return settings
    }
}

/// Reads and writes `LabSettings` as JSON, with errors that name the file.
enum LabSettingsFile {
    /// The settings file at `path`, read, checked and decoded by the library; only the exit status
    /// is chosen here.
    static func load(path: String) throws -> LabSettings {
        do {
            return try LabSettings(contentsOf: path)
        } catch {
            let status: ExitStatus = switch error.reason {
            case .interrupted: .interrupted
            case .unreadable(let errno): errno.kind == .permissionDenied ? .permissionDenied : .noInput
            case .tooLarge, .syntax, .settings: .badData
            }
            throw CLIError(status: status, message: error.description)
        }
    }

    static func save(_ settings: LabSettings, path: String) throws {
        // Only the keys that differ from the defaults: the file shows what was tuned.
        let data = try settings.settingsFileData()
        try OutputFile.write(String(decoding: data, as: UTF8.self), to: path, what: "settings file")
    }
}
