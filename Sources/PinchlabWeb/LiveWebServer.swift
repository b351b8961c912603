import Foundation
import Hummingbird
import Logging
import NIOCore

/// The live page over HTTP (Hummingbird 2): `GET /` is the viewer page, `GET /events` its stream of
/// server-sent events (`LiveBroadcast`); every other path is 404. Runs on its own threads beside the
/// session's blocking read loop: `start` returns once the socket listens (or says why it cannot),
/// `stop` ends every stream and the server.
public final class LiveWebServer: @unchecked Sendable {
    public enum StartError: Error, CustomStringConvertible {
        /// The address could not be listened on (in use, not an address of this machine, no permission).
        case cannotListen(host: String, port: Int, reason: String)
        /// The server did not say it was listening within the time allowed.
        case notListening(host: String, port: Int, seconds: Double)

        public var description: String {
            switch self {
            case .cannotListen(let host, let port, let reason): "cannot listen on \(host):\(port): \(reason)"
            case .notListening(let host, let port, let seconds): "the server on \(host):\(port) did not start within \(seconds) s"
            }
        }
    }

    public let broadcast: LiveBroadcast
    public let host: String
    public let requestedPort: Int
    private var task: Task<Void, Never>?
    private let stopped = DispatchSemaphore(value: 0)

    public init(broadcast: LiveBroadcast, host: String, port: Int) {
        self.broadcast = broadcast
        self.host = host
        self.requestedPort = port
    }

    /// Starts listening; returns the port (the one chosen when 0 was asked for).
    public func start(timeoutSeconds: Double = 10) throws -> Int {
        let router = Router()
        let broadcast = self.broadcast
        let page = ByteBuffer(string: broadcast.pageHTML)
        router.get("/") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                     body: ResponseBody(byteBuffer: page))
        }
        router.get("/events") { _, _ in
            let stream = broadcast.subscribe()
            return Response(
                status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store"],
                body: ResponseBody { writer in
                    broadcast.writingStarted()
                    defer { broadcast.writingEnded() }
                    for await message in stream { try await writer.write(ByteBuffer(string: message)) }
                    try await writer.finish(nil)
                })
        }
        let outcome = StartOutcome()
        let ready = DispatchSemaphore(value: 0)
        let app = Application(
            router: router,
            configuration: ApplicationConfiguration(address: .hostname(host, port: requestedPort), serverName: nil,
                                                    reuseAddress: false),
            onServerRunning: { channel in
                outcome.set(.success(channel.localAddress?.port ?? 0))
                ready.signal()
            },
            logger: Logger(label: "pinchlab.live-web", factory: { _ in SwiftLogNoOpLogHandler() }))
        let host = self.host, port = requestedPort, stopped = self.stopped
        task = Task.detached {
            do {
                try await app.run()
            } catch {
                outcome.set(.failure(StartError.cannotListen(host: host, port: port, reason: Self.reason(error))))
                ready.signal()
            }
            stopped.signal()
        }
        guard ready.wait(timeout: .now() + timeoutSeconds) == .success else {
            task?.cancel()
            throw StartError.notListening(host: host, port: port, seconds: timeoutSeconds)
        }
        return try outcome.get()
    }

    /// Ends the server once every page's stream has been written to its end (the session's summary:
    /// cancelling first would drop what a stream still holds); waits a bounded time for each.
    public func stop(timeoutSeconds: Double = 5) {
        guard let task else { return }
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while broadcast.writingCount > 0 && Date() < deadline { usleep(10_000) }
        task.cancel()
        _ = stopped.wait(timeout: .now() + timeoutSeconds)
        self.task = nil
    }

    static func reason(_ error: any Error) -> String {
        if let io = error as? IOError {
            return io.errnoCode == EADDRINUSE ? "the port is in use" : String(cString: strerror(io.errnoCode))
        }
        return "\(error)"
    }
}

/// The first result of starting: the port, or why not.
private final class StartOutcome: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<Int, any Error>?

    func set(_ value: Result<Int, any Error>) {
        lock.withLock { if result == nil { result = value } }
    }

    func get() throws -> Int {
        try lock.withLock { result ?? .failure(LiveWebServer.StartError.notListening(host: "", port: 0, seconds: 0)) }.get()
    }
}
