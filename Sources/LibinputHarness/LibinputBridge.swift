import Foundation
import GestureCore
import GestureLab
import GestureTools
import VirtualEvdev

/// Why libinput's verdict could not be had. Library errors say what happened; the CLI adds advice.
package enum LibinputBridgeError: Error, Sendable, CustomStringConvertible {
    /// No `libinput` program (Debian's libinput-tools) in any of these directories.
    case libinputToolsMissing(searched: [String])
    /// The preload library pinchlab builds (`libpinchlab-udev-preload.so`) is not next to the binary.
    case preloadLibraryMissing(searched: [String])
    /// The virtual device could not be mounted (no /dev/fuse, no permission to mount).
    case virtualDeviceUnavailable(String)
    /// `libinput debug-events` exited or never started reading the node; its own words.
    case libinputFailed(status: Int32?, stderr: String)
    /// No `lisgd` program (Debian's lisgd) in any of these directories (`--with-lisgd`).
    case lisgdMissing(searched: [String])
    /// `lisgd` exited or never started reading the node; its own words.
    case lisgdFailed(status: Int32?, stderr: String)
    /// A stop signal came while the node was being played (a command told of stops, `replay`).
    case stopped

    package var description: String {
        switch self {
        case .libinputToolsMissing(let dirs):
            return "libinput-tools is not installed: no `libinput` in \(dirs.joined(separator: ":"))"
        case .preloadLibraryMissing(let paths):
            return "the preload library libpinchlab-udev-preload.so was not found (looked at \(paths.joined(separator: ", ")))"
        case .virtualDeviceUnavailable(let why):
            return "cannot serve the recording on a virtual device: \(why)"
        case .libinputFailed(let status, let stderr):
            return Self.failure("libinput debug-events", status, stderr)
        case .lisgdMissing(let dirs):
            return "lisgd is not installed: no `lisgd` in \(dirs.joined(separator: ":"))"
        case .lisgdFailed(let status, let stderr):
            return Self.failure("lisgd", status, stderr)
        case .stopped:
            return "interrupted while the recording was played on the virtual device"
        }
    }

    private static func failure(_ program: String, _ status: Int32?, _ stderr: String) -> String {
        let said = stderr.split(separator: "\n").prefix(5).joined(separator: " / ")
        return "\(program) " + (status.map { "exited with status \($0)" } ?? "never read the virtual device") + (said.isEmpty ? "" : ": \(said)")
    }
}

/// The first executable `name` in `PATH` (`/usr/bin:/bin` without one), and the directories searched.
package func executableInPath(_ name: String, environment: [String: String] = ProcessInfo.processInfo.environment)
    -> (path: String?, searched: [String]) {
    let dirs = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
    return (dirs.map { $0 + "/" + name }.first { FileManager.default.isExecutableFile(atPath: $0) }, dirs)
}

/// Runs Debian's unmodified `libinput debug-events` on a recording: the recording is served in
/// real time on a FUSE node (`VirtualEvdevDevice`), libinput opens it with `--device`, and the
/// preload library (`Sources/CUdevPreload`) answers libudev's lookup of that node, which has no
/// udev device behind it. libinput's timers run on the wall clock, so how late it read each event
/// is measured; a run with events read late is made again once, and the verdict says if the kept
/// run was still late.
package struct LibinputBridge: Sendable {
    package var tool: String
    package var preloadLibrary: String
    /// An event read later than this counts as late.
    package var lateThresholdMS = 20
    /// After the last event, time for libinput's timers (hold, tap, finger-count changes) to fire.
    package var settleSeconds = 0.6
    /// From libinput's first read of the node to the first event.
    static let leadInSeconds = 0.25
    /// Where the virtual node is mounted (a fresh directory in it per run).
    /// `$TMPDIR`, else /tmp: where the served node's folder is made.
    package var temporaryDirectory = ServedNode.defaultParent
    /// Runs `debug-events --verbose` and gives its whole output (libinput's own debug log, its
    /// events among it) of the run the verdict keeps: `pinchlab libinput --verbose` prints it.
    /// Setting up the node and the preload library by hand for this is what it saves.
    package var verboseLog: (@Sendable (String) -> Void)?
    /// The scroll method libinput is told to use (`debug-events --set-scroll-method`), as the
    /// recognizer's settings say; nil or `deviceDefault`: libinput's own choice for the device.
    package var scrollMethod: ScrollMethod?

    package init(tool: String, preloadLibrary: String) {
        self.tool = tool
        self.preloadLibrary = preloadLibrary
    }

    /// Finds `libinput` in `PATH` and the preload library next to `executable` (or in
    /// `../lib/pinchlab/`, where `scripts/install` puts it).
    package static func locate(executable: String, environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(LibinputBridgeError) -> LibinputBridge {
        let found = executableInPath("libinput", environment: environment)
        guard let tool = found.path else { throw .libinputToolsMissing(searched: found.searched) }
        let binDir = (executable as NSString).deletingLastPathComponent
        let candidates = [binDir + "/libpinchlab-udev-preload.so", binDir + "/../lib/pinchlab/libpinchlab-udev-preload.so"]
        guard let library = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
            throw .preloadLibraryMissing(searched: candidates)
        }
        return LibinputBridge(tool: tool, preloadLibrary: (library as NSString).standardizingPath)
    }

    /// The installed `libinput --version` (found in `PATH`), nil without libinput-tools.
    package static func installedVersion(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        guard let tool = executableInPath("libinput", environment: environment).path else { return nil }
        return try? version(of: tool)
    }

    /// `libinput --version`.
    package func version() throws(LibinputBridgeError) -> String { try Self.version(of: tool) }

    private static func version(of tool: String) throws(LibinputBridgeError) -> String {
        let run = capture(tool, ["--version"])
        guard run.status == 0, let text = run.stdout.split(separator: "\n").first else {
            throw .libinputFailed(status: run.status, stderr: run.stderr)
        }
        return String(text)
    }

    /// libinput's gestures for `events` on `device`. A touchscreen has no libinput gestures, and
    /// the verdict says so. `forTools`: also keep every gesture and touch event as the gesture tools
    /// read them (`LibinputVerdict.steps`), and run a touchscreen for its touch events (lisgd's).
    package func verdict(events recorded: [InputEvent], device: DeviceDescription, forTools: Bool = false)
        throws(LibinputBridgeError) -> LibinputVerdict {
        // Played in real time, but no idle gap longer than libinput's timers can tell apart.
        let (events, gaps) = ShortenedGaps.shorten(recorded)
        return try verdict(played: events, device: device, forTools: forTools).inRecordingTime(gaps)
    }

    private func verdict(played events: [InputEvent], device: DeviceDescription, forTools: Bool)
        throws(LibinputBridgeError) -> LibinputVerdict {
        let version = try version()
        guard device.deviceClass != .touchscreen || forTools else {
            return LibinputVerdict(version: version, gestures: [], note: .touchscreen, timing: nil)
        }
        // A run of the same recording, libinput and options kept from before: no device, no waiting.
        let arguments = debugEventsArguments
        let key = cache.map { _ in LibinputRunCache.key(events: events, device: device, version: version, arguments: arguments) }
        if let cache, let key, let kept = cache.read(key: key, eventCount: events.count) {
            verboseLog?(kept.stdout + kept.stderr)
            return Self.verdict(of: kept, version: version, device: device, lateThresholdMS: lateThresholdMS, keepsSteps: forTools)
        }
        var best = try runOnce(events: events, device: device)
        if best.lateEvents > 0 {
            let again = try runOnce(events: events, device: device)
            if again.lateEvents <= best.lateEvents { best = again }
            best.runs = 2
        }
        verboseLog?(best.stdout + best.stderr)
        if best.lateEvents == 0, let cache, let key { cache.write(best, key: key, eventCount: events.count) }
        return Self.verdict(of: best, version: version, device: device, lateThresholdMS: lateThresholdMS, keepsSteps: forTools)
    }

    /// Where the runs are kept (`LibinputRunCache.standard()`); nil keeps none.
    package var cache: LibinputRunCache?

    /// `debug-events`' arguments but the device.
    private var debugEventsArguments: [String] {
        ["debug-events", "--enable-tap"] + (verboseLog == nil ? [] : ["--verbose"]) + Self.scrollMethodArguments(scrollMethod)
    }

    /// A run's output read into the verdict.
    private static func verdict(of run: LibinputRunCache.Run, version: String, device: DeviceDescription, lateThresholdMS: Int,
                                keepsSteps: Bool) -> LibinputVerdict {
        // The node stamps recorded times plus one constant; libinput prints them relative to when
        // its first event arrived.
        // (libinput's times are whole ms, so is the correction: the read comes a little after the
        // wake-up libinput timed, and the two agree to a ms or two unless the machine is loaded.)
        var parser = LibinputEventParser(firstEventLateness: (Double(run.firstLatenessMicroseconds) / 1000).rounded(.down) / 1000)
        parser.keepsSteps = keepsSteps
        for line in run.stdout.split(separator: "\n") { parser.consume(line: line) }
        parser.finish()
        let timing = LibinputVerdict.Timing(
            maximumLateMS: Double(run.maximumLateMicroseconds) / 1000, lateEvents: run.lateEvents, events: run.events,
            lateThresholdMS: Double(lateThresholdMS), runs: run.runs, late: run.lateEvents > 0)
        let touchscreen = device.deviceClass == .touchscreen
        return LibinputVerdict(version: version, gestures: touchscreen ? [] : parser.gestures, note: touchscreen ? .touchscreen : nil,
                               timing: timing, steps: parser.steps)
    }

    private func runOnce(events: [InputEvent], device description: DeviceDescription)
        throws(LibinputBridgeError) -> LibinputRunCache.Run {
        let node = try ServedNode(description, name: "libinput", in: temporaryDirectory)
        defer { node.close() }
        let device = node.device
        // libinput ends with this process even when it is killed (the preload library's job).
        let environment = node.environment(preloadLibrary: preloadLibrary, deviceClass: description.deviceClass, endsWithParent: true)
        let process: ChildProcess
        do {
            process = try ChildProcess(path: tool, arguments: debugEventsArguments + ["--device", device.path],
                                       environment: environment)
        } catch {
            throw .libinputFailed(status: nil, stderr: "cannot start \(tool): \(error)")
        }
        let span = Double((events.last?.time.totalMicroseconds ?? 0) - (events.first?.time.totalMicroseconds ?? 0)) / 1e6
        guard device.waitUntilReading(timeoutSeconds: 10) else {
            let ended = process.stop()
            throw .libinputFailed(status: ended.exitStatus, stderr: ended.stderr)
        }
        // As `pinchlab serve` does: libinput's first poll comes before it has finished setting the
        // device up; events played at once would find it with only part of the touches.
        Thread.sleep(forTimeInterval: Self.leadInSeconds)
        device.play(events)
        guard node.waitUntilDrainedUnlessStopped(timeoutSeconds: span + 10) else {
            _ = process.stop(signal: .kill)
            throw .stopped
        }
        Thread.sleep(forTimeInterval: settleSeconds)
        let lateness = device.readLateness
        device.remove()
        Thread.sleep(forTimeInterval: 0.1)
        // debug-events stops cleanly on SIGINT (Ctrl-C), flushing what it printed.
        let (stdout, stderr, exitStatus) = process.stop(signal: .interrupt)
        if let raw = ProcessInfo.processInfo.environment["PINCHLAB_LIBINPUT_RAW"] {
            try? (stdout + stderr).write(toFile: raw, atomically: true, encoding: .utf8)
        }
        guard stdout.contains("DEVICE_ADDED") else {
            throw .libinputFailed(status: exitStatus, stderr: stderr)
        }

        return LibinputRunCache.Run(stdout: stdout, stderr: stderr, firstLatenessMicroseconds: lateness.firstMicroseconds,
                                    maximumLateMicroseconds: lateness.maximumMicroseconds,
                                    lateEvents: lateness.eventsLaterThan(milliseconds: lateThresholdMS), events: lateness.events, runs: 1)
    }

    /// `--set-scroll-method=...` for a method that is not libinput's default choice.
    static func scrollMethodArguments(_ method: ScrollMethod?) -> [String] {
        switch method {
        case nil, .deviceDefault?: []
        case .twoFinger?: ["--set-scroll-method=twofinger"]
        case .edge?: ["--set-scroll-method=edge"]
        case .none?: ["--set-scroll-method=none"]
        }
    }

    /// Runs a short command and returns its status and output.
    static func capture(_ path: String, _ arguments: [String]) -> (status: Int32?, stdout: String, stderr: String) {
        do {
            let child = try ChildProcess(path: path, arguments: arguments, environment: ProcessInfo.processInfo.environment)
            let (stdout, stderr, status) = child.wait()
            return (status, stdout, stderr)
        } catch {
            return (nil, "", "cannot start \(path): \(error)")
        }
    }
}

