import Foundation
import PinchlabTestSupport
import Testing

/// `convert` never destroys its input and never leaves a half-written output: not through standard
/// input naming the output's file, not when interrupted.
@Suite(.blocking) struct ConvertSafetyCLITests {
    /// A two-device libinput record would lose its second device if overwritten by one device's
    /// conversion: the case the issue found.
    @Test(arguments: ["file.evemu", "file.yml"])
    func standardInputThatIsTheOutputFileIsRefusedAndLeftByteIdentical(name: String) throws {
        let directory = try CLI.temporaryDirectory()
        let path = directory.appendingPathComponent(name).path
        let source = CLI.fixture("corpus/touchpad/pinch-in-slow-finish-01.evemu")
        if name.hasSuffix(".yml") {
            #expect(try CLI.run(["convert", source, "-o", path]).status == 0)
        } else {
            try FileManager.default.copyItem(atPath: source, toPath: path)
        }
        let before = try #require(FileManager.default.contents(atPath: path))
        let stdin = try #require(FileHandle(forReadingAtPath: path))
        defer { try? stdin.close() }
        // Through a hard link too: the same file by another name.
        let link = directory.appendingPathComponent("link-" + name).path
        try FileManager.default.linkItem(atPath: path, toPath: link)
        for output in [path, link] {
            try stdin.seek(toOffset: 0)
            let r = try CLI.run(["convert", "-", "-o", output, "--to", name.hasSuffix(".yml") ? "evemu" : "libinput"],
                                standardInput: stdin)
            #expect(r.status == 64, "\(r.stderr)")
            // Whole: "-o OUTPUT is the file on standard input (the same file on disk): converting would
            // destroy it; write to another file", and the usage.
            try Golden.expect(r, is: "errors-convert-onto-standard-input-\(name.replacingOccurrences(of: ".", with: "-"))"
                              + (output == path ? "" : "-hard-link"))
            #expect(FileManager.default.contents(atPath: path) == before, "byte-identical")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(names == [name, "link-" + name].sorted(), "no staged file: \(names)")
    }

    /// A pipe is no file an output could name: converting from one still works.
    @Test func standardInputFromAPipeConverts() throws {
        let directory = try CLI.temporaryDirectory()
        let pipe = Pipe()
        let output = directory.appendingPathComponent("out.yml").path
        let running = try CLI.Running(["convert", "-", "-o", output], standardInput: pipe)
        let bytes = try #require(FileManager.default.contents(atPath: CLI.fixture("corpus/touchpad/pinch-in-slow-finish-01.evemu")))
        try pipe.fileHandleForWriting.write(contentsOf: bytes)
        try pipe.fileHandleForWriting.close()
        let r = try running.finish()
        #expect(r.status == 0, "\(r.stderr)")
        #expect(FileManager.default.fileExists(atPath: output))
    }

    /// SIGINT or SIGTERM while convert waits on a stalled pipe half-way through: the staged file is
    /// removed, no output appears, an existing output is untouched, status 130.
    @Test(arguments: [SIGINT, SIGTERM])
    func anInterruptedConvertLeavesNothingBehind(signal: Int32) throws {
        let directory = try CLI.temporaryDirectory()
        let output = directory.appendingPathComponent("out.yml").path
        try Data("an older file\n".utf8).write(to: URL(fileURLWithPath: output))
        let pipe = Pipe()
        let running = try CLI.Running(["convert", "-", "-o", output], standardInput: pipe)
        let bytes = try #require(FileManager.default.contents(atPath: CLI.fixture("corpus/touchpad/pinch-in-slow-finish-01.evemu")))
        try pipe.fileHandleForWriting.write(contentsOf: bytes.prefix(bytes.count / 2))
        // The staged file exists once convert has begun writing.
        #expect(CLI.waitFor(20) {
            ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).contains { $0.hasPrefix(".out.yml.pinchlab-") }
        })
        kill(running.process.processIdentifier, signal)
        let r = try running.finish()
        try? pipe.fileHandleForWriting.close()
        #expect(r.status == 130, "\(r.stderr)")
        #expect(r.stderr == "pinchlab: interrupted; nothing was written\n", "\(r.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(names == ["out.yml"], "\(names)")
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "an older file\n")
    }
}
