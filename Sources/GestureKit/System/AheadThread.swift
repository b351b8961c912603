import Glibc

/// Starts `body` on a thread of its own with every signal but faults blocked, so that SIGINT and
/// SIGTERM reach the thread that reacts to them (a new thread inherits the mask of the one that made
/// it). Faults stay deliverable, so a crash on the thread is reported as one. Nil when the system
/// refuses a thread: the caller then does the work on its own thread.
func startSignalFreeThread(_ body: @escaping () -> Void) -> pthread_t? {
    final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }
    var all = sigset_t(), previous = sigset_t()
    sigfillset(&all)
    for fault in [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGABRT] { sigdelset(&all, fault) }
    pthread_sigmask(SIG_BLOCK, &all, &previous)
    defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
    let context = Unmanaged.passRetained(Body(body))
    var created = pthread_t()
    let status = pthread_create(&created, nil, { context in
        Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
        return nil
    }, context.toOpaque())
    guard status == 0 else {
        context.release()
        return nil
    }
    return created
}

/// A thread that works ahead of the one that takes its work (`ReadAhead`, `EventReadAhead`), and
/// what the two share: a mutex, the condition each waits on for the other, and the request to stop.
/// Whatever the owner guards by it is read and written between `lock()` and `unlock()`.
final class AheadThread: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// Set by `stop()`; read with the lock held.
    private var isStopping = false
    private var thread: pthread_t?

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        stop()
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` on the thread (`startSignalFreeThread`); false when the system refuses one.
    func start(_ body: @escaping () -> Void) -> Bool {
        thread = startSignalFreeThread(body)
        return thread != nil
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
    /// With the lock held: lets go of it until the other thread broadcasts.
    func wait() { pthread_cond_wait(condition, mutex) }
    /// With the lock held: wakes the other thread if it waits.
    func broadcast() { pthread_cond_broadcast(condition) }

    /// With the lock held: waits until `ready()` or a stop request; false when stopping.
    func wait(until ready: () -> Bool) -> Bool {
        while !ready() && !isStopping { wait() }
        return !isStopping
    }

    /// Takes the lock, waits until `ready()`, and returns what `take` takes with the lock held; nil
    /// (nothing taken) on a stop request.
    func take<Taken>(when ready: () -> Bool, _ take: () -> Taken) -> Taken? {
        lock()
        defer { unlock() }
        guard wait(until: ready) else { return nil }
        return take()
    }

    /// Asks the thread to stop and waits for it to end. Idempotent; only the owner's thread calls it.
    func stop() {
        lock()
        isStopping = true
        broadcast()
        unlock()
        if let thread {
            pthread_join(thread, nil)
            self.thread = nil
        }
    }
}
