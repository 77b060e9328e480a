#if canImport(Glibc)
import Glibc
#endif

/// `segue healthcheck`: a minimal HTTP/1.0 GET of `/healthz` from a server on this machine, for
/// container health checks (the runtime image has no curl). True when the answer is 200.
public enum HealthCheck {
    /// `host` is the server's listening address; a wildcard is probed on the loopback address of its
    /// family (`SocketAddress(reaching:port:)`).
    public static func run(host: String, port: UInt16, timeoutSeconds: Int = 3) -> Bool {
        guard var address = try? SocketAddress(reaching: host, port: port),
              let fd = connected(to: &address, timeoutSeconds: timeoutSeconds) else { return false }
        defer { close(fd) }
        let authority = ListenConfiguration.urlHost(address.withSockaddr { SocketAddress.host(of: $0) })
        let request = "GET /healthz HTTP/1.0\r\nHost: \(authority)\r\n\r\n"
        let sent = request.withCString { send(fd, $0, strlen($0), 0) }
        guard sent > 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 64)
        var received = 0
        while received < 12 {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress! + received, $0.count - received, 0) }
            guard count > 0 else { break }
            received += count
        }
        let statusLine = String(decoding: buffer[0..<received], as: UTF8.self)
        return statusLine.hasPrefix("HTTP/1.1 200") || statusLine.hasPrefix("HTTP/1.0 200")
    }

    /// A stream socket connected to `address`, reads and writes bounded by the timeout; nil when
    /// nothing answers.
    private static func connected(to address: inout SocketAddress, timeoutSeconds: Int) -> Int32? {
        let fd = socket(address.isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let length = address.length
        guard address.withSockaddr({ connect(fd, $0, length) }) == 0 else {
            close(fd)
            return nil
        }
        return fd
    }
}
