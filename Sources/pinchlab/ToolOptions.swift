import ArgumentParser
import Foundation
import GestureKit
import GestureLab
import LabReports
import GestureTools

extension GestureToolName: ExpressibleByArgument {}

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

    @Option(name: .customLong("libinput-version"), help: ArgumentHelp(
        "The libinput whose units the tools' thresholds are in (libinput 1.18 changed them). Default: the installed one, else 1.22.1.",
        valueName: "version"))
    var libinputVersion: String?

    func validate() throws {
        if let libinputVersion, LibinputVersion(libinputVersion) == nil {
            throw ValidationError("--libinput-version takes a version such as 1.22.1, not '\(libinputVersion)'")
        }
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

    /// Whether a `--tool-config` names `tool`'s file.
    func configures(_ tool: GestureToolName) -> Bool {
        toolConfigs.contains { config in
            (try? pairing(config))?.0 == tool
        }
    }

    /// The units the tools' thresholds are read in: the given version, else the installed libinput's.
    func units(installed: String?) -> LibinputUnits {
        if let libinputVersion, let version = LibinputVersion(libinputVersion) { return LibinputUnits(version: version) }
        if let installed, let version = installed.split(separator: " ").last.flatMap({ LibinputVersion($0) }) {
            return LibinputUnits(version: version)
        }
        return LibinputUnits(version: .debianBookworm)
    }

    /// Each named tool (and `also`'s, from `--compare`) with the user's configuration, or its defaults.
    func settings(also: [GestureToolName] = []) throws -> [GestureToolSettings] {
        let tools = self.tools + also.filter { !self.tools.contains($0) }
        var files: [GestureToolName: String] = [:]
        for config in toolConfigs {
            let (name, file) = try pairing(config)
            guard files[name] == nil else { throw ValidationError("--tool-config gives \(name.rawValue) two files") }
            files[name] = file
        }
        return try tools.map { name in
            guard let file = files[name] else { return GestureToolSettings.defaults(name) }
            let text: String
            do {
                text = try String(contentsOfFile: file, encoding: .utf8)
            } catch {
                throw CLIError(status: FileManager.default.fileExists(atPath: file) ? .badData : .noInput,
                               message: "cannot read the \(name.rawValue) configuration \(TerminalText.escaped(file)): "
                                   + (FileManager.default.fileExists(atPath: file) ? "not UTF-8 text" : "no such file"))
            }
            do {
                return try GestureToolSettings.read(name, text: text, file: file)
            } catch let error as ToolConfigurationError {
                throw CLIError(status: .badData, message: error.text)
            }
        }
    }
}
