#if canImport(Glibc)
import Glibc
#endif

/// `segue healthcheck`: a minimal HTTP/1.0 GET of `/healthz` on the loopback interface, for
/// container health checks (the runtime image has no curl). True when the answer is 200.
public enum HealthCheck {
    public static func run(port: UInt16, timeoutSeconds: Int = 3) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { return false }
        let request = "GET /healthz HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n"
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
}
