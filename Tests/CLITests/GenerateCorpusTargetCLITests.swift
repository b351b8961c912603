import Foundation
import PinchlabTestSupport
import Testing

/// `generate-corpus` where a file is in the way: a clear error naming the path and status 64 (#42
/// 14: exit 1, "internal error" and Foundation's NSCocoaErrorDomain text).
@Suite(.blocking) struct GenerateCorpusTargetCLITests {
    @Test func ontoAnExistingFileOrUnderOne() throws {
        let dir = try CLI.temporaryDirectory()
        let file = dir.appendingPathComponent("file").path
        try Data("keep me\n".utf8).write(to: URL(fileURLWithPath: file))
        for target in [file, file + "/corpus", file + "/a/b"] {
            let r = try CLI.run(["generate-corpus", target])
            #expect(r.status == 64, "\(target): \(r.stderr)")
            #expect(r.stderr.hasPrefix("pinchlab: \(file)"), "names the file in the way: \(r.stderr)")
            // The system's words, which depend on where the path stops.
            #expect(r.stderr.contains("expected a directory, found a file") || r.stderr.contains("Not a directory"), "\(r.stderr)")
            for raw in ["NSCocoaErrorDomain", "internal error", "Error Domain"] {
                #expect(!r.stderr.contains(raw), "\(r.stderr)")
            }
        }
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "keep me\n", "the file is left as it was")
        // `--session` under a file: the same.
        let session = try CLI.run(["generate-corpus", dir.appendingPathComponent("corpus").path, "--variants", "1",
                                   "--session", file + "/session.evemu"])
        #expect(session.status == 64, "\(session.stderr)")
        #expect(session.stderr.contains("pinchlab: \(file)"), "\(session.stderr)")  // (as above)
    }

    /// A directory that may not be made: permission denied, 77 (as an unprivileged user: root may).
    @Test func whereNoDirectoryMayBeMade() throws {
        let dir = try CLI.temporaryDirectory()
        let locked = dir.appendingPathComponent("locked")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o555])
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.path)
        let r = try CLI.runAsUnprivilegedUser(["generate-corpus", locked.appendingPathComponent("corpus").path])
        #expect(r.status == 77, "\(r.stderr)")
        #expect(r.stderr.contains("cannot make the directory: Permission denied"), "\(r.stderr)")  // the system's words, as nobody
    }
}
