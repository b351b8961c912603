import Foundation
import GestureLab
import Synchronization

/// Set by SIGUSR1 (one atomic store, async-signal-safe) and by the `d` key; the live loop takes it after each event and each idle step.
enum DumpRequest {
    private static let requested = Atomic<Int>(0)
    /// `.signal`'s code, made before the handler can run: the handler only stores it (working it
    /// out there would build `allCases`, an allocation, inside a signal handler).
    private static let signalCode = code(of: .signal)

    /// Makes the flag and the code before SIGUSR1's handler can run (`SignalPolicy.installDumpSignal`):
    /// a global first made inside a handler would take a lock there.
    static func prepare() {
        _ = requested.load(ordering: .relaxed)
        _ = signalCode
    }

    /// SIGUSR1's handler: one atomic store, async-signal-safe.
    static func noteSignal() {
        requested.store(signalCode, ordering: .relaxed)
    }

    /// Asks for a dump (the `d` key, the page's button; SIGUSR1's handler stores `signalCode`).
    static func note(_ trigger: DumpTrigger) {
        requested.store(code(of: trigger), ordering: .relaxed)
    }

    private static func code(of trigger: DumpTrigger) -> Int { (DumpTrigger.allCases.firstIndex(of: trigger) ?? 0) + 1 }

    /// The request since the last call, if any. Called after every event: a plain load when none
    /// is waiting (nearly always), the read-modify-write only to take one.
    @inline(__always)
    static func take() -> DumpTrigger? {
        guard requested.load(ordering: .relaxed) != 0 else { return nil }
        let code = requested.exchange(0, ordering: .relaxed)
        return code == 0 ? nil : DumpTrigger.allCases[code - 1]
    }
}

/// What became of a dump, for the live page.
enum DumpOutcome: Sendable {
    case written(path: String)
    case notMade(reason: String)
}

/// Writes dumps (and their reports) on a thread of their own, one at a time, so the reading
/// thread only copies the recorder's contents. At most `pendingMax` wait: a dump asked for
/// beyond that is refused with a warning rather than growing memory. A failed write (a full disk)
/// is reported and the session goes on; the file is absent, never half-written.
final class FlightDumper: @unchecked Sendable {
    let directory: String
    let makesReport: Bool
    private let queue = DispatchQueue(label: "pinchlab.flight-dump")
    private let group = DispatchGroup()
    private let pending = Atomic<Int>(0)
    /// Dumps written, for the last line.
    private let written = Atomic<Int>(0)
    static let pendingMax = 2

    private let announce: (@Sendable (DumpOutcome) -> Void)?

    init(directory: String, makesReport: Bool, announce: (@Sendable (DumpOutcome) -> Void)? = nil) {
        self.directory = directory
        self.makesReport = makesReport
        self.announce = announce
    }

    /// Checks `directory` before the session starts: an error naming it when it is not a
    /// directory this process can write in.
    static func checkDirectory(_ directory: String) throws {
        var status = stat()
        guard stat(directory, &status) == 0 else {
            throw CLIError(status: errno == EACCES ? .permissionDenied : .noInput, message: "--dump-dir \(directory): \(String(cString: strerror(errno))); "
                           + "give a directory that exists")
        }
        guard (status.st_mode & S_IFMT) == S_IFDIR else {
            throw CLIError(status: .usage, message: "--dump-dir \(directory): not a directory")
        }
        guard access(directory, W_OK | X_OK) == 0 else {
            throw CLIError(status: .permissionDenied, message: "--dump-dir \(directory): cannot write there "
                           + "(\(String(cString: strerror(errno)))); dumps need a writable directory")
        }
    }

    func dump(_ dump: FlightDump) {
        guard pending.add(1, ordering: .relaxed).newValue <= Self.pendingMax else {
            pending.subtract(1, ordering: .relaxed)
            printError("pinchlab: warning: a dump (\(dump.trigger.rawValue)) was not made: "
                       + "\(Self.pendingMax) are still being written")
            announce?(.notMade(reason: "\(Self.pendingMax) dumps are still being written"))
            return
        }
        queue.async(group: group) { [self] in
            defer { pending.subtract(1, ordering: .relaxed) }
            do {
                let path = try dump.write(inDirectory: directory)
                written.add(1, ordering: .relaxed)
                let snapshot = dump.snapshot
                let touches = snapshot.window.stateAtStart.touchCount
                printError("pinchlab: dumped \(String(format: "%.1f", snapshot.window.seconds)) s (\(dump.trigger.rawValue); "
                           + "\(touches) touch\(touches == 1 ? "" : "es") down at its start) to \(path)"
                           + (snapshot.isShort ? "; fewer seconds than --keep asked: the device sends more events than the ring was sized for" : ""))
                announce?(.written(path: path))
                if makesReport { makeReport(of: path) }
            } catch {
                printError("pinchlab: warning: the dump (\(dump.trigger.rawValue)) was not written: \(error); "
                           + "live goes on and keeps recording")
                announce?(.notMade(reason: "\(error)"))
            }
        }
    }

    private func makeReport(of dumpPath: String) {
        let archive = BugReport.defaultArchivePath(for: dumpPath)
        do {
            // libinput's verdict plays the dump in real time: left to `pinchlab report` on the dump.
            try BugReport.make(recording: dumpPath, output: archive, libinput: false)
            printError("pinchlab: report \(archive)")
        } catch {
            printError("pinchlab: warning: the report of \(dumpPath) was not made: \(error)")
        }
    }

    /// Waits for the dumps under way: nothing asked for is lost when live stops.
    func finish() {
        group.wait()
    }
}
