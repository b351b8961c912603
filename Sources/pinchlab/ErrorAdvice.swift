import GestureKit
import GestureLab
import LabReports
import LibinputHarness

// The libraries' errors say what happened; what a user of this command line can do about it (which
// command to run, which option to pass, which group to join) is said here, where the error is printed.

/// The error's description followed by the CLI's advice for it, if it has any.
func messageWithAdvice(for error: any Error) -> String {
    "\(error)" + (advice(for: error) ?? "")
}

/// What to do about `error`, worded to follow its description; nil when there is nothing to add.
func advice(for error: any Error) -> String? {
    switch error {
    case let error as EvdevError:
        switch error {
        case .permissionDenied:
            return " Input devices belong to root and the 'input' group: "
                + "add yourself with 'sudo usermod -aG input $USER' and log in again, or run with sudo, "
                + "or install a udev rule granting access (e.g. TAG+=\"uaccess\")."
        case .noSuchDevice: return " List devices with 'pinchlab devices'."
        case .notAnEvdevDevice: return " Pass a node like /dev/input/eventN."
        case .deviceRemoved, .system: return nil
        }
    case let error as DiscoveryError:
        switch error {
        case .noDevices:
            return " On a machine without a touchpad, expose a recording with 'pinchlab serve FILE --at DIR' "
                + "and pass DIR/event0."
        case .permissionDenied:
            return " Add yourself to the 'input' group ('sudo usermod -aG input $USER', then log in again) or run with sudo."
        case .cannotReadDirectory(let directory, _):
            // Only the default directory is missing because the machine has no input devices; a
            // directory someone named is simply not there (or not a directory).
            guard directory == DeviceDiscovery.defaultDirectory || directory == DeviceDiscovery.defaultDirectory + "/" else {
                return nil
            }
            return " A machine without input devices has no \(DeviceDiscovery.defaultDirectory); "
                + "'pinchlab serve FILE --at DIR' makes a virtual one."
        case .noTouchDevice: return nil
        }
    case let error as CorpusError where error.kind == .noManifest:
        return " (`pinchlab label FILE --corpus DIR` or `pinchlab generate-corpus DIR` writes one)"
    case let error as LibinputBridgeError:
        switch error {
        case .libinputToolsMissing: return "; install it (scripts/setup-debian, or apt-get install libinput-tools)"
        case .preloadLibraryMissing: return "; build with `swift build` (it makes the library) or reinstall with scripts/install"
        case .virtualDeviceUnavailable: return "; it needs /dev/fuse and fuse3 (scripts/setup-debian) and permission to mount"
        case .libinputFailed: return "; run `libinput debug-events --help` to check the tool works"
        case .lisgdMissing: return "; install it (scripts/setup-debian, or apt-get install lisgd)"
        case .lisgdFailed: return "; run `lisgd -v -w 1000 -h 1000 -d NODE` on a `pinchlab serve` node to see what it says"
        case .stopped: return nil
        }
    case let error as RecordingError where SplitRecording.isEventsHalf(error):
        return SplitRecording.eventsHalfAdvice(error.path)
    case PlotError.trialNotKept:
        return "; crop to its seconds with --from/--to"
    default:
        return nil
    }
}
