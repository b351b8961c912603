import Foundation
import PinchlabTestSupport
import Testing

/// A recording of more than 4 MiB is read ahead on other threads when it is a file (`stats` and
/// `convert`: its lines, `ReadAhead`; `replay`: the whole reader, `EventReadAhead`), never when it
/// comes through a pipe: the two must print the same, and a bad line near the end must be named by
/// the same line number either way, after the same events.
@Suite(.blocking) struct ReadAheadCLITests {
    /// 15,000 taps (210,000 events): about 5.6 MB, over the size that is read ahead, in some six chunks.
    static let taps = 15_000

    /// `pinchlab ARGUMENTS` with the recording at `path` as a file, and through a pipe (`cat | pinchlab ... -`).
    func fileAndPipe(_ path: String, _ command: String, _ options: [String]) throws -> (file: CLI.Result, pipe: CLI.Result) {
        let file = try CLI.run([command, path] + options)
        let pipe = try CLI.run(["-c", "cat \"$1\" | \"$2\" \"$3\" - \"${@:4}\"", "sh", path, CLI.binary.path, command] + options,
                               executable: URL(fileURLWithPath: "/bin/bash"))
        return (file, pipe)
    }

    @Test func aLargeFileTellsWhatItsPipeTells() throws {
        let path = try LongRecordingCLITests.tapsRecording(count: Self.taps)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(size > 4 << 20, "\(size) bytes: large enough to be read ahead")
        for (command, options) in [("stats", ["--json"]), ("replay", ["--summary"]), ("replay", ["--json"])] {
            let (file, pipe) = try fileAndPipe(path, command, options)
            #expect(file.status == 0 && pipe.status == 0, "\(command): \(file.stderr) \(pipe.stderr)")
            #expect(file.stdout.contains("\"events\":210000"), "\(command) \(options): every event counted")  // a JSON field
            #expect(file.stdout.replacingOccurrences(of: path, with: "<stdin>") == pipe.stdout, "\(command) \(options)")
        }
        // convert writes the same YAML from either.
        let directory = try CLI.temporaryDirectory()
        let (fromFile, fromPipe) = (directory.appendingPathComponent("file.yml").path, directory.appendingPathComponent("pipe.yml").path)
        let (file, _) = try fileAndPipe(path, "convert", ["-o", fromFile])
        let (_, pipe) = try fileAndPipe(path, "convert", ["-o", fromPipe])
        #expect(file.status == 0 && pipe.status == 0, "\(file.stderr) \(pipe.stderr)")
        let same = try Data(contentsOf: URL(fileURLWithPath: fromFile)) == Data(contentsOf: URL(fileURLWithPath: fromPipe))
        #expect(same, "convert: the file and the pipe give the same YAML")
    }

    @Test func aBadLineNearTheEndIsNamedAlike() throws {
        let path = try LongRecordingCLITests.tapsRecording(count: Self.taps, lastLines: [
            "E: 900.000000 0003 0035 0100", "E: 900.000000 0003 0036 x", "E: 900.000000 0000 0000 0000",
        ])
        let badLine = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            .firstIndex { $0.hasSuffix("0036 x") }! + 1
        for (command, options) in [("stats", []), ("replay", ["--summary"])] {
            let (file, pipe) = try fileAndPipe(path, command, options)
            #expect(file.status == 65 && pipe.status == 65, "\(command): \(file.status) \(pipe.status)")
            #expect(file.stderr.contains("\(path):\(badLine): "), "\(command): \(file.stderr)")  // compared whole with the pipe's below
            #expect(file.stderr.replacingOccurrences(of: path, with: "<stdin>") == pipe.stderr, "\(command): \(file.stderr)\n\(pipe.stderr)")
            // replay's summary counts the events before the bad line, read on the other thread.
            #expect(file.stdout.replacingOccurrences(of: path, with: "<stdin>") == pipe.stdout, "\(command)")
            if command == "replay" { #expect(file.stdout.contains("\"events\":210001"), "\(file.stdout.prefix(300))") }  // a JSON field
        }
    }
}
