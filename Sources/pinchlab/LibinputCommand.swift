import ArgumentParser
import Foundation
import GestureKit
import GestureLab
import LibinputHarness

struct LibinputCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "libinput",
        abstract: "What libinput itself makes of a recording: its pinches, swipes, scrolls and holds.",
        discussion: """
        The recording is served in real time on a virtual device (as `pinchlab serve` does) and \
        Debian's unmodified `libinput debug-events` reads it, with pinchlab's small preload \
        library answering libudev for the virtual node. This is what touchegg, fusuma and \
        libinput-gestures would get. It takes as long as the recording. libinput has no \
        touchscreen gestures: for a touchscreen it says so.

        Needs libinput-tools and FUSE (scripts/setup-debian installs both); without them the \
        exit status is 69.

        Examples:
          pinchlab libinput Fixtures/corpus/touchpad/pinch-in-slow-finish-01.evemu
          pinchlab libinput bug.yml --json
          pinchlab replay bug.evemu --with-libinput --summary   # both, side by side
        """
    )

    @OptionGroup var recording: RecordingOptions

    @Flag(help: "Print one JSON object {\"libinput\": {\"version\", \"gestures\", ...}}.")
    var json = false

    func run() throws {
        try reportingErrors {
            var source = try recording.open()
            var events: [InputEvent] = []
            while let event = try source.nextEvent() { events.append(event) }
            let verdict = try libinputVerdict(events: events, device: source.device)
            if json {
                try JSONLineWriter().write(LibinputOnly(libinput: verdict))
            } else {
                try printLine("\(recording.displayName):")
                for line in verdict.textLines { try printLine(line) }
            }
        }
    }

    private struct LibinputOnly: Encodable { var libinput: LibinputVerdict }
}

/// libinput's verdict through the bridge next to this binary; its errors become status 69 with advice.
func libinputVerdict(events: [InputEvent], device: DeviceDescription) throws -> LibinputVerdict {
    do {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        return try LibinputBridge.locate(executable: executable).verdict(events: events, device: device)
    } catch {
        let advice: String
        switch error {
        case .libinputToolsMissing: advice = "install it (scripts/setup-debian, or apt-get install libinput-tools)"
        case .preloadLibraryMissing: advice = "build with `swift build` (it makes the library) or reinstall with scripts/install"
        case .virtualDeviceUnavailable: advice = "it needs /dev/fuse and fuse3 (scripts/setup-debian) and permission to mount"
        case .libinputFailed: advice = "run `libinput debug-events --help` to check the tool works"
        }
        throw CLIError(status: .deviceUnavailable, message: "pinchlab: \(error); \(advice)")
    }
}
