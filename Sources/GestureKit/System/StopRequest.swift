import Glibc
import Synchronization

/// Whether a stop signal (SIGINT, SIGTERM, SIGHUP, SIGQUIT) asked the process to stop: set by the command's signal handler (one
/// atomic store, async-signal-safe), read by the waits a signal interrupts. A blocking `open` of a
/// FIFO with no writer, or a `read` of a pipe that has stalled, is retried after an ordinary `EINTR`
/// but given up with `.interrupted` once a stop was asked for, so no input can hold a command that
/// the user stopped.
package enum StopRequest {
    private static let signal = Atomic<Int32>(0)

    /// The signals that stop a command (the command line's `SignalPolicy` handles them).
    package static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    /// The stop signals as a set.
    package static var signalSet: sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for number in signals { sigaddset(&set, number) }
        return set
    }

    /// Runs `body` with the stop signals held back in this thread: one that comes meanwhile is
    /// handled when `body` returns (making a file and noting it for `RemovedOnStop` as one step).
    static func holdingStops<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        var stop = signalSet
        pthread_sigmask(SIG_BLOCK, &stop, nil)
        defer { pthread_sigmask(SIG_UNBLOCK, &stop, nil) }
        return try body()
    }

    /// Makes the flag before any handler can run: a handler must not be the first to touch a
    /// global (its lazy initialisation takes a lock the interrupted thread may hold).
    package static func prepare() { _ = signal.load(ordering: .relaxed) }

    /// Notes `number` as the stop signal. Async-signal-safe.
    package static func note(_ number: Int32) { signal.store(number, ordering: .relaxed) }

    package static var isRequested: Bool { signal.load(ordering: .relaxed) != 0 }
}
