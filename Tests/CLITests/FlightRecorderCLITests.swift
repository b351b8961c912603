import Foundation
import GestureCore
import GestureKit
import Testing
import PinchlabTestSupport

/// `live --keep`: the flight recorder of a live session on a served recording, its dumps (SIGUSR1,
/// `--dump-on`), and their replays, which print the lines live printed for the window.
@Suite(.blocking, .serialized) struct FlightRecorderCLITests {
    static let pinch = "corpus/touchpad/pinch-in-slow-finish-01.evemu"

    /// A served recording, looping at `speed`, and its device node.
    static func serve(_ fixture: String, speed: String = "2", loop: Bool = true) throws -> (CLI.Running, String) {
        let dir = DeviceCLITests.mountDirectory("flight")
        let serve = try CLI.Running(["serve", CLI.fixture(fixture), "--at", dir, "--speed", speed] + (loop ? ["--loop"] : []))
        #expect(CLI.waitFor(20) { FileManager.default.fileExists(atPath: dir + "/event0") }, "\(serve.stderrSoFar)")
        return (serve, dir + "/event0")
    }

    static func dumps(in dir: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? [])
            .filter { $0.hasPrefix("pinchlab-") && $0.hasSuffix(".yml") }.sorted().map { dir.appendingPathComponent($0).path }
    }

    static func time(_ line: String) -> Double? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
        return object["time"] as? Double
    }

    static func field(_ line: String, _ key: String) -> Any? {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?[key]
    }

    /// The session seconds of the dump's last event: its lines up to there are the window's.
    static func lastEventSeconds(of dump: String) throws -> (Double, PinchlabExtras) {
        let reader = try LibinputRecordReader(path: dump)
        var last: InputEvent?
        while let event = try reader.nextEvent() { last = event }
        let extras = reader.extras
        let originText = try #require(extras.texts["origin"])
        let parts = originText.split(separator: ".")
        let origin = Int64(parts[0])! * 1_000_000 + Int64(parts[1])!
        return (Double(try #require(last).time.totalMicroseconds - origin) / 1_000_000, extras)
    }

    /// Lines of the window, from the first gesture that began after the window's first one (which
    /// may continue a gesture in flight at the window's start) to the window's last event.
    static func comparable(_ lines: [String], from start: Double, before end: Double) -> [String] {
        lines.filter { line in
            guard let t = time(line), field(line, "type") as? String != "summary" else { return false }
            return t >= start && t < end
        }
    }

    /// SIGUSR1 during `live --json --keep 5` on a looped recording: the dump's replay prints, for
    /// the window, the same gesture and transition lines with the same times and numbers as live
    /// printed; the dump keeps those lines too, and its own settings are used and said.
    @Test(.needs(.fuse)) func aDumpOnSIGUSR1ReplaysToTheLinesLivePrinted() throws {
        let (serve, node) = try Self.serve(Self.pinch)
        defer { serve.process.interrupt() }
        let dir = try CLI.temporaryDirectory()
        let live = try CLI.Running(["live", node, "--json", "--keep", "5", "--dump-dir", dir.path])
        #expect(CLI.waitFor(40) { live.stdoutSoFar.components(separatedBy: "\"state\":\"ended\"").count > 4 })
        kill(live.process.processIdentifier, SIGUSR1)
        #expect(CLI.waitFor(20) { !Self.dumps(in: dir).isEmpty }, "\(live.stderrSoFar)")
        // A little more session after the dump, as a user's would go on.
        usleep(300_000)
        live.process.interrupt()
        let r = try live.finish()
        #expect(r.status == 0, "\(r.stderr)")
        let dump = try #require(Self.dumps(in: dir).first)
        // The checks of this test read a live session's output and its dump, whose times and
        // lines vary from run to run, and JSON lines.
        #expect(r.stderr.contains("pinchlab: dumped ") && r.stderr.contains("(SIGUSR1;") && r.stderr.contains(dump), "\(r.stderr)")
        #expect(try !FileManager.default.contentsOfDirectory(atPath: dir.path).contains { $0.hasPrefix(".") },
                "no staging file left")

        let replay = try CLI.run(["replay", dump, "--json"])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stderr.contains("is a live dump: replaying with its own settings"), "\(replay.stderr)")  // a live dump's

        let (end, extras) = try Self.lastEventSeconds(of: dump)
        let saved = try #require(extras.lists["lines"])
        let liveLines: [String] = Array(r.lines.dropLast())
        // The dump's lines are live's own, in order.
        let firstSaved = try #require(saved.first)
        let at = try #require(liveLines.firstIndex(of: firstSaved), "the dump's first line is one live printed")
        #expect(Array(liveLines[at..<(at + saved.count)]) == saved)

        let replayed: [String] = Array(replay.lines.dropLast())
        let firstGesture = try #require(replayed.compactMap { Self.field($0, "gesture") as? Int }.first)
        let secondBegan = try #require(replayed.first {
            Self.field($0, "type") as? String == "gesture" && Self.field($0, "state") as? String == "began"
                && (Self.field($0, "gesture") as? Int ?? 0) > firstGesture
        }, "the 5 s window holds more than one pass")
        let start = try #require(Self.time(secondBegan))
        let fromReplay = Self.comparable(replayed, from: start, before: end)
        let fromLive = Self.comparable(liveLines, from: start, before: end)
        #expect(fromReplay.count > 10 && fromReplay.contains { $0.contains("\"state\":\"ended\"") })  // JSON lines
        #expect(fromReplay == fromLive, "the same lines, times and numbers from \(start) s to \(end) s")
        // live --json's decision lines carry their margins, as replay's do.
        #expect(liveLines.contains {
            Self.field($0, "type") as? String == "gesture" && Self.field($0, "state") as? String == "began" && $0.contains("\"margin\":{")
        }, "a began line with its margin")
    }

    /// A dump made with `--transition zoom-present` replays driving zoom-present, and says so,
    /// unless `--transition` names another (then a note says the dump was made with its own); the
    /// replay's lines are those of `--transition zoom-present` given by hand, and `report` of the
    /// dump says the same transition.
    @Test(.needs(.python3, .fuse)) func aDumpReplaysWithItsOwnTransitionUnlessOneIsGiven() throws {
        let (serve, node) = try Self.serve(Self.pinch)
        defer { serve.process.interrupt() }
        let dir = try CLI.temporaryDirectory()
        // A live session and its dump: their lines vary from run to run, so they are read in parts.
        let live = try CLI.Running(["live", node, "--json", "--keep", "5", "--transition", "zoom-present", "--dump-dir", dir.path])
        #expect(CLI.waitFor(40) { live.stdoutSoFar.contains("\"state\":\"ended\"") }, "\(live.stderrSoFar)")
        kill(live.process.processIdentifier, SIGUSR1)
        #expect(CLI.waitFor(20) { !Self.dumps(in: dir).isEmpty }, "\(live.stderrSoFar)")
        live.process.interrupt()
        #expect(try live.finish().status == 0)
        let dump = try #require(Self.dumps(in: dir).first)

        // A live session's dump: its lines vary from run to run, so its replay is read in parts.
        let own = try CLI.run(["replay", dump])
        #expect(own.status == 0, "\(own.stderr)")
        #expect(own.stderr.contains("is a live dump: driving its own transition, zoom-present (--transition NAME drives another)"),
                "\(own.stderr)")
        #expect(own.lines.first?.contains(": zoom-present, policy") == true, "\(own.lines.first ?? "")")
        let ownJSON = try CLI.run(["replay", dump, "--json"])
        let byHand = try CLI.run(["replay", dump, "--json", "--transition", "zoom-present"])
        #expect(ownJSON.status == 0 && ownJSON.stdout == byHand.stdout)
        #expect(!byHand.stderr.contains("the dump was made with"), "\(byHand.stderr)")

        // (a live dump's replay, as above)
        let other = try CLI.run(["replay", dump, "--transition", "pinch-dismiss"])
        #expect(other.status == 0, "\(other.stderr)")
        #expect(other.lines.first?.contains(": pinch-dismiss, policy") == true, "\(other.lines.first ?? "")")
        #expect(other.stderr.contains("the dump was made with --transition zoom-present; --transition given: this replay drives pinch-dismiss"),
                "\(other.stderr)")

        let archive = dir.appendingPathComponent("report.zip").path
        let report = try CLI.run(["report", dump, "-o", archive, "--no-libinput"])
        #expect(report.status == 0, "\(report.stderr)")
        let summary = try String(contentsOf: ReportCLITests.extract(archive).appendingPathComponent("summary.txt"), encoding: .utf8)
        #expect(summary.contains("transition: zoom-present,"), "\(summary.prefix(600))")  // a live dump's report
    }

    /// Debian's libinput reads a dump as its own: `libinput analyze recording` lists its frames.
    static func expectLibinputReads(_ dump: String) throws {
        // Debian's python3 (python3-libevdev), not one a user put first in PATH.
        let r = try CLI.run(["analyze", "recording", dump], environment: ["PATH": "/usr/bin:/bin"],
                            executable: URL(fileURLWithPath: "/usr/bin/libinput"))
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.lines.count > 10 && r.stdout.contains("BTN_TOUCH"), "\(r.stdout.prefix(500))")  // libinput's own output
    }

    /// `--dump-on cancelled` on a pinch whose release cancels: a dump is written by itself, says
    /// why, and its replay cancels too, at the time live's attempt cancelled.
    /// Debian's libinput reads the dump (`expectLibinputReads`).
    @Test(.needs(.libinputAnalyzeRecording, .fuse)) func aCancelledAttemptDumpsByItself() throws {
        let (serve, node) = try Self.serve("corpus/touchpad/pinch-in-threshold-cancel-01.evemu")
        defer { serve.process.interrupt() }
        let dir = try CLI.temporaryDirectory()
        let live = try CLI.Running(["live", node, "--json", "--keep", "5", "--dump-on", "cancelled", "--dump-dir", dir.path])
        #expect(CLI.waitFor(40) { !Self.dumps(in: dir).isEmpty }, "\(live.stderrSoFar)")
        live.process.interrupt()
        let r = try live.finish()
        #expect(r.status == 0, "\(r.stderr)")
        let dump = try #require(Self.dumps(in: dir).first)
        // A live session (its times vary) and its dump's JSON lines.
        #expect(r.stderr.contains("(an attempt that cancelled;"), "\(r.stderr)")
        let (_, extras) = try Self.lastEventSeconds(of: dump)
        #expect(extras.texts["dumped-on"] == "an attempt that cancelled")
        let cancelledLive = try #require(extras.lists["lines"]?.last { $0.contains("\"state\":\"cancelled\"") && $0.contains("transition") })
        let replay = try CLI.run(["replay", dump, "--json"])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.lines.contains(cancelledLive), "the replay's attempt cancels at the same time: \(cancelledLive)")
        try Self.expectLibinputReads(dump)
    }

    /// A long looped session at 8 times the speed with a 1 s ring: the ring wraps within a second,
    /// and live's resident memory stays flat while it goes on (measured between 6 s and 20 s).
    @Test(.needs(.fuse)) func memoryStaysFlatOverALongLoopedSession() throws {
        let (serve, node) = try Self.serve(Self.pinch, speed: "8")
        defer { serve.process.interrupt() }
        let dir = try CLI.temporaryDirectory()
        let live = try CLI.Running(["live", node, "--json", "--keep", "1", "--dump-dir", dir.path])
        func residentKiB() -> Int? {
            let status = (try? String(contentsOfFile: "/proc/\(live.process.processIdentifier)/status", encoding: .utf8)) ?? ""
            return status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
                .flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true)[1]) }
        }
        sleep(6)
        let early = try #require(residentKiB())
        sleep(14)
        let late = try #require(residentKiB())
        kill(live.process.processIdentifier, SIGUSR1)
        #expect(CLI.waitFor(20) { !Self.dumps(in: dir).isEmpty })
        live.process.interrupt()
        let r = try live.finish()
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.components(separatedBy: "\"state\":\"ended\"").count > 20, "many passes were read")
        #expect(late - early < 2048, "resident memory grew from \(early) KiB to \(late) KiB")
        let dump = try #require(Self.dumps(in: dir).first)
        let (end, _) = try Self.lastEventSeconds(of: dump)
        #expect(end > 15, "the dump holds the last second of a long session")
    }

    /// `--keep` outside 0...3600, or --dump-on with the recorder off: usage errors (64).
    @Test(arguments: [["--keep", "3601"], ["--keep", "-1"], ["--keep", "nan"], ["--keep", "0", "--dump-on", "failed"],
                      ["--dump-on", "sometimes"]])
    func badFlightRecorderOptionsAreUsageErrors(options: [String]) throws {
        let r = try CLI.run(["live", "/dev/null"] + options)
        #expect(r.status == 64, "\(r.stderr)")
        try Golden.expect(r, is: "errors-live-flight-recorder" + options.map { "_" + ($0.hasPrefix("--") ? $0.dropFirst(2) : Substring($0)) }.joined())
    }

    /// A --dump-dir that is missing or not a directory is refused before the device is opened.
    @Test func aDumpDirectoryThatCannotBeWrittenIsRefused() throws {
        var transcript = ""
        let missing = try Golden.run(["live", "/dev/null", "--dump-dir", "/nonexistent/pinchlab"], into: &transcript)
        #expect(missing.status == 66, "\(missing.stderr)")
        let file = try CLI.temporaryDirectory().appendingPathComponent("file").path
        _ = FileManager.default.createFile(atPath: file, contents: Data())
        let notADirectory = try Golden.run(["live", "/dev/null", "--dump-dir", file], into: &transcript)
        #expect(notADirectory.status == 64, "\(notADirectory.stderr)")
        try Golden.expect(transcript, is: "errors-live-dump-dir-missing-or-a-file")
    }

    /// A --dump-dir this process may not write in is refused before the device is opened (77).
    /// As a user that is a directory without write permission; as root, whom permissions do not
    /// stop, /proc/sys, which the kernel keeps unwritable for root too (a test running as root
    /// cannot make a directory of its own that it may not write in without mounting one).
    @Test func aDumpDirectoryWithoutWritePermissionIsRefused() throws {
        let own = try CLI.temporaryDirectory().appendingPathComponent("read-only").path
        try FileManager.default.createDirectory(atPath: own, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o500])
        defer { chmod(own, 0o700) }
        let dir = access(own, W_OK) == 0 ? "/proc/sys" : own
        try #require(access(dir, W_OK) != 0, "\(dir) is unwritable for this test's user")
        let r = try CLI.run(["live", "/dev/null", "--dump-dir", dir])
        #expect(r.status == 77, "\(r.stderr)")
        // Refused before the device is opened: no word of /dev/null. The directory depends on the
        // user the tests run as.
        try Golden.expect(r, is: "errors-live-dump-dir-unwritable", normalising: [dir: "$UNWRITABLE"])
    }

    /// Without --dump-dir, an unwritable current directory (/, a read-only checkout) does not stop
    /// live: a warning names it and the device is opened as ever (here /dev/null, refused as no
    /// evdev device). Run from the first unwritable directory of the test above.
    @Test func anUnwritableCurrentDirectoryIsOnlyAWarning() throws {
        let own = try CLI.temporaryDirectory().appendingPathComponent("read-only")
        try FileManager.default.createDirectory(at: own, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o500])
        defer { chmod(own.path, 0o700) }
        let dir = access(own.path, W_OK) == 0 ? URL(fileURLWithPath: "/proc/sys") : own
        try #require(access(dir.path, W_OK) != 0)
        let r = try CLI.run(["live", "/dev/null"], directory: dir)
        #expect(r.status == 69, "the device is still opened: \(r.stderr)")
        // The warning, then /dev/null refused as no evdev device.
        try Golden.expect(r, is: "errors-live-unwritable-current-directory", normalising: [dir.path: "$UNWRITABLE"])
    }

    /// SIGUSR1 while live is still opening the device (the served device's process is stopped,
    /// so live's open waits on it): a warning that there is nothing to dump yet, no file, and live
    /// goes on to read the device once it opens.
    @Test(.needs(.fuse)) func aDumpAskedForBeforeTheDeviceOpensIsAWarning() throws {
        let (serve, node) = try Self.serve(Self.pinch)
        defer { kill(serve.process.processIdentifier, SIGCONT); serve.process.interrupt() }
        kill(serve.process.processIdentifier, SIGSTOP)
        let dir = try CLI.temporaryDirectory()
        let live = try CLI.Running(["live", node, "--json", "--keep", "5", "--dump-dir", dir.path])
        defer { if live.process.isRunning { live.process.interrupt() } }
        // SIGUSR1 is caught (its handler installed) before the device is looked at. A live process:
        // its output is read while it runs.
        #expect(CLI.waitFor(20) { Self.catchesSIGUSR1(live.process.processIdentifier) })
        usleep(500_000)
        #expect(live.stdoutSoFar.isEmpty && live.process.isRunning, "live waits on the stopped device: \(live.stderrSoFar)")
        kill(live.process.processIdentifier, SIGUSR1)
        usleep(300_000)
        kill(serve.process.processIdentifier, SIGCONT)
        // (a live process, read while it runs)
        #expect(CLI.waitFor(20) { live.stderrSoFar.contains("was asked for before the device was open: nothing to dump yet") },
                "\(live.stderrSoFar)")
        #expect(CLI.waitFor(40) { live.stdoutSoFar.contains("\"type\":\"gesture\"") }, "live goes on: \(live.stderrSoFar)")
        live.process.interrupt()
        let r = try live.finish()
        #expect(r.status == 0, "\(r.stderr)")
        #expect(Self.dumps(in: dir).isEmpty, "the early request made no dump")
    }

    /// Whether `pid` catches SIGUSR1 (bit 10 of SigCgt in /proc/PID/status).
    static func catchesSIGUSR1(_ pid: Int32) -> Bool {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }),
              let mask = UInt64(line.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16) else { return false }
        return mask & (1 << (UInt64(SIGUSR1) - 1)) != 0
    }

    /// SIGUSR1 with the recorder off (--keep 0): a warning, and live goes on to its normal end.
    @Test(.needs(.fuse)) func aDumpWithTheRecorderOffIsAWarning() throws {
        let (serve, node) = try Self.serve(Self.pinch)
        defer { serve.process.interrupt() }
        let live = try CLI.Running(["live", node, "--json", "--keep", "0"])
        // A live process: its output is read while it runs.
        #expect(CLI.waitFor(20) { live.stdoutSoFar.contains("\"type\":\"gesture\"") })
        kill(live.process.processIdentifier, SIGUSR1)
        #expect(CLI.waitFor(10) { live.stderrSoFar.contains("--keep 0 turned the flight recorder off") }, "\(live.stderrSoFar)")
        #expect(live.process.isRunning, "live keeps running")
        live.process.interrupt()
        let r = try live.finish()
        #expect(r.status == 0, "\(r.stderr)")
    }
}

/// A dump onto a full disk: a warning, no file (not even a partial or staging one), and live goes
/// on; a later dump still works once there is room.
@Suite(.blocking, .serialized, .needs(.smallTmpfs, .fuse))
struct FlightDumpFullDiskCLITests {
    @Test func aDumpOntoAFullDiskIsAWarningAndLiveGoesOn() throws {
        let disk = try SmallTmpfs()
        defer { disk.unmount() }
        let (serve, node) = try FlightRecorderCLITests.serve(FlightRecorderCLITests.pinch)
        defer { serve.process.interrupt() }
        // A live process: its output is read while it runs, and the message of a failed write is the system's.
        let live = try CLI.Running(["live", node, "--json", "--keep", "30", "--dump-dir", disk.path])
        #expect(CLI.waitFor(40) { live.stdoutSoFar.components(separatedBy: "\"state\":\"ended\"").count > 3 })
        kill(live.process.processIdentifier, SIGUSR1)
        #expect(CLI.waitFor(20) { live.stderrSoFar.contains("was not written") }, "\(live.stderrSoFar)")
        #expect(live.process.isRunning, "live keeps running")
        let before = live.stdoutSoFar.count
        #expect(CLI.waitFor(20) { live.stdoutSoFar.count > before }, "and keeps printing")
        live.process.interrupt()
        let r = try live.finish()
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("No space left on device") || r.stderr.contains("ENOSPC"), "\(r.stderr)")  // the system's words
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path).isEmpty, "nothing half-written is left")
    }
}
