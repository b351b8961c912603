import Foundation
import PackagePlugin

/// Tells `pinchlab --version` which commit it was built from, and whether the sources it was built
/// from differed from that commit.
///
/// A build command, not a prebuild command: SwiftPM runs a plugin, and so its prebuild commands,
/// only when it plans the build again (a changed manifest or a file added or removed in a target),
/// not on every build (swiftlang/swift-package-manager#5476), so a prebuild stamp goes stale after
/// `git commit` and an incremental build. This command's inputs are what a commit, checkout or reset
/// touches (the git directory, whose entries git replaces through lock files, its `HEAD`, and the
/// `HEAD` reflog) and every file of the targets the stamped target is built from, so the build runs
/// it again whenever any of them changes, and only then.
///
/// It runs the system's `/bin/sh` on `write-build-commit.sh` (git when it is there): nothing is built
/// or fetched for it; a tarball without `.git`, or a machine without git, builds and prints only the
/// version.
@main
struct GitCommitStamp: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        let package = context.package.directoryURL.standardizedFileURL
        let script = package.appending(components: "Plugins", "GitCommitStamp", "write-build-commit.sh")
        let output = context.pluginWorkDirectoryURL.appending(component: "BuildCommit.swift")

        // The sources of the stamped target and of every target of this package it depends on:
        // what "dirty" is about (an edited README does not change the binary).
        let own = Set(context.package.targets.map(\.id))
        let built = ([target] + target.recursiveTargetDependencies).filter { own.contains($0.id) }
        var paths = ["Package.swift", relative(script.deletingLastPathComponent(), to: package)]
        paths += built.map { relative($0.directoryURL, to: package) }
        paths = Array(Set(paths)).sorted()

        var inputs = [script] + paths.flatMap { files(at: package.appending(path: $0)) }
        inputs += gitState(of: package)
        return [
            .buildCommand(
                displayName: "Stamping \(target.name) with its git commit",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: [script.path, package.path, output.path] + paths,
                inputFiles: inputs,
                outputFiles: [output]
            ),
        ]
    }

    /// `url`'s path inside `package` (`Sources/pinchlab`).
    private func relative(_ url: URL, to package: URL) -> String {
        let path = url.standardizedFileURL.path, root = package.path
        return path.hasPrefix(root + "/") ? String(path.dropFirst(root.count + 1)) : path
    }

    /// Every regular file at or under `url` (hidden ones too: git may track them).
    private func files(at url: URL) -> [URL] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { return [] }
        guard isDirectory.boolValue else { return [url] }
        guard let walker = FileManager.default.enumerator(at: url, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        return walker.compactMap { $0 as? URL }
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
            .sorted { $0.path < $1.path }
    }

    /// The git files that change when the work tree's commit does, as far as they exist now (an
    /// input that is missing when the build runs would fail it). None without git or a repository.
    private func gitState(of package: URL) -> [URL] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-C", package.path, "rev-parse", "--absolute-git-dir"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return [] }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return [] }
        let path = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !path.isEmpty else { return [] }
        let gitDirectory = URL(fileURLWithPath: path, isDirectory: true)
        return [gitDirectory, gitDirectory.appending(component: "HEAD"), gitDirectory.appending(components: "logs", "HEAD")]
            .filter { FileManager.default.fileExists(atPath: $0.path) }
    }
}
