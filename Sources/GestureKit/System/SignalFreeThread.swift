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
