import Foundation
import PinchlabTestSupport
import Testing

/// The libraries' public API is what docs/reference/public-api.txt lists, each symbol documented:
/// `swift-symbolgraph-extract` reads the modules this test run was built with, and the test fails
/// naming each symbol that is public but not listed, listed but no longer public, or public without
/// a `///` comment. A declaration made public on purpose goes into the list with
/// `PINCHLAB_UPDATE_GOLDEN=1 swift test --filter PublicAPITests` (which rewrites the file, as it
/// rewrites the golden files), and the diff of the list shows it in review.
@Suite struct PublicAPITests {
    static let root = Prerequisite.packageRoot
    static let listing = root.appendingPathComponent("docs/reference/public-api.txt")
    /// The library targets: the four products, the settings table their API uses, and GestureTools,
    /// whose whole API is `package` (so it lists nothing).
    static let modules = ["SettingsTable", "GestureCore", "GestureKit", "InteractiveTransition", "GestureTools", "GestureLab"]

    /// One public symbol: its line in the listing, and whether it has a doc comment.
    struct Symbol {
        var line: String
        var isDocumented: Bool
    }

    @Test func thePublicAPIIsTheListedOneAndDocumented() throws {
        let symbols = try Self.publicSymbols()
        let lines = Set(symbols.map(\.line))
        if ProcessInfo.processInfo.environment["PINCHLAB_UPDATE_GOLDEN"] == "1" {
            try (lines.sorted().joined(separator: "\n") + "\n").write(to: Self.listing, atomically: true, encoding: .utf8)
        }
        let listed = Set(try String(contentsOf: Self.listing, encoding: .utf8).split(separator: "\n").map(String.init))
        for line in lines.subtracting(listed).sorted() {
            Issue.record("public but not in docs/reference/public-api.txt (document it, then list it with PINCHLAB_UPDATE_GOLDEN=1): \(line)")
        }
        for line in listed.subtracting(lines).sorted() {
            Issue.record("in docs/reference/public-api.txt but not public: \(line)")
        }
        for symbol in symbols where !symbol.isDocumented {
            Issue.record("public without a doc comment: \(symbol.line)")
        }
    }

    /// Every public symbol declared in the library modules' sources (synthesized members have no
    /// source location and are left out), as `MODULE KIND PATH: DECLARATION`, one space apart.
    static func publicSymbols() throws -> [Symbol] {
        let tool = try #require(Self.tool("swift-symbolgraph-extract"), "no swift-symbolgraph-extract next to swiftc in PATH")
        let build = Self.buildDirectory()
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("pinchlab-public-api-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: output) }
        #if arch(x86_64)
        let target = "x86_64-unknown-linux-gnu"
        #else
        let target = "aarch64-unknown-linux-gnu"
        #endif
        // swift-system's C module, in the checkouts of the scratch directory the build directory is in
        // (`.build/x86_64-unknown-linux-gnu/debug`: two levels up).
        var scratch = build.deletingLastPathComponent()
        for _ in 0..<3 where !FileManager.default.fileExists(atPath: scratch.appendingPathComponent("checkouts").path) {
            scratch = scratch.deletingLastPathComponent()
        }
        let system = scratch.appendingPathComponent("checkouts/swift-system/Sources/CSystem/include")
        for module in modules {
            let process = Process()
            process.executableURL = tool
            process.arguments = [
                "-module-name", module, "-I", build.appendingPathComponent("Modules").path,
                "-I", root.appendingPathComponent("Sources/CEvdev").path, "-I", root.appendingPathComponent("Sources/CYAML").path,
                "-Xcc", "-I" + system.path, "-Xcc", "-I/usr/include/libevdev-1.0",
                "-target", target, "-minimum-access-level", "public", "-skip-inherited-docs", "-output-dir", output.path,
            ]
            let errors = Pipe()
            process.standardError = errors
            try process.start()
            let message = errors.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(module): \(String(decoding: message, as: UTF8.self))")
        }
        var symbols: [Symbol] = []
        // MODULE.symbols.json, and MODULE@OTHER.symbols.json for its extensions of another module's types.
        for file in try FileManager.default.contentsOfDirectory(atPath: output.path).sorted() where file.hasSuffix(".symbols.json") {
            let module = String(file.prefix { $0 != "." && $0 != "@" })
            let data = try Data(contentsOf: output.appendingPathComponent(file))
            let graph = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            // A protocol extension's default for a requirement reads like the requirement: its kind says which.
            let defaults = Set((graph["relationships"] as? [[String: Any]] ?? [])
                .filter { $0["kind"] as? String == "defaultImplementationOf" }.compactMap { $0["source"] as? String })
            for case let symbol as [String: Any] in graph["symbols"] as? [Any] ?? [] where symbol["location"] != nil {
                var kind = ((symbol["kind"] as? [String: Any])?["identifier"] as? String ?? "?").replacingOccurrences(of: "swift.", with: "")
                if let id = (symbol["identifier"] as? [String: Any])?["precise"] as? String, defaults.contains(id) { kind += "(default)" }
                let path = (symbol["pathComponents"] as? [String] ?? []).joined(separator: ".")
                let fragments = symbol["declarationFragments"] as? [[String: Any]] ?? []
                let declaration = fragments.map { $0["spelling"] as? String ?? "" }.joined()
                    .split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
                symbols.append(Symbol(line: "\(module) \(kind) \(path): \(declaration)", isDocumented: symbol["docComment"] != nil))
            }
        }
        return symbols.sorted { $0.line < $1.line }
    }

    /// The directory the running tests were built in (`.build/debug`), which holds `Modules/`.
    static func buildDirectory() -> URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        // The test bundle may be a directory (…/pinchlabPackageTests.xctest/…): walk up to the build directory.
        for _ in 0..<4 where !FileManager.default.fileExists(atPath: directory.appendingPathComponent("Modules").path) {
            directory = directory.deletingLastPathComponent()
        }
        return directory
    }

    /// A tool of the toolchain: the directory of the `swiftc` in PATH.
    static func tool(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for directory in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: directory + "/swiftc") {
            let tool = URL(fileURLWithPath: directory + "/" + name)
            if FileManager.default.isExecutableFile(atPath: tool.path) { return tool }
        }
        return nil
    }
}
