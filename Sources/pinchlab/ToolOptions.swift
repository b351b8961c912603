import ArgumentParser
import Foundation
import GestureLab
import LabReports
import GestureTools

extension GestureToolName: ExpressibleByArgument {}

/// `--libinput-version`: the libinput whose units the tools' thresholds are in (`replay`, `check`,
/// `live` through `ToolOptions`; `tune --for`).
struct LibinputUnitsOption: ParsableArguments {
    @Option(name: .customLong("libinput-version"), help: ArgumentHelp(
        "The libinput whose units the tools' thresholds are in (libinput 1.18 changed them). Default: the installed one, else 1.22.1.",
        valueName: "version"))
    var libinputVersion: String?

    func validate() throws {
        if let libinputVersion, LibinputVersion(libinputVersion) == nil {
            throw ValidationError("--libinput-version takes a version such as 1.22.1, not '\(libinputVersion)'")
        }
    }

    /// The given version's units, else the installed libinput's (`installed` is asked only then:
    /// it runs `libinput --version`), else Debian 12's.
    func units(installed: @autoclosure () -> String?) -> LibinputUnits {
        if let libinputVersion, let version = LibinputVersion(libinputVersion) { return LibinputUnits(version: version) }
        return LibinputUnits(libinputSays: installed())
    }
}

/// A tool's configuration file read as the tool reads it: missing (66), not text or refused by
/// the tool's reader (65, with its line). The text too, for `tune --write` to write it back.
func readToolConfiguration(_ name: GestureToolName, path: String) throws -> (settings: GestureToolSettings, text: String) {
    let text: String
    do {
        text = try String(contentsOfFile: path, encoding: .utf8)
    } catch {
        let exists = FileManager.default.fileExists(atPath: path)
        throw CLIError(status: exists ? .badData : .noInput,
                       message: "cannot read the \(name.rawValue) configuration \(path): " + (exists ? "not UTF-8 text" : "no such file"))
    }
    do {
        return (try GestureToolSettings.read(name, text: text, file: path), text)
    } catch {
        throw CLIError(status: .badData, message: error.text)
    }
}

/// `--tool NAME` (repeatable), `--tool-config [NAME=]FILE`, `--libinput-version`: which gesture
/// tools judge the recording, with whose configuration, in which libinput's units.
struct ToolOptions: ParsableArguments {
    @Option(name: .customLong("tool"), help: ArgumentHelp(
        "Also say what this gesture tool would have done with the recording (repeatable).",
        discussion: "Fed by pinchlab's recognizer in libinput's units, or by Debian's libinput itself with --with-libinput. docs/reference/tools.md says what each tool's rule is."),
        completion: .list(GestureToolName.allCases.map(\.rawValue)))
    var tools: [GestureToolName] = []

    @Option(name: .customLong("tool-config"), help: ArgumentHelp(
        "The tool's own configuration: touchegg.conf, libinput-gestures.conf, fusuma's config.yml, InputActions' YAML, lisgd's flags in a file. NAME=FILE when several tools are named.",
        valueName: "[tool=]file"), completion: .file())
    var toolConfigs: [String] = []

    @OptionGroup var unitsOption: LibinputUnitsOption

    var libinputVersion: String? { unitsOption.libinputVersion }

    func validate() throws {
        if !toolConfigs.isEmpty && tools.isEmpty { throw ValidationError("--tool-config needs a --tool to configure") }
        for config in toolConfigs { _ = try pairing(config) }
        if Set(tools).count != tools.count { throw ValidationError("--tool names a tool twice") }
    }

    /// The tool a `--tool-config` value is for, and its file.
    private func pairing(_ value: String) throws -> (GestureToolName, String) {
        if let equals = value.firstIndex(of: "="), let name = GestureToolName(rawValue: String(value[..<equals])) {
            guard tools.contains(name) else { throw ValidationError("--tool-config \(name.rawValue)=... names a tool not given with --tool") }
            return (name, String(value[value.index(after: equals)...]))
        }
        guard tools.count == 1 else {
            throw ValidationError("--tool-config: with several tools, say which tool the file is for (--tool-config lisgd=FILE)")
        }
        return (tools[0], value)
    }

    /// The units the tools' thresholds are read in: `--libinput-version`'s, else the installed
    /// libinput's (asked only then).
    func units(installed: @autoclosure () -> String?) -> LibinputUnits { unitsOption.units(installed: installed()) }

    /// One named tool: its settings, and whether they are the user's (`--tool-config`).
    struct Configured {
        var settings: GestureToolSettings
        var isUsers: Bool
        /// The user's file (path and text), when `isUsers`: lisgd's is also its command line.
        var file: (path: String, text: String)? = nil
    }

    /// Each named tool (and `also`'s, from `--compare`) with the user's configuration, or its defaults.
    func configured(also: [GestureToolName] = []) throws -> [Configured] { try configuredRuns(also: also, severalLisgd: false)[0] }

    /// `configured(also:)` once for each lisgd file when `severalLisgd` (`replay --with-lisgd`,
    /// which plays the recording once to one real lisgd per file), the other tools alike in each;
    /// one list otherwise. Two files for any other tool, or for lisgd without `severalLisgd`, are
    /// refused: each tool's verdict is one block of the output.
    func configuredRuns(also: [GestureToolName] = [], severalLisgd: Bool) throws -> [[Configured]] {
        let tools = self.tools + also.filter { !self.tools.contains($0) }
        var files: [GestureToolName: [String]] = [:]
        for config in toolConfigs {
            let (name, file) = try pairing(config)
            guard files[name] == nil || (name == .lisgd && severalLisgd) else {
                throw ValidationError("--tool-config gives \(name.rawValue) two files"
                                      + (name == .lisgd ? " (several lisgd files go with replay --with-lisgd)" : ""))
            }
            files[name, default: []].append(file)
        }
        func configured(_ name: GestureToolName, _ file: String?) throws -> Configured {
            guard let file else { return Configured(settings: GestureToolSettings.defaults(name), isUsers: false) }
            let (settings, text) = try readToolConfiguration(name, path: file)
            return Configured(settings: settings, isUsers: true, file: (file, text))
        }
        return try (0..<max(1, files[.lisgd]?.count ?? 0)).map { run in
            try tools.map { name in try configured(name, files[name].map { $0[name == .lisgd ? run : 0] }) }
        }
    }

    /// `configured(also:)`'s settings alone.
    func settings(also: [GestureToolName] = []) throws -> [GestureToolSettings] { try configured(also: also).map(\.settings) }
}
