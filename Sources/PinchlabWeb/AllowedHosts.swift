import Foundation

/// Which `Host` headers the live server answers: loopback names and addresses, and the address it
/// was told to listen on. Any other name is refused (421), so a web page the user visits cannot
/// reach the stream by pointing a name of its own at 127.0.0.1 (DNS rebinding). Listening on every
/// address (`0.0.0.0`, `::`), any IP address is accepted too: an address is not a name anyone can
/// rebind.
package struct AllowedHosts: Sendable {
    private let boundHost: String
    private let acceptsAnyAddress: Bool

    /// `bind`: the address given to `--bind`.
    package init(bind: String) {
        boundHost = Self.normalized(bind)
        acceptsAnyAddress = boundHost == "0.0.0.0" || boundHost == "::" || boundHost == "[::]"
    }

    /// Whether a request with this `Host` header (nil: none) is answered.
    package func allows(_ hostHeader: String?) -> Bool {
        guard let hostHeader, let host = Self.hostPart(of: hostHeader) else { return false }
        if host == "localhost" || host.hasSuffix(".localhost") || host == boundHost { return true }
        if let address = Self.address(host) {
            return address.isLoopback || acceptsAnyAddress
        }
        return false
    }

    /// The name or address of `Host: NAME[:PORT]` or `Host: [V6][:PORT]`, lower-cased, without a
    /// final dot; nil for a header that is not one.
    static func hostPart(of header: String) -> String? {
        let text = header.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            let rest = text[text.index(after: close)...]
            guard rest.isEmpty || (rest.hasPrefix(":") && rest.dropFirst().allSatisfy(\.isNumber)) else { return nil }
            return normalized(String(text[text.index(after: text.startIndex)..<close]))
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard !text.isEmpty, parts.count <= 2, !parts[0].isEmpty else { return nil }
        if parts.count == 2 && !parts[1].allSatisfy(\.isNumber) { return nil }
        return normalized(String(parts[0]))
    }

    private static func normalized(_ host: String) -> String {
        var host = host.lowercased()
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        while host.hasSuffix(".") { host.removeLast() }
        return host
    }

    private enum Address {
        case v4(UInt32), v6([UInt8])
        var isLoopback: Bool {
            switch self {
            case .v4(let hostOrder): hostOrder >> 24 == 127
            case .v6(let bytes): bytes == [UInt8](repeating: 0, count: 15) + [1]
            }
        }
    }

    private static func address(_ host: String) -> Address? {
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 { return .v4(UInt32(bigEndian: v4.s_addr)) }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, host, &v6) == 1 { return .v6(withUnsafeBytes(of: &v6) { Array($0) }) }
        return nil
    }
}
