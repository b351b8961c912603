import ArgumentParser
import GestureKit

struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert a recording between evemu and `libinput record` YAML, losslessly.",
        discussion: """
        The device description, every event and every timestamp are kept exactly: libevemu reading a
        converted file sees what it sees in the original. The output format comes from OUT's extension
        (.evemu, or .yml/.yaml) unless --to says otherwise. Keyboard key codes are masked as
        `libinput record` does unless --keep-keys is given.

        Examples:
          pinchlab convert bug.yml -o bug.evemu
          pinchlab convert Fixtures/corpus/touchpad/pinch-out-01.evemu -o pinch-out.yml
          pinchlab convert old.desc --events old.events -o new.evemu
        """
    )

    @OptionGroup var recording: RecordingOptions

    @Option(name: .shortAndLong, help: ArgumentHelp("The file to write.", valueName: "out"))
    var output: String

    @Option(help: ArgumentHelp("Output format: evemu or libinput (default: from OUT's extension).", valueName: "format"))
    var to: String?

    @Flag(help: "Keep keyboard key codes instead of masking them.")
    var keepKeys = false

    func validate() throws {
        _ = try outputFormat()
        if output == recording.file { throw ValidationError("-o must name a different file than the input") }
    }

    func outputFormat() throws -> RecordingFormat {
        if let to {
            switch to {
            case "evemu": return .evemu
            case "libinput", "yml", "yaml": return .libinputRecord
            default: throw ValidationError("--to must be evemu or libinput, got '\(to)'")
            }
        }
        guard let format = RecordingFormat(pathExtensionOf: output) else {
            throw ValidationError("cannot tell the output format from '\(output)': use a .evemu or .yml name, or --to")
        }
        return format
    }

    func run() throws {
        try reportingErrors {
            var source = try recording.open()
            let writer = try makeRecordingWriter(path: output, format: try outputFormat(), device: source.device,
                                                 options: RecordingWriterOptions(maskKeyboardKeys: !keepKeys))
            var count = 0
            while let event = try source.nextEvent() {
                try writer.write(event)
                if event.isSynReport { try writer.flush() }
                count += 1
            }
            try writer.close()
            printError("pinchlab: wrote \(count) events to \(output)")
        }
    }
}
