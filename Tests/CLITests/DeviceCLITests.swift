import Foundation
import GestureCore
import GestureKit
import Testing
import VirtualEvdev
import PinchlabTestSupport

/// The live device path end to end: `pinchlab serve` / an in-process virtual evdev node (FUSE),
/// read by `pinchlab live`, `record` and `devices` through libevdev.
@Suite(.blocking, .serialized) struct DeviceCLITests {
    /// A fresh directory name for a mount (not created). The base stays: `serve` removes only the
    /// directories it made, and other test runs may be using the base at the same time.
    static func mountDirectory(_ name: String) -> String {
        let base = "/tmp/pinchlab-cli-tests"
        try? FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        return "\(base)/\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }

    /// The frames (SYN_REPORTs) in a recording.
    static func frameCount(_ path: String) throws -> Int {
        var reader = try openRecording(path: path)
        var frames = 0
        while let e = try reader.nextEvent() { if e.isSynReport { frames += 1 } }
        return frames
    }

    /// The index just past the `frame`-th SYN_REPORT (1-based) in `events`: cutting there leaves whole frames.
    static func endOfFrame(_ frame: Int, in events: [InputEvent]) -> Int {
        var frames = 0
        for (index, event) in events.enumerated() where event.isSynReport {
            frames += 1
            if frames == frame { return index + 1 }
        }
        return events.count
    }

    static func events(of fixture: String) throws -> (DeviceDescription, [InputEvent]) {
        var source = try openRecording(path: CLI.fixture(fixture))
        var events: [InputEvent] = []
        while let e = try source.nextEvent() { events.append(e) }
        return (source.device, events)
    }

    /// A device two fingers are pinching on when a command opens it: the slow pinch's first 30
    /// frames generated while nobody reads (only the device's state moves), and the events after
    /// them, to enqueue once the command reads.
    static func deviceMidPinch(mountedAs name: String) throws -> (device: VirtualEvdevDevice, rest: ArraySlice<InputEvent>) {
        let (description, events) = try events(of: "corpus/touchpad/pinch-in-slow-finish-01.evemu")
        let cut = endOfFrame(30, in: events)
        let device = try VirtualEvdevDevice(description: description, directory: mountDirectory(name), options: .inTests)
        device.overflow(generating: Array(events[..<cut]))
        return (device, events[cut...])
    }

    @Test(.needs(.fuse), arguments: ["corpus/touchpad/pinch-in-slow-finish-01.evemu", "corpus/touchscreen/pan-down-flick-01.evemu"])
    func liveOnAServedRecordingPrintsWhatReplayPrints(fixture: String) throws {
        let dir = Self.mountDirectory("serve-live")
        let transition = fixture.contains("pan-down") ? "pan-dismiss" : "pinch-dismiss"  // the fixture's name
        let serve = try CLI.Running(["serve", CLI.fixture(fixture), "--at", dir])
        defer { serve.process.interrupt() }
        #expect(CLI.waitFor(20) { FileManager.default.fileExists(atPath: dir + "/event0") }, "\(serve.stderrSoFar)")

        let live = try CLI.run(["live", dir + "/event0", "--json", "--transition", transition, "--exit-after-idle", "1"])
        let replay = try CLI.run(["replay", CLI.fixture(fixture), "--json", "--transition", transition])
        #expect(live.status == 0, "\(live.stderr)")
        #expect(live.lines.dropLast() == replay.lines.dropLast(), "the same gesture and transition lines")
        let liveSummary = try live.json(line: -1), replaySummary = try replay.json(line: -1)
        #expect(liveSummary["outcome"] as? String == replaySummary["outcome"] as? String)
        #expect(liveSummary["outcome"] as? String == "finished")
        #expect(liveSummary["events"] as? Int == replaySummary["events"] as? Int)
        #expect(CLI.canonicalJSON(liveSummary["gestures"]) == CLI.canonicalJSON(replaySummary["gestures"]))

        serve.process.interrupt()
        let served = try serve.finish()
        #expect(served.status == 0, "serve stops cleanly on SIGINT: \(served.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/event0"), "unmounted")
        #expect(!FileManager.default.fileExists(atPath: dir), "the directory serve made is gone too")
    }

    /// `serve --loop` plays the recording again and again; the recording starts in slot 0 without
    /// saying so and ends in slot 1, so every pass must begin by returning to slot 0. Passes are
    /// apart (the pause comes after a pass is played, not while it plays): each pass's completion
    /// runs to its end, none is grabbed back by the next pass's fingers, so every pass decides as
    /// a replay does.
    @Test(.needs(.fuse)) func aLoopedRecordingIsTheSameGestureEveryPass() throws {
        let dir = Self.mountDirectory("serve-loop")
        // At twice the speed a pass plays in 0.42 s, less than the pause: a pause that started
        // with the playback instead of after it left a tenth of a second between passes.
        let serve = try CLI.Running(["serve", CLI.fixture("corpus/touchpad/pinch-in-slow-finish-01.evemu"), "--at", dir,
                                     "--loop", "--speed", "2"])
        defer { serve.process.interrupt() }
        #expect(CLI.waitFor(20) { FileManager.default.fileExists(atPath: dir + "/event0") }, "\(serve.stderrSoFar)")
        let live = try CLI.Running(["live", dir + "/event0", "--json"])
        let passes = 4
        #expect(CLI.waitFor(30) { live.stdoutSoFar.components(separatedBy: "\"state\":\"ended\"").count > passes })
        live.process.interrupt()
        let r = try live.finish()
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stderr.contains("double tracking ID"), "\(r.stderr)")  // live on a served device: its timing varies
        let gestures = try #require(try r.json(line: -1)["gestures"] as? [[String: Any]])
        let ended = gestures.filter { $0["ended"] as? String == "ended" }
        #expect(ended.count >= passes)
        #expect(ended.allSatisfy { $0["kind"] as? String == "pinch" && $0["fingers"] as? Int == 2 })
        let scales = Set(ended.compactMap { $0["scale"] as? Double })
        #expect(scales.count == 1, "every pass ends at the same scale: \(scales)")

        let replayed = try CLI.run(["replay", CLI.fixture("corpus/touchpad/pinch-in-slow-finish-01.evemu"), "--summary"])
        let replayTrial = try #require((try replayed.json(line: 0)["trials"] as? [[String: Any]])?.first)
        #expect(replayTrial["outcome"] as? String == "finished")
        let trials = try #require(try r.json(line: -1)["trials"] as? [[String: Any]])
        // Passes whose pinch ended (the last one may be cut short by the interrupt).
        let passTrials = trials.filter { trial in
            guard let index = trial["gesture"] as? Int, index < gestures.count else { return false }
            return gestures[index]["ended"] as? String == "ended"
        }
        #expect(passTrials.count >= passes)
        for (pass, trial) in passTrials.enumerated() {
            #expect(trial["outcome"] as? String == replayTrial["outcome"] as? String, "pass \(pass + 1): \(trial)")
            #expect(trial["decision"] as? String == replayTrial["decision"] as? String, "pass \(pass + 1): \(trial)")
            #expect(trial["grabbedCount"] as? Int == 0, "pass \(pass + 1)'s completion was grabbed back: \(trial)")
        }
    }

    /// `--unplug-when-done` removes the device only once its reader has read the last frame (the
    /// fingers lifting): `record` gets every frame, and `live` sees the pinch end, not cut off.
    /// (One reader per run: playback starts when the first one is ready, and a second one started
    /// a moment later could miss the beginning of a 0.2 s recording.)
    @Test(.needs(.fuse), arguments: ["record", "live"])
    func unplugWhenDoneLetsTheReaderTakeTheLastFrame(reader: String) throws {
        let fixture = CLI.fixture("corpus/touchpad/pinch-in-slow-finish-01.evemu")
        let dir = Self.mountDirectory("serve-unplug")
        let serve = try CLI.Running(["serve", fixture, "--at", dir, "--unplug-when-done", "--speed", "4"])
        defer { serve.process.interrupt() }
        #expect(CLI.waitFor(20) { FileManager.default.fileExists(atPath: dir + "/event0") }, "\(serve.stderrSoFar)")
        let out = try CLI.temporaryDirectory().appendingPathComponent("unplugged.evemu").path
        let arguments = reader == "record" ? ["record", dir + "/event0", "-o", out] : ["live", dir + "/event0", "--json"]
        let r = try CLI.Running(arguments).finish(timeout: 30)
        let served = try serve.finish(timeout: 30)
        #expect(served.status == 0, "\(served.stderr)")
        #expect(r.status == 69, "\(reader) says the device went away: \(r.stderr)")
        if reader == "record" {
            #expect(try Self.frameCount(out) == Self.frameCount(fixture), "every frame, the last one (the lift) included")
        } else {
            let summary = try r.json(line: -1)
            let gestures = try #require(summary["gestures"] as? [[String: Any]], "\(r.stdout)").filter { $0["kind"] as? String != "hold" }
            #expect(gestures.count == 1 && gestures.first?["kind"] as? String == "pinch")
            #expect(gestures.first?["ended"] as? String == "ended", "the fingers lifted before the device went away")
            let replay = try CLI.run(["replay", fixture, "--summary"])
            #expect(summary["outcome"] as? String == (try replay.json(line: 0)["outcome"] as? String))
        }
    }

    /// A served device stamps events like a kernel device, with the current time in each reader's
    /// clock: `libinput record` of two devices, which measures from its own start on
    /// CLOCK_MONOTONIC, writes times from 0 (with the recording's own times they came out below
    /// zero, printed as 18446744073709 s).
    @Test(.needs(.libinput, .fuse))
    func libinputRecordOfTwoServedDevicesCountsFromItsStart() throws {
        let fixtures = ["corpus/touchpad/pinch-in-slow-finish-01.evemu", "corpus/touchscreen/pan-down-flick-01.evemu"]
        let dirs = [Self.mountDirectory("serve-multi-a"), Self.mountDirectory("serve-multi-b")]
        let serves = try zip(fixtures, dirs).map { try CLI.Running(["serve", CLI.fixture($0), "--at", $1]) }
        defer { for serve in serves { serve.process.interrupt() } }
        for dir in dirs {
            #expect(CLI.waitFor(20) { FileManager.default.fileExists(atPath: dir + "/event0") })
        }
        let output = try CLI.temporaryDirectory().appendingPathComponent("both.yml").path
        let record = Process()
        record.executableURL = URL(fileURLWithPath: "/usr/bin/libinput")
        record.arguments = ["record", "-o", output] + dirs.map { $0 + "/event0" }
        record.standardOutput = FileHandle.nullDevice
        record.standardError = FileHandle.nullDevice
        try record.start()
        defer { if record.isRunning { kill(record.processIdentifier, SIGKILL) } }
        let recordedSeconds = 2.0  // both recordings are shorter, lead-in included
        Thread.sleep(forTimeInterval: recordedSeconds)
        record.interrupt()
        #expect(CLI.waitForExit(record, timeout: 10))

        let yaml = try String(contentsOfFile: output, encoding: .utf8)
        let seconds: [Int] = yaml.split(separator: "\n").compactMap { line in
            let trimmed = line.drop { $0 == " " }
            guard trimmed.hasPrefix("- ["), let comma = trimmed.firstIndex(of: ",") else { return nil }
            return Int(trimmed[trimmed.index(trimmed.startIndex, offsetBy: 3)..<comma].trimmingCharacters(in: .whitespaces))
        }
        let frames = try fixtures.map { try Self.frameCount(CLI.fixture($0)) }.reduce(0, +)
        #expect(seconds.count > frames, "both devices' events are in the file")
        #expect(seconds.allSatisfy { $0 >= 0 && Double($0) <= recordedSeconds + 1 }, "\(Set(seconds).sorted())")
    }

    /// Whatever is already mounted on `--at` belongs to someone: serve refuses (64) and leaves it
    /// mounted, files and all (it used to detach it, and a tmpfs's files were gone).
    @Test(.needs(.smallTmpfs)) func serveNeverUnmountsWhatIsAlreadyMountedThere() throws {
        let dir = Self.mountDirectory("serve-foreign")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try #require(mount("pinchlab-cli-tmpfs", dir, "tmpfs", 0, "size=64k") == 0, "mount tmpfs: \(errno)")
        defer { umount2(dir, Int32(MNT_DETACH)); rmdir(dir) }
        try "precious".write(toFile: dir + "/keep.txt", atomically: false, encoding: .utf8)
        let r = try CLI.run(["serve", CLI.fixture("corpus/touchpad/two-finger-tap-01.evemu"), "--at", dir])
        #expect(r.status == 64, "\(r.stderr)")
        // Whole: "--at DIR" is a tmpfs, "choose another directory".
        try Golden.expect(r, is: "errors-serve-at-a-tmpfs", normalising: [dir: "$MOUNT"])
        let mounts = MountTable.text("/proc/self/mounts")
        #expect(mounts.contains("pinchlab-cli-tmpfs \(dir) tmpfs"), "the tmpfs is still mounted")  // the kernel's mount table
        #expect((try? String(contentsOfFile: dir + "/keep.txt", encoding: .utf8)) == "precious")
    }

    @Test func serveAtADirectoryThatCannotBeMadeSaysSo() throws {
        let r = try CLI.run(["serve", CLI.fixture("corpus/touchpad/two-finger-tap-01.evemu"), "--at", "/proc/pinchlab-nope"])
        #expect(r.status == 64, "\(r.stderr)")
        #expect(r.stderr == "pinchlab: --at /proc/pinchlab-nope: cannot create the directory: No such file or directory\n")
    }

    /// The C side says why a mount failed by a code and an errno, never by its message: the kind of
    /// that errno is the exit status. A directory `nobody` may not make in root's directory is a
    /// permission problem (77); one below a plain file is a wrong `--at` (64). Nothing is left.
    @Test(.needs(.root))  // drops root to nobody with setpriv
    func serveAtADirectoryItMayNotMakeExits77() throws {
        let root = try CLI.temporaryDirectory().path
        let denied = root + "/serve-here"
        let r = try CLI.runAsUnprivilegedUser(["serve", CLI.fixture("corpus/touchpad/two-finger-tap-01.evemu"), "--at", denied])
        #expect(r.status == 77, "\(r.stderr)")
        #expect(r.stderr == "pinchlab: --at \(denied): cannot create the directory: Permission denied\n")
        #expect(!FileManager.default.fileExists(atPath: denied))

        let file = root + "/plain-file"
        #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
        let below = try CLI.run(["serve", CLI.fixture("corpus/touchpad/two-finger-tap-01.evemu"), "--at", file + "/below"])
        #expect(below.status == 64, "\(below.stderr)")
        #expect(below.stderr == "pinchlab: --at \(file)/below: cannot create the directory: Not a directory\n")
    }

    /// Each open descriptor of process `pid` and what it refers to (`/proc/PID/fd`).
    static func descriptorTargets(of pid: Int32) -> [Int: String] {
        let directory = "/proc/\(pid)/fd"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return Dictionary(uniqueKeysWithValues: names.compactMap { name in
            guard let number = Int(name),
                  let target = try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/" + name) else { return nil }
            return (number, target)
        })
    }

    /// Even a server that cannot clean up (SIGKILL, a crash) leaves no dead mount behind: the mount
    /// is made with libfuse's auto_unmount, so fusermount3 detaches it when the session goes away.
    @Test(.needs(.fuse)) func aKilledServerLeavesNoMount() throws {
        let dir = Self.mountDirectory("serve-killed")
        let serve = try CLI.Running(["serve", CLI.fixture("corpus/touchpad/two-finger-tap-01.evemu"), "--at", dir])
        // A killed serve cannot remove the directory it made (nor, if this fails, its mount).
        defer { umount2(dir, Int32(MNT_DETACH)); rmdir(dir) }
        #expect(CLI.waitFor(20) { FileManager.default.fileExists(atPath: dir + "/event0") }, "\(serve.stderrSoFar)")
        // The kernel releases a dead process's descriptors from the highest number down; the
        // watcher unmounts only a connection already gone when its socket ends, so the socket
        // is numbered below /dev/fuse, whatever the load. (Its only other socket is inherited from
        // this test process, Foundation's, numbered above both.)
        let descriptors = Self.descriptorTargets(of: serve.process.processIdentifier)
        let fuse = try #require(descriptors.first { $0.value == "/dev/fuse" }?.key, "\(descriptors)")
        #expect(descriptors.contains { $0.key < fuse && $0.value.hasPrefix("socket:") }, "\(descriptors)")
        kill(serve.process.processIdentifier, SIGKILL)
        serve.process.waitUntilExit()
        // fusermount3's auto_unmount helper unmounts when it reads the end of its socket to the dead
        // server, whenever a busy machine runs it (over 5 s seen in full runs): the wait is woken by
        // the mount table's change itself; a leaked mount never goes, so the bound only ends the test.
        let gone = MountTable.waitUntil(timeoutSeconds: 60) { !$0.contains(" \(dir) ") }
        #expect(gone, "the mount at \(dir) outlived its server; its stderr (fusermount3 writes there): \(serve.stderrSoFar)")
    }

    /// A parent that spawns pinchlab with SIGINT/SIGTERM blocked (a libdispatch worker, some
    /// supervisors) passes the mask on through exec; Ctrl-C and kill must still stop it cleanly.
    @Test(.needs(.fuse), arguments: [SIGINT, SIGTERM])
    func serveStopsOnASignalThatTheParentHadBlocked(signal: Int32) throws {
        let dir = Self.mountDirectory("serve-masked")
        var blocked = sigset_t(), previous = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGINT)
        sigaddset(&blocked, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        let serve = try CLI.Running(["serve", CLI.fixture("corpus/touchpad/two-finger-tap-01.evemu"), "--at", dir])
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        #expect(CLI.waitFor(20) { FileManager.default.fileExists(atPath: dir + "/event0") }, "\(serve.stderrSoFar)")
        kill(serve.process.processIdentifier, signal)
        let r = try serve.finish(timeout: 10)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("unmounted"))  // serve stopped by a signal: what it served before varies
        #expect(!FileManager.default.fileExists(atPath: dir + "/event0"))
    }

    /// `live` started while two fingers are pinching: the fingers already down come from the
    /// device's state at open, so the pinch is seen from there to the lift.
    @Test(.needs(.fuse)) func liveStartedMidPinchSeesIt() throws {
        let (device, rest) = try Self.deviceMidPinch(mountedAs: "midpinch")
        defer { device.stop() }
        let live = try CLI.Running(["live", device.path, "--json", "--exit-after-idle", "1"])
        #expect(device.waitUntilReading(clients: 1, timeoutSeconds: 20))
        device.enqueue(rest)
        let r = try live.finish(timeout: 30)
        #expect(r.status == 0, "\(r.stderr)")
        let first = try r.json(line: 0)
        #expect(first["kind"] as? String == "pinch" && first["state"] as? String == "began", "\(r.stdout)")
        let gestures = try #require(try r.json(line: -1)["gestures"] as? [[String: Any]])
        #expect(gestures.count == 1)
        #expect(gestures.first?["kind"] as? String == "pinch" && gestures.first?["ended"] as? String == "ended")
    }

    /// A keyboard has no touches: `live` would wait forever for a gesture, so it refuses and says
    /// what the device is; `record` still records it.
    @Test(.needs(.fuse)) func liveRefusesADeviceThatIsNotATouchDevice() throws {
        let keyA = EventCode(rawValue: 30), keyB = EventCode(rawValue: 48)  // KEY_A, KEY_B
        let keyboard = DeviceDescription(name: "pinchlab Test Keyboard", id: InputID(bustype: 0x11, vendor: 1, product: 1, version: 0xab41),
                                         codes: [.key: [keyA, keyB]])
        let device = try VirtualEvdevDevice(description: keyboard, directory: Self.mountDirectory("keyboard"), options: .inTests)
        defer { device.stop() }
        let live = try CLI.run(["live", device.path, "--json"], timeout: 20)
        #expect(live.status == 69, "\(live.stderr)")
        // A random mount path in the message; its words are read.
        #expect(live.stderr.contains("(\"pinchlab Test Keyboard\") is classified as 'other', not a touchpad or touchscreen"),
                "\(live.stderr)")
        #expect(live.stdout.isEmpty)

        let out = try CLI.temporaryDirectory().appendingPathComponent("keys.evemu").path
        let record = try CLI.Running(["record", device.path, "-o", out])
        #expect(device.waitUntilReading(clients: 1, timeoutSeconds: 20))
        let press = [InputEvent(time: EventTime(totalMicroseconds: 1_000), type: .key, code: keyA, value: 1),
                     InputEvent(time: EventTime(totalMicroseconds: 1_000), type: .syn, code: .synReport, value: 0)]
        device.enqueue(press)
        #expect(CLI.waitFor(10) { device.pendingEventCount == 0 })
        #expect(device.waitUntilDrained(timeoutSeconds: 10))
        usleep(200_000)
        record.process.interrupt()
        let r = try record.finish()
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try Self.frameCount(out) == 1)
    }

    /// A directory the user named that is not there is just that: no word about machines without
    /// /dev/input, and the "no such file" status.
    @Test func devicesOnAMissingDirectorySaysJustThat() throws {
        let r = try CLI.run(["devices", "/nonexistent-pinchlab"])
        #expect(r.status == 66, "\(r.stderr)")
        #expect(r.stderr == "pinchlab: cannot read /nonexistent-pinchlab: No such file or directory.\n")
    }

    /// A node that cannot be used is listed with its path once and the reason in a few words.
    @Test func devicesShowsAnUnusableNodeOnceWithItsReason() throws {
        let dir = try CLI.temporaryDirectory().path
        _ = FileManager.default.createFile(atPath: dir + "/event0", contents: Data("not a device".utf8))
        let r = try CLI.run(["devices", dir])
        let row = try #require(r.lines.first { $0.hasPrefix(dir + "/event0") })
        #expect(row.hasPrefix(dir + "/event0\tnot an evdev device ("), "\(row)")
        #expect(row.components(separatedBy: "event0").count == 2, "the path appears once: \(row)")
    }

    @Test(.needs(.fuse)) func devicesListsTheVirtualDevice() throws {
        let (description, _) = try Self.events(of: "corpus/touchscreen/pan-down-finish-01.evemu")
        let device = try VirtualEvdevDevice(description: description, directory: Self.mountDirectory("devices"), options: .inTests)
        defer { device.stop() }
        let r = try CLI.run(["devices", device.directory, "--json"])
        #expect(r.status == 0)
        let listing = try #require(try r.json(line: 0)["devices"] as? [[String: Any]])
        #expect(listing.count == 1)
        #expect(listing.first?["path"] as? String == device.path)
        #expect(listing.first?["class"] as? String == "touchscreen")
        #expect(listing.first?["widthMM"] as? Double == 290)
        #expect(listing.first?["slots"] as? Int == 10)
        // The human listing whole; the mount directory differs from run to run.
        try Golden.expect(try CLI.run(["devices", device.directory]), is: "devices-served-touchscreen",
                          normalising: [device.directory: "$MOUNT"])
    }

    /// The node is 0660 like /dev/input/event*: someone outside its user and group gets a real
    /// EACCES from open(2), and each command says how to get access, with exit status 77.
    @Test(.needs(.fuse)) func permissionDeniedIsExplainedWithStatus77() throws {
        let (description, _) = try Self.events(of: "corpus/touchpad/two-finger-tap-01.evemu")
        let device = try VirtualEvdevDevice(description: description, directory: Self.mountDirectory("denied"), options: .inTests)
        defer { device.stop() }
        let listing = try CLI.runAsUnprivilegedUser(["devices", device.directory])
        #expect(listing.status == 77, "\(listing.stdout)\(listing.stderr)")
        try Golden.expect(listing, is: "devices-permission-denied", normalising: [device.directory: "$MOUNT"])
        #expect(listing.stdout.components(separatedBy: "'input' group").count == 2, "the advice once, not per device")
        let json = try CLI.runAsUnprivilegedUser(["devices", device.directory, "--json"])
        #expect(json.status == 77)
        #expect(try json.json(line: 0)["devices"] != nil)
        for command in [["live", device.path, "--json"], ["record", device.path, "-o", "/tmp/pinchlab-denied.evemu"]] {
            let r = try CLI.runAsUnprivilegedUser(command)
            #expect(r.status == 77, "\(command[0]): \(r.stderr)")
            // live's warning that the current directory takes no dumps depends on who may write in the
            // checkout (nobody, run from root's, may not): left out, the rest compared whole.
            var denied = r
            denied.stderr = r.stderr.split(separator: "\n", omittingEmptySubsequences: false)
                .filter { !$0.hasPrefix("pinchlab: warning: dumps go to the current directory") }.joined(separator: "\n")
            try Golden.expect(denied, is: "errors-\(command[0])-permission-denied", normalising: [device.directory: "$MOUNT"])
        }
    }

    @Test(.needs(.fuse)) func recordStopsCleanlyOnSIGINTAndTheFileHoldsEveryFrame() throws {
        let (description, events) = try Self.events(of: "corpus/touchpad/pinch-in-quick-flick-01.evemu")
        let device = try VirtualEvdevDevice(description: description, directory: Self.mountDirectory("record"), options: .inTests)
        defer { device.stop() }
        let out = try CLI.temporaryDirectory().appendingPathComponent("rec.evemu").path
        let record = try CLI.Running(["record", device.path, "-o", out])
        #expect(device.waitUntilReading(clients: 1, timeoutSeconds: 20), "record is past libevdev's initial sync")
        device.enqueue(events)
        #expect(device.waitUntilGenerated(timeoutSeconds: 20))
        #expect(CLI.waitFor(10) { device.pendingEventCount == 0 })
        usleep(300_000)
        record.process.interrupt()
        let r = try record.finish()
        #expect(r.status == 0, "\(r.stderr)")

        var reader = try openRecording(path: out)
        #expect(reader.device.name == description.name)
        #expect(reader.device.absInfo[.absMTPositionX] == description.absInfo[.absMTPositionX])
        var read: [InputEvent] = []
        while let e = try reader.nextEvent() { read.append(e) }
        let first = events[0].time.totalMicroseconds
        #expect(read.map(\.time.totalMicroseconds) == events.map { $0.time.totalMicroseconds - first }, "times start at 0")
        #expect(read.map(\.code) == events.map(\.code))
        #expect(read.map(\.value) == events.map(\.value))
        // And the replay of the recording decides as the original does.
        let a = try CLI.run(["replay", out, "--summary"]), b = try CLI.run(["replay", CLI.fixture("corpus/touchpad/pinch-in-quick-flick-01.evemu"), "--summary"])
        #expect(try a.json(line: 0)["outcome"] as? String == b.json(line: 0)["outcome"] as? String)
    }

    /// A device that stops answering mid-gesture (nothing readable, poll never ready) ends live and
    /// record after --exit-after-idle instead of leaving them waiting forever: the pinch in flight is
    /// cancelled and the recording holds every frame that came.
    @Test(.needs(.fuse)) func aDeviceThatStopsAnsweringEndsByTheIdleTimeout() throws {
        let (description, events) = try Self.events(of: "corpus/touchpad/pinch-in-slow-finish-01.evemu")
        let cut = Self.endOfFrame(40, in: events)
        // The 40 frames come as one burst to two readers: a queue big enough for all of them, so a
        // reader the loaded machine runs late does not overflow (SYN_DROPPED) and lose frames.
        let device = try VirtualEvdevDevice(description: description, directory: Self.mountDirectory("stalled"),
                                            options: VirtualEvdevOptions(clientBufferEvents: 4096, unmountsAfterACrash: false))
        defer { device.stop() }
        let out = try CLI.temporaryDirectory().appendingPathComponent("stalled.evemu").path
        let live = try CLI.Running(["live", device.path, "--json", "--exit-after-idle", "1"])
        let record = try CLI.Running(["record", device.path, "-o", out, "--exit-after-idle", "1"])
        #expect(device.waitUntilReading(clients: 2, timeoutSeconds: 20))
        device.enqueue(events[..<cut])
        // Stalled once both readers took the 40 frames: a stall as soon as they were generated held
        // back what a reader the loaded machine ran late had not read yet (CI: 30 of 40 recorded).
        #expect(device.waitUntilDrained(timeoutSeconds: 10))
        device.stall(true)
        let started = Date()
        let l = try live.finish(timeout: 10), r = try record.finish(timeout: 10)
        #expect(Date().timeIntervalSince(started) < 5, "ended by the 1 s idle timeout")
        #expect(l.status == 0, "\(l.stderr)")
        let summary = try l.json(line: -1)
        let gesture = try #require((summary["gestures"] as? [[String: Any]])?.first { $0["kind"] as? String != "hold" })
        #expect(gesture["kind"] as? String == "pinch" && gesture["ended"] as? String == "cancelled")
        #expect(summary["outcome"] as? String == "cancelled")
        #expect(r.status == 0, "\(r.stderr)")
        var reader = try openRecording(path: out)
        var syns = 0
        while let e = try reader.nextEvent() { if e.isSynReport { syns += 1 } }
        #expect(syns == 40)
    }

    /// Removed after the pinch ended: nothing was in flight, and live does not say otherwise.
    @Test(.needs(.fuse)) func aDeviceRemovedBetweenGesturesSaysOnlyThatItWasRemoved() throws {
        let (description, events) = try Self.events(of: "corpus/touchpad/pinch-in-slow-finish-01.evemu")
        let device = try VirtualEvdevDevice(description: description, directory: Self.mountDirectory("removed-idle"), options: .inTests)
        defer { device.stop() }
        let live = try CLI.Running(["live", device.path, "--json"])
        #expect(device.waitUntilReading(clients: 1, timeoutSeconds: 20))
        device.enqueue(events[...])
        #expect(device.waitUntilGenerated(timeoutSeconds: 20))
        #expect(device.waitUntilDrained(timeoutSeconds: 10))
        // A live process: its output is read while it runs, and its end depends on when the device went.
        #expect(CLI.waitFor(10) { live.stdoutSoFar.contains("\"state\":\"finished\"") }, "the completion played out")
        device.remove()

        let l = try live.finish()
        #expect(l.status == 69)
        // live: when the device went, and so the rest of stderr, varies.
        #expect(l.stderr.contains("pinchlab: the device was removed\n"), "\(l.stderr)")
        #expect(!l.stderr.contains("in flight"), "\(l.stderr)")
        #expect(try l.json(line: -1)["outcome"] as? String == "finished")
    }

    @Test(.needs(.fuse)) func aDeviceRemovedMidGestureCancelsItAndLeavesACompleteRecording() throws {
        let (description, events) = try Self.events(of: "corpus/touchpad/pinch-in-slow-finish-01.evemu")
        // Up to the 40th frame: both fingers down, pinching, transition interactive.
        let cut = Self.endOfFrame(40, in: events)
        let device = try VirtualEvdevDevice(description: description, directory: Self.mountDirectory("removed"), options: .inTests)
        defer { device.stop() }
        let out = try CLI.temporaryDirectory().appendingPathComponent("cut.evemu").path
        let live = try CLI.Running(["live", device.path, "--json"])
        let record = try CLI.Running(["record", device.path, "-o", out])
        #expect(device.waitUntilReading(clients: 2, timeoutSeconds: 20), "live and record are past libevdev's initial sync")
        device.enqueue(events[..<cut])
        #expect(device.waitUntilGenerated(timeoutSeconds: 20))
        #expect(CLI.waitFor(10) { device.pendingEventCount == 0 })
        usleep(300_000)
        device.remove()

        let l = try live.finish(), r = try record.finish()
        #expect(l.status == 69, "live exits with 'device unavailable': \(l.stderr)")
        #expect(l.stderr.contains("the device was removed; the gesture in flight was cancelled"), "\(l.stderr)")  // live: timing
        let summary = try l.json(line: -1)
        #expect(summary["outcome"] as? String == "cancelled", "\(l.stdout)")
        let gesture = try #require((summary["gestures"] as? [[String: Any]])?.first { $0["kind"] as? String != "hold" })
        #expect(gesture["kind"] as? String == "pinch")
        #expect(gesture["ended"] as? String == "cancelled", "a gesture in flight is cancelled, not left open")

        #expect(r.status == 69, "record says the device went away: \(r.stderr)")
        var reader = try openRecording(path: out)
        var read = 0, syns = 0
        while let e = try reader.nextEvent() { read += 1; if e.isSynReport { syns += 1 } }
        #expect(read == cut, "every event up to the last SYN_REPORT is in the file")
        #expect(syns == 40)
    }
}
