import CMicroHTTPD
import SegueCodec
import SegueJSON
#if canImport(Glibc)
import Glibc
#endif

/// Queuing answers, and the connection and request notices (docs/http.md "Responses").
extension HTTPServer {
    /// Queues `response` on the connection: a body in memory is copied once; a streamed body is
    /// written piece by piece as the socket drains (libmicrohttpd's callback responses), so a
    /// client that does not read holds at most one piece.
    func send(_ response: HTTPResponse, _ exchange: Exchange, on connection: OpaquePointer) -> MHD_Result {
        let created: OpaquePointer?
        if let stream = response.stream {
            let reader = Unmanaged.passRetained(StreamReader(stream, exchange: exchange)).toOpaque()
            created = MHD_create_response_from_callback(UInt64.max, StreamReader.pieceBytes, streamRead, reader, streamFree)
            if created == nil { Unmanaged<StreamReader>.fromOpaque(reader).release() }
        } else {
            created = response.body.withUnsafeBytes { raw in
                MHD_create_response_from_buffer(raw.count, UnsafeMutableRawPointer(mutating: raw.baseAddress),
                                                MHD_ResponseMemoryMode.RESPMEM_MUST_COPY)
            }
        }
        guard let created else { return .NO }
        for header in response.headers {
            _ = MHD_add_response_header(created, header.name, header.value)
        }
        _ = MHD_add_response_header(created, "X-Request-Id", exchange.requestID)
        if service.readiness.isDraining && response.header("Connection") == nil {
            _ = MHD_add_response_header(created, "Connection", "close")
        }
        exchange.noteAnswer(status: response.status, bytes: response.stream == nil ? response.body.count : 0,
                            cause: response.status >= 500 ? response.cause : nil)
        let result = MHD_queue_response(connection, UInt32(response.status), created)
        MHD_destroy_response(created)
        return result
    }

    /// libmicrohttpd is done with a request (answered, aborted or timed out): it is logged and
    /// counted, and its connection waits for the next request.
    func completed(_ slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, termination: MHD_RequestTerminationCode) {
        guard let slot, let existing = slot.pointee else { return }
        slot.pointee = nil
        let exchange = Unmanaged<Exchange>.fromOpaque(existing).takeRetainedValue()
        service.observe(exchange, finishedAt: MonotonicClock.now(), completed: termination == .REQUEST_TERMINATED_COMPLETED_OK)
        guard let client = exchange.connection else { return }
        client.state.withLock { state in
            if case .inRequest = state.phase { state.phase = .awaitingRequest(since: MonotonicClock.now()) }
        }
    }

    /// A connection opened: it gets its record, with a duplicate of its socket.
    func opened(_ connection: OpaquePointer, context: UnsafeMutablePointer<UnsafeMutableRawPointer?>) {
        let socket = segue_mhd_connection_fd(connection)
        let client = ClientConnection(socket: socket >= 0 ? fcntl(socket, F_DUPFD_CLOEXEC, 0) : -1, now: MonotonicClock.now())
        context.pointee = Unmanaged.passRetained(client).toOpaque()
        connections.insert(client)
        service.metrics.connectionOpened()
    }

    /// A connection closed: its duplicate socket is closed, or lingers after a refused body.
    func closed(context: UnsafeMutablePointer<UnsafeMutableRawPointer?>) {
        guard let existing = context.pointee else { return }
        context.pointee = nil
        let client = Unmanaged<ClientConnection>.fromOpaque(existing).takeRetainedValue()
        connections.remove(client)
        service.metrics.connectionClosed()
        guard client.socket >= 0 else { return }
        if client.state.withLock({ $0.lingers }) {
            supervisor.linger(client.socket)
        } else {
            close(client.socket)
        }
    }
}

/// A response written straight to the socket, for the one answer libmicrohttpd cannot queue: a 413
/// while a body is still arriving. Status line, the headers, `Content-Length`, `Connection: close`.
enum DirectResponse {
    static func bytes(of response: HTTPResponse, reason: String) -> [UInt8] {
        var head = "HTTP/1.1 \(response.status) \(reason)\r\n"
        for header in response.headers { head += "\(header.name): \(header.value)\r\n" }
        head += "Content-Length: \(response.body.count)\r\nConnection: close\r\n\r\n"
        return Array(head.utf8) + response.body
    }
}

/// The state of one streamed body: its pieces, written on demand, and the unsent bytes.
final class StreamReader {
    /// The most a streamed response holds per connection besides the socket's own buffer, bytes.
    static let pieceBytes = 1 << 16

    let body: SectionedBody
    let exchange: Exchange
    var cursor = SectionedBody.Cursor()
    var writer = JSONWriter(capacity: pieceBytes)
    var offset = 0

    init(_ body: SectionedBody, exchange: Exchange) {
        self.body = body
        self.exchange = exchange
    }

    /// Copies up to `max` bytes into `buffer`: the count, 0 never (more pieces are written until
    /// bytes exist), -1 at the end, -2 on an error (the connection is then closed).
    func read(into buffer: UnsafeMutablePointer<CChar>, max: Int) -> Int {
        while offset == writer.bytes.count {
            writer.bytes.removeAll(keepingCapacity: true)
            offset = 0
            do {
                guard try body.writeNext(&cursor, into: &writer) else { return -1 }
            } catch {
                return -2
            }
        }
        let count = min(max, writer.bytes.count - offset)
        writer.bytes.withUnsafeBytes { raw in
            UnsafeMutableRawPointer(buffer).copyMemory(from: raw.baseAddress! + offset, byteCount: count)
        }
        offset += count
        exchange.noteSent(count)
        return count
    }
}

private let streamRead: MHD_ContentReaderCallback = { cls, _, buffer, max in
    guard let cls, let buffer else { return -2 }
    return Unmanaged<StreamReader>.fromOpaque(cls).takeUnretainedValue().read(into: buffer, max: max)
}

private let streamFree: MHD_ContentReaderFreeCallback = { cls in
    guard let cls else { return }
    Unmanaged<StreamReader>.fromOpaque(cls).release()
}
