import Foundation
import GestureKit
import Synchronization

/// Set by SIGINT/SIGTERM; checked by the loops that read devices. Installed without SA_RESTART so
/// a blocking poll(2) returns at once.
let stopRequested = Atomic<Int32>(0)

enum StopSignals {
    static func install() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { signal in stopRequested.store(signal, ordering: .relaxed) }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGINT, &action, nil)
        sigaction(SIGTERM, &action, nil)
        // A blocked signal mask survives exec: a parent that spawns pinchlab from a thread with
        // SIGINT/SIGTERM blocked (libdispatch workers do, and so Foundation's Process from them)
        // would leave Ctrl-C and kill pending forever and the command unstoppable.
        var stop = sigset_t()
        sigemptyset(&stop)
        sigaddset(&stop, SIGINT)
        sigaddset(&stop, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &stop, nil)
    }

    static var requested: Bool { stopRequested.load(ordering: .relaxed) != 0 }
}

/// The device to use: the one given, or the first touchpad/touchscreen in /dev/input.
func resolveDevicePath(_ given: String?) throws -> String {
    if let given { return given }
    return try DeviceDiscovery.defaultTouchDevice()
}
