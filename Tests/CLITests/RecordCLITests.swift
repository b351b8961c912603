import CEvemu
import Foundation
import GestureCore
import GestureKit
import Testing
import VirtualEvdev
import PinchlabTestSupport

/// `pinchlab record` from a virtual evdev device (FUSE, in process): what it writes is read by
/// libevemu (evemu format) and by the libinput-record reader (`--format libinput`), whichever of
/// SIGINT or SIGTERM stops it.
@Suite(.blocking, .needs(.fuse), .serialized) struct RecordCLITests {
    static let fixture = "corpus/touchpad/pinch-in-quick-flick-01.evemu"

    /// `body` given the node of the fixture served in a loop (`serve --loop`, which never runs out
    /// of events) at a fresh mount directory named after `name`; the serve is stopped afterwards as
    /// a user stops it (SIGINT) and waited for, so that it unmounts.
    static func withServedLoop<T>(_ name: String, sourceLocation: SourceLocation = #_sourceLocation,
                                  _ body: (_ node: String) throws -> T) throws -> T {
        let at = DeviceCLITests.mountDirectory(name)
        let serve = try CLI.Running(["serve", CLI.fixture(fixture), "--at", at, "--loop"])
        defer {
            kill(serve.process.processIdentifier, SIGINT)
            _ = try? serve.finish()
        }
        #expect(CLI.waitFor(20) { FileManager.default.fileExists(atPath: at + "/event0") }, sourceLocation: sourceLocation)
        return try body(at + "/event0")
    }

    static func fixtureEvents() throws -> (DeviceDescription, [InputEvent]) { try DeviceCLITests.events(of: fixture) }

    /// What libevemu (`evemu_read`, `evemu_read_event`) reads from a file.
    struct LibevemuReading {
        var readStatus: Int32
        var name: String
        var codes: [EventType: Set<EventCode>]
        var events: [InputEvent]
    }

    static func libevemuRead(_ path: String) throws -> LibevemuReading {
        let file = try #require(fopen(path, "r"))
        defer { fclose(file) }
        let device = try #require(evemu_new(nil))
        defer { evemu_delete(device) }
        let status = evemu_read(device, file)
        var codes: [EventType: Set<EventCode>] = [:]
        for rawType in 1..<UInt16(EV_CNT) {
            let type = EventType(rawValue: rawType)
            guard let maxCode = type.maxCode else { continue }
            for rawCode in 0...maxCode where evemu_has_event(device, Int32(rawType), Int32(rawCode)) != 0 {
                codes[type, default: []].insert(EventCode(rawValue: rawCode))
            }
        }
        var events: [InputEvent] = []
        var event = input_event()
        while evemu_read_event(file, &event) > 0 {
            events.append(InputEvent(time: EventTime(seconds: Int64(event.time.tv_sec), microseconds: Int32(event.time.tv_usec)),
                                     type: EventType(rawValue: event.type), code: EventCode(rawValue: event.code),
                                     value: event.value))
        }
        return LibevemuReading(readStatus: status, name: String(cString: evemu_get_name(device)), codes: codes, events: events)
    }

    /// Records `events` played by a virtual device described by `description`, stopping the
    /// recorder with `signal` once every event has been read; returns its result and the file.
    static func record(_ description: DeviceDescription, _ events: [InputEvent], format: String, stopWith signal: Int32)
        throws -> (CLI.Result, String, String) {
        let device = try VirtualEvdevDevice(description: description, directory: DeviceCLITests.mountDirectory("record-\(format)"), options: .inTests)
        defer { device.stop() }
        let out = try CLI.temporaryDirectory().appendingPathComponent(format == "libinput" ? "rec.yml" : "rec.evemu").path
        let record = try CLI.Running(["record", device.path, "-o", out] + (format == "libinput" ? ["--format", "libinput"] : []))
        #expect(device.waitUntilReading(clients: 1, timeoutSeconds: 20), "record is past libevdev's initial sync")
        device.enqueue(events)
        #expect(device.waitUntilGenerated(timeoutSeconds: 20))
        #expect(CLI.waitFor(10) { device.pendingEventCount == 0 })
        usleep(300_000)
        kill(record.process.processIdentifier, signal)
        return (try record.finish(), out, device.path)
    }

    /// The events as `record` writes them: times from 0.
    static func relative(_ events: [InputEvent]) -> [InputEvent] {
        let first = events[0].time.totalMicroseconds
        return events.map { var event = $0; event.time = EventTime(totalMicroseconds: $0.time.totalMicroseconds - first); return event }
    }

    /// Ctrl-\ (SIGQUIT) and a closed terminal (SIGHUP) stop a recording as Ctrl-C does (#42 12:
    /// SIGQUIT printed a crash report and recording went on).
    @Test(arguments: [SIGINT, SIGTERM, SIGQUIT, SIGHUP])
    func libevemuReadsTheEvemuRecording(signal: Int32) throws {
        let (description, events) = try Self.fixtureEvents()
        let (result, out, _) = try Self.record(description, events, format: "evemu", stopWith: signal)
        #expect(result.status == 0, "\(result.stderr)")
        // A recording stopped by a signal: what else record says depends on when the signal came.
        #expect(!result.stderr.contains("crashed"), "\(result.stderr)")
        let frames = events.filter(\.isSynReport).count
        #expect(result.stderr.contains("pinchlab: wrote \(frames) frames to \(out)\n"), "\(result.stderr)")

        let libevemu = try Self.libevemuRead(out)
        #expect(libevemu.readStatus > 0, "evemu_read accepts the description")
        #expect(libevemu.name == description.name)
        #expect(libevemu.codes[.abs] == description.codes[.abs])
        #expect(libevemu.codes[.key] == description.codes[.key])
        #expect(libevemu.events == Self.relative(events), "every event, as evemu_read_event reads it")
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func theLibinputFormatReadsBackWithItsNode(signal: Int32) throws {
        let (description, events) = try Self.fixtureEvents()
        let (result, out, node) = try Self.record(description, events, format: "libinput", stopWith: signal)
        #expect(result.status == 0, "\(result.stderr)")
        let text = try String(contentsOfFile: out, encoding: .utf8)
        #expect(text.hasPrefix("# libinput record\nversion: 1\nndevices: 1\n"))
        let reader = try #require(try openRecording(path: out) as? LibinputRecordReader)
        #expect(reader.node == node)
        #expect(reader.device.name == description.name)
        #expect(reader.device.absInfo == description.absInfo)
        var read: [InputEvent] = []
        while let event = try reader.nextEvent() { read.append(event) }
        #expect(read == Self.relative(events))
        #expect(reader.trailingPartialFrame == nil, "only whole frames are written")
        #expect(reader.deviceCount == 1)
    }

    /// `record` started mid-pinch (as `live` in `DeviceCLITests.liveStartedMidPinchSeesIt`): the
    /// file begins with the two touches already down, marked by its comment and at time 0, so
    /// libevemu reads them as the first frame and a replay sees the fingers land and the pinch.
    @Test(arguments: ["evemu", "libinput"])
    func aRecordingStartedMidPinchBeginsWithTheTouchesDown(format: String) throws {
        let (device, rest) = try DeviceCLITests.deviceMidPinch(mountedAs: "record-midpinch")
        defer { device.stop() }
        let out = try CLI.temporaryDirectory().appendingPathComponent(format == "libinput" ? "mid.yml" : "mid.evemu").path
        let record = try CLI.Running(["record", device.path, "-o", out] + (format == "libinput" ? ["--format", "libinput"] : []))
        #expect(device.waitUntilReading(clients: 1, timeoutSeconds: 20))
        device.enqueue(rest)
        #expect(device.waitUntilGenerated(timeoutSeconds: 20))
        #expect(CLI.waitFor(10) { device.pendingEventCount == 0 })
        usleep(300_000)
        record.process.interrupt()
        let result = try record.finish()
        #expect(result.status == 0, "\(result.stderr)")
        // Two slots with a tracking id; BTN_TOUCH and BTN_TOOL_DOUBLETAP held. (record runs live on a
        // served device, stopped by a signal: its lines are read one by one.)
        #expect(result.stderr.contains("pinchlab: 2 touches down and 2 buttons held at open: the file begins with them "
                                       + "(the frame after '# state at open', at time 0)\n"), "\(result.stderr)")
        let later = rest.filter(\.isSynReport).count
        #expect(result.stderr.contains("pinchlab: wrote \(later) frames to \(out) after the state at open "
                                       + "(\(later + 1) frames in the file, as stats and replay count them)\n"),
                "the state's frame is not a device frame, and the file's count is said: \(result.stderr)")
        // stats and replay count the file's frames, the state's included, and agree.
        let stats = try CLI.run(["stats", out, "--json"])
        #expect((try stats.json(line: 0))["frames"] as? Int == later + 1, "\(stats.stdout)")
        let replayed = try CLI.run(["replay", out, "--summary"])
        #expect((try replayed.json(line: 0))["frames"] as? Int == later + 1, "\(replayed.stdout)")

        let text = try String(contentsOfFile: out, encoding: .utf8)
        let marker = (format == "libinput" ? "  # " : "# ") + StateAtOpen.comment + "\n"
        #expect(text.components(separatedBy: marker).count == 2, "one marked state frame")
        var reader = try openRecording(path: out)
        var read: [InputEvent] = []
        while let event = try reader.nextEvent() { read.append(event) }
        let firstFrame = read.prefix { !$0.isSynReport }
        #expect(firstFrame.allSatisfy { $0.time == .zero }, "the state is at the first event's time")
        #expect(firstFrame.filter { $0.code == .absMTTrackingID && $0.type == .abs && $0.value >= 0 }.count == 2)
        #expect(firstFrame.contains { $0.type == .key && $0.code == .btnTouch && $0.value == 1 })
        #expect(read.dropFirst(firstFrame.count + 1).first?.time == .zero, "the first event the device sent is at 0")
        if format == "evemu" {
            let libevemu = try Self.libevemuRead(out)
            #expect(libevemu.readStatus > 0)
            #expect(libevemu.events == read, "libevemu reads the state frame as pinchlab does")
        }

        let replay = try CLI.run(["replay", out, "--json"])
        #expect(replay.status == 0, "\(replay.stderr)")
        let first = try replay.json(line: 0)
        #expect(first["kind"] as? String == "pinch" && first["state"] as? String == "began", "\(replay.stdout)")
        let summary = try replay.json(line: -1)
        let gestures = try #require(summary["gestures"] as? [[String: Any]])
        #expect(gestures.count == 1)
        #expect(gestures.first?["kind"] as? String == "pinch" && gestures.first?["ended"] as? String == "ended")
        #expect(summary["firstTouch"] as? Double == 0, "the fingers land at 0")
    }

    /// The kernel's name is not ours to refuse: evemu gets a name it can hold, with a warning;
    /// YAML keeps the name as it is.
    /// Two `record -o` onto one file (#42's fifth finding): the second is refused at once (74, the
    /// file named, the reason), and the first one's recording is whole, not interleaved or cut.
    @Test func aSecondRecorderOntoTheSameFileIsRefused() throws {
        try Self.withServedLoop("two-recorders") { node in
            let out = try CLI.temporaryDirectory().appendingPathComponent("same.evemu").path
            let first = try CLI.Running(["record", node, "-o", out])
            #expect(CLI.waitFor(20) { ((try? FileManager.default.attributesOfItem(atPath: out)[.size]) as? Int ?? 0) > 2000 },
                    "the first recorder writes")
            let second = try CLI.run(["record", node, "-o", out], timeout: 20)
            #expect(second.status == 74, "\(second.stderr)")
            // Beside a live recording in another process: read by its line.
            #expect(second.stderr.contains("pinchlab: \(out): expected a file no other program is writing, found another one writing it"),
                    "\(second.stderr)")
            kill(first.process.processIdentifier, SIGINT)
            let ended = try first.finish()
            #expect(ended.status == 0, "\(ended.stderr)")
            let stats = try CLI.run(["stats", out])
            #expect(stats.status == 0, "the first recording reads whole: \(stats.stderr)")
            // Once the first has ended, the file may be recorded again (moved aside first, so that the
            // wait below sees the new recording grow, not the old one's size).
            try FileManager.default.moveItem(atPath: out, toPath: out + ".first")
            let again = try CLI.Running(["record", node, "-o", out])
            #expect(CLI.waitFor(20) { ((try? FileManager.default.attributesOfItem(atPath: out)[.size]) as? Int ?? 0) > 2000 })
            kill(again.process.processIdentifier, SIGINT)
            #expect(try again.finish().status == 0)
        }
    }

    @Test func aDeviceNameEvemuCannotHoldIsRecordedSafelyWithAWarning() throws {
        var (description, events) = try Self.fixtureEvents()
        description.name = "evil\nB: 01 ff ff ff ff ff ff ff ff"
        let (result, out, _) = try Self.record(description, events, format: "evemu", stopWith: SIGTERM)
        #expect(result.status == 0, "\(result.stderr)")
        // record stopped by a signal: the warning is read among its other lines.
        #expect(result.stderr.contains("pinchlab: warning: the device name 'evil\\nB: 01 ff ff ff ff ff ff ff ff', which holds a line "
                                       + "break (U+000A), and evemu has no escaping; recorded as \"evil B: 01 ff ff ff ff ff ff ff ff\" "
                                       + "(--format libinput keeps the name)\n"), "\(result.stderr)")
        let libevemu = try Self.libevemuRead(out)
        #expect(libevemu.readStatus > 0)
        #expect(libevemu.name == "evil B: 01 ff ff ff ff ff ff ff ff")
        #expect(libevemu.codes[.key] == description.codes[.key], "no key codes forged by a 'B: 01' line")
        #expect(libevemu.events == Self.relative(events))

        let (yamlResult, yaml, _) = try Self.record(description, events, format: "libinput", stopWith: SIGTERM)
        #expect(yamlResult.status == 0, "\(yamlResult.stderr)")
        #expect(!yamlResult.stderr.contains("warning"))  // (as above: a live record's lines)
        #expect(try openRecording(path: yaml).device.name == description.name)
    }
}

/// A tmpfs of 64 KiB mounted for one test, where mounting is permitted (root, or CAP_SYS_ADMIN).
struct SmallTmpfs {
    let path: String

    static let isPermitted: Bool = {
        guard let probe = try? SmallTmpfs() else { return false }
        probe.unmount()
        return true
    }()

    init() throws {
        path = try CLI.temporaryDirectory().appendingPathComponent("full").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        guard mount("pinchlab-test", path, "tmpfs", 0, "size=64k") == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EPERM)
        }
    }

    func unmount() { _ = umount2(path, Int32(MNT_DETACH)) }
}

/// `record` onto a full disk: the write fails with ENOSPC, the file is cut back to its last whole
/// frame (libevemu and pinchlab read it to the end, no event after the last SYN_REPORT), status 74.
/// The device is `pinchlab serve --loop` of a corpus recording, which never runs out of events.
@Suite(.blocking, .serialized, .needs(.smallTmpfs))
struct RecordFullDiskCLITests {
    static func recordOntoFullDisk(format: String) throws -> (CLI.Result, String, [InputEvent], SmallTmpfs) {
        let (_, events) = try RecordCLITests.fixtureEvents()
        let disk = try SmallTmpfs()
        let (record, out) = try record(format: format, onto: disk)
        return (record, out, RecordCLITests.relative(events), disk)
    }

    /// `record` of a looping `serve` device onto `disk`, in `format`; the result and the file.
    static func record(format: String, onto disk: SmallTmpfs) throws -> (CLI.Result, String) {
        try RecordCLITests.withServedLoop("full-\(format)") { node in
            let out = disk.path + (format == "libinput" ? "/rec.yml" : "/rec.evemu")
            let record = try CLI.run(["record", node, "-o", out] + (format == "libinput" ? ["--format", "libinput"] : []),
                                     timeout: 60)
            return (record, out)
        }
    }

    func expectCutAtAFrame(_ result: CLI.Result, _ out: String) {
        #expect(result.status == 74, "\(result.stderr)")
        // A live record onto a full disk: where it stopped (the frame count) varies.
        #expect(result.stderr.contains("pinchlab: \(out):"), "\(result.stderr)")
        #expect(result.stderr.contains("expected a successful write, found No space left on device"), "\(result.stderr)")
        #expect(result.stderr.contains("; the file ends at its last whole frame\n"), "\(result.stderr)")
    }

    /// The first pass of the loop, as recorded: the fixture's events from 0.
    func expectFirstPass(_ read: [InputEvent], _ events: [InputEvent]) {
        let count = min(read.count, events.count)
        #expect(Array(read.prefix(count)) == Array(events.prefix(count)), "the events as played")
    }

    @Test(.needs(.fuse)) func anEvemuRecordingEndsAtItsLastWholeFrame() throws {
        let (result, out, events, disk) = try Self.recordOntoFullDisk(format: "evemu")
        defer { disk.unmount() }
        expectCutAtAFrame(result, out)
        let bytes = try #require(FileManager.default.contents(atPath: out))
        #expect(bytes.count > 40_000 && bytes.count <= 65_536, "\(bytes.count) bytes")
        #expect(bytes.last == 0x0A, "ends on a whole line")

        let libevemu = try RecordCLITests.libevemuRead(out)
        #expect(libevemu.readStatus > 0)
        #expect(libevemu.events.count > 500)
        #expect(libevemu.events.last?.isSynReport == true, "libevemu reads to a SYN_REPORT")
        expectFirstPass(libevemu.events, events)
        var reader = try openRecording(path: out)
        var read: [InputEvent] = []
        while let event = try reader.nextEvent() { read.append(event) }
        #expect(read == libevemu.events, "pinchlab reads what libevemu reads")
        #expect(reader.trailingPartialFrame == nil)

        let stats = try CLI.run(["stats", out])
        #expect(stats.status == 0, "\(stats.stderr)")
        #expect(!stats.stderr.contains("warning"), "no events after the last SYN_REPORT: \(stats.stderr)")  // the file's length varies
    }

    /// A disk full before the header fits: `record` left a 0-byte file, which a later command read
    /// as an empty recording. Now no file is left; status 74 says why.
    @Test(.needs(.fuse), arguments: ["evemu", "libinput"])
    func aRecordingWhoseHeaderDoesNotFitLeavesNoFile(format: String) throws {
        let disk = try SmallTmpfs()
        defer { disk.unmount() }
        let filler = try #require(fopen(disk.path + "/filler", "w"))
        let block = [UInt8](repeating: 0x41, count: 4096)
        while fwrite(block, 1, block.count, filler) == block.count && fflush(filler) == 0 {}
        fclose(filler)
        let (record, out) = try Self.record(format: format, onto: disk)
        #expect(record.status == 74, "\(record.stderr)")
        #expect(record.stderr.contains("No space left on device"), "\(record.stderr)")  // the system's words, where the disk filled varies
        #expect(!FileManager.default.fileExists(atPath: out), "no header, no file")
    }

    /// `generate-corpus` onto a full disk: every recording it leaves is whole (the shipped file byte
    /// for byte); the one the disk could not hold is not there half written.
    @Test func generatedRecordingsAreWholeOrAbsent() throws {
        let disk = try SmallTmpfs()
        defer { disk.unmount() }
        let r = try CLI.run(["generate-corpus", disk.path + "/corpus"])
        #expect(r.status == 74, "\(r.stderr)")
        let enumerator = try #require(FileManager.default.enumerator(atPath: disk.path + "/corpus"))
        var whole = 0
        for case let file as String in enumerator {
            #expect(!file.contains(".pinchlab-"), "no staging file left: \(file)")  // a file name
            guard file.hasSuffix(".evemu") else { continue }
            let written = try Data(contentsOf: URL(fileURLWithPath: disk.path + "/corpus/" + file))
            #expect(written == (try Data(contentsOf: URL(fileURLWithPath: CLI.fixture("corpus/" + file)))), "\(file) is whole")
            whole += 1
        }
        #expect(whole > 0, "the disk held some")
    }

    @Test(.needs(.fuse)) func aLibinputRecordingEndsAtItsLastWholeFrameAndParses() throws {
        let (result, out, events, disk) = try Self.recordOntoFullDisk(format: "libinput")
        defer { disk.unmount() }
        expectCutAtAFrame(result, out)
        let reader = try #require(try openRecording(path: out) as? LibinputRecordReader)
        var read: [InputEvent] = []
        while let event = try reader.nextEvent() { read.append(event) }
        #expect(read.count > 300)
        #expect(read.last?.isSynReport == true)
        expectFirstPass(read, events)
        #expect(reader.trailingPartialFrame == nil, "the YAML ends after a whole frame")
        let replayed = try CLI.run(["replay", out, "--summary"])
        #expect(replayed.status == 0, "\(replayed.stderr)")
    }

    /// A writer whose header does not fit removes the file it made, but never a name that is not
    /// that file: `-o LINK` where LINK leads to standard output (as `/dev/stdout` does) redirected
    /// to a file on a full disk. Unlinking the name removed the link itself (the system's
    /// `/dev/stdout`, when that was the name).
    @Test func aHeaderThatDoesNotFitLeavesALinkToStandardOutputInPlace() throws {
        let disk = try SmallTmpfs()
        defer { disk.unmount() }
        let standardOutput = try URL(fileURLWithPath: disk.path + "/out.evemu").creatingFile().path
        // Fill the disk: the header's first flush fails with ENOSPC.
        let filler = try FileHandle(forWritingTo: URL(fileURLWithPath: disk.path + "/filler").creatingFile())
        while (try? filler.write(contentsOf: Data(count: 4096))) != nil {}
        try? filler.close()
        let dir = try CLI.temporaryDirectory().path
        let link = dir + "/stdout-link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/proc/self/fd/1")
        let r = try CLI.run(["convert", CLI.fixture(RecordCLITests.fixture), "-o", link, "--to", "evemu"],
                            standardOutput: standardOutput)
        #expect(r.status == 74, "\(r.stderr)")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == "/proc/self/fd/1", "the link is still there")
    }
}

private extension URL {
    /// The URL, after creating an empty file there.
    func creatingFile() throws -> URL {
        guard FileManager.default.createFile(atPath: path, contents: nil) else { throw POSIXError(.EIO) }
        return self
    }
}
