import ArgumentParser
import GestureLab
import Glibc
import GestureKit
import InteractiveTransition
import LibinputHarness

/// pinchlab's exit statuses, modelled on sysexits(3) so scripts can tell a bad file from a missing
/// device. Documented in docs/reference/exit-status.md and in `pinchlab --help`.
enum ExitStatus: Int32, CaseIterable {
    case success = 0
    /// A bug in pinchlab; please report it with the command line and the file.
    case internalError = 1
    /// The command line was wrong (`EX_USAGE`). ArgumentParser's own validation failures use it too.
    case usage = 64
    /// The input was read but is not valid: a malformed recording, a bad config (`EX_DATAERR`).
    case badData = 65
    /// A file or device node does not exist (`EX_NOINPUT`).
    case noInput = 66
    /// The device could not be used or went away mid-run (`EX_UNAVAILABLE`).
    case deviceUnavailable = 69
    /// Writing output failed (`EX_IOERR`).
    case ioError = 74
    /// Permission denied on a device or file (`EX_NOPERM`).
    case permissionDenied = 77
    /// Stopped by SIGINT, SIGTERM, SIGHUP or SIGQUIT before the work was done (`SignalPolicy`), for
    /// commands where that is not the normal end.
    case interrupted = 130

    static var summary: String {
        "0 ok, 1 internal error, 64 usage, 65 bad data, 66 no such file or device, "
            + "69 device unavailable or removed, 74 output error, 77 permission denied, 130 interrupted."
    }

    var exitCode: ExitCode { ExitCode(rawValue) }
}

/// An error the CLI reports in one line on stderr and maps to an exit status.
struct CLIError: Error, CustomStringConvertible {
    var status: ExitStatus
    var message: String
    var description: String { message }
}

/// Prints the error the way every subcommand does, and turns it into the exit status.
func exitStatus(for error: Error) -> ExitStatus {
    switch error {
    case let error as CLIError: return error.status
    // A command-line problem found once the command runs (`--junit` naming a listed recording).
    case is ValidationError: return .usage
    case let error as EvdevError:
        switch error {
        case .permissionDenied: return .permissionDenied
        case .noSuchDevice: return .noInput
        case .notAnEvdevDevice, .deviceRemoved, .system: return .deviceUnavailable
        }
    case let error as DiscoveryError:
        switch error {
        case .permissionDenied: return .permissionDenied
        case .noDevices, .noTouchDevice: return .deviceUnavailable
        case .cannotReadDirectory: return .noInput
        }
    case let error as RecordingError:
        switch error.kind {
        case .io: return exitStatus(for: error.systemFailure)
        case .noSuchDevice: return .usage
        default: return .badData
        }
    case is InteractiveTransition.TransitionError:
        return .usage
    case is ManifestError:
        return .badData
    case let error as LibinputBridgeError:
        if case .stopped = error { return .interrupted }
        return .deviceUnavailable
    case let error as CorpusError:
        // A corpus that is missing (66), whose manifest is bad or ambiguous (65, 64), to be written
        // where a file is (64) or where no directory may be made (77), or that could not be written (74).
        switch error.kind {
        case .missing, .noManifest: return .noInput
        case .ambiguous, .notADirectory: return .usage
        case .badData: return .badData
        case .write: return .ioError
        case .permissionDenied: return .permissionDenied
        }
    default:
        return .internalError
    }
}

/// A failed system call on a recording, by the kind of its `errno`: reading that is refused is a
/// permission problem (77), a stop asked for while waiting for input is an interruption (130), any
/// other failure to read is a missing input (66); failing to write is 74.
func exitStatus(for failure: RecordingError.SystemFailure?) -> ExitStatus {
    guard let failure else { return .ioError }
    switch failure.operation {
    case .reading:
        switch failure.errno.kind {
        case .permissionDenied: return .permissionDenied
        // SIGINT/SIGTERM ended a wait for input (a FIFO with no writer, a stalled pipe).
        case .interrupted: return .interrupted
        default: return .noInput
        }
    case .writing:
        return .ioError
    }
}

/// Runs `body`; any error is printed as `pinchlab: <message>` on stderr and exits with its status.
func reportingErrors<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as ExitCode {
        throw error
    } catch {
        printError("pinchlab: \(messageWithAdvice(for: error))")
        throw exitStatus(for: error).exitCode
    }
}
