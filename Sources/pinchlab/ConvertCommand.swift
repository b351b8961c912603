import ArgumentParser
import GestureCore
import GestureKit

struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert a recording between evemu and `libinput record` YAML, losslessly, or an evtest log to either.",
        usage: "pinchlab convert <file> -o <out> [--to evemu|libinput] [<options>]",
        discussion: """
        The device description (LED and switch states too), every event and every timestamp are \
        kept exactly: libevemu reading a converted file sees what it sees in the original, and \
        evemu -> YAML -> evemu gives the same bytes. The output format comes from OUT's extension \
        (.evemu, or .yml/.yaml) unless --to says otherwise. Keyboard keys are kept as recorded; \
        --mask-keys writes them as KEY_A, as `libinput record` does, before you share a file.

        OUT is written under a temporary name beside it and renamed into place only when the \
        whole input has been read, so a damaged input leaves no OUT (and an old OUT as it was); \
        through a symbolic link the file it names is replaced so, and the link stays; a device \
        such as /dev/stdout is written in place. OUT may not be the input file, by whatever path.

        Examples:
          pinchlab convert bug.yml -o bug.evemu
          pinchlab convert Fixtures/corpus/touchpad/pinch-out-01.evemu -o pinch-out.yml
          pinchlab convert old.desc --events old.events -o new.evemu
          pinchlab convert pasted-evtest.txt -o bug.evemu
          pinchlab convert typed.evemu -o share.yml --mask-keys
          xz -dc bug.evemu.xz | pinchlab convert - -o bug.yml

        An evtest log (what people paste into bug reports) converts to either format with its \
        device, events and timestamps as printed; what evtest does not print (LED and switch \
        states, a libinput node) is not invented. evtest is not an output format.

        A libinput record holds one device or several; OUT holds the one --device picks (by \
        default the first touch device), and stderr says which when there were several. A device \
        name with a line break or another control character cannot be written to evemu (it has no \
        escaping): convert such a file to YAML, which keeps any name.
        """
    )

    @OptionGroup var recording: RecordingOptions

    @Option(name: .shortAndLong, help: ArgumentHelp("The file to write.", valueName: "out"), completion: .file())
    var output: String

    @Option(help: ArgumentHelp("Output format (default: from OUT's extension); yml, yaml and libinput-record also name libinput.",
                               valueName: "format"))
    var to: RecordingFormat?

    @Flag(help: "Mask keyboard key codes (as KEY_A) and scancodes, as `libinput record` does.")
    var maskKeys = false

    /// Keeping keys used to need this flag; it is the default now. Accepted so old scripts still run.
    @Flag(help: .hidden)
    var keepKeys = false

    func validate() throws {
        _ = try outputFormat()
        if maskKeys && keepKeys { throw ValidationError("--mask-keys and --keep-keys are opposites; choose one") }
        try recording.refuseOutput(output, doing: "converting")
    }

    func outputFormat() throws -> RecordingFormat {
        if let to { return to }
        guard let format = RecordingFormat(pathExtensionOf: output) else {
            throw ValidationError("cannot tell the output format from '\(output)': use a .evemu or .yml name, or --to")
        }
        return format
    }

    func run() throws {
        try reportingErrors {
            // From the start to the commit a stop says nothing was written (and removes the staged file).
            RemovedOnStop.abandonsOutput = true
            defer { RemovedOnStop.abandonsOutput = false }
            let reader = try recording.open()
            var source: any InputEventSource = reader
            // A new or regular file (through links too) is staged; a device (`-o /dev/stdout`) is written in place.
            let staged = StagedOutputFile.canStage(output) ? try StagedOutputFile(destination: output) : nil
            defer { staged?.discard() }
            let writePath = staged?.stagingPath ?? output
            var count = 0
            let multiDevice = source as? LibinputRecordReader
            do {
                // YAML to YAML keeps the device's node.
                let writer = try makeRecordingWriter(path: writePath, format: try outputFormat(), device: source.device,
                                                     node: multiDevice?.node,
                                                     options: RecordingWriterOptions(maskKeyboardKeys: maskKeys, writesEachFrame: false))
                while let event = try source.nextEvent() {
                    try writer.write(event)
                    if event.isSynReport { try writer.flush() }
                    count += 1
                }
                try writer.close()
            } catch var error as RecordingError where error.path == writePath {
                // The temporary name means nothing to the user; the file they asked for does.
                error.path = output
                throw error
            }
            try staged?.commit()
            RemovedOnStop.abandonsOutput = false
            warnAboutRecording(reader, .kept)
            if let multiDevice, let deviceCount = multiDevice.deviceCount, deviceCount > 1 {
                // The output holds one device: say which, so the others are not lost unnoticed.
                printError("pinchlab: \(recording.displayName) holds \(deviceCount) devices; converted device "
                           + "\(multiDevice.deviceIndex) (\(multiDevice.node ?? "no node") "
                           + "\(RecordingError.quote(multiDevice.device.name))); --device N converts another")
            }
            printError("pinchlab: wrote \(count) events to \(output)")
        }
    }
}
