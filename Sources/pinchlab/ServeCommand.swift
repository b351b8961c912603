import ArgumentParser
import Foundation
import GestureKit
import VirtualEvdev

struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Expose a recording as a virtual evdev device (DIR/event0) through FUSE.",
        discussion: """
        The node answers the evdev ioctls like a kernel device, so libevdev, `pinchlab live`,
        `pinchlab record` and Debian's `libinput record` open it as if it were a touchpad. Events play
        in real time from the recording's timestamps once the first reader is ready (--speed to scale,
        --fast to serve them as fast as they are read). The device stays until Ctrl-C/SIGTERM, then
        unmounts cleanly; --unplug-when-done removes it after the last event instead, as if unplugged.
        Needs /dev/fuse and fuse3 (scripts/setup-debian installs it); run as root or a user allowed
        to mount FUSE file systems.

        Example (two terminals, or & as here):
          pinchlab serve Fixtures/corpus/touchpad/pinch-in-slow-finish-01.evemu --at /tmp/vdev --loop &
          pinchlab live /tmp/vdev/event0
        """
    )

    @OptionGroup var recording: RecordingOptions

    @Option(help: ArgumentHelp("The directory to mount the device in (created if missing).", valueName: "dir"))
    var at: String

    @Option(help: ArgumentHelp("The node's name in DIR.", valueName: "name"))
    var node = "event0"

    // Unconditional, so `--speed -1` reaches validate() and its message instead of parsing as an option.
    @Option(parsing: .unconditional, help: ArgumentHelp("Play speed factor (1 = as recorded).", valueName: "factor"))
    var speed: Double = 1

    @Flag(help: "Play again and again (timestamps become the current time, like a real device).")
    var loop = false

    @Flag(help: "Serve events as fast as the reader reads instead of in real time.")
    var fast = false

    @Flag(help: "Stamp events with the current time instead of the recorded one.")
    var restamp = false

    @Flag(help: "Remove the device after the last event, as if unplugged (readers then get ENODEV).")
    var unplugWhenDone = false

    func validate() throws {
        guard speed > 0 && speed.isFinite else { throw ValidationError("--speed must be a positive factor") }
        guard !node.isEmpty, !node.contains("/") else { throw ValidationError("--node must be a plain file name") }
        if loop && unplugWhenDone { throw ValidationError("--loop never ends, so --unplug-when-done would never happen") }
    }

    func run() throws {
        try reportingErrors {
            StopSignals.install()
            let description = try recording.open().device
            try FileManager.default.createDirectory(atPath: at, withIntermediateDirectories: true)
            let device: VirtualEvdevDevice
            do {
                device = try VirtualEvdevDevice(description: description, directory: at, nodeName: node,
                                                options: VirtualEvdevOptions(timestamps: restamp || loop ? .generationTime : .recorded))
            } catch let error as VirtualEvdevError {
                throw CLIError(status: .deviceUnavailable, message: "\(error)")
            }
            printError("pinchlab: serving \"\(description.name)\" (\(description.deviceClass.rawValue)) at \(device.path); "
                       + (fast ? "events go out as fast as they are read" : "playing once a reader is ready")
                       + "; Ctrl-C to stop")
            let player = Player(file: recording.file, eventsFile: recording.eventsFile, selector: recording.selector,
                                device: device, loop: loop, unplugWhenDone: unplugWhenDone,
                                timing: fast ? .asFastAsRead : .realTime(speed: speed, startOnFirstRead: false))
            let thread = Thread { player.run() }
            thread.start()
            while !StopSignals.requested && !player.state.finished { usleep(50_000) }
            device.stop()
            if let error = player.state.error { throw error }
            printError("pinchlab: \(device.path) unmounted")
        }
    }
}

/// Feeds the recording to the device on its own thread, so the main thread can watch for signals.
private struct Player: @unchecked Sendable {
    // @unchecked: the device serialises its own calls; `state` is locked.
    let file: String
    let eventsFile: String?
    let selector: RecordingDeviceSelector
    let device: VirtualEvdevDevice
    let loop: Bool
    let unplugWhenDone: Bool
    let timing: VirtualEvdevTiming
    let state = PlayerState()

    static let loopPauseSeconds = 0.5

    func run() {
        do {
            // Real-time playback starts once the first reader is ready: its first read() or poll()
            // comes after libevdev has read the device's state with ioctls, and a frame generated
            // before that would be seen twice (libevdev reports a "double tracking ID").
            if case .realTime = timing {
                while !device.waitUntilReading(clients: 1, timeoutSeconds: 0.1) {
                    if StopSignals.requested { return }
                }
            }
            repeat {
                var source = try openRecording(path: file, secondPath: eventsFile, device: selector)
                let timing: VirtualEvdevTiming
                switch self.timing {
                case .realTime(let speed, _): timing = .realTime(speed: speed, startOnFirstRead: false)
                case .asFastAsRead: timing = .asFastAsRead
                }
                guard try device.stream(from: &source, timing: timing) else { break }   // the device stopped
                if loop { Thread.sleep(forTimeInterval: Self.loopPauseSeconds) }
            } while loop && !StopSignals.requested
            if unplugWhenDone {
                _ = device.waitUntilGenerated(timeoutSeconds: 3600)
                // Let the reader take the last frame before the device goes away.
                var waited = 0
                while device.pendingEventCount > 0 && waited < 200 { usleep(10_000); waited += 1 }
                device.remove()
                state.finish(error: nil)
            }
        } catch {
            state.finish(error: error)
        }
    }
}

private final class PlayerState: @unchecked Sendable {
    private let lock = NSLock()
    private var _finished = false
    private var _error: Error?
    var finished: Bool { lock.lock(); defer { lock.unlock() }; return _finished }
    var error: Error? { lock.lock(); defer { lock.unlock() }; return _error }
    func finish(error: Error?) { lock.lock(); _finished = true; _error = error; lock.unlock() }
}
