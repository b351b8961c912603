import Foundation
import Testing

/// Tests that block their thread (waiting for a child process, a device, a sleep, a socket) run on
/// threads of their own: `@Suite(.blocking)`.
///
/// Swift Testing starts every test at once as a task on the cooperative pool, which has one thread
/// per core. A synchronous test that waits for a child holds one of those threads while it waits,
/// so on a 2-core machine two waiting tests stopped all the others: the suite ran mostly idle, at
/// the speed of the slowest waits in a row. Here the waits overlap, up to `BlockingTestThreads.width`
/// at once, while the cooperative pool stays free for the tests that compute.
public struct BlockingTrait: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        try await withTaskExecutorPreference(BlockingTestThreads.shared) {
            guard let log = BlockingTestThreads.timeLog, testCase != nil else { return try await function() }
            let start = ContinuousClock.now
            defer { BlockingTestThreads.record(start.duration(to: .now), of: test, to: log) }
            try await function()
        }
    }
}

extension Trait where Self == BlockingTrait {
    /// The tests run on `BlockingTestThreads`, not on the cooperative pool.
    public static var blocking: Self { BlockingTrait() }
}

/// A fixed set of threads taking jobs in the order they came: a bounded pool, so that waits overlap
/// without starting every child process of the suite at once.
public final class BlockingTestThreads: TaskExecutor, @unchecked Sendable {
    /// How many blocking tests run at once: `PINCHLAB_TEST_THREADS`, or 4. Most of their time is
    /// spent waiting (real-time playback, a child's timeout), so more than the cores; the children
    /// that compute run at a lower priority than those that keep real time (`CLI.launch`). Not
    /// more: at 12 the suite's own load (a browser, libinput, the tests that compute in process)
    /// made Debian's lisgd, which reads a served device in real time, miss 3 of 105 gestures.
    public static let width = ProcessInfo.processInfo.environment["PINCHLAB_TEST_THREADS"].flatMap(Int.init)
        .map { max(1, $0) } ?? 4
    public static let shared = BlockingTestThreads(width: width)

    /// `PINCHLAB_TEST_TIME_LOG=FILE` (a diagnostic of the suite's own speed) appends, for each
    /// blocking test case as it ends, the seconds it held one of these threads and its name. (A
    /// test's start and end in Swift Testing's event stream count its wait for a thread too.)
    static let timeLog = ProcessInfo.processInfo.environment["PINCHLAB_TEST_TIME_LOG"]
    private static let timeLogLock = NSLock()

    static func record(_ duration: Duration, of test: Test, to path: String) {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        let line = String(format: "%.3f", seconds) + " \(test.id)\n"
        timeLogLock.lock()
        defer { timeLogLock.unlock() }
        guard let handle = FileHandle(forWritingAtPath: path) ?? {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
            return FileHandle(forWritingAtPath: path)
        }() else { return }
        handle.seekToEndOfFile()
        handle.write(Data(line.utf8))
        handle.closeFile()
    }

    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var next = 0

    private init(width: Int) {
        for index in 0..<width {
            let thread = Thread { [unowned self] in self.work() }
            thread.name = "blocking-test-\(index)"
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func work() {
        while true {
            condition.lock()
            while next == jobs.count { condition.wait() }
            let job = jobs[next]
            next += 1
            if next == jobs.count { jobs.removeAll(keepingCapacity: true); next = 0 }
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
