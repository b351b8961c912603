import Dispatch
import Subprocess
import Synchronization
import SystemPackage

/// A child program run with swift-subprocess, its stdout and stderr collected to their ends, for
/// the harness's synchronous callers: `init` returns once it has started, `stop` or `wait` once it
/// has ended and its output is in.
///
/// swift-subprocess gives the child default signal handling and an empty signal mask whatever its
/// parent blocks (a test runner or pinchlab's own signal thread block SIGTERM and SIGINT, and a
/// child inherits the mask across exec: it could then never be stopped but by SIGKILL), standard
/// input from /dev/null, and no descriptor of ours but its 0, 1 and 2.
///
/// The run is a task on Swift's global executor; `init`, `stop` and `wait` block the calling thread
/// until it answers, so call them from a thread of your own (the command line's main thread), never
/// from inside an async task.
final class ChildProcess: Sendable {
    enum Failure: Error { case spawn(any Error) }

    typealias Ended = (stdout: String, stderr: String, exitStatus: Int32?)

    /// What the running body waits for: a signal to stop with (and the grace before SIGKILL), or
    /// nothing (`finish()`: the program ends by itself).
    private let stopRequests: AsyncStream<(Signal, Duration)>.Continuation
    private let phase = Mutex(Phase.starting)
    private let changed = DispatchSemaphore(value: 0)

    private enum Phase {
        case starting, running(Int32), failed(any Error), ended(Ended)
    }

    /// Its process id while it runs (until it has been waited for), else nil.
    var processIdentifier: Int32? {
        if case .running(let pid) = phase.withLock({ $0 }) { return pid }
        return nil
    }

    init(path: String, arguments: [String], environment: [String: String]) throws {
        let (requests, continuation) = AsyncStream.makeStream(of: (Signal, Duration).self)
        stopRequests = continuation
        // Not `.custom([[UInt8]])`: swift-subprocess 1.0.2 `strdup`s those arrays, so each would need
        // its own NUL terminator.
        let variables = Dictionary(environment.compactMap { name, value in Environment.Key(rawValue: name).map { ($0, value) } },
                                   uniquingKeysWith: { first, _ in first })
        Task.detached { [self] in
            let ended: Phase
            do {
                let result = try await Subprocess.run(
                    .path(FilePath(path)), arguments: Arguments(arguments), environment: .custom(variables),
                    input: .none, output: .bytes(limit: .max), error: .bytes(limit: .max)
                ) { execution in
                    phase.withLock { $0 = .running(execution.processIdentifier.value) }
                    changed.signal()
                    for await (signal, grace) in requests {
                        await execution.teardown(using: [.send(signal: signal, allowedDurationToNextStep: grace)])
                        break
                    }
                }
                // A status a signal ended it with is unknown: nil, never "exited 0".
                let exitStatus: Int32? = if case .exited(let code) = result.terminationStatus { code } else { nil }
                ended = .ended((String(decoding: result.standardOutput, as: UTF8.self),
                                String(decoding: result.standardError, as: UTF8.self), exitStatus))
            } catch {
                ended = .failed(error)  // a SubprocessError: the body throws nothing
            }
            // A spawn that failed wakes `init` here; one that ran, whoever waits for its end.
            phase.withLock { $0 = ended }
            changed.signal()
        }
        changed.wait()
        if case .failed(let error) = phase.withLock({ $0 }) { throw Failure.spawn(error) }
    }

    /// Asks it to stop with `signal`; past `graceSeconds` kills it. Returns its output.
    func stop(signal: Signal = .interrupt, graceSeconds: Double = 3) -> Ended {
        stopRequests.yield((signal, .milliseconds(Int64(graceSeconds * 1000))))
        return ended()
    }

    /// Waits for it to end by itself and for its output; `exitStatus` is nil when a signal ended it.
    func wait() -> Ended {
        stopRequests.finish()
        return ended()
    }

    private func ended() -> Ended {
        while true {
            if case .ended(let ended) = phase.withLock({ $0 }) { return ended }
            if case .failed = phase.withLock({ $0 }) { return ("", "", nil) }
            changed.wait()
        }
    }
}
