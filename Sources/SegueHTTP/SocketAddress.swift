#if canImport(Glibc)
import Glibc
#endif

extension ListenConfiguration {
    /// Whether the server can listen on `host` (and `segue healthcheck` probe it): an IPv4 or IPv6
    /// literal, or `localhost`; a name is never looked up.
    public static func accepts(host: String) -> Bool {
        (try? SocketAddress(host: host, port: 0)) != nil
    }

    /// `host` as a URL writes it: an IPv6 literal in brackets (`[::1]`, RFC 3986 §3.2.2).
    public static func urlHost(_ host: String) -> String {
        host.contains(":") ? "[\(host)]" : host
    }
}

/// An IPv4 or IPv6 listening address from a host literal (`localhost` means 127.0.0.1).
struct SocketAddress {
    private var storage = sockaddr_storage()
    let isIPv6: Bool

    init(host: String, port: UInt16) throws(ServerError) {
        let literal = host == "localhost" ? "127.0.0.1" : host
        var v4 = sockaddr_in()
        if inet_pton(AF_INET, literal, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = port.bigEndian
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: v4, as: sockaddr_in.self) }
            isIPv6 = false
            return
        }
        var v6 = sockaddr_in6()
        if inet_pton(AF_INET6, literal, &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = port.bigEndian
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: v6, as: sockaddr_in6.self) }
            isIPv6 = true
            return
        }
        throw ServerError(description: "`\(host)` is not an IPv4 or IPv6 address (or localhost)")
    }

    /// Where a client on this machine reaches a server listening on `host`: for a wildcard the
    /// loopback address of its family (`0.0.0.0` → 127.0.0.1, `::` → ::1), else `host` itself.
    init(reaching host: String, port: UInt16) throws(ServerError) {
        let address = try SocketAddress(host: host, port: port)
        self = address.isWildcard ? try SocketAddress(host: address.isIPv6 ? "::1" : "127.0.0.1", port: port) : address
    }

    /// `0.0.0.0` or `::`: every address of the family.
    private var isWildcard: Bool {
        withUnsafeBytes(of: storage) { bytes in
            isIPv6 ? withUnsafeBytes(of: bytes.load(as: sockaddr_in6.self).sin6_addr) { $0.allSatisfy { $0 == 0 } }
                : bytes.load(as: sockaddr_in.self).sin_addr.s_addr == 0
        }
    }

    /// The size of the `sockaddr_in` or `sockaddr_in6` that `withSockaddr` passes.
    var length: socklen_t {
        socklen_t(isIPv6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
    }

    mutating func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>) -> R) -> R {
        withUnsafePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1, body)
        }
    }

    /// The host part of a client's address as text (`127.0.0.2`, `::1`); empty when unknown.
    static func host(of address: UnsafePointer<sockaddr>?) -> String {
        guard let address else { return "" }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let written: UnsafePointer<CChar>?
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            var host = UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in.self).sin_addr
            written = inet_ntop(AF_INET, &host, &text, socklen_t(text.count))
        case AF_INET6:
            var host = UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in6.self).sin6_addr
            written = inet_ntop(AF_INET6, &host, &text, socklen_t(text.count))
        default:
            written = nil
        }
        guard written != nil else { return "" }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
