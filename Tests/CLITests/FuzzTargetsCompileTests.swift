import Foundation
import PinchlabTestSupport
import Testing

/// The libFuzzer targets (Fuzz/Targets) are compiled only by `Fuzz/run.sh`, outside SwiftPM, so a
/// change to the libraries' API could break them unseen until CI's fuzz step (it did once: CI went
/// red after every test had passed). This type-checks them against the modules this test run was
/// built with, which takes about a second.
@Suite(.blocking) struct FuzzTargetsCompileTests {
    @Test func theFuzzTargetsTypeCheckAgainstTheLibraries() throws {
        let modules = CLI.binary.deletingLastPathComponent().appendingPathComponent("Modules").path
        #expect(FileManager.default.fileExists(atPath: modules + "/GestureLab.swiftmodule"), "no modules at \(modules)")
        let targets = CLI.packageRoot.appendingPathComponent("Fuzz/Targets")
        let sources = try FileManager.default.contentsOfDirectory(atPath: targets.path)
            .filter { $0.hasSuffix(".swift") }.sorted().map { targets.appendingPathComponent($0).path }
        #expect(sources.count >= 5, "\(sources)")
        let cflags = try Self.run("/usr/bin/pkg-config", ["--cflags", "libevdev", "yaml-0.1"])
        try #require(cflags.status == 0, "\(cflags.output)")
        let root = CLI.packageRoot.path
        // GestureKit imports swift-system's SystemPackage, whose C module map is in SwiftPM's checkout.
        let system = try #require(Self.checkout("swift-system"), "no swift-system checkout above \(CLI.binary.path)")
        // The targets use `package` API (Fuzz/run.sh compiles every module with one package name):
        // the package name SwiftPM gave the modules.
        let packageName = try #require(Self.packageName(), "no -package-name for GestureKit in the build description")
        var arguments = ["-typecheck", "-parse-as-library", "-swift-version", "6", "-I", modules,
                         "-package-name", packageName,
                         "-I", root + "/Sources/CEvdev", "-I", root + "/Sources/CYAML",
                         "-I", system + "/Sources/CSystem/include"]
        for flag in cflags.output.split(whereSeparator: \.isWhitespace) { arguments += ["-Xcc", String(flag)] }
        let swiftc = try #require(Self.swiftc(), "no swiftc next to the running toolchain or in PATH")
        let result = try Self.run(swiftc, arguments + sources)
        #expect(result.status == 0, "Fuzz/Targets no longer compile against the libraries:\n\(result.output)")
    }

    /// SwiftPM's checkout of `package`: `checkouts/` in the scratch directory the binary was built in.
    static func checkout(_ package: String) -> String? {
        var directory = CLI.binary.deletingLastPathComponent()
        for _ in 0..<3 {
            let candidate = directory.appendingPathComponent("checkouts/" + package).path
            if FileManager.default.fileExists(atPath: candidate) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return nil
    }

    /// The `-package-name` SwiftPM compiled GestureKit with (from the checkout's directory name), read
    /// from the build description (`debug.yaml` or `release.yaml`) in the scratch directory the
    /// binary was built in.
    static func packageName() -> String? {
        var directory = CLI.binary.deletingLastPathComponent()
        let configuration = directory.lastPathComponent
        for _ in 0..<3 {
            directory = directory.deletingLastPathComponent()
            let description = directory.appendingPathComponent(configuration + ".yaml").path
            guard let text = try? String(contentsOfFile: description, encoding: .utf8) else { continue }
            for line in text.split(separator: "\n") where line.contains(#""-module-name","GestureKit""#) {
                guard let range = line.range(of: #""-package-name",""#) else { continue }
                return String(line[range.upperBound...].prefix { $0 != "\"" })
            }
        }
        return nil
    }

    /// The `swiftc` in PATH (the toolchain `swift test` runs from).
    static func swiftc() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { $0 + "/swiftc" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// `tool` run as CLI.run runs pinchlab (with its time limit), stdout and stderr together.
    static func run(_ tool: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let r = try CLI.run(arguments, executable: URL(fileURLWithPath: tool))
        return (r.status, r.stdout + r.stderr)
    }
}
