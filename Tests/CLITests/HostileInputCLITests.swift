import Foundation
import PinchlabTestSupport
import Testing

/// Inputs built to hurt (issue 27): a YAML nesting bomb, settings a spring's mathematics cannot
/// survive, a settings file without end, a FIFO nobody writes to, a slot axis with a negative
/// minimum. Each ends quickly with a clear error and its status, or reads as libevdev reads it.
@Suite(.blocking) struct HostileInputCLITests {
    static let recording = CLI.fixture("corpus/touchpad/pinch-in-quick-flick-01.evemu")

    static func file(_ name: String, _ text: String) throws -> String {
        let path = try CLI.temporaryDirectory().appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    // MARK: YAML nesting

    /// 100,000 `[` took libyaml 23 s (its scanner is quadratic in the depth) and could not be
    /// stopped; the reader's own depth cap ends it at once, at the line, as bad data.
    @Test func aNestingBombEndsAtOnceWithTheLine() throws {
        let path = try Self.file("nest.yml", "version: 1\nx: " + String(repeating: "[", count: 100_000)
                                 + String(repeating: "]", count: 100_000) + "\n")
        let started = Date()
        let r = try CLI.run(["stats", path], timeout: 20)
        #expect(r.status == 65, "\(r.stderr)")
        #expect(r.stderr == "pinchlab: \(path):2: expected at most 64 nested lists and mappings, found a list nested 65 deep\n",
                "\(r.stderr)")
        #expect(Date().timeIntervalSince(started) < 10, "the cap stops the parser long before libyaml's quadratic work")
    }

    // MARK: Springs

    /// A spring the mathematics cannot take, whichever command reads it: mass 1e-300 trapped
    /// ("Double value cannot be converted to Int"), 1e-15 and 1e-20 never ended. Refused at load
    /// with the section, the figure and its range.
    @Test(arguments: ["1e-300", "1e-15", "1e-20"])
    func aSpringTooFastForAnyDisplayIsRefusedAtLoad(mass: String) throws {
        let config = try Self.file("spring.json",
                                   #"{"completion":{"spring":{"parameters":{"mass":\#(mass),"stiffness":1,"damping":1}}}}"#)
        let out = try CLI.temporaryDirectory().path
        // Each command's refusal whole: "CONFIG: at 'completion.spring.parameters': period
        // 2π√(mass/stiffness): ... s is outside 0.001...60 s".
        var transcript = ""
        for command in [["replay", Self.recording], ["plot", Self.recording, "-o", out + "/p.svg"],
                        ["view", Self.recording, "-o", out + "/v.html"], ["check", CLI.fixture("corpus")]] {
            let r = try Golden.run(command + ["--config", config], into: &transcript)
            #expect(r.status == 65, "\(command[0]): \(r.stderr)")
        }
        try Golden.expect(transcript, is: "errors-spring-too-fast-mass-\(mass)")
    }

    /// In range number by number, but almost undamped (ζ = 5e-6): it would ring for about 38 hours.
    @Test func aSpringThatWouldNotSettleIsRefusedAtLoad() throws {
        let config = try Self.file("ringing.json",
                                   #"{"completion":{"spring":{"parameters":{"mass":1,"stiffness":100,"damping":0.0001}}}}"#)
        let r = try CLI.run(["replay", Self.recording, "--config", config])
        #expect(r.status == 65, "\(r.stderr)")
        // "at 'completion.spring.parameters': settle time from rest (about ln(1/settleDistance) /
        // decay rate ...) ... s is outside 0...60 s", whole.
        try Golden.expect(r, is: "errors-spring-that-would-not-settle")
        let fine = try Self.file("fine.json", #"{"completion":{"spring":{"parameters":{"mass":1,"stiffness":300,"damping":20}}}}"#)
        let accepted = try CLI.run(["replay", Self.recording, "--config", fine, "--summary"])
        #expect(accepted.status == 0, "a spring that settles in a fraction of a second is taken: \(accepted.stderr)")
    }

    /// A completionSpeed below 1 stretches a spring's settling in real time: past the driver's 60 s
    /// it would be cut short, silently. From the file, or from --completion-speed, it is refused.
    @Test func aSpringSlowedPastTheAnimationLimitIsRefused() throws {
        // Critically damped at ω0 = 1: about 6.9 s to settle; at a tenth of the speed, 69 s.
        let spring = #""completion":{"spring":{"parameters":{"mass":1,"stiffness":1,"damping":2}}}"#
        let slowed = try Self.file("slowed.json", "{\(spring),\"completionSpeed\":0.1}")
        // Both refusals whole: the file's ("at 'completion.spring.parameters': settle time from rest
        // ... s is outside 0...60 s"), then the option's ("with these options, at ...").
        var transcript = ""
        let r = try Golden.run(["replay", Self.recording, "--config", slowed], into: &transcript)
        #expect(r.status == 65, "\(r.stderr)")
        let plain = try Self.file("plain.json", "{\(spring)}")
        #expect(try CLI.run(["replay", Self.recording, "--config", plain, "--summary"]).status == 0)
        let option = try Golden.run(["replay", Self.recording, "--config", plain, "--completion-speed", "0.1"], into: &transcript)
        #expect(option.status == 64, "\(option.stderr)")
        try Golden.expect(transcript, is: "errors-spring-slowed-past-the-limit")
    }

    // MARK: Settings file size

    /// `/dev/zero` took 15 GB in 10 s; a 100 MB file 317 MB. Read with a bound, refused as bad data.
    @Test func aSettingsFileWithoutEndIsReadWithABound() throws {
        let huge = try CLI.temporaryDirectory().appendingPathComponent("huge.json").path
        #expect(FileManager.default.createFile(atPath: huge, contents: nil))
        #expect(truncate(huge, 100_000_000) == 0)
        for config in ["/dev/zero", huge] {
            let r = try CLI.run(["replay", Self.recording, "--config", config], timeout: 20)
            #expect(r.status == 65, "\(config): \(r.stderr)")
            #expect(r.stderr == "pinchlab: \(config): expected a settings file of at most 64 KiB (one with every key is a few KiB), found a larger one\n", "\(r.stderr)")
        }
    }

    // MARK: FIFOs

    static func fifo() throws -> String {
        let path = try CLI.temporaryDirectory().appendingPathComponent("fifo").path
        #expect(mkfifo(path, 0o600) == 0)
        return path
    }

    /// `mkfifo f; pinchlab replay f`, as a recording or as `--config`, with nobody writing: only
    /// SIGKILL ended it. Now SIGINT and SIGTERM end the wait: status 130, saying what it waited for.
    @Test(arguments: [SIGINT, SIGTERM])
    func aFIFOWithoutAWriterCanBeStopped(signal: Int32) throws {
        for arguments in [["replay"], ["replay", Self.recording, "--config"], ["plot", "-o", "/dev/null"]] {
            let fifo = try Self.fifo()
            let running = try CLI.Running(arguments.first == "plot" ? ["plot", fifo, "-o", "/dev/null"] : arguments + [fifo])
            #expect(CLI.waitUntil(running.process, hasOpen: fifo), "opens the FIFO: \(running.stderrSoFar)")
            usleep(100_000)
            #expect(running.process.isRunning, "waits for a writer")
            kill(running.process.processIdentifier, signal)
            let r = try running.finish(timeout: 10)
            #expect(r.status == 130, "\(arguments): \(r.stderr)")
            // Interrupted by a signal: where the wait was when the signal came varies.
            #expect(r.stderr.contains(fifo) && r.stderr.contains("interrupted") || r.stderr.contains("before the stop"),
                    "\(arguments): \(r.stderr)")
        }
    }

    /// A pipe that stalls half-way: the read was restarted after SIGTERM, forever. Now the stop ends
    /// the replay as Ctrl-C does: what was read is summarized, status 130.
    @Test func aStalledPipeCanBeStopped() throws {
        let pipe = Pipe()
        let running = try CLI.Running(["replay", "-", "--summary"], standardInput: pipe)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: CLI.fixture("corpus/touchpad/pinch-in-slow-finish-01.evemu")))
        try pipe.fileHandleForWriting.write(contentsOf: bytes.prefix(bytes.count / 2))
        #expect(CLI.waitUntilReadingAPipe(running.process), "reads the half written")
        usleep(200_000)  // what it read, parsed
        #expect(running.process.isRunning, "waits for the rest")
        kill(running.process.processIdentifier, SIGTERM)
        let r = try running.finish(timeout: 10)
        try? pipe.fileHandleForWriting.close()
        #expect(r.status == 130, "\(r.stderr)")
        #expect(r.stderr.contains("pinchlab: interrupted after "), "\(r.stderr)")  // how much was read varies
        #expect((try r.json(line: -1)["events"] as? Int ?? 0) > 100)
    }

    /// A writer that comes later is read as any pipe is.
    @Test func aFIFOIsReadOnceAWriterComes() throws {
        for asConfig in [false, true] {
            let fifo = try Self.fifo()
            let running = try CLI.Running(asConfig ? ["replay", Self.recording, "--config", fifo, "--summary"]
                                                   : ["replay", fifo, "--summary"])
            usleep(300_000)
            let bytes = asConfig ? Data(#"{"completionSpeed": 2}"#.utf8) : try Data(contentsOf: URL(fileURLWithPath: Self.recording))
            let writer = try FileHandle(forWritingTo: URL(fileURLWithPath: fifo))
            try writer.write(contentsOf: bytes)
            try writer.close()
            let r = try running.finish(timeout: 30)
            #expect(r.status == 0, "\(r.stderr)")
            let summary = try r.json(line: -1)
            #expect((summary["events"] as? Int ?? 0) > 100, "\(summary)")
        }
    }

    // MARK: Slots

    /// `A: 2f -5 1 0 0 0` was read as 7 slots, silently; the kernel numbers slots from 0 and
    /// libevdev counts `maximum + 1`: 2 slots, with one warning.
    @Test func aNegativeSlotMinimumCountsSlotsFromZeroWithAWarning() throws {
        let text = try String(contentsOfFile: Self.recording, encoding: .utf8)
        #expect(text.contains("\nA: 2f 0 3 0 0 0\n"))  // the recording's slot axis
        let path = try Self.file("negative-slot.evemu", text.replacingOccurrences(of: "\nA: 2f 0 3 0 0 0\n", with: "\nA: 2f -5 1 0 0 0\n"))
        let r = try CLI.run(["stats", path, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try r.json(line: 0)["slots"] as? Int == 2)
        let warning = "ABS_MT_SLOT: minimum -5 (expected a slot minimum of 0 (the kernel numbers slots from 0)); "
            + "slots counted from 0 as the kernel and libevdev count them (2 slots)"
        #expect(r.stderr.components(separatedBy: warning).count == 2, "warned once: \(r.stderr)")
        let replay = try CLI.run(["replay", path, "--summary"])
        #expect(replay.status == 0, "\(replay.stderr)")
        let original = try CLI.run(["replay", Self.recording, "--summary"])
        #expect(try replay.json(line: -1)["outcome"] as? String == original.json(line: -1)["outcome"] as? String,
                "slots 0 and 1 are the fingers either way")
    }
}

/// A corpus manifest is an input like any other: `check /dev/zero` read without end.
@Suite(.blocking) struct HostileManifestCLITests {
    @Test func aManifestWithoutEndIsReadWithABound() throws {
        let r = try CLI.run(["check", "/dev/zero"], timeout: 30)
        #expect(r.status == 65, "\(r.stderr)")
        #expect(r.stderr == "pinchlab: /dev/zero: expected a manifest of at most 64 MiB, found a larger one\n", "\(r.stderr)")
    }
}
