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
                let words = line.split(separator: " ")
                guard let importIndex = words.firstIndex(of: "import"), importIndex + 1 < words.count,
                      words[..<importIndex].allSatisfy({ $0.hasPrefix("@") }) else { continue }
                found.append((url.lastPathComponent, String(words[importIndex + 1])))
            }
        }
        return found
    }

    @Test func theRecognitionCoreImportsNoCModuleAndNoFoundation() throws {
        let imports = try Self.imports(of: "GestureCore")
        #expect(imports.count > 0, "the scan found no imports at all: is Sources/GestureCore there?")
        // The platform's C library for math (atan2, hypot) is the one C module allowed.
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
        let allowed: Set<String> = ["GestureCore", "GestureKit", "InteractiveTransition", "SettingsTable", "SystemPackage",
                                    "Foundation", "Glibc", "Musl", "Darwin"]
        let foreign = imports.filter { !allowed.contains($0.module) }.map { "\($0.file): import \($0.module)" }
        #expect(foreign == [])
    }

    /// Reports read the engine's results: no device, no system call, no web server, no command line.
    @Test func theReportsImportOnlyTheEngineAndTheLibrariesBelowIt() throws {
        let imports = try Self.imports(of: "LabReports")
        #expect(imports.contains { $0.module == "GestureLab" }, "the scan found no import of the engine: is Sources/LabReports there?")
        let allowed: Set<String> = ["GestureLab", "GestureCore", "GestureKit", "InteractiveTransition", "SettingsTable",
                                    "Foundation", "Glibc", "Musl", "Darwin"]
        let foreign = imports.filter { !allowed.contains($0.module) }.map { "\($0.file): import \($0.module)" }
        #expect(foreign == [])
    }
}
