import Foundation
import GestureKit
import Synchronization

/// The one signal policy of every command, installed by `Pinchlab.main` before the command line is
/// parsed; this file is the only place pinchlab installs a signal handler:
///
/// - SIGINT, SIGTERM, SIGHUP and SIGQUIT stop the command. A command that stops by itself at a
///   signal (`replay`, `plot`, `live`, `record`, `serve`: `StopSignals.install()`) is told
///   (`StopRequest`) and ends as its help says (130 after its summary, or its normal stop, 0);
///   every other command, any command before it asked, and a command told once already that has
///   not stopped (a write to a stalled pipe), exits 130 at once from the handler, removing the
///   files noted for it first (`RemovedOnStop`: staged outputs, temporary copies). SIGQUIT
///   (Ctrl-\) is a stop like Ctrl-C, not a crash report.
/// - SIGPIPE is ignored: a write to a closed pipe (`replay | head`) fails with `EPIPE` and ends
///   the command with status 74 and one line on stderr, as any failed write does.
/// - SIGUSR1, in `live` only (`installDumpSignal()`), asks for a flight-recorder dump
///   (`DumpRequest`); elsewhere its default action ends the process.
///
/// Only async-signal-safe calls run in the handler (an atomic load or store, `unlink`, `write`,
/// `_exit`); every global it reads is made before it is installed (see `install()`).
enum SignalPolicy {
    /// Installs the policy: every stop signal exits 130 at once until a command asks to be told
    /// instead; SIGPIPE ignored. Call it first thing in `main`.
    static func install() {
        // A global is made on its first use, under a lock of its own (swift_once; debug builds
        // make this one so). Nothing used it before the first check after a device was mounted,
        // so a signal then could run its handler on a thread that was itself making it: the
        // handler waited for that thread's lock forever, with the signal blocked in it, and a
        // second signal's handler on another thread waited too; only SIGKILL ended the process.
        // Made here, before any handler can run, the handler only loads and stores.
        StopRequest.prepare()
        RemovedOnStop.prepare()
        _ = signalMode.load(ordering: .relaxed)
        signal(SIGPIPE, SIG_IGN)
        // One stop at a time: a second signal waits until the first handler returns (or exits).
        handle(StopRequest.signals, blockingWhileHandled: StopRequest.signalSet) { number in
            // Told once; a second stop while the command has not stopped (a write to a stalled
            // pipe) ends it here, as any stop ends a command that is not told.
            if signalMode.load(ordering: .acquiring) == SignalMode.told.rawValue && !StopRequest.isRequested {
                StopRequest.note(number)
                return
            }
            RemovedOnStop.unlinkAll()
            let message: StaticString = "pinchlab: interrupted\n"
            let abandoned: StaticString = "pinchlab: interrupted; nothing was written\n"
            (RemovedOnStop.abandonsOutput ? abandoned : message).withUTF8Buffer { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
            _exit(130)  // ExitStatus.interrupted
        }
    }

    /// For `live`, before anything can take long: SIGUSR1 asks for a dump (`DumpRequest`) rather
    /// than ending the process, its default action.
    static func installDumpSignal() {
        DumpRequest.prepare()
        var none = sigset_t()
        sigemptyset(&none)
        handle([SIGUSR1], blockingWhileHandled: none) { _ in DumpRequest.noteSignal() }
    }
}

/// What a stop signal does (`SignalPolicy`).
private enum SignalMode: Int {
    /// Exit 130 from the handler (removing a staged output).
    case exits = 0
    /// Note the stop (`StopRequest`): the command ends by itself.
    case told = 1
}

private let signalMode = Atomic<Int>(SignalMode.exits.rawValue)

enum StopSignals {
    /// For a command that stops by itself: from now on a stop signal is noted (`StopRequest`, which
    /// input waits see too) instead of ending the process; the loops that read devices and
    /// recordings check `requested`. (The handler has no SA_RESTART: a blocking poll(2) returns at once.)
    static func install() {
        signalMode.store(SignalMode.told.rawValue, ordering: .releasing)
    }

    /// Set by a stop signal once `install()` was called.
    static var requested: Bool { StopRequest.isRequested }
}

/// Runs `handler` on each of `signals`, without SA_RESTART (a blocking poll(2) returns at once),
/// with `mask` blocked while it runs, and unblocks them in this thread. `handler` may make only
/// async-signal-safe calls.
private func handle(_ signals: [Int32], blockingWhileHandled mask: sigset_t, _ handler: @convention(c) (Int32) -> Void) {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = handler
    action.sa_mask = mask
    action.sa_flags = 0
    for number in signals { sigaction(number, &action, nil) }
    // A blocked signal mask survives exec: a parent that spawns pinchlab from a thread with
    // SIGINT/SIGTERM blocked (libdispatch workers do) would leave Ctrl-C and kill pending forever
    // and the command unstoppable.
    var set = sigset_t()
    sigemptyset(&set)
    for number in signals { sigaddset(&set, number) }
    pthread_sigmask(SIG_UNBLOCK, &set, nil)
}

/// The device to use: the one given, or the first touchpad/touchscreen in /dev/input.
func resolveDevicePath(_ given: String?) throws -> String {
    if let given { return given }
    return try DeviceDiscovery.defaultTouchDevice()
}
