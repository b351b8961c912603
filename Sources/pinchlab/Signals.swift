import Foundation
import GestureKit
import Synchronization

enum StopSignals {
    static func install() {
        // A global is made on its first use, under a lock of its own (swift_once; debug builds
        // make this one so). Nothing used it before the first check after a device was mounted,
        // so a signal then could run its handler on a thread that was itself making it: the
        // handler waited for that thread's lock forever, with the signal blocked in it, and a
        // second signal's handler on another thread waited too; only SIGKILL ended the process.
        // A possible cause of the `serve` seen ignoring SIGTERM (once in about 950 runs; serve's
        // first check follows the mount, when a caller that waits for the node sends it).
        // Made here, before any handler can run, the handler only stores.
        StopRequest.prepare()
        handleStopSignals { signal in StopRequest.note(signal) }
    }

    /// Set by SIGINT/SIGTERM (`StopRequest`, which input waits see too); checked by the loops that
    /// read devices. Installed without SA_RESTART so a blocking poll(2) returns at once.
    static var requested: Bool { StopRequest.isRequested }
}

/// SIGINT and SIGTERM, the two signals that stop a command.
private func stopSignalSet() -> sigset_t {
    var stop = sigset_t()
    sigemptyset(&stop)
    sigaddset(&stop, SIGINT)
    sigaddset(&stop, SIGTERM)
    return stop
}

/// Runs `handler` on SIGINT and SIGTERM, without SA_RESTART (a blocking poll(2) returns at once),
/// and unblocks both in this thread. `handler` may make only async-signal-safe calls.
private func handleStopSignals(_ handler: @convention(c) (Int32) -> Void) {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = handler
    sigemptyset(&action.sa_mask)
    action.sa_flags = 0
    sigaction(SIGINT, &action, nil)
    sigaction(SIGTERM, &action, nil)
    // A blocked signal mask survives exec: a parent that spawns pinchlab from a thread with
    // SIGINT/SIGTERM blocked (libdispatch workers do, and so Foundation's Process from them)
    // would leave Ctrl-C and kill pending forever and the command unstoppable.
    var stop = stopSignalSet()
    pthread_sigmask(SIG_UNBLOCK, &stop, nil)
}

/// The staged file of an all-or-nothing output (convert), removed by SIGINT/SIGTERM: the address
/// of its path as a C string (0: none), an integer because an atomic pointer is not `Sendable`.
private let abandonedOnSignal = Atomic<Int>(0)

/// For a command whose output is all or nothing (`convert`): SIGINT or SIGTERM removes the staged
/// file and exits 130 from the signal handler itself, so it works even while a read blocks on a
/// stalled pipe. Only async-signal-safe calls (`unlink`, `write`, `_exit`) run in the handler.
enum AbandonOnSignal {
    /// Arms the handler for `stagingPath` (nil: exits 130 with nothing to remove).
    static func install(removing stagingPath: String?) {
        abandonedOnSignal.store(Int(bitPattern: stagingPath.flatMap { strdup($0) }), ordering: .releasing)
        handleStopSignals { _ in
            if let path = UnsafeMutablePointer<CChar>(bitPattern: abandonedOnSignal.load(ordering: .acquiring)) { unlink(path) }
            let message: StaticString = "pinchlab: interrupted; nothing was written\n"
            message.withUTF8Buffer { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
            _exit(130)
        }
    }

    /// Makes the staged file with SIGINT/SIGTERM held back, then arms the handler for it: a signal
    /// that comes meanwhile is handled once the handler knows the file, so none is left behind.
    static func install(removingWhatIsMadeBy make: () throws -> StagedOutputFile?) throws -> StagedOutputFile? {
        var stop = stopSignalSet()
        pthread_sigmask(SIG_BLOCK, &stop, nil)
        defer { pthread_sigmask(SIG_UNBLOCK, &stop, nil) }
        let staged = try make()
        install(removing: staged?.stagingPath)
        return staged
    }

    /// The output is in place (or abandoned by an error): a signal from here on is an ordinary one.
    static func disarm() {
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
        free(UnsafeMutablePointer<CChar>(bitPattern: abandonedOnSignal.exchange(0, ordering: .acquiringAndReleasing)))
    }
}

/// The device to use: the one given, or the first touchpad/touchscreen in /dev/input.
func resolveDevicePath(_ given: String?) throws -> String {
    if let given { return given }
    return try DeviceDiscovery.defaultTouchDevice()
}
