import ArgumentParser
import GestureCore
import GestureKit
import GestureLab

struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record a live device to an evemu (or libinput record) file.",
        usage: "pinchlab record [<device>] -o <file> [--format libinput] [<options>]",
        discussion: """
        Records until Ctrl-C/SIGTERM or until the device goes away. Every frame is written and flushed \
        as it completes, so the file is complete up to the last SYN_REPORT whatever stops the \
        recording, and libevemu (evemu-play, evemu-describe) and pinchlab read it. Times start at 0. \
        Started while fingers are down, the file begins with the device's state at open (one frame \
        after a '# state at open' comment, at time 0), so its replay sees them land. \
        Like `libinput record`, keyboard key codes are masked (written as KEY_A) unless --keep-keys is \
        given, so a recording never holds what someone typed.

        Examples:
          pinchlab record -o pinch.evemu           # the first touchpad or touchscreen
          pinchlab record /dev/input/event5 -o bug.yml --format libinput

        Exit status 69 when the device was removed during the recording (the file is still complete); \
        74 when writing failed (a full disk): the file is cut back to its last whole frame.
        """
    )

    @Argument(help: "The device node (default: the first touchpad or touchscreen in /dev/input).", completion: .file())
    var device: String?

    @Option(name: .shortAndLong, help: ArgumentHelp("The file to write.", valueName: "file"), completion: .file())
    var output: String

    @Option(help: ArgumentHelp("The file's format; yml, yaml and libinput-record also name libinput.", valueName: "format"))
    var format: RecordingFormat = .evemu

    @Flag(help: "Keep keyboard key codes instead of masking them.")
    var keepKeys = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Stop after this many seconds without events.", valueName: "seconds"))
    var exitAfterIdle: Double?

    func validate() throws {
        try IdleLimit.validate(exitAfterIdle)
    }

    func run() throws {
        try reportingErrors {
            StopSignals.install()
            let path = try resolveDevicePath(device)
            let input = try EvdevDevice(path: path)
            let options = RecordingWriterOptions(maskKeyboardKeys: !keepKeys)
            var device = input.device
            if format == .evemu, let problem = EvemuWriter.problem(writingName: device.name) {
                // The kernel's name, not the user's: record under a name evemu can hold rather than not at all.
                let writable = EvemuWriter.writableName(device.name)
                printError("pinchlab: warning: the device name \(RecordingError.quote(device.name)), \(problem); "
                           + "recorded as \"\(writable)\" (--format libinput keeps the name)")
                device.name = writable
            }
            let writer = try makeRecordingWriter(path: output, format: format, device: device, node: path,
                                                 options: options)
            printError("pinchlab: recording \(path) (\(RecordingError.quote(device.name))) to \(output); Ctrl-C to stop")

            var frame: [InputEvent] = []
            frame.reserveCapacity(256)
            var origin: EventTime?
            var frames = 0
            var lastEventAt = MonotonicClock.seconds()
            var removed = false
            // The device's frames are counted; a state-at-open frame is one more in the file.
            var wroteState = false
            /// "N frames", and when the file begins with the state at open, the file's count too:
            /// `stats` and `replay` count that frame, so the numbers differ by one and say why.
            func written() -> String {
                "\(frames) frames to \(output)" + (wroteState ? " after the state at open (\(frames + 1) frames in the file, as stats and replay count them)" : "")
            }
            do {
                let state = StateAtOpen(input.currentStateEvents())
                if try writer.write(state) {
                    wroteState = true
                    printError("pinchlab: \(state.touchCount) touch\(state.touchCount == 1 ? "" : "es") down and "
                               + "\(state.heldKeyCount) button\(state.heldKeyCount == 1 ? "" : "s") held at open: the file "
                               + "begins with them (the frame after '# state at open', at time 0)")
                }
                loop: while !StopSignals.requested {
                    do {
                        switch try input.readEvent() {
                        case .event(var event):
                            lastEventAt = MonotonicClock.seconds()
                            if origin == nil { origin = event.time }
                            event.time = EventTime(totalMicroseconds: event.time.totalMicroseconds - origin!.totalMicroseconds)
                            frame.append(event)
                            if event.isSynReport {
                                // Only whole frames reach the file: a failed write cuts it back to the last one.
                                for e in frame { try writer.write(e) }
                                try writer.flush()
                                frame.removeAll(keepingCapacity: true)
                                frames += 1
                            }
                        case .wouldBlock:
                            if let exitAfterIdle, MonotonicClock.seconds() - lastEventAt >= exitAfterIdle { break loop }
                            _ = try input.waitReadable(timeoutMS: 200)
                        }
                    } catch EvdevError.deviceRemoved {
                        // A frame the device did not finish is not written.
                        removed = true
                        break loop
                    }
                }
            } catch let error as RecordingError where error.kind == .io {
                printError("pinchlab: \(error)")
                printError("pinchlab: wrote \(written()); the file ends at its last whole frame")
                throw ExitStatus.ioError.exitCode
            }
            try writer.close()
            printError("pinchlab: wrote \(written())" + (removed ? "; the device was removed" : ""))
            if removed { throw ExitStatus.deviceUnavailable.exitCode }
        }
    }
}
