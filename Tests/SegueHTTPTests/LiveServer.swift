import Foundation
import XCTest
@testable import SegueHTTP

/// The real server on an ephemeral loopback port, spoken to over real sockets.
final class LiveServer {
    let server: HTTPServer
    let port: UInt16

    init(configuration: ServiceConfiguration = ServiceConfiguration(), threads: Int = 2,
         inlineWork: Double = ListenConfiguration().inlineWork) throws {
        var listen = ListenConfiguration()
        listen.port = 0
        listen.threads = threads
        listen.inlineWork = inlineWork
        // These tests run the debug build, ten to fifty times slower than release: a request that
        // spends its whole physics budget before its 413 can pass the production deadline of 10 s
        // on a loaded machine. The deadline itself is tested on the release binary (Tests/System).
        listen.requestTimeout = 300
        server = HTTPServer(service: SegueService(configuration: configuration), listen: listen)
        try server.start()
        port = server.port
    }

    deinit { server.shutdown(drainSeconds: 1) }

    /// Sends raw request bytes on a fresh connection and reads the whole answer.
    func send(_ raw: [UInt8]) throws -> RawResponse {
        try RawHTTP.exchange(port: port, raw)
    }

    func request(_ method: String, _ path: String, headers: [(String, String)] = [], body: [UInt8] = [],
                 declareLength: Bool = true) throws -> RawResponse {
        try send(RawHTTP.build(method, path, headers: headers, body: body, declareLength: declareLength))
    }

    func post(_ path: String, json: String, headers: [(String, String)] = []) throws -> RawResponse {
        try request("POST", path, headers: [("Content-Type", "application/json")] + headers, body: Array(json.utf8))
    }
}

struct RawResponse {
    var status: Int
    var headers: [(String, String)]
    var body: [UInt8]

    func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    var text: String { String(decoding: body, as: UTF8.self) }

    /// The body parsed as a JSON object.
    var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:]
    }
}

enum RawHTTP {
    static func build(_ method: String, _ path: String, headers: [(String, String)], body: [UInt8],
                      declareLength: Bool) -> [UInt8] {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if declareLength && (!body.isEmpty || method == "POST") { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        return Array(head.utf8) + body
    }

    static func exchange(port: UInt16, _ request: [UInt8]) throws -> RawResponse {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        defer { close(fd) }
        // Generous: make test runs the debug server beside the release checks and a browser.
        var timeout = timeval(tv_sec: 120, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        var offset = 0
        while offset < request.count {
            let sent = request.withUnsafeBytes { send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if sent <= 0 { break }  // the server may answer early (413) and close
            offset += sent
        }
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
            if count <= 0 { break }
            data += buffer[0..<count]
        }
        return try parse(data)
    }

    static func parse(_ data: [UInt8]) throws -> RawResponse {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = (0..<max(0, data.count - 3)).first(where: { Array(data[$0..<$0 + 4]) == separator }) else {
            throw POSIXError(.EBADMSG)
        }
        let head = String(decoding: data[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = head[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw POSIXError(.EBADMSG) }
        var headers: [(String, String)] = []
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        var body = Array(data[(end + 4)...])
        if headers.contains(where: { $0.0.lowercased() == "transfer-encoding" && $0.1.lowercased().contains("chunked") }) {
            body = dechunk(body)
        }
        return RawResponse(status: status, headers: headers, body: body)
    }

    static func dechunk(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var i = 0
        while i < data.count {
            guard let lineEnd = (i..<data.count - 1).first(where: { data[$0] == 13 && data[$0 + 1] == 10 }),
                  let size = Int(String(decoding: data[i..<lineEnd], as: UTF8.self), radix: 16), size > 0 else { break }
            let start = lineEnd + 2
            out += data[start..<min(data.count, start + size)]
            i = start + size + 2
        }
        return out
    }
}
