import ArgumentParser
import Foundation
import GestureLab
import InteractiveTransition
import LabReports
import PinchlabWeb

/// `live --web`: where the browser connects.
struct LiveWebOptions: ParsableArguments {
    @Flag(help: "Also serve the viewer page on http://127.0.0.1:PORT/ and stream every record to it as it happens.")
    var web = false

    @Option(help: ArgumentHelp("The port for --web (0 picks a free one; the URL is printed).", valueName: "n"))
    var port: Int = LiveWebOptions.defaultPort

    @Option(help: ArgumentHelp("The address for --web to listen on (default: loopback only).", valueName: "addr"))
    var bind: String = "127.0.0.1"

    @Option(help: ArgumentHelp("How far a page may fall behind the session (KiB of stream waiting for it) before --web "
                               + "disconnects it; a browser's page then reconnects and catches up.", valueName: "KiB"))
    var pageBuffer: Int = LiveBroadcast.defaultMaximumQueuedBytes / 1024

    static let defaultPort = 8765
    static let pageBufferRange = 16...(1 << 20)

    func validate() throws {
        if !(0...65535).contains(port) { throw ValidationError("--port must be within 0...65535, got \(port)") }
        if !Self.pageBufferRange.contains(pageBuffer) {
            throw ValidationError("--page-buffer must be within \(Self.pageBufferRange.lowerBound)...\(Self.pageBufferRange.upperBound) KiB, got \(pageBuffer)")
        }
        if !web && (port != Self.defaultPort || bind != "127.0.0.1" || pageBuffer != LiveBroadcast.defaultMaximumQueuedBytes / 1024) {
            throw ValidationError("--port, --bind and --page-buffer go with --web")
        }
    }
}

/// The live session's records as viewer entries, sent to the pages in batches: what one event (or
/// one idle step of the completion animation) produced goes out at once.
struct LiveWebOutput {
    let server: LiveWebServer
    let url: String
    private var recorder: ViewerRecorder
    private var pending: [ViewerEntry] = []
    private var readAt = 0.0

    /// Starts the server; a port in use or an address not of this machine is status 69. With
    /// `dumps` (the flight recorder is on) the page has a dump button, which asks as SIGUSR1 does.
    init(options: LiveWebOptions, header: ViewerDocument, spec: TransitionSpecSource, dumps: Bool) throws {
        recorder = ViewerRecorder(spec: spec.spec, policy: spec.policy)
        var header = header
        header.dumps = dumps ? true : nil
        let broadcast = try LiveBroadcast(header: header, maximumQueuedBytes: options.pageBuffer * 1024)
        broadcast.onConnect = { watching in printError("pinchlab: a page connected (\(watching) watching)") }
        broadcast.onDrop = { watching in
            printError("pinchlab: a page fell more than \(options.pageBuffer) KiB behind and was disconnected "
                       + "(\(watching) watching; a browser reconnects and catches up)")
        }
        server = LiveWebServer(broadcast: broadcast, host: options.bind, port: options.port)
        if dumps { server.onDumpRequest = { DumpRequest.note(.page) } }
        let port: Int
        do {
            port = try server.start()
        } catch {
            throw CLIError(status: .deviceUnavailable, message: messageWithAdvice(for: error)
                           + (options.port == 0 ? "" : "; --port 0 picks a free port"))
        }
        let shownHost = options.bind.contains(":") ? "[\(options.bind)]" : options.bind
        url = "http://\(shownHost):\(port)/"
    }

    mutating func handle(_ record: LabRecord) {
        guard let entry = recorder.entry(for: record) else { return }
        if pending.isEmpty { readAt = Date().timeIntervalSince1970 * 1000 }
        pending.append(entry)
    }

    /// Tells the pages what became of each dump (called from the dumper's thread).
    var announcesDumps: @Sendable (DumpOutcome) -> Void {
        let broadcast = server.broadcast
        return { outcome in
            switch outcome {
            case .written(let path): broadcast.announceDump(.written(path))
            case .notMade(let reason): broadcast.announceDump(.notMade(reason))
            }
        }
    }

    mutating func flush() {
        guard !pending.isEmpty else { return }
        server.broadcast.publish(pending, readAt: readAt)
        pending.removeAll(keepingCapacity: true)
    }

    mutating func finish(_ summary: LabSummary) {
        flush()
        server.broadcast.finish(summary: summary)
        server.stop()
    }
}

/// What the live page draws the scene from: the transition's spec and the policy deciding.
struct TransitionSpecSource {
    let spec: TransitionSpec
    let policy: CompletionPolicy
}
