import ArgumentParser
import Foundation
import GestureKit
import VirtualEvdev

struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Expose a recording as a virtual evdev device (DIR/event0) through FUSE.",
        usage: "pinchlab serve <file> --at <dir> [--loop] [--speed <factor>] [<options>]",
        discussion: """
        The node answers the evdev ioctls like a kernel device, so libevdev, `pinchlab live`, \
        `pinchlab record` and Debian's `libinput record` open it as if it were a touchpad. Events play \
        in real time from the recording's timestamps once the first reader is ready (--speed to scale, \
        --fast to serve them as fast as they are read). Like a kernel device, events are stamped in \
        each reader's clock (CLOCK_REALTIME unless it asks for another; pinchlab and libinput ask for \
        CLOCK_MONOTONIC), at exactly the recorded intervals. The device stays until Ctrl-C/SIGTERM, \
        then unmounts cleanly; --unplug-when-done removes it once every reader has read the last \
        event, as if unplugged. DIR is created if missing and removed again at the end; a DIR with \
        something else mounted on it is refused (exit status 64), never unmounted.

        Needs /dev/fuse and fuse3 (scripts/setup-debian installs it). Run by a user other than \
        root, the mount uses allow_other (so libinput and other users may open the node), which \
        needs the line user_allow_other in /etc/fuse.conf; without it serve says so (status 69).

        Example (two terminals, or & as here):
          pinchlab serve Fixtures/corpus/touchpad/pinch-in-slow-finish-01.evemu \\
              --at /tmp/vdev --loop &
          pinchlab live /tmp/vdev/event0
        """
    )

    @OptionGroup var recording: RecordingOptions

    @Option(help: ArgumentHelp("The directory to mount the device in (created if missing).", valueName: "dir"), completion: .directory)
    var at: String

    @Option(help: ArgumentHelp("The node's name in DIR.", valueName: "name"))
    var node = "event0"

    // Unconditional, so `--speed -1` reaches validate() and its message instead of parsing as an option.
    @Option(parsing: .unconditional, help: ArgumentHelp("Play speed factor (1 = as recorded).", valueName: "factor"))
    var speed: Double = 1

    @Flag(help: "Play again and again, with a pause between passes.")
    var loop = false

    @Flag(help: "Serve events as fast as the reader reads instead of in real time.")
    var fast = false

    @Flag(help: "Stamp each frame with the time it is generated instead of at the recorded intervals.")
    var restamp = false

    @Flag(help: "Remove the device after the last event, as if unplugged (readers then get ENODEV).")
    var unplugWhenDone = false

    func validate() throws {
        try PlaySpeed.validate(speed)
        guard !node.isEmpty, !node.contains("/") else { throw ValidationError("--node must be a plain file name") }
        if loop && unplugWhenDone { throw ValidationError("--loop never ends, so --unplug-when-done would never happen") }
    }

    func run() throws {
        try reportingErrors {
            StopSignals.install()
            let description = try recording.open().device
            let device: VirtualEvdevDevice
            do {
                device = try VirtualEvdevDevice(description: description, directory: at, nodeName: node,
                                                options: VirtualEvdevOptions(timestamps: restamp ? .generationTime : .readerClock))
            } catch VirtualEvdevError.directoryInUse(_, let reason) {
                throw CLIError(status: .usage, message: "--at \(at): \(reason)")
            } catch VirtualEvdevError.directoryUnusable(_, let reason, let errno) {
                throw CLIError(status: errno.kind == .permissionDenied ? .permissionDenied : .usage, message: "--at \(at): \(reason)")
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

    /// Between two passes of --loop, after the last event of one was played: a replayed gesture
    /// must not start in the instant the previous one ended (its completion would be grabbed back).
    static let loopPauseSeconds = 0.5
    /// How long --unplug-when-done waits for every reader to take the last frame before removing
    /// the device (a reader that stopped reading must not keep it forever).
    static let unplugDrainTimeoutSeconds = 5.0
    /// Real-time playback starts this long after the first reader is ready, not in the same
    /// instant: readers started together (`live` and `record`) all see the first frame, and so does
    /// `libinput record` of several devices, which starts its clock just after its first poll.
    static let leadInSeconds = 0.25
    /// How often the waits look at Ctrl-C.
    private static let stopCheckSeconds = 0.1

    func run() {
        do {
            // Real-time playback starts once the first reader is ready (its first read() or poll()
            // comes after libevdev has read the device's state with ioctls), so it sees the whole
            // recording from its first frame.
            if case .realTime = timing {
                while !device.waitUntilReading(clients: 1, timeoutSeconds: Self.stopCheckSeconds) {
                    if StopSignals.requested { return }
                }
                Thread.sleep(forTimeInterval: Self.leadInSeconds)
            }
            repeat {
                var source = try openRecording(path: file, secondPath: eventsFile, device: selector)
                let timing: VirtualEvdevTiming
                switch self.timing {
                case .realTime(let speed, _): timing = .realTime(speed: speed, startOnFirstRead: false)
                case .asFastAsRead: timing = .asFastAsRead
                }
                // stream() returns once the last events are queued, not played.
                guard try device.stream(from: &source, timing: timing), waitUntilPlayed() else { break }
                if loop { Thread.sleep(forTimeInterval: Self.loopPauseSeconds) }
            } while loop && !StopSignals.requested
            if unplugWhenDone && !StopSignals.requested {
                // The kernel fails reads with ENODEV once a device is gone, even with events still
                // queued: let every reader take the last frame (the fingers lifting) first.
                _ = device.waitUntilDrained(timeoutSeconds: Self.unplugDrainTimeoutSeconds)
                device.remove()
                state.finish(error: nil)
            }
        } catch {
            state.finish(error: error)
        }
    }

    /// Waits until every queued event was generated; false when stopped first.
    private func waitUntilPlayed() -> Bool {
        while !device.waitUntilGenerated(timeoutSeconds: Self.stopCheckSeconds) {
            if StopSignals.requested { return false }
        }
        return true
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
