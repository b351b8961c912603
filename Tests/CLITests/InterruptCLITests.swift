import Foundation
import PinchlabTestSupport
import Testing

/// Ctrl-C in the middle of a paced replay ends it like the end of the recording: the gesture in
/// flight is cancelled, the summary line still comes, and the exit status says "interrupted".
/// Every command follows one signal policy (`SignalPolicy`): SIGINT, SIGTERM, SIGHUP and SIGQUIT
/// stop it with 130 (`live`, `record`, `serve`: their normal stop), and a closed pipe is a failed
/// write (74), not death by SIGPIPE.
@Suite(.blocking) struct InterruptCLITests {
    /// SIGQUIT (Ctrl-\) and SIGHUP too (#42 12: SIGQUIT printed a "Program crashed" backtrace and
    /// the replay went on).
    @Test(arguments: [SIGINT, SIGTERM, SIGQUIT, SIGHUP])
    func anInterruptedReplayStillPrintsItsSummary(signal: Int32) throws {
        // pinch-in-slow-finish-01 pinches from 0.23 s to 0.84 s; at a tenth of the speed the pinch
        // is in flight from about 2.3 s to 8.4 s of wall time.
        let replay = try CLI.Running(["replay", CLI.fixture("corpus/touchpad/pinch-in-slow-finish-01.evemu"),
                                      "--json", "--speed", "0.1"])
        #expect(CLI.waitFor(30) { replay.stdoutSoFar.contains(#""state":"changed""#) }, "the pinch is under way")
        kill(replay.process.processIdentifier, signal)
        let r = try replay.finish(timeout: 10)
        #expect(r.status == 130, "\(r.stderr)")
        #expect(replay.process.terminationReason == .exit, "it exits, not killed by the signal")
        // Interrupted by a signal: how far it got, and so the rest of stderr, varies.
        #expect(r.stderr.contains("interrupted"))
        #expect(!r.stderr.contains("crashed"), "\(r.stderr)")
        let summary = try r.json(line: -1)
        #expect(summary["type"] as? String == "summary")
        let gesture = try #require((summary["gestures"] as? [[String: Any]])?.first { $0["kind"] as? String != "hold" })
        #expect(gesture["kind"] as? String == "pinch")
        #expect(gesture["ended"] as? String == "cancelled", "nobody lifted those fingers")
        #expect(summary["outcome"] as? String == "cancelled")
        #expect((summary["duration"] as? Double ?? 9) < 0.84, "the summary covers what was replayed")
    }

    /// Whether process `pid` has a handler for `signal` (`SigCgt` in /proc/PID/status): pinchlab's
    /// policy is installed, so a signal from now on is its to handle.
    static func isCatching(_ pid: Int32, _ signal: Int32) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }),
              let mask = UInt64(line.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16)
        else { return false }
        return mask & (1 << UInt64(signal - 1)) != 0
    }

    /// A FIFO nobody writes: a command that reads it waits in its open(2) until stopped.
    static func fifo(_ name: String, in dir: URL) throws -> String {
        let path = dir.appendingPathComponent(name).path
        try #require(mkfifo(path, 0o600) == 0)
        return path
    }

    /// Every command that is not `replay`, `convert`, `plot`, `live`, `record` or `serve`, waiting
    /// for its input, is stopped by each stop signal with status 130 and one line saying so (#42
    /// 11: they died by SIGTERM, status 143; `stats -` printed a crash report on SIGQUIT).
    @Test(arguments: ["stats", "view", "label", "check", "tune", "libinput", "report", "generate-corpus"],
          [SIGTERM, SIGINT, SIGHUP, SIGQUIT])
    func everyCommandStopsWithStatus130(command: String, signal: Int32) throws {
        let dir = try CLI.temporaryDirectory()
        let arguments: [String]
        switch command {
        case "stats", "libinput": arguments = [command, try Self.fifo("in.evemu", in: dir)]
        case "view", "report": arguments = [command, try Self.fifo("in.evemu", in: dir), "-o", dir.appendingPathComponent("out").path]
        case "label": arguments = [command, "--evidence", try Self.fifo("in.evemu", in: dir)]
        case "check": arguments = [command, try Self.fifo("manifest.json", in: dir)]
        case "tune":
            _ = try Self.fifo("manifest.json", in: dir)
            arguments = [command, dir.path]
        default:
            // Long enough to be at work when the signal comes: 1,000 variants make about 47,000 files.
            arguments = [command, dir.appendingPathComponent("corpus").path, "--variants", "1000"]
        }
        let running = try CLI.Running(arguments)
        let pid = running.process.processIdentifier
        try #require(CLI.waitFor(20) { Self.isCatching(pid, SIGTERM) && Self.isCatching(pid, SIGQUIT) }, "the policy is installed")
        usleep(200_000)
        if command == "generate-corpus" {
            // At work: writing recordings one after another.
            let corpus = dir.appendingPathComponent("corpus").path
            #expect(CLI.waitFor(120) { (FileManager.default.enumerator(atPath: corpus)?.allObjects.count ?? 0) > 50 })
        }
        #expect(running.process.isRunning, "\(command) waits for its input (or works) until stopped: \(running.stderrSoFar)")
        kill(pid, signal)
        let r = try running.finish(timeout: 20)
        #expect(running.process.terminationReason == .exit, "\(command) exits, not killed by signal \(signal)")
        #expect(r.status == 130, "\(command): \(r.stderr)")
        // Interrupted by a signal: how far it got varies.
        #expect(r.stderr.contains("pinchlab: interrupted"), "\(command): \(r.stderr)")
        #expect(!r.stderr.contains("crashed"), "\(command): \(r.stderr)")
        if command == "generate-corpus" {
            // It was at work (more than 50 files): the stop took back all it wrote, folders too, and
            // wrote no manifest (#42 8: thousands of recordings and no manifest.json were left).
            let made = FileManager.default.enumerator(atPath: dir.appendingPathComponent("corpus").path)?.allObjects as? [String] ?? []
            #expect(made.isEmpty, "left behind: \(made.prefix(5))")
            #expect(r.stderr.contains("nothing was written"), "\(r.stderr)")
        }
    }

    /// The variant: a larger corpus generated over an existing one and stopped at work leaves the
    /// existing one as it was, its files and its manifest, nothing added.
    @Test func generatingOverACorpusStoppedLeavesTheOldOne() throws {
        let corpus = try CLI.temporaryDirectory().appendingPathComponent("corpus").path
        let first = try CLI.run(["generate-corpus", corpus])
        #expect(first.status == 0, "\(first.stderr)")
        let before = Set(FileManager.default.enumerator(atPath: corpus)?.allObjects as? [String] ?? [])
        let manifest = try Data(contentsOf: URL(fileURLWithPath: corpus + "/manifest.json"))
        let running = try CLI.Running(["generate-corpus", corpus, "--variants", "1000"])
        #expect(CLI.waitFor(120) { (FileManager.default.enumerator(atPath: corpus)?.allObjects.count ?? 0) > before.count + 50 })
        kill(running.process.processIdentifier, SIGINT)
        let r = try running.finish(timeout: 20)
        #expect(r.status == 130, "\(r.stderr)")
        let after = Set(FileManager.default.enumerator(atPath: corpus)?.allObjects as? [String] ?? [])
        #expect(after == before, "added: \(after.subtracting(before).prefix(5)), lost: \(before.subtracting(after).prefix(5))")
        #expect(try Data(contentsOf: URL(fileURLWithPath: corpus + "/manifest.json")) == manifest)
    }

    /// `pinchlab ARGUMENTS` with its stdout a pipe whose reader has left before it starts: every
    /// write fails with EPIPE. Returns the process (ended) and its stderr.
    static func runIntoAClosedPipe(_ arguments: [String]) throws -> (Process, String) {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        close(ends[0])
        let process = Process()
        CLI.launch(process, pinchlab: arguments)
        process.environment = CLI.environment(nil)
        let writeEnd = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
        let err = Pipe()
        process.standardOutput = writeEnd
        process.standardError = err
        try process.start()
        try writeEnd.close()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(CLI.waitForExit(process, timeout: 60))
        return (process, stderr)
    }

    /// Output into a pipe whose reader has gone (`replay --trace | head -c 100`, #42 16: death by
    /// SIGPIPE, 141, when the summary was written after `head` left): a failed write, status 74,
    /// said once; never killed by the signal.
    @Test(arguments: [["replay", "--trace"], ["replay", "--explain"], ["replay", "--json"], ["stats"], ["stats", "--json"],
                      ["convert", "-o", "/dev/stdout", "--to", "yml"], ["view", "-o", "/dev/stdout"], ["plot", "-o", "/dev/stdout"]])
    func aClosedPipeIsAWriteErrorNotADeath(command: [String]) throws {
        let (process, stderr) = try Self.runIntoAClosedPipe([command[0], CLI.fixture("sessions/touchscreen-session.evemu")]
                                                             + command.dropFirst())
        #expect(process.terminationReason == .exit, "\(command): killed by signal \(process.terminationStatus)")
        #expect(process.terminationStatus == 74, "\(command): \(stderr)")
        #expect(stderr.components(separatedBy: "pinchlab: ").count - 1 == 1, "said once: \(stderr)")
        #expect(stderr.contains("Broken pipe"), "\(stderr)")  // the system's words, when the reader went varies
    }

    /// As `head -c 100` does it: reads 100 bytes, then leaves, while the command is still writing
    /// (each output here is larger than a pipe holds: 141 KB of YAML, a 74 KB page).
    @Test(arguments: [["convert", "-o", "/dev/stdout", "--to", "yml"], ["view", "-o", "/dev/stdout"]])
    func aReaderThatLeavesMidwayIsAWriteError(command: [String]) throws {
        let process = Process()
        CLI.launch(process, pinchlab: [command[0], CLI.fixture("sessions/touchscreen-session.evemu")] + command.dropFirst())
        process.environment = CLI.environment(nil)
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.start()
        var read = Data()
        while read.count < 100, let chunk = try out.fileHandleForReading.read(upToCount: 100 - read.count), !chunk.isEmpty {
            read.append(chunk)
        }
        try out.fileHandleForReading.close()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(CLI.waitForExit(process, timeout: 60))
        #expect(read.count == 100)
        #expect(process.terminationReason == .exit, "\(command): killed by signal \(process.terminationStatus)")
        #expect(process.terminationStatus == 74, "\(command): \(stderr)")
        #expect(stderr.components(separatedBy: "pinchlab: ").count - 1 == 1, "said once: \(stderr)")
    }

    /// The help and version texts (printed by pinchlab's `main`, no longer by ArgumentParser's) too.
    @Test(arguments: [["replay", "--help"], ["--help"], ["--version"]])
    func helpIntoAClosedPipe(arguments: [String]) throws {
        let (process, stderr) = try Self.runIntoAClosedPipe(arguments)
        #expect(process.terminationReason == .exit, "not killed by SIGPIPE")
        #expect(process.terminationStatus == 74, "\(stderr)")
        #expect(stderr == "pinchlab: writing to standard output: Broken pipe\n", "\(stderr)")
    }
}

/// `plot` stopped while it reads (#42 6: it replaced the existing picture with one of the partial
/// input, then exited 130): the old picture stays, or none appears, as with `convert`.
@Suite(.blocking) struct InterruptedPlotCLITests {
    @Test(arguments: [SIGINT, SIGTERM, SIGHUP], [true, false])
    func anInterruptedPlotLeavesTheOldPicture(signal: Int32, hasOldPicture: Bool) throws {
        let directory = try CLI.temporaryDirectory()
        let output = directory.appendingPathComponent("out.svg").path
        if hasOldPicture { try Data("an older picture\n".utf8).write(to: URL(fileURLWithPath: output)) }
        let pipe = Pipe()
        let running = try CLI.Running(["plot", "-", "-o", output], standardInput: pipe)
        let bytes = try #require(FileManager.default.contents(atPath: CLI.fixture("corpus/touchpad/pinch-in-slow-finish-01.evemu")))
        try pipe.fileHandleForWriting.write(contentsOf: bytes.prefix(bytes.count / 2))
        // Half the recording read, the rest awaited from the stalled pipe.
        try #require(CLI.waitFor(20) { InterruptCLITests.isCatching(running.process.processIdentifier, SIGTERM) })
        #expect(CLI.waitUntilReadingAPipe(running.process), "reads the half written")
        usleep(200_000)  // what it read, parsed
        kill(running.process.processIdentifier, signal)
        let r = try running.finish()
        try? pipe.fileHandleForWriting.close()
        #expect(r.status == 130, "\(r.stderr)")
        #expect(r.stderr.contains("interrupted") && r.stderr.contains("nothing was written"), "\(r.stderr)")  // interrupted: timing
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(names == (hasOldPicture ? ["out.svg"] : []), "\(names)")
        if hasOldPicture { #expect(try String(contentsOfFile: output, encoding: .utf8) == "an older picture\n") }
    }
}

/// `report` stopped while it writes its copy of a long recording (#42 7: the temporary
/// `$TMPDIR/pinchlab-report-UUID.yml`, hundreds of MB, was left behind for good): the copy is
/// removed, no archive or staged archive appears, status 130.
@Suite(.blocking) struct InterruptedReportCLITests {
    @Test(arguments: [SIGTERM, SIGINT, SIGQUIT])
    func anInterruptedReportLeavesNoTemporaryFile(signal: Int32) throws {
        let recording = try LongRecordingCLITests.tapsRecording(count: 30_000)
        let tmp = try CLI.temporaryDirectory(), out = try CLI.temporaryDirectory()
        let archive = out.appendingPathComponent("r.zip").path
        let running = try CLI.Running(["report", recording, "--no-libinput", "-o", archive], environment: ["TMPDIR": tmp.path])
        let names = { (try? FileManager.default.contentsOfDirectory(atPath: tmp.path)) ?? [] }
        try #require(CLI.waitFor(120) { names().contains { $0.hasPrefix("pinchlab-report-") } || !running.process.isRunning },
                     "\(running.stderrSoFar)")
        try #require(running.process.isRunning, "the copy is being written: \(names())")
        kill(running.process.processIdentifier, signal)
        let r = try running.finish(timeout: 60)
        #expect(r.status == 130, "\(r.stderr)")
        #expect(names().isEmpty, "\(names())")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []).isEmpty, "no archive, staged or not")
    }
}

/// A command told of a stop that cannot stop (its output blocks on a reader that reads nothing)
/// ends at the second stop signal, with 130, as a command that is not told ends at the first.
@Suite(.blocking) struct SecondStopCLITests {
    @Test func aSecondStopEndsAReplayStuckWriting() throws {
        // The session's events twenty times over, 20 s apart, on standard input (a file: `-` writes
        // each line as it is made): its JSON lines (about 1 MB) fill a pipe nobody reads, and the
        // replay blocks writing.
        let text = try String(contentsOfFile: CLI.fixture("sessions/touchscreen-session.evemu"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var input = lines.filter { !$0.hasPrefix("E: ") }.joined(separator: "\n") + "\n"
        let events = lines.filter { $0.hasPrefix("E: ") }.map { $0.split(separator: " ") }
        for round in 0..<20 {
            for fields in events {
                let time = (Double(fields[1]) ?? 0) + Double(round * 20)
                input += "E: " + String(format: "%.6f", time) + " " + fields[2...].joined(separator: " ") + "\n"
            }
        }
        let process = Process()
        CLI.launch(process, pinchlab: ["replay", "-", "--json"])
        process.environment = CLI.environment(nil)
        let file = try CLI.temporaryDirectory().appendingPathComponent("long.evemu")
        try input.write(to: file, atomically: true, encoding: .utf8)
        let stalled = Pipe()
        process.standardInput = try FileHandle(forReadingFrom: file)
        process.standardOutput = stalled
        process.standardError = FileHandle.nullDevice
        try process.start()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        #expect(CLI.waitFor(10) { InterruptCLITests.isCatching(process.processIdentifier, SIGINT) })
        #expect(CLI.waitUntilWritingAFullPipe(process), "its writes fill the pipe and block")
        kill(process.processIdentifier, SIGINT)
        Thread.sleep(forTimeInterval: 1)
        #expect(process.isRunning, "the first stop is noted; the blocked write goes on")
        kill(process.processIdentifier, SIGINT)
        #expect(CLI.waitForExit(process, timeout: 5), "the second stop ends it")
        #expect(process.terminationReason == .exit && process.terminationStatus == 130)
        _ = stalled  // read by nobody until here
    }
}
