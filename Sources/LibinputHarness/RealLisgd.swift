import Foundation
import GestureKit
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
    package var temporaryDirectory = "/tmp"
    /// After the last event, before lisgd is stopped.
    package var settleSeconds = 0.3

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

    /// The command line of one lisgd for `settings` (its `-g` bindings replaced by every gesture,
    /// 1 to 5 fingers, each printing `FIRED FINGERS GESTURE`, the gesture as the binding matches it
    /// once lisgd turned it by `-o`).
    package static func arguments(_ settings: LisgdSettings, node: String) -> [String] {
        var arguments = ["-d", node, "-t", "\(settings.threshold)", "-T", "\(settings.pressedThreshold)",
                         "-r", "\(settings.degreesLeniency)", "-m", "\(settings.timeoutMS)", "-o", "\(settings.orientation)",
                         "-w", "\(settings.width)", "-h", "\(settings.height)"]
        for fingers in 1...5 {
            for swipe in LisgdSwipe.allCases {
                let matched = swipe.turned(by: settings.orientation)
                arguments += ["-g", "\(fingers),\(swipe.rawValue),*,*,R,echo FIRED \(fingers) \(matched.rawValue)"]
            }
        }
        return arguments
    }

    /// What each of `settings`' lisgd fired on `events`, in order.
    package func fired(events: [InputEvent], device description: DeviceDescription, settings: [LisgdSettings])
        throws(LibinputBridgeError) -> [[RealToolCheck.Fired]] {
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
        for one in settings {
            do {
                processes.append(try ChildProcess(path: tool, arguments: Self.arguments(one, node: device.path), environment: environment))
            } catch {
                for process in processes { _ = process.stop(signal: .kill) }
                throw .lisgdFailed(status: nil, stderr: "cannot start \(tool): \(error)")
            }
        }
        guard device.waitUntilReading(clients: processes.count, timeoutSeconds: 10) else {
            let said = processes.map { $0.stop(signal: .kill) }
            throw .lisgdFailed(status: said.first?.exitStatus, stderr: said.map(\.stderr).joined(separator: " / "))
        }
        Thread.sleep(forTimeInterval: 0.25)
        device.play(events)
        let span = Double((events.last?.time.totalMicroseconds ?? 0) - (events.first?.time.totalMicroseconds ?? 0)) / 1e6
        _ = device.waitUntilDrained(timeoutSeconds: span + 10)
        Thread.sleep(forTimeInterval: settleSeconds)
        // lisgd handles no signal: SIGTERM ends it; what its commands printed is already in the pipe.
        return processes.map { process in
            let ended = process.stop(signal: .terminate)
            if let raw = ProcessInfo.processInfo.environment["PINCHLAB_LISGD_RAW"] {
                try? (ended.stdout + ended.stderr).write(toFile: raw, atomically: true, encoding: .utf8)
            }
            return ended.stdout.split(separator: "\n").compactMap { line in
                let words = line.split(separator: " ")
                guard words.count == 3, words[0] == "FIRED", let fingers = Int(words[1]) else { return nil }
                return RealToolCheck.Fired(fingers: fingers, gesture: String(words[2]))
            }
        }
    }
}
