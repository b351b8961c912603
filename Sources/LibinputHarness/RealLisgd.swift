import Foundation
import GestureCore
import GestureLab
import GestureTools
import VirtualEvdev

/// Runs Debian's unmodified `lisgd` on a touchscreen recording, several settings at once: the
/// recording is served in real time on one FUSE node, one `lisgd -d NODE` per settings reads it
/// through libinput's path backend (the preload library answers libudev for the node, as for
/// `libinput debug-events`), and every gesture is bound, for 1 to 5 fingers, to a command that
/// prints its name. What each printed is what that lisgd fired.
///
/// lisgd judges time by the monotonic clock when it handles an event, so the node plays the
/// recording as recorded; a gesture within a few ms of lisgd's `-m` timeout can fall either way.
package struct RealLisgd: Sendable {
    package var tool: String
    package var preloadLibrary: String
    /// `$TMPDIR`, else /tmp: where the served node's folder is made.
    package var temporaryDirectory = ServedNode.defaultParent
    /// After lisgd has read the last event, the longest wait before it is stopped: time for it to be
    /// scheduled, judge the gesture at the lift and run the bound command, whose line is then read
    /// to its end. Each lisgd is stopped as soon as it waits in `select` again (`isSelecting`), a
    /// few ms on a quiet machine; the whole of it only where the kernel does not say, and a loaded
    /// machine (a test run beside it) has needed most of a second.
    package var settleSeconds = 1.0

    package init(tool: String, preloadLibrary: String) {
        self.tool = tool
        self.preloadLibrary = preloadLibrary
    }

    /// `lisgd` in `PATH`, the preload library as `LibinputBridge.locate` finds it.
    package static func locate(executable: String, environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(LibinputBridgeError) -> RealLisgd {
        let found = executableInPath("lisgd", environment: environment)
        guard let tool = found.path else { throw .lisgdMissing(searched: found.searched) }
        let bridge = try LibinputBridge.locate(executable: executable, environment: environment)
        return RealLisgd(tool: tool, preloadLibrary: bridge.preloadLibrary)
    }

    /// The command line of one lisgd for `settings`: the user's own words when given (`commandLine`,
    /// as `lisgd $(grep -v '^#' FILE)` gets them: every flag as written, `-w`/`-h` added only when
    /// the file gives neither), else flags made from `settings`; then `-v` (lisgd says what it
    /// decided, on stderr) and the device. Any `-d` is replaced by the node, and each of the
    /// file's `-g` bindings by the same binding printing `FIRED FINGERS GESTURE` instead of running
    /// its command (the gesture as the binding matches it once lisgd turned it by `-o`); with no
    /// binding, every gesture is bound, 1 to 5 fingers, as the emulation then judges.
    package static func arguments(_ settings: LisgdSettings, node: String, commandLine: [String]? = nil) -> [String] {
        var arguments: [String] = []
        if let commandLine {
            var i = 0
            while i < commandLine.count {
                switch commandLine[i] {
                case "-d", "-g": i += 2
                case "-v": i += 1
                default: arguments.append(commandLine[i]); i += 1
                }
            }
            if !commandLine.contains("-w") && !commandLine.contains("-h") {
                arguments += ["-w", "\(settings.width)", "-h", "\(settings.height)"]
            }
        } else {
            arguments = ["-t", "\(settings.threshold)", "-T", "\(settings.pressedThreshold)",
                         "-r", "\(settings.degreesLeniency)", "-m", "\(settings.timeoutMS)", "-o", "\(settings.orientation)",
                         "-w", "\(settings.width)", "-h", "\(settings.height)"]
        }
        arguments += ["-v", "-d", node]
        let bindings = settings.bindings.isEmpty
            ? (1...5).flatMap { fingers in LisgdSwipe.allCases.map { LisgdBinding(fingers: fingers, swipe: $0, command: "") } }
            : settings.bindings
        for b in bindings {
            let matched = b.swipe.turned(by: settings.orientation)
            arguments += ["-g", "\(b.fingers),\(b.swipe.rawValue),\(b.edge.rawValue),\(b.distance.letter),\(b.pressed ? "P" : "R"),"
                                + "echo FIRED \(b.fingers) \(matched.rawValue)"]
        }
        return arguments
    }

    /// The numbers of the system calls `select` may be in (glibc's `select` is `pselect6`), from
    /// the kernel's tables (Swift sees no `SYS_` macro); none known elsewhere.
    private static let selectCalls: Set<Int> = {
        #if arch(x86_64)
        return [270, 23]  // pselect6, select
        #elseif arch(arm64)
        return [72]  // pselect6
        #else
        return []
        #endif
    }()

    /// Whether lisgd `pid` is in `select` (`/proc/PID/syscall`, read while it sleeps), nil when the
    /// kernel does not say (no /proc, a ptrace restriction, the process gone). Debian's lisgd is one
    /// thread whose loop selects with no timeout, then has libinput read every event it can, judges
    /// each (a lift runs the bound command to its end: `system()`) and selects again. So once every
    /// event has been read from the node, a lisgd seen in `select` has judged them all, and the
    /// lines its commands printed are in its pipe.
    static func isSelecting(_ pid: Int32) -> Bool? {
        guard !selectCalls.isEmpty else { return nil }
        let fd = open("/proc/\(pid)/syscall", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = read(fd, &buffer, buffer.count)
        guard count > 0 else { return nil }
        // "NUMBER ARGUMENTS... SP PC" while it sleeps in a call, "running" while it runs.
        let first = buffer[..<count].prefix { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\n") }
        guard let number = Int(String(decoding: first, as: UTF8.self)) else { return false }
        return selectCalls.contains(number)
    }

    /// Waits until each of `pids` is in `select` (`isSelecting`), checked every 5 ms, for at most
    /// `atMostSeconds`; a nil pid, or one the kernel says nothing of, waits the whole of it.
    static func waitUntilSelecting(_ pids: [Int32?], atMostSeconds: Double) {
        let deadline = ContinuousClock.now + .milliseconds(Int64(atMostSeconds * 1000))
        var waiting = pids
        while ContinuousClock.now < deadline {
            let said = waiting.map { $0.flatMap(isSelecting) }
            if said.contains(where: { $0 == nil }) { break }
            waiting = zip(waiting, said).filter { $0.1 == false }.map(\.0)
            if waiting.isEmpty { return }
            Thread.sleep(forTimeInterval: 0.005)
        }
        let left = ContinuousClock.now.duration(to: deadline)
        if left > .zero { Thread.sleep(forTimeInterval: Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18) }
    }

    /// What each of `settings`' lisgd fired on `events`, in order.
    /// `commandLines[i]`, when given, is `settings[i]`'s file's own words (`arguments`).
    package func fired(events: [InputEvent], device description: DeviceDescription, settings: [LisgdSettings],
                       commandLines: [[String]?] = []) throws(LibinputBridgeError) -> [(arguments: [String], fired: [RealToolCheck.Fired])] {
        let node = try ServedNode(description, name: "lisgd", in: temporaryDirectory)
        defer { node.close() }
        let device = node.device
        // Not ended by the preload library's parent check: the shells lisgd's `system()` starts
        // inherit the library, and their parent is lisgd. lisgd itself asks the kernel for SIGKILL
        // when its parent ends (`prctl(PR_SET_PDEATHSIG)` in its `main`).
        var environment = node.environment(preloadLibrary: preloadLibrary, deviceClass: .touchscreen, endsWithParent: false)
        // -w and -h are always given: lisgd then asks no display.
        environment["DISPLAY"] = nil
        environment["WAYLAND_DISPLAY"] = nil
        var processes: [ChildProcess] = []
        let argumentLists = settings.enumerated().map { index, one in
            Self.arguments(one, node: device.path, commandLine: index < commandLines.count ? commandLines[index] : nil)
        }
        for arguments in argumentLists {
            do {
                processes.append(try ChildProcess(path: tool, arguments: arguments, environment: environment))
            } catch {
                for process in processes { _ = process.stop(signal: .kill) }
                throw .lisgdFailed(status: nil, stderr: "cannot start \(tool): \(error)")
            }
        }
        guard device.waitUntilReading(clients: processes.count, timeoutSeconds: 10) else {
            let said = processes.map { $0.stop(signal: .kill) }
            throw .lisgdFailed(status: said.first?.exitStatus, stderr: said.map(\.stderr).joined(separator: " / "))
        }
        // Each lisgd has read the device's state; in `select` it waits for the first event, which
        // it then times when it comes (0.25 s at most, where the kernel does not say).
        Self.waitUntilSelecting(processes.map(\.processIdentifier), atMostSeconds: 0.25)
        device.play(events)
        let span = Double((events.last?.time.totalMicroseconds ?? 0) - (events.first?.time.totalMicroseconds ?? 0)) / 1e6
        guard node.waitUntilDrainedUnlessStopped(timeoutSeconds: span + 10) else {
            for process in processes { _ = process.stop(signal: .kill) }
            throw .stopped
        }
        // Only a node drained for real tells that lisgd has read everything (the wait above also
        // ends at its deadline).
        Self.waitUntilSelecting(device.waitUntilDrained(timeoutSeconds: 0) ? processes.map(\.processIdentifier) : [nil],
                                atMostSeconds: settleSeconds)
        // lisgd handles no signal: SIGTERM ends it; what its commands printed is already in the pipe.
        return zip(argumentLists, processes).map { arguments, process in
            let ended = process.stop(signal: .terminate)
            if let raw = ProcessInfo.processInfo.environment["PINCHLAB_LISGD_RAW"] {
                try? (ended.stdout + ended.stderr).write(toFile: raw, atomically: true, encoding: .utf8)
            }
            let fired = ended.stdout.split(separator: "\n").compactMap { line -> RealToolCheck.Fired? in
                let words = line.split(separator: " ")
                guard words.count == 3, words[0] == "FIRED", let fingers = Int(words[1]) else { return nil }
                return RealToolCheck.Fired(fingers: fingers, gesture: String(words[2]))
            }
            return (arguments, fired)
        }
    }
}
