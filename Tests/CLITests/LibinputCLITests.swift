import Foundation
import Testing
import PinchlabTestSupport

/// `pinchlab libinput` and `replay --with-libinput`: Debian's real `libinput debug-events` on the
/// virtual device. Skipped, with the reason, only where libinput-tools or FUSE are missing
/// (`.ci/run` installs both through scripts/setup-debian).
@Suite(.blocking, .needs(.libinput, .fuse), .serialized)
struct LibinputCLITests {
    static func gestures(_ json: [String: Any]) -> [[String: Any]] {
        (json["libinput"] as? [String: Any])?["gestures"] as? [[String: Any]] ?? []
    }

    @Test func aTwoFingerPinchIsLibinputsPinch() throws {
        let r = try CLI.run(["libinput", CLI.fixture("corpus/touchpad/pinch-in-slow-finish-01.evemu"), "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try r.json(line: 0)
        #expect(((json["libinput"] as? [String: Any])?["version"] as? String)?.hasPrefix("1.") == true)
        let pinches = Self.gestures(json).filter { $0["kind"] as? String == "pinch" }
        let pinch = try #require(pinches.first, "\(r.stdout)")
        #expect(pinches.count == 1)
        #expect(pinch["fingers"] as? Int == 2)
        #expect(pinch["cancelled"] as? Bool == false)
        // The fingers close to a third of their span; libinput's times are the recording's (the
        // pinch ends when the fingers lift at 0.843 s; a few ms either way on a loaded machine).
        #expect((pinch["scale"] as? Double ?? 1) < 0.5)
        #expect(abs((pinch["end"] as? Double ?? 0) - 0.843) < 0.03, "\(pinch)")
    }

    @Test func aThreeFingerSwipeAndATwoFingerScrollAgreeWithPinchlab() throws {
        for (file, kind) in [("three-finger-swipe-01", "swipe"), ("two-finger-scroll-01", "scroll")] {
            let r = try CLI.run(["replay", CLI.fixture("corpus/touchpad/\(file).evemu"), "--with-libinput", "--summary"])
            #expect(r.status == 0, "\(r.stderr)")
            let summary = try r.json(line: -1)
            #expect(Self.gestures(summary).contains { $0["kind"] as? String == kind }, "\(file): \(r.stdout)")
            let agreement = try #require(summary["agreement"] as? [String: Any])
            // pinchlab's pan is libinput's swipe or scroll. (libinput 1.22 also holds two fingers for
            // 90 ms before the scroll, tap-to-click on or off, where pinchlab's default waits 180 ms.)
            #expect(agreement["matched"] as? Int ?? 0 >= 1, "\(file): \(agreement)")
            #expect((agreement["pinchlabOnly"] as? [Int])?.isEmpty == true, "\(file): \(agreement)")
            let timing = try #require((summary["libinput"] as? [String: Any])?["timing"] as? [String: Any])
            #expect(timing["events"] as? Int ?? 0 > 400)
        }
    }

    /// Real recordings: a three-finger stroke on a Synaptics TM3276 (inputactions) and a
    /// two-finger scroll on a Wacom Bamboo's touch surface; libinput and pinchlab agree on both.
    @Test(.needs(.sharedRecordings), arguments: [("inputactions-synaptics-TM3276-touchpad-stroke-b-3.evemu", "swipe, 3 fingers"),
                      ("evemu-devices-Wacom-Bamboo-16FG-4x5-Finger-double-center-scroll.evemu", "scroll, ")])
    func realTouchpadRecordings(_ name: String, _ expected: String) throws {
        let file = Prerequisite.sharedRecording(name)
        let r = try CLI.run(["replay", file, "--with-libinput"])
        #expect(r.status == 0, "\(r.stderr)")
        // libinput's verdict on a touchpad: its gestures' times move from run to run (its own timers).
        #expect(r.stdout.contains("libinput 1."))
        #expect(r.stdout.contains("  \(expected)"), "\(r.stdout)")
        #expect(r.stdout.contains(" libinput only, 0 pinchlab only ("), "\(r.stdout)")
    }

    @Test func aTouchscreenSaysLibinputHasNoTouchscreenGestures() throws {
        let r = try CLI.run(["libinput", CLI.fixture("corpus/touchscreen/pinch-out-01.evemu")])
        #expect(r.status == 0, "\(r.stderr)")
        // Whole: ": 0 gestures", "libinput has no touchscreen gestures: ...".
        try Golden.expect(r, is: "libinput-touchscreen-pinch-out-01-absolute-path")
    }

    /// `tune --with-libinput`: libinput runs on the corpus's touchpad recordings only, and the best
    /// settings and the defaults each get the summed agreement.
    @Test func tuneReportsTheAgreementWithLibinputOnTheTouchpadRecordings() throws {
        let corpus = try CLI.temporaryDirectory()
        let files = ["touchpad/pinch-out-01.evemu", "touchpad/two-finger-scroll-01.evemu", "touchscreen/pan-down-flick-01.evemu"]
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: CLI.fixture("corpus/manifest.json"))))
        let entries = try #require((manifest as? [String: Any])?["entries"] as? [[String: Any]]).filter { files.contains($0["file"] as? String ?? "") }
        try #require(entries.count == 3)
        for file in files {
            let target = corpus.appendingPathComponent(file)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: CLI.fixture("corpus/" + file), toPath: target.path)
        }
        try JSONSerialization.data(withJSONObject: ["entries": entries]).write(to: corpus.appendingPathComponent("manifest.json"))
        let r = try CLI.run(["tune", corpus.path, "--with-libinput", "--budget", "5", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("running libinput on 2 touchpad recordings"), "\(r.stderr)")  // beside libinput's timing warnings
        let agreements = try #require(try r.json(line: 0)["libinput"] as? [[String: Any]], "\(r.stdout)")
        #expect(agreements.map { $0["settings"] as? String } == ["best", "defaults"])
        for a in agreements {
            let matched = a["matched"] as? Int ?? -1, only = (a["libinputOnly"] as? Int ?? 0) + (a["pinchlabOnly"] as? Int ?? 0)
            #expect(a["files"] as? Int == 2, "the touchscreen recording is not given to libinput")
            #expect(matched >= 2, "libinput's pinch and scroll are pinchlab's pinch and two-finger pan: \(a)")
            let ratio = try #require(a["ratio"] as? Double)
            #expect(abs(ratio - Double(matched) / Double(matched + only)) < 1e-6)
        }
    }

    /// A killed pinchlab cannot stop the libinput it started; the preload library ends libinput
    /// with its parent, so none is left waiting for devices (it was, before: orphaned, forever).
    @Test func killingPinchlabEndsItsLibinput() throws {
        let run = try CLI.Running(["libinput", CLI.fixture("corpus/touchpad/resting-thumb-01.evemu")])
        let pinchlab = run.process.processIdentifier
        var child: pid_t?
        #expect(CLI.waitFor(10) { child = Self.children(of: pinchlab, named: "libinput-debug").first; return child != nil },
                "no libinput started")
        let libinput = try #require(child)
        // Killed while the recording plays (0.25 s after libinput opened the node, for 1.2 s):
        // a libinput killed while it is still setting the device up exits by itself anyway.
        #expect(CLI.waitFor(10) { Self.hasOpen(libinput, pathEndingWith: "/event0") },
                "libinput never opened the node: \(Self.openFiles(libinput))")
        Thread.sleep(forTimeInterval: 0.6)
        kill(pinchlab, SIGKILL)
        let gone = CLI.waitFor(5) { kill(libinput, 0) != 0 || Self.isZombie(libinput) }
        // (Foundation's wait for the killed pinchlab returns only once libinput is gone too.)
        if !gone { kill(libinput, SIGKILL) }
        run.process.waitUntilExit()
        #expect(gone, "libinput (pid \(libinput)) outlived the pinchlab that started it")
    }

    /// Processes whose parent is `parent` and whose name begins with `name` (from /proc/PID/stat).
    static func children(of parent: pid_t, named name: String) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { pid_t($0) }.filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")"), stat.contains("(\(name)") else { return false }  // the process table
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 2 && pid_t(fields[1]) == parent
        }
    }

    static func hasOpen(_ pid: pid_t, pathEndingWith suffix: String) -> Bool {
        openFiles(pid).contains { $0.hasSuffix(suffix) }
    }

    /// What the process's descriptors refer to (from /proc/PID/fd).
    static func openFiles(_ pid: pid_t) -> [String] {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
        return fds.compactMap { fd in
            var buffer = [CChar](repeating: 0, count: 4096)
            let n = readlink("/proc/\(pid)/fd/\(fd)", &buffer, buffer.count - 1)
            return n > 0 ? String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : nil
        }
    }

    static func isZombie(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return true }
        return stat[stat.index(after: close)...].split(separator: " ").first == "Z"
    }
}

@Suite(.blocking) struct LibinputUnavailableCLITests {
    @Test func withoutLibinputToolsTheStatusIs69AndTheMessageSaysWhy() throws {
        let empty = try CLI.temporaryDirectory().path
        let r = try CLI.run(["libinput", CLI.fixture("corpus/touchpad/pinch-out-01.evemu")], environment: ["PATH": empty])
        #expect(r.status == 69)
        #expect(r.stderr.hasPrefix("pinchlab: libinput-tools is not installed: no `libinput` in \(empty); "), "\(r.stderr)")
        // Whole, with the advice (apt-get install libinput-tools).
        try Golden.expect(r, is: "errors-libinput-not-installed")
    }

    @Test func withLibinputNeedsAFileNotStandardInput() throws {
        let r = try CLI.run(["replay", "-", "--with-libinput"])
        #expect(r.status == 64)
        try Golden.expect(r, is: "errors-with-libinput-from-standard-input")
    }
}
