import Synchronization

/// Whether SIGINT or SIGTERM asked the process to stop: set by the command's signal handler (one
/// atomic store, async-signal-safe), read by the waits a signal interrupts. A blocking `open` of a
/// FIFO with no writer, or a `read` of a pipe that has stalled, is retried after an ordinary `EINTR`
/// but given up with `.interrupted` once a stop was asked for, so no input can hold a command that
/// the user stopped.
package enum StopRequest {
    private static let signal = Atomic<Int32>(0)

    /// Makes the flag before any handler can run: a handler must not be the first to touch a
    /// global (its lazy initialisation takes a lock the interrupted thread may hold).
    package static func prepare() { _ = signal.load(ordering: .relaxed) }

    /// Notes `number` as the stop signal. Async-signal-safe.
    package static func note(_ number: Int32) { signal.store(number, ordering: .relaxed) }

    package static var isRequested: Bool { signal.load(ordering: .relaxed) != 0 }
}
