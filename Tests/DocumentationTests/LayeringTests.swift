import Foundation
import Testing

/// The flow is one-way and the recognition core is pure: GestureCore imports no C module (no
/// libevdev, no libyaml, no FUSE) and no Foundation (no file I/O), so it builds and tests on a
/// machine without them; `.ci/run` also builds it alone before installing the C libraries.
/// InteractiveTransition knows no evdev. The lab engine (GestureLab) knows nothing of its reports;
/// the reports (LabReports) know the engine and the libraries below it, nothing above.
@Suite struct LayeringTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every `import X` of the Swift files under Sources/TARGET, with the file that has it.
    static func imports(of target: String) throws -> [(file: String, module: String)] {
        let directory = root.appendingPathComponent("Sources/\(target)")
        guard let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else { return [] }
        var found: [(String, String)] = []
        for case let url as URL in files where url.pathExtension == "swift" {
            for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n") {
                if let module = importedModule(line) { found.append((url.lastPathComponent, module)) }
            }
        }
        return found
    }

    /// The access levels an import may begin with (`package import X` imports X as surely as
    /// `import X` does).
    static let accessLevels: Set<Substring> = ["public", "package", "internal", "fileprivate", "private", "open"]
    /// The kinds of a scoped import (`import struct X.Y`).
    static let importKinds: Set<Substring> = ["typealias", "struct", "class", "enum", "protocol", "let", "var", "func"]

    /// The module a line of Swift imports, or nil: `import X`, after any attributes (`@testable`,
    /// `@_exported`, `@preconcurrency`) and an access level, of a whole module, a submodule or one
    /// declaration (`import struct X.Y`: X).
    static func importedModule(_ line: Substring) -> String? {
        var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })[...]
        while let first = words.first, first.hasPrefix("@") { words = words.dropFirst() }
        if let first = words.first, accessLevels.contains(first) { words = words.dropFirst() }
        guard words.first == "import" else { return nil }
        words = words.dropFirst()
        if let first = words.first, importKinds.contains(first) { words = words.dropFirst() }
        guard let path = words.first, let module = path.split(separator: ".").first else { return nil }
        return String(module)
    }

    /// The parser above finds every form of import a forbidden module could come in by, and no
    /// line that only mentions the word.
    @Test func theImportParserSeesEveryFormOfImport() {
        let lines: [(String, String?)] = [
            ("import PinchlabWeb", "PinchlabWeb"),
            ("package import PinchlabWeb", "PinchlabWeb"),
            ("internal import PinchlabWeb", "PinchlabWeb"),
            ("public import PinchlabWeb", "PinchlabWeb"),
            ("private import PinchlabWeb", "PinchlabWeb"),
            ("@_exported public import PinchlabWeb", "PinchlabWeb"),
            ("@preconcurrency package import PinchlabWeb", "PinchlabWeb"),
            ("@testable import PinchlabWeb", "PinchlabWeb"),
            ("\timport PinchlabWeb", "PinchlabWeb"),
            ("import struct PinchlabWeb.Server", "PinchlabWeb"),
            ("package import class PinchlabWeb.Server", "PinchlabWeb"),
            ("import PinchlabWeb.Routes", "PinchlabWeb"),
            ("// import PinchlabWeb", nil),
            ("/// Imports nothing: import PinchlabWeb is forbidden here.", nil),
            ("let imported = important", nil),
            ("import", nil),
        ]
        for (line, module) in lines {
            #expect(Self.importedModule(line[...]) == module, "\(line)")
        }
    }

    @Test func theRecognitionCoreImportsNoCModuleAndNoFoundation() throws {
        let imports = try Self.imports(of: "GestureCore")
        #expect(imports.count > 0, "the scan found no imports at all: is Sources/GestureCore there?")
        // The platform's C library for math (atan2, hypot) is the one C module allowed.
        let allowed: Set<String> = ["SettingsTable", "Glibc", "Musl", "Darwin"]
        let foreign = imports.filter { !allowed.contains($0.module) }.map { "\($0.file): import \($0.module)" }
        #expect(foreign == [])
    }

    /// The tools' rules are pure functions of a libinput event stream: no C module, no Foundation,
    /// nothing of pinchlab's but the settings table.
    @Test func theGestureToolsImportNoCModuleAndNoFoundation() throws {
        let imports = try Self.imports(of: "GestureTools")
        #expect(imports.count > 0, "the scan found no imports at all: is Sources/GestureTools there?")
        let allowed: Set<String> = ["SettingsTable", "Glibc", "Musl", "Darwin"]
        let foreign = imports.filter { !allowed.contains($0.module) }.map { "\($0.file): import \($0.module)" }
        #expect(foreign == [])
    }

    @Test func theTransitionKnowsNoEvdev() throws {
        let modules = Set(try Self.imports(of: "InteractiveTransition").map(\.module))
        #expect(modules.isDisjoint(with: ["GestureCore", "GestureKit", "CEvdev", "GestureLab"]), "\(modules)")
    }

    /// The engine returns typed values; text, plots and the viewer page are made above it.
    @Test func theLabEngineImportsNoReportAndNothingAboveIt() throws {
        let imports = try Self.imports(of: "GestureLab")
        #expect(imports.count > 0, "the scan found no imports at all: is Sources/GestureLab there?")
        let allowed: Set<String> = ["GestureCore", "GestureKit", "GestureTools", "InteractiveTransition", "SettingsTable", "SystemPackage",
                                    "Foundation", "Glibc", "Musl", "Darwin"]
        let foreign = imports.filter { !allowed.contains($0.module) }.map { "\($0.file): import \($0.module)" }
        #expect(foreign == [])
    }

    /// Reports read the engine's results: no device, no system call, no web server, no command line.
    @Test func theReportsImportOnlyTheEngineAndTheLibrariesBelowIt() throws {
        let imports = try Self.imports(of: "LabReports")
        #expect(imports.contains { $0.module == "GestureLab" }, "the scan found no import of the engine: is Sources/LabReports there?")
        let allowed: Set<String> = ["GestureLab", "GestureCore", "GestureKit", "GestureTools", "InteractiveTransition", "SettingsTable",
                                    "Foundation", "Glibc", "Musl", "Darwin"]
        let foreign = imports.filter { !allowed.contains($0.module) }.map { "\($0.file): import \($0.module)" }
        #expect(foreign == [])
    }
}
