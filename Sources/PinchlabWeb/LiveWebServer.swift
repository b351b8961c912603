import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// The live page over HTTP (Hummingbird 2): `GET /` is the viewer page, `GET /events` its stream of
/// server-sent events (`LiveBroadcast`), `POST /dump` the page's dump button (when `onDumpRequest`
/// is set: the flight recorder is on); every other path is 404. Runs on its own threads beside the
/// session's blocking read loop: `start` returns once the socket listens (or says why it cannot),
/// `stop` ends every stream and the server.
package final class LiveWebServer: @unchecked Sendable {
    package enum StartError: Error, CustomStringConvertible {
        /// The address could not be listened on (in use, not an address of this machine, no permission).
        case cannotListen(host: String, port: Int, reason: String)
        /// The server did not say it was listening within the time allowed.
        case notListening(host: String, port: Int, seconds: Double)

        package var description: String {
            switch self {
            case .cannotListen(let host, let port, let reason): "cannot listen on \(host):\(port): \(reason)"
            case .notListening(let host, let port, let seconds): "the server on \(host):\(port) did not start within \(seconds) s"
            }
        }
    }

    package let broadcast: LiveBroadcast
    package let host: String
    package let requestedPort: Int
    private var task: Task<Void, Never>?
    private var serviceGroup: ServiceGroup?
    private let stopped = DispatchSemaphore(value: 0)
    /// Asks the session for a flight recorder dump (`POST /dump`); set before `start`. The dump's
    /// outcome reaches the pages as a `dump` event (`LiveBroadcast.announceDump`).
    package var onDumpRequest: (@Sendable () -> Void)?
    /// The header `POST /dump` must carry: a page of another site cannot send it without a CORS
    /// preflight, which this server never grants, so a form posted from elsewhere cannot dump.
    package static let dumpRequestHeader = "X-Pinchlab-Dump"

    package init(broadcast: LiveBroadcast, host: String, port: Int) {
        self.broadcast = broadcast
        self.host = host
        self.requestedPort = port
    }

    /// Starts listening; returns the port (the one chosen when 0 was asked for).
    package func start(timeoutSeconds: Double = 10) throws -> Int {
        let router = Router(context: LiveRequestContext.self)
        router.add(middleware: HostCheck(allowed: AllowedHosts(bind: host)))
        let broadcast = self.broadcast
        let page = ByteBuffer(string: broadcast.pageHTML)
        router.get("/") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                     body: ResponseBody(byteBuffer: page))
        }
        router.get("/events") { _, context in
            let channel = context.channel
            return Response(
                status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store"],
                body: ResponseBody { writer in
                    // Subscribed here, where the stream is written: a response never written holds nothing.
                    let subscription = broadcast.subscribe(disconnect: { channel.close(promise: nil) })
                    defer { subscription.ended() }
                    // The catch-up in parts, each waiting for the connection to take the one before.
                    for part in subscription.documentParts { try await writer.write(ByteBuffer(string: part)) }
                    for await message in subscription.messages {
                        try await writer.write(ByteBuffer(string: message))
                        subscription.wrote(message.utf8.count)
                    }
                    try await writer.finish(nil)
                })
        }
        if let onDumpRequest {
            let header = Self.dumpRequestHeader.lowercased()
            router.post("/dump") { request, _ in
                guard request.headers.contains(where: { $0.name.canonicalName == header }) else {
                    return Self.plain(.forbidden, "403: a dump is asked for by the page's button (header \(Self.dumpRequestHeader))\n")
                }
                onDumpRequest()
                return Self.plain(.accepted, "asked for a dump\n")
            }
        }
        let outcome = StartOutcome()
        let ready = DispatchSemaphore(value: 0)
        let logger = Logger(label: "pinchlab.live-web", factory: { _ in SwiftLogNoOpLogHandler() })
        let app = Application(
            router: router,
            configuration: ApplicationConfiguration(address: .hostname(host, port: requestedPort), serverName: nil,
                                                    reuseAddress: false),
            onServerRunning: { channel in
                outcome.set(.success(channel.localAddress?.port ?? 0))
                ready.signal()
            },
            logger: logger)
        // Run in a service group of our own so `stop` can shut the server down gracefully. Cancelling
        // its task instead traps now and then: a connection accepted but not yet taken by the
        // server's accept loop is dropped with its writer unfinished, and NIOAsyncWriter's deinit
        // traps on that (swift-nio #2637, #2813; swift-http-server #137: "do a graceful shutdown").
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        serviceGroup = group
        let host = self.host, port = requestedPort, stopped = self.stopped
        task = Task.detached {
            do {
                try await group.run()
            } catch {
                outcome.set(.failure(StartError.cannotListen(host: host, port: port, reason: Self.reason(error))))
                ready.signal()
            }
            stopped.signal()
        }
        guard ready.wait(timeout: .now() + timeoutSeconds) == .success else {
            Task { await group.triggerGracefulShutdown() }
            throw StartError.notListening(host: host, port: port, seconds: timeoutSeconds)
        }
        return try outcome.get()
    }

    /// Ends the server once every page's stream has been written to its end (the session's summary:
    /// closing first would drop what a stream still holds), waiting a bounded time for them; a page
    /// that has not taken its stream by then is disconnected. The server then shuts down gracefully
    /// (never by cancelling its task: see `start`); if it has not within the time allowed, it is
    /// left to the process's exit.
    package func stop(timeoutSeconds: Double = 5) {
        guard let serviceGroup else { return }
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while broadcast.writingCount > 0 && Date() < deadline { usleep(10_000) }
        broadcast.disconnectAll()
        Task { await serviceGroup.triggerGracefulShutdown() }
        _ = stopped.wait(timeout: .now() + timeoutSeconds)
        self.serviceGroup = nil
        self.task = nil
    }

    static func plain(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(status: status, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
                 body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
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

/// The request context of the live server: Hummingbird's basic one plus the connection, which a
/// stream closes to disconnect a page too far behind.
struct LiveRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}

/// Answers only requests whose `Host` the server accepts (`AllowedHosts`); others get 421
/// Misdirected Request. A request with more than one `Host` line gets 400 Bad Request, as RFC 9112
/// (3.2) requires: which of them names the server is anybody's guess, and a proxy in front may
/// have read the other (the first becomes `authority`, the others stay among the header fields).
struct HostCheck: RouterMiddleware {
    typealias Context = LiveRequestContext
    let allowed: AllowedHosts

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard !request.headers.contains(where: { $0.name.canonicalName == "host" }) else {
            return Response(status: .badRequest, headers: [.contentType: "text/plain; charset=utf-8"],
                            body: ResponseBody(byteBuffer: ByteBuffer(string: "400: more than one Host header\n")))
        }
        guard allowed.allows(request.head.authority) else {
            return Response(status: .misdirectedRequest, headers: [.contentType: "text/plain; charset=utf-8"],
                            body: ResponseBody(byteBuffer: ByteBuffer(string: "421: this server answers only for loopback names "
                                                                          + "and the address it listens on\n")))
        }
        return try await next(request, context)
    }
}
