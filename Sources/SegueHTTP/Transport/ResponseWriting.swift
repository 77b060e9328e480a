import CMicroHTTPD
import SegueCodec
import SegueJSON
#if canImport(Glibc)
import Glibc
#endif

/// Queuing answers, and the connection and request notices (docs/http.md "Responses").
extension HTTPServer {
    /// Queues `response` on the connection: a body in memory is lent to libmicrohttpd, not copied
    /// (`ResponseBytes`); a streamed body is
    /// written piece by piece as the socket drains (libmicrohttpd's callback responses), so a
    /// client that does not read holds at most one piece. The response is taken (`consuming`), not
    /// copied: a copy retains each of its arrays and strings.
    func send(_ proposed: consuming HTTPResponse, _ exchange: Exchange, on connection: OpaquePointer) -> MHD_Result {
        let response = withinMemoryBudget(consume proposed, exchange)
        let created: OpaquePointer?
        if let stream = response.stream {
            let reader = Unmanaged.passRetained(StreamReader(stream, gzip: response.gzipsStream, exchange: exchange)).toOpaque()
            created = MHD_create_response_from_callback(UInt64.max, 1 << 15, streamRead, reader, streamFree)
            if created == nil { Unmanaged<StreamReader>.fromOpaque(reader).release() }
        } else {
            created = ResponseBytes.response(response.body)
        }
        guard let created else { return .NO }
        // `withCString`, not the implicit conversion: a short string (most names and values) is
        // then copied to the stack instead of into a new array. The fields are read where they
        // lie: `for header in` copies each pair, a retain and a release of both strings.
        response.headers.withUnsafeBufferPointer { headers in
            for i in headers.indices {
                _ = headers[i].name.withCString { name in headers[i].value.withCString { MHD_add_response_header(created, name, $0) } }
            }
        }
        _ = exchange.requestID.withCString { MHD_add_response_header(created, "X-Request-Id", $0) }
        if service.readiness.isDraining && response.header("Connection") == nil {
            _ = MHD_add_response_header(created, "Connection", "close")
        }
        exchange.noteAnswer(status: response.status, bytes: response.stream == nil ? response.body.count : 0,
                            cause: response.status >= 500 ? response.cause : nil)
        let result = MHD_queue_response(connection, UInt32(response.status), created)
        MHD_destroy_response(created)
        return result
    }

    /// The response, or a 503 when streaming it would take the bytes held for unsent answers over
    /// `--max-response-memory` (what a crowd of clients that do not read can pin). Bodies written
    /// whole are at most the streaming threshold (64 KiB) each, bounded by the connection limit,
    /// and always go out: a small answer is never refused for a crowd's large ones.
    private func withinMemoryBudget(_ response: consuming HTTPResponse, _ exchange: Exchange) -> HTTPResponse {
        guard let stream = response.stream else { return consume response }
        let held = StreamReader.heldBytes(gzip: response.gzipsStream) + stream.retainedBytes
        if heldBytes.reserve(held) {
            exchange.record.withLock { $0.heldBytes = held }
            return consume response
        }
        var refusal = service.problem(Problem(.unavailable, detail: "the server holds too many unsent answers; retry shortly"))
        refusal.headers.append(HeaderField("Retry-After", "1"))
        return refusal
    }

    /// libmicrohttpd is done with a request (answered, aborted or timed out): it is logged and
    /// counted, and its connection waits for the next request.
    func completed(_ slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, termination: MHD_RequestTerminationCode) {
        guard let slot, let existing = slot.pointee else { return }
        slot.pointee = nil
        let exchange = Unmanaged<Exchange>.fromOpaque(existing).takeRetainedValue()
        let answer = exchange.answer
        if answer.heldBytes != 0 { heldBytes.release(answer.heldBytes) }
        let now = MonotonicClock.now()
        service.observe(exchange, answer: answer, finishedAt: now, completed: termination == .REQUEST_TERMINATED_COMPLETED_OK)
        guard let client = exchange.connection else { return }
        client.state.withLock { state in
            if case .inRequest = state.phase { state.phase = .awaitingRequest(since: now) }
        }
        client.requestBegun.store(false, ordering: .relaxed)
    }

    /// A connection opened: it gets its record, with a duplicate of its socket. Over the total
    /// limit it is closed at once (libmicrohttpd reads end-of-file), rather than left to wait.
    func opened(_ connection: OpaquePointer, context: UnsafeMutablePointer<UnsafeMutableRawPointer?>) {
        let socket = segue_mhd_connection_fd(connection)
        let client = ClientConnection(socket: socket >= 0 ? fcntl(socket, F_DUPFD_CLOEXEC, 0) : -1,
                                      client: SocketAddress.host(of: segue_mhd_client_address(connection)),
                                      now: MonotonicClock.now())
        context.pointee = Unmanaged.passRetained(client).toOpaque()
        connections.insert(client)
        service.metrics.connectionOpened()
        if connections.count > Int(listen.connectionLimit) { client.close() }
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

/// The state of one streamed body: its pieces, written on demand (and gzip-coded when asked), and
/// the bytes not yet handed to libmicrohttpd. It holds one piece at a time.
final class StreamReader {
    let body: SectionedBody
    let exchange: Exchange
    let gzip: Compression.Stream?
    var cursor = SectionedBody.Cursor()
    var writer = JSONWriter(capacity: SectionedBody.pieceBytes + (SectionedBody.pieceBytes >> 2))
    var coded: [UInt8] = []
    var offset = 0
    var finished = false

    init(_ body: SectionedBody, gzip: Bool, exchange: Exchange) {
        self.body = body
        self.exchange = exchange
        self.gzip = gzip ? Compression.Stream() : nil
    }

    /// Memory a stream holds besides its body's own: a piece, its coded form and zlib's state
    /// (deflate with a 32 KiB window and memLevel 8 takes about 256 KiB).
    static func heldBytes(gzip: Bool) -> Int {
        let piece = SectionedBody.pieceBytes + (SectionedBody.pieceBytes >> 2)
        return gzip ? 2 * piece + (256 << 10) : piece
    }

    /// Copies up to `max` bytes into `buffer`: the count, 0 never (more pieces are written until
    /// bytes exist), -1 at the end, -2 on an error (the connection is then closed: a chunked body
    /// without its last chunk, which no client takes for complete).
    func read(into buffer: UnsafeMutablePointer<CChar>, max: Int) -> Int {
        while offset == pending.count {
            offset = 0
            guard !finished else { return -1 }
            do throws(Problem) {
                guard try nextPiece() else { return -1 }
            } catch {
                return -2
            }
        }
        let bytes = pending
        let count = min(max, bytes.count - offset)
        bytes.withUnsafeBytes { raw in
            UnsafeMutableRawPointer(buffer).copyMemory(from: raw.baseAddress! + offset, byteCount: count)
        }
        offset += count
        exchange.noteSent(count)
        return count
    }

    /// The bytes being handed over: the piece as written, or as coded.
    private var pending: [UInt8] { gzip == nil ? writer.bytes : coded }

    /// Writes (and codes) the next piece; false when nothing is left.
    private func nextPiece() throws(Problem) -> Bool {
        writer.bytes.removeAll(keepingCapacity: true)
        let more = try body.writeNext(&cursor, into: &writer)
        guard let gzip else { return more }
        coded.removeAll(keepingCapacity: true)
        let coding = more ? gzip.write(writer.bytes, into: &coded) : gzip.finish(into: &coded)
        guard coding else { throw Problem(.unavailable, detail: "zlib could not code the body") }
        finished = !more
        return true
    }
}

/// A body in memory that libmicrohttpd sends without copying it (`MHD_RESPMEM_MUST_COPY` would
/// allocate and copy every body): the box keeps the array alive until libmicrohttpd frees the
/// response, after the last byte went out. The array is a `let` in the box, never mutated or
/// resized, so its storage, and the address handed over, stays where it is until the box goes.
final class ResponseBytes {
    let bytes: [UInt8]

    private init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// A libmicrohttpd response sending `bytes`, or nil when libmicrohttpd cannot make one.
    static func response(_ bytes: [UInt8]) -> OpaquePointer? {
        let box = Unmanaged.passRetained(ResponseBytes(bytes))
        let base = box.takeUnretainedValue().bytes.withUnsafeBytes { UnsafeMutableRawPointer(mutating: $0.baseAddress) }
        let created = MHD_create_response_from_buffer_with_free_callback_cls(bytes.count, base, releaseBytes, box.toOpaque())
        if created == nil { box.release() }
        return created
    }
}

private let releaseBytes: MHD_ContentReaderFreeCallback = { cls in
    guard let cls else { return }
    Unmanaged<ResponseBytes>.fromOpaque(cls).release()
}

private let streamRead: MHD_ContentReaderCallback = { cls, _, buffer, max in
    guard let cls, let buffer else { return -2 }
    return Unmanaged<StreamReader>.fromOpaque(cls).takeUnretainedValue().read(into: buffer, max: max)
}

private let streamFree: MHD_ContentReaderFreeCallback = { cls in
    guard let cls else { return }
    Unmanaged<StreamReader>.fromOpaque(cls).release()
}
