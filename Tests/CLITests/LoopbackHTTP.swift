import Foundation

/// A plain TCP client to a server on 127.0.0.1, for requests URLSession will not make: any `Host`
/// header, a client that asks for the stream and then never reads, a burst of connections.
final class LoopbackHTTP: @unchecked Sendable {
    let descriptor: Int32
    /// The server closed the connection (a read came to its end, not to a time-out).
    private(set) var closedByServer = false

    /// Connects to 127.0.0.1:`port`. `receiveBuffer`: the socket's receive buffer in bytes (small,
    /// for a client that never reads to hold little before the server must wait for it).
    init(port: Int, receiveBuffer: Int32? = nil) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        if var size = receiveBuffer {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let code = errno
            close(descriptor)
            throw POSIXError(.init(rawValue: code) ?? .EIO)
        }
    }

    deinit { close(descriptor) }

    /// Sends `GET path` with `host` as its Host header (nil: none).
    func sendGet(_ path: String, host: String?) throws {
        try sendGet(path, hosts: host.map { [$0] } ?? [])
    }

    /// Sends `GET path` with a Host header line for each of `hosts`, in order.
    func sendGet(_ path: String, hosts: [String]) throws {
        let request = "GET \(path) HTTP/1.1\r\n" + hosts.map { "Host: \($0)\r\n" }.joined() + "\r\n"
        let sent = request.utf8CString.withUnsafeBufferPointer { send(descriptor, $0.baseAddress, $0.count - 1, Int32(MSG_NOSIGNAL)) }
        guard sent == request.utf8.count else { throw POSIXError(.EIO) }
    }

    /// Reads until `until` returns true for what has come, the server closes, or 10 s pass
    /// without data; returns what came.
    func read(until done: (String) -> Bool = { _ in false }) -> String {
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count == 0 { closedByServer = true }
            if count <= 0 { break }
            received.append(contentsOf: buffer[..<count])
            if done(String(decoding: received, as: UTF8.self)) { break }
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// The status code of a response's first line (`HTTP/1.1 421 Misdirected Request`), or nil.
    static func status(of response: String) -> Int? {
        let parts = response.prefix { $0 != "\r" }.split(separator: " ")
        return parts.count >= 2 ? Int(parts[1]) : nil
    }

    /// `GET path` with `host` as its Host header: the response's status code (nil if none came).
    static func get(port: Int, _ path: String, host: String?) throws -> Int? {
        try get(port: port, path, hosts: host.map { [$0] } ?? [])
    }

    /// `GET path` with a Host line for each of `hosts`: the response's status code.
    static func get(port: Int, _ path: String, hosts: [String]) throws -> Int? {
        let client = try LoopbackHTTP(port: port)
        try client.sendGet(path, hosts: hosts)
        return status(of: client.read { $0.contains("\r\n") })  // an HTTP response's status line
    }
}
