import Foundation
import PinchlabTestSupport
import Testing

/// The libraries' errors say what happened; the command line adds what to do, so the printed line
/// keeps its advice.
@Suite(.blocking) struct ErrorAdviceCLITests {
    @Test func aMissingDeviceSuggestsListingDevices() throws {
        let r = try CLI.run(["live", "/nonexistent-pinchlab-dir/event0", "--exit-after-idle", "1"])
        #expect(r.status == 66)
        #expect(r.stderr.hasSuffix("pinchlab: /nonexistent-pinchlab-dir/event0: no such device. List devices with 'pinchlab devices'.\n"),
                "\(r.stderr)")
    }

    @Test func aDirectoryWithoutAManifestSaysWhichCommandsWriteOne() throws {
        let dir = try CLI.temporaryDirectory()
        let r = try CLI.run(["tune", dir.path])
        #expect(r.status == 66)
        #expect(r.stderr == "pinchlab: \(dir.path)/manifest.json: no manifest: expected manifest.json listing the recordings "
                + "and their labels, here or in a subdirectory (`pinchlab label FILE --corpus DIR` or "
                + "`pinchlab generate-corpus DIR` writes one)\n", "\(r.stderr)")
    }
}

/// `convert --to` and `record --format` take the closed set of recording formats.
@Suite(.blocking) struct RecordingFormatOptionCLITests {
    @Test(arguments: [["convert", "Fixtures/corpus/touchpad/pinch-out-01.evemu", "-o", "/tmp/never-written.out", "--to", "wav"],
                      ["record", "/nonexistent-pinchlab-dir/event0", "-o", "/tmp/never-written.out", "--format", "wav"]])
    func anUnknownFormatIsAUsageErrorListingTheValidOnes(arguments: [String]) throws {
        let r = try CLI.run(arguments)
        #expect(r.status == 64)
        // Whole: 'wav' refused, the valid ones ('evemu', 'libinput', ...) listed.
        try Golden.expect(r, is: "errors-unknown-format-\(arguments[0])")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/never-written.out"))
    }

    @Test(arguments: ["libinput", "yml", "yaml", "libinput-record"])
    func everySpellingOfLibinputConvertsToYAML(spelling: String) throws {
        let out = try CLI.temporaryDirectory().appendingPathComponent("out.txt").path
        let r = try CLI.run(["convert", CLI.fixture("corpus/touchpad/pinch-out-01.evemu"), "-o", out, "--to", spelling])
        #expect(r.status == 0, "\(r.stderr)")
        let text = try String(contentsOfFile: out, encoding: .utf8)
        #expect(text.hasPrefix("# libinput record") || text.contains("\nversion: 1"), "\(text.prefix(200))")  // the YAML written
    }
}
