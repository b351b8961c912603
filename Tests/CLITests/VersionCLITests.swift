import Foundation
import PinchlabTestSupport
import Testing

/// `pinchlab --version`: the version, and the git commit the binary was built from when it was
/// built from a git work tree (Plugins/GitCommitStamp stamps it whenever the commit or a source
/// changes).
@Suite(.blocking) struct VersionCLITests {
    static let env = URL(fileURLWithPath: "/usr/bin/env")
    static let stampScript = CLI.packageRoot.appendingPathComponent("Plugins/GitCommitStamp/write-build-commit.sh")

    /// `git ARGUMENTS` in `directory`; nil when git fails or is not installed.
    static func git(_ arguments: [String], in directory: URL) throws -> String? {
        let r = try CLI.run(["git"] + arguments, executable: env, directory: directory)
        guard r.status == 0 else { return nil }
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func versionPrintsTheVersionAndTheCommitItWasBuiltFrom() throws {
        let r = try CLI.run(["--version"])
        #expect(r.status == 0)
        #expect(r.stderr.isEmpty, "\(r.stderr)")
        // The number is the one in Version.swift, written nowhere else.
        let source = try String(contentsOf: CLI.packageRoot.appendingPathComponent("Sources/pinchlab/Version.swift"), encoding: .utf8)
        let match = try #require(source.firstMatch(of: /static let number = "([0-9]+\.[0-9]+\.[0-9]+)"/))
        let number = String(match.1)

        let root = CLI.packageRoot.resolvingSymlinksInPath().path
        if let top = try Self.git(["rev-parse", "--show-toplevel"], in: CLI.packageRoot),
           URL(fileURLWithPath: top).resolvingSymlinksInPath().path == root,
           let head = try Self.git(["rev-parse", "--short=12", "HEAD"], in: CLI.packageRoot) {
            // Clean or not depends on the tree when it was built, which a test cannot see; the
            // script's tests below check the flag itself.
            #expect(r.stdout == "pinchlab \(number) (git \(head))\n" || r.stdout == "pinchlab \(number) (git \(head)-dirty)\n",
                    "HEAD is \(head): \(r.stdout)")
        } else {
            #expect(r.stdout == "pinchlab \(number)\n", "no git work tree here: \(r.stdout)")
        }
    }

    // MARK: the stamp script the plugin runs, on throwaway repositories

    struct Stamp: Equatable {
        var hash: String?
        var dirty: Bool
    }

    /// Runs the plugin's script with `/bin/sh` as the build does and reads back what it generated.
    /// `sources`: the paths "dirty" is about (the plugin passes the stamped target's sources).
    static func stamp(_ package: URL, sources: [String] = [], output: URL? = nil, path: String? = nil) throws -> Stamp {
        let file = output ?? package.deletingLastPathComponent().appendingPathComponent("stamp-\(UUID().uuidString)/BuildCommit.swift")
        let r = try CLI.run([stampScript.path, package.path, file.path] + sources, environment: path.map { ["PATH": $0] },
                            executable: URL(fileURLWithPath: "/bin/sh"), directory: package)
        #expect(r.status == 0, "\(r.stderr)")
        let text = try String(contentsOf: file, encoding: .utf8)
        let hash = try #require(text.firstMatch(of: /static let hash: String\? = (nil|"([0-9a-f]+)")/), "\(text)")
        let dirty = try #require(text.firstMatch(of: /static let dirty = (true|false)/), "\(text)")
        return Stamp(hash: hash.2.map(String.init), dirty: dirty.1 == "true")
    }

    /// A directory holding a one-file package committed to a new repository (`.build/` ignored).
    static func committedPackage() throws -> URL {
        let package = try CLI.temporaryDirectory().appendingPathComponent("package")
        try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
        try "// swift-tools-version:6.1\n".write(to: package.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try ".build/\n".write(to: package.appendingPathComponent(".gitignore"), atomically: true, encoding: .utf8)
        #expect(try git(["init", "-q"], in: package) != nil)
        #expect(try git(["add", "."], in: package) != nil)
        #expect(try git(["-c", "user.name=pinchlab test", "-c", "user.email=test@pinchlab.invalid", "commit", "-q", "-m", "first"],
                        in: package) != nil)
        return package
    }

    @Test func aCleanWorkTreeIsStampedWithItsHeadAndNoDirtyFlag() throws {
        let package = try Self.committedPackage()
        let head = try #require(try Self.git(["rev-parse", "--short=12", "HEAD"], in: package))
        #expect(head.count == 12)
        #expect(try Self.stamp(package) == Stamp(hash: head, dirty: false))
        // Ignored build products are not changes.
        try FileManager.default.createDirectory(at: package.appendingPathComponent(".build"), withIntermediateDirectories: true)
        try "x".write(to: package.appendingPathComponent(".build/product"), atomically: true, encoding: .utf8)
        #expect(try Self.stamp(package) == Stamp(hash: head, dirty: false))
    }

    @Test func aChangedOrNewFileMarksTheStampDirty() throws {
        let package = try Self.committedPackage()
        let head = try #require(try Self.git(["rev-parse", "--short=12", "HEAD"], in: package))
        try "// edited\n".write(to: package.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        #expect(try Self.stamp(package) == Stamp(hash: head, dirty: true))
        #expect(try Self.git(["checkout", "-q", "--", "Package.swift"], in: package) != nil)
        #expect(try Self.stamp(package) == Stamp(hash: head, dirty: false))
        // An untracked source is compiled too: what was built is not the commit.
        try "let x = 1\n".write(to: package.appendingPathComponent("New.swift"), atomically: true, encoding: .utf8)
        #expect(try Self.stamp(package) == Stamp(hash: head, dirty: true))
    }

    @Test func onlyTheSourcesItIsGivenMakeItDirty() throws {
        let package = try Self.committedPackage()
        let head = try #require(try Self.git(["rev-parse", "--short=12", "HEAD"], in: package))
        let sources = package.appendingPathComponent("Sources/tool")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        try "print(1)\n".write(to: sources.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
        try "# tool\n".write(to: package.appendingPathComponent("README.md"), atomically: true, encoding: .utf8)
        // Both new files are untracked; only the one under the sources counts.
        #expect(try Self.stamp(package, sources: ["Package.swift", "Sources/tool"]) == Stamp(hash: head, dirty: true))
        #expect(try Self.git(["add", "Sources"], in: package) != nil)
        #expect(try Self.git(["-c", "user.name=pinchlab test", "-c", "user.email=test@pinchlab.invalid", "commit", "-q", "-m", "tool"],
                             in: package) != nil)
        let next = try #require(try Self.git(["rev-parse", "--short=12", "HEAD"], in: package))
        #expect(next != head)
        #expect(try Self.stamp(package, sources: ["Package.swift", "Sources/tool"]) == Stamp(hash: next, dirty: false))
        #expect(try Self.stamp(package) == Stamp(hash: next, dirty: true), "the whole tree has the README")
        try "print(2)\n".write(to: sources.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
        #expect(try Self.stamp(package, sources: ["Package.swift", "Sources/tool"]) == Stamp(hash: next, dirty: true))
    }

    @Test func noGitWorkTreeOfItsOwnMeansNoCommit() throws {
        // A tarball: no .git at all.
        let tarball = try CLI.temporaryDirectory().appendingPathComponent("pinchlab-0.1.0")
        try FileManager.default.createDirectory(at: tarball, withIntermediateDirectories: true)
        #expect(try Self.stamp(tarball) == Stamp(hash: nil, dirty: false))
        // A tarball unpacked inside another repository must not print that repository's commit.
        let outer = try Self.committedPackage()
        let nested = outer.appendingPathComponent("vendor/pinchlab")
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        #expect(try Self.stamp(nested) == Stamp(hash: nil, dirty: false))
    }

    @Test func withoutGitInstalledTheStampSaysNoCommit() throws {
        let package = try Self.committedPackage()
        // A PATH with the few tools the script uses, and no git.
        let bin = try CLI.temporaryDirectory().appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        for tool in ["mkdir", "dirname", "cat", "cmp", "mv", "rm"] {
            let found = try #require(["/usr/bin/\(tool)", "/bin/\(tool)"].first { FileManager.default.isExecutableFile(atPath: $0) })
            try FileManager.default.createSymbolicLink(atPath: bin.appendingPathComponent(tool).path, withDestinationPath: found)
        }
        #expect(try Self.stamp(package, path: bin.path) == Stamp(hash: nil, dirty: false))
    }

    @Test func anUnchangedStampIsNotRewritten() throws {
        // Rewriting the file would recompile pinchlab on every build.
        let package = try Self.committedPackage()
        let output = try CLI.temporaryDirectory().appendingPathComponent("out/BuildCommit.swift")
        let first = try Self.stamp(package, output: output)
        let past = Date(timeIntervalSince1970: 1_000_000_000)
        try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: output.path)
        #expect(try Self.stamp(package, output: output) == first)
        let modified = try FileManager.default.attributesOfItem(atPath: output.path)[.modificationDate] as? Date
        #expect(modified == past)
        // A change is written.
        try "// edited\n".write(to: package.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        #expect(try Self.stamp(package, output: output).dirty)
        #expect(try FileManager.default.attributesOfItem(atPath: output.path)[.modificationDate] as? Date != past)
    }
}
