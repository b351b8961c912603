import Foundation
import PackagePlugin

/// Compiles a target's web files (`.html`, `.css`, `.js` anywhere under its directory) into the
/// target: one generated Swift source, `EmbeddedFiles`, with each file's text as a string constant
/// (`viewer.js` -> `EmbeddedFiles.viewerJS`).
///
/// Why not SwiftPM `resources:`: those are copied into a bundle directory beside the executable
/// (`pinchlab_LabReports.resources`) that the binary finds at run time, so `scripts/install`, `.ci/run`
/// and anyone who copies `pinchlab` would have to ship that directory too, and a binary without it
/// would fail only when it writes a page. `pinchlab` is installed as one file; embedding at build
/// time keeps it whole, while the files stay real files a linter or a browser reads.
///
/// A build command, as GitCommitStamp's: its inputs are the files, so an edited file is embedded
/// again by the next build. SwiftPM finds a new file only when it plans the build again (after a
/// change to Package.swift or to the target's Swift files; `touch Package.swift` forces it). The
/// files are excluded from the target in Package.swift, so SwiftPM neither warns about them nor
/// copies them. Needs a POSIX `/bin/sh`, coreutils, sed, cmp and iconv
/// (`embed-text-files.sh`), all on a Debian base system.
@main
struct EmbedTextFiles: BuildToolPlugin {
    static let extensions: Set<String> = ["html", "css", "js"]

    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        let script = context.package.directoryURL.appending(components: "Plugins", "EmbedTextFiles", "embed-text-files.sh")
        let output = context.pluginWorkDirectoryURL.appending(component: "EmbeddedFiles.swift")
        let files = webFiles(under: target.directoryURL)
        return [
            .buildCommand(
                displayName: "Embedding \(target.name)'s web files",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: [script.path, output.path] + files.map(\.path),
                inputFiles: [script] + files,
                outputFiles: [output]
            ),
        ]
    }

    /// The files to embed, in path order (so the generated source does not change with the
    /// directory's listing order).
    private func webFiles(under directory: URL) -> [URL] {
        guard let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        return walker.compactMap { $0 as? URL }
            .filter { Self.extensions.contains($0.pathExtension) }
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
            .sorted { $0.path < $1.path }
    }
}
