import Foundation
import GestureCore
import GestureKit
import Testing
import PinchlabTestSupport

/// The libinput harness and time (#42's first finding): a recording with a long idle gap is not
/// played to libinput gap and all, and a stop ends the run at once with 130, its mount and folder
/// gone, under `$TMPDIR`.
@Suite(.blocking, .needs(.libinput, .fuse), .serialized) struct LibinputGapCLITests {
    static let fixture = "corpus/touchpad/pinch-in-slow-finish-01.evemu"

    /// The fixture with `gap` seconds added after the frame ending nearest its middle: the
    /// recording's path and where the gap begins (seconds from the first event).
    static func withGap(_ gap: Double, name: String) throws -> (path: String, at: Double) {
        var source = try openRecording(path: CLI.fixture(fixture))
        var events: [InputEvent] = []
        while let event = try source.nextEvent() { events.append(event) }
        var middle = events.count / 2
        while !events[middle].isSynReport { middle += 1 }
        let first = events[0].time.totalMicroseconds
        let at = Double(events[middle].time.totalMicroseconds - first) / 1e6
        let shift = Int64(gap * 1_000_000)
        for index in (middle + 1)..<events.count {
            events[index].time = EventTime(totalMicroseconds: events[index].time.totalMicroseconds + shift)
        }
        let path = try CLI.temporaryDirectory().appendingPathComponent(name).path
        try writeRecording(events, of: source.device, to: path)
        return (path, at)
    }

    @Test(arguments: [120.0, 1e9])
    func aLongGapIsPlayedShortAndSaid(gap: Double) throws {
        let (path, at) = try Self.withGap(gap, name: "gap.evemu")
        let started = ContinuousClock.now
        let r = try CLI.run(["libinput", path], timeout: 60, environment: ["PINCHLAB_NO_CACHE": "1"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(ContinuousClock.now - started < .seconds(30), "played with the gap cut to 2 s")
        let seconds = gap >= 1e6 ? String(format: "%.1f", gap) : String(format: "%.1f", gap)
        // libinput's verdict beside the note: its gestures' times vary from run to run.
        #expect(r.stdout.contains("note: 1 idle gap over 2 s (\(seconds) s at \(String(format: "%.3f", at)) s) played to libinput as 2 s"),
                "\(r.stdout)")
        // Its gestures in the recording's time: the pinch spans the gap as recorded.
        let pinch = try #require(r.stdout.split(separator: "\n").first { $0.hasPrefix("  pinch, 2 fingers, ") }, "\(r.stdout)")
        let span = pinch.dropFirst("  pinch, 2 fingers, ".count).prefix { $0 != " " }.split(separator: "-").compactMap { Double($0) }
        #expect(span.count == 2 && span[1] > gap, "\(pinch)")
    }

    /// Stopped while libinput reads the node (during the gap, played short but not yet over): 130,
    /// and nothing left in `$TMPDIR`, no mount.
    @Test(arguments: [SIGINT, SIGTERM], ["libinput", "replay"])
    func aStopRemovesTheMountAndTheFolder(signal: Int32, command: String) throws {
        let (path, _) = try Self.withGap(120, name: "gap-stop.evemu")
        let temporary = try CLI.temporaryDirectory().path
        let arguments = command == "libinput" ? ["libinput", path] : ["replay", path, "--with-libinput"]
        let run = try CLI.Running(arguments, environment: ["TMPDIR": temporary, "PINCHLAB_NO_CACHE": "1"])
        #expect(CLI.waitFor(20) {
            (try? FileManager.default.contentsOfDirectory(atPath: temporary))?.contains { $0.hasPrefix("pinchlab-libinput-") } == true
        }, "the node's folder is made under TMPDIR")
        Thread.sleep(forTimeInterval: 0.8)
        kill(run.process.processIdentifier, signal)
        let ended = try run.finish(timeout: 20)
        #expect(ended.status == 130, "\(ended.stderr)")
        #expect(CLI.waitFor(6) { (try? FileManager.default.contentsOfDirectory(atPath: temporary))?.isEmpty == true },
                "\(String(describing: try? FileManager.default.contentsOfDirectory(atPath: temporary)))")
        let mounts = MountTable.text()
        #expect(!mounts.contains(temporary), "no mount left under \(temporary)")
    }
}
