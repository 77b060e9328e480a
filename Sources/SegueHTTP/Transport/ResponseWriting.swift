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
        var response = withinMemoryBudget(consume proposed, exchange)
        let created: OpaquePointer?
        if let source = streamSource(&response, exchange, on: connection) {
            let reader = Unmanaged.passRetained(StreamReader(source, gzip: response.gzipsStream, exchange: exchange)).toOpaque()
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
        exchange.noteAnswer(status: response.status, bytes: response.stream == nil && response.batch == nil ? response.body.count : 0,
                            cause: response.status >= 500 ? response.cause : nil)
        let result = MHD_queue_response(connection, UInt32(response.status), created)
        MHD_destroy_response(created)
        return result
    }

    /// Where a streamed body's pieces come from: its sections, or a batch's pipe, whose producer
    /// starts here (the exchange then counts as producing, for the supervisor). A batch the pool
    /// cannot take becomes a 503.
    private func streamSource(_ response: inout HTTPResponse, _ exchange: Exchange,
                              on connection: OpaquePointer) -> StreamReader.Source? {
        if let stream = response.stream { return .sections(stream) }
        guard let batch = response.batch else { return nil }
        let pipe = BatchPipe(run: batch, pool: pool, client: exchange.connection?.client ?? "", connection: connection,
                             cancellation: exchange.cancellation)
        guard pipe.start() else {
            response = service.problem(Problem(.unavailable, detail: "the server is stopping and takes no new work"))
            return nil
        }
        exchange.setStage(.producing)
        return .batch(pipe)
    }

    /// The response, or a 503 when streaming it would take the bytes held for unsent answers over
    /// `--max-response-memory` (what a crowd of clients that do not read can pin). Bodies written
    /// whole are at most the streaming threshold (64 KiB) each, bounded by the connection limit,
    /// and always go out: a small answer is never refused for a crowd's large ones.
    private func withinMemoryBudget(_ response: consuming HTTPResponse, _ exchange: Exchange) -> HTTPResponse {
        let retained: Int
        if let stream = response.stream {
            retained = stream.retainedBytes
        } else if let batch = response.batch {
            retained = batch.body.bytes.count + BatchPipe.capacity
        } else {
            return consume response
        }
        let held = StreamReader.heldBytes(gzip: response.gzipsStream) + retained
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
        if answer.bodyBytes != 0 { bodyMemory.release(answer.bodyBytes) }
        let now = MonotonicClock.now()
        service.observe(exchange, answer: answer, finishedAt: now, completed: termination == .REQUEST_TERMINATED_COMPLETED_OK)
        guard let client = exchange.connection else { return }
        client.state.withLock { state in
            if case .inRequest = state.phase { state.phase = .awaitingRequest(since: now) }
        }
        client.requestBegun.store(false, ordering: .relaxed)
    }

    /// A connection opened: it gets its record, with a duplicate of its socket. Over the total
    /// limit, a connection of an address that holds many more is closed to make room for it
    /// (`ConnectionTable.makeRoom`); else it is closed at once (libmicrohttpd reads end-of-file),
    /// rather than left to wait.
    func opened(_ connection: OpaquePointer, context: UnsafeMutablePointer<UnsafeMutableRawPointer?>) {
        let socket = segue_mhd_connection_fd(connection)
        let client = ClientConnection(socket: socket >= 0 ? fcntl(socket, F_DUPFD_CLOEXEC, 0) : -1,
                                      client: SocketAddress.host(of: segue_mhd_client_address(connection)),
                                      now: MonotonicClock.now())
        context.pointee = Unmanaged.passRetained(client).toOpaque()
        connections.insert(client)
        service.metrics.connectionOpened()
        guard connections.count > Int(listen.connectionLimit) else { return }
        (connections.makeRoom(for: client) ?? client).close()
    }

    /// A connection closed: its duplicate socket is closed, or lingers after a refused body.
    func closed(context: UnsafeMutablePointer<UnsafeMutableRawPointer?>) {
        guard let existing = context.pointee else { return }
        context.pointee = nil
        let client = Unmanaged<ClientConnection>.fromOpaque(existing).takeRetainedValue()
        connections.remove(client)
        service.metrics.connectionClosed()
        guard client.socket >= 0 else { return }
        if client.state.withLock({ state in
            state.released = true
            return state.lingers
        }) {
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

/// The state of one streamed body: its pieces, written on demand or taken from a batch's pipe
/// (and gzip-coded when asked), and the bytes not yet handed to libmicrohttpd. It holds one piece
/// at a time.
final class StreamReader {
    enum Source {
        case sections(SectionedBody)
        case batch(BatchPipe)
    }

    let source: Source
    let exchange: Exchange
    let gzip: Compression.Stream?
    var cursor = SectionedBody.Cursor()
    var writer = TextWriter(capacity: SectionedBody.pieceBytes + (SectionedBody.pieceBytes >> 2))
    var coded: [UInt8] = []
    var offset = 0
    var finished = false
    /// Bytes given to zlib since its last flush (a batch's stream is flushed whenever the pipe is
    /// empty, so every answer line computed so far reaches the client).
    var unflushed = false

    init(_ source: Source, gzip: Bool, exchange: Exchange) {
        self.source = source
        self.exchange = exchange
        self.gzip = gzip ? Compression.Stream() : nil
    }

    deinit {
        if case .batch(let pipe) = source { pipe.close() }
    }

    /// Memory a stream holds besides its body's own: a piece, its coded form and zlib's state
    /// (deflate with a 32 KiB window and memLevel 8 takes about 256 KiB).
    static func heldBytes(gzip: Bool) -> Int {
        let piece = SectionedBody.pieceBytes + (SectionedBody.pieceBytes >> 2)
        return gzip ? 2 * piece + (256 << 10) : piece
    }

    /// What the next call to `refill` found.
    private enum Refill { case ready, end, later, failed }

    /// Copies up to `max` bytes into `buffer`: the count; 0 while a batch's next piece is being
    /// computed (the connection is then suspended); -1 at the end; -2 on an error (the connection
    /// is then closed: a chunked body without its last chunk, which no client takes for complete).
    func read(into buffer: UnsafeMutablePointer<CChar>, max: Int) -> Int {
        while offset == pending.count {
            offset = 0
            guard !finished else { return -1 }
            switch refill() {
            case .ready: continue
            case .end: return -1
            case .later: return 0
            case .failed: return -2
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

    private func refill() -> Refill {
        writer.bytes.removeAll(keepingCapacity: true)
        coded.removeAll(keepingCapacity: true)
        switch source {
        case .sections(let body):
            do throws(Problem) {
                return code(more: try body.writeNext(&cursor, into: &writer))
            } catch {
                return .failed
            }
        case .batch(let pipe):
            switch pipe.take(suspending: !unflushed) {
            case .bytes(let piece):
                writer.bytes = piece
                return code(more: true)
            case .empty:
                unflushed = false
                return gzip?.flush(into: &coded) == false ? .failed : .ready
            case .later: return .later
            case .end: return code(more: false)
            case .failed: return .failed
            }
        }
    }

    /// Codes the piece just written (or ends the member when `more` is false).
    private func code(more: Bool) -> Refill {
        guard let gzip else { return more ? .ready : .end }
        let coding = more ? gzip.write(writer.bytes, into: &coded) : gzip.finish(into: &coded)
        guard coding else { return .failed }
        unflushed = more
        finished = !more
        return .ready
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
