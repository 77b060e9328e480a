import CMicroHTTPD
import SegueCodec
import Synchronization
#if canImport(Glibc)
import Glibc
import SegueJSON
#endif

/// Where and how to listen.
public struct ListenConfiguration: Sendable {
    public var host = "127.0.0.1"
    /// 0 picks an ephemeral port (tests); `HTTPServer.port` tells which.
    public var port: UInt16 = 8080
    /// libmicrohttpd worker threads (an epoll thread pool; 1 = a single epoll thread).
    public var threads = 2
    /// Seconds an idle connection may stay open.
    public var connectionTimeout: UInt32 = 30
    /// Open connections at most (libmicrohttpd splits it across the worker threads).
    public var connectionLimit: UInt32 = 1000

    public init() {}
}

public struct ServerError: Error, CustomStringConvertible {
    public let description: String
}

/// The service on libmicrohttpd: an epoll thread pool calls back into Swift, one synchronous
/// handler per request (docs/http.md "Thread model": a response can only be queued from the thread that
/// owns the connection).
///
/// Request protocol: on the first call the declared `Content-Length` is checked and a 413 queued
/// at once when it is over the limit (libmicrohttpd then discards the body and sends no
/// `100 Continue`); body chunks are appended, and a chunked body that grows past the limit is
/// drained and answered 413; on the final call the service's pipeline answers. The body limit is
/// checked here and nowhere else.
public final class HTTPServer: Sendable {
    public let service: SegueService
    private let daemon = Mutex<DaemonHandle?>(nil)
    private let draining = Atomic<Bool>(false)
    private let inFlight = Atomic<Int>(0)

    struct DaemonHandle: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    public init(service: SegueService) {
        self.service = service
    }

    /// The bound port, once started.
    public var port: UInt16 {
        daemon.withLock { $0.map { segue_mhd_bound_port($0.pointer) } ?? 0 }
    }

    public func start(_ listen: ListenConfiguration) throws(ServerError) {
        var address = try SocketAddress(host: listen.host, port: listen.port)
        var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_USE_ITC.rawValue
            | MHD_USE_ERROR_LOG.rawValue
        if address.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        let context = Unmanaged.passUnretained(self).toOpaque()
        let started: OpaquePointer? = address.withSockaddr { sockaddr in
            var options: [MHD_OptionItem] = [
                MHD_OptionItem(option: .CONNECTION_TIMEOUT, value: Int(listen.connectionTimeout), ptr_value: nil),
                MHD_OptionItem(option: .CONNECTION_LIMIT, value: Int(listen.connectionLimit), ptr_value: nil),
                MHD_OptionItem(option: .CONNECTION_MEMORY_LIMIT, value: 32 * 1024, ptr_value: nil),
                MHD_OptionItem(option: .SOCK_ADDR, value: 0, ptr_value: UnsafeMutableRawPointer(mutating: sockaddr)),
                MHD_OptionItem(option: .NOTIFY_COMPLETED,
                               value: Int(bitPattern: unsafeBitCast(requestCompleted, to: UnsafeRawPointer.self)),
                               ptr_value: context),
            ]
            // A pool of 0 or 1 only logs a warning: leave the option out below 2.
            if listen.threads >= 2 {
                options.append(MHD_OptionItem(option: .THREAD_POOL_SIZE, value: listen.threads, ptr_value: nil))
            }
            options.append(MHD_OptionItem(option: .END, value: 0, ptr_value: nil))
            return options.withUnsafeMutableBufferPointer { buffer in
                segue_mhd_start(flags, listen.port, accessHandler, context, logMessage, nil, buffer.baseAddress)
            }
        }
        guard let started else {
            throw ServerError(description: "cannot listen on \(listen.host):\(listen.port) (see the log line above)")
        }
        daemon.withLock { $0 = DaemonHandle(pointer: started) }
    }

    /// Stops accepting, lets in-flight requests finish (up to `drainSeconds`), then stops the
    /// daemon (docs/http.md "Graceful shutdown"). Responses sent while draining carry `Connection: close`.
    public func shutdown(drainSeconds: Double = 10) {
        guard let handle = daemon.withLock({ current -> DaemonHandle? in
            defer { current = nil }
            return current
        }) else { return }
        draining.store(true, ordering: .releasing)
        let listener = MHD_quiesce_daemon(handle.pointer)
        var waited = 0.0
        while inFlight.load(ordering: .acquiring) > 0 && waited < drainSeconds {
            usleep(10_000)
            waited += 0.01
        }
        MHD_stop_daemon(handle.pointer)
        if listener >= 0 { close(listener) }
    }

    // MARK: Callbacks (called on libmicrohttpd's threads)

    /// One request's body as it arrives.
    final class RequestState {
        var body: [UInt8] = []
        var overLimit = false

        /// Appends a chunk, or drops the body for good once it would grow past `limit`.
        func receive(_ upload: UnsafePointer<CChar>, count: Int, limit: BodyLimit) {
            guard !overLimit else { return }
            guard limit.admits(body.count + count) else {
                overLimit = true
                body = []
                return
            }
            upload.withMemoryRebound(to: UInt8.self, capacity: count) {
                body.append(contentsOf: UnsafeBufferPointer(start: $0, count: count))
            }
        }
    }

    /// The request body limit (docs/rules.md "Conventions", §8 rule 31), checked here and nowhere else: a declared
    /// `Content-Length` over it is answered 413 before the body is read, and a body without one
    /// (chunked) is counted as it arrives and answered 413 once it grows past it.
    struct BodyLimit {
        let bytes: Int

        func admits(_ count: Int) -> Bool { count <= bytes }

        var problem: Problem { Problem.tooLarge("the body is over the limit of \(bytes) bytes") }
    }

    var bodyLimit: BodyLimit { BodyLimit(bytes: service.configuration.limits.maxBodyBytes) }

    fileprivate func access(_ connection: OpaquePointer, url: String, method: String,
                            upload: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>,
                            state slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> MHD_Result {
        guard let existing = slot.pointee else {
            // First call: headers only.
            if let declared = lookup(connection, MHD_ValueKind.HEADER_KIND, "Content-Length"),
               let length = Int(declared), !bodyLimit.admits(length) {
                return send(service.problem(bodyLimit.problem), on: connection)
            }
            inFlight.add(1, ordering: .relaxed)
            slot.pointee = Unmanaged.passRetained(RequestState()).toOpaque()
            return .YES
        }
        let state = Unmanaged<RequestState>.fromOpaque(existing).takeUnretainedValue()
        if uploadSize.pointee > 0 {
            if let upload { state.receive(upload, count: uploadSize.pointee, limit: bodyLimit) }
            uploadSize.pointee = 0
            return .YES
        }
        if state.overLimit {
            return send(service.problem(bodyLimit.problem), on: connection)
        }
        return send(service.respond(to: request(on: connection, method: method, url: url, body: state.body)),
                    on: connection)
    }

    /// The request the service sees: the headers and query arguments it reads, and the body.
    private func request(on connection: OpaquePointer, method: String, url: String, body: [UInt8]) -> HTTPRequest {
        var request = HTTPRequest(method: method, path: url, body: body)
        for name in HTTPRequest.readHeaders {
            if let value = lookup(connection, MHD_ValueKind.HEADER_KIND, name) { request.headers[name] = value }
        }
        for name in HTTPRequest.readQuery {
            if let value = lookup(connection, MHD_ValueKind.GET_ARGUMENT_KIND, name) { request.query[name] = value }
        }
        return request
    }

    fileprivate func completed(_ slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>?) {
        guard let slot, let existing = slot.pointee else { return }
        Unmanaged<RequestState>.fromOpaque(existing).release()
        slot.pointee = nil
        inFlight.subtract(1, ordering: .relaxed)
    }

    private func lookup(_ connection: OpaquePointer, _ kind: MHD_ValueKind, _ name: String) -> String? {
        MHD_lookup_connection_value(connection, kind, name).map { String(cString: $0) }
    }

    private func send(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
        let created: OpaquePointer?
        if let stream = response.stream {
            // Chunked: libmicrohttpd pulls pieces through `streamRead` as the socket drains.
            let reader = Unmanaged.passRetained(StreamReader(stream)).toOpaque()
            created = MHD_create_response_from_callback(UInt64.max, 1 << 16, streamRead, reader, streamFree)
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
        if draining.load(ordering: .relaxed) {
            _ = MHD_add_response_header(created, "Connection", "close")
        }
        let result = MHD_queue_response(connection, UInt32(response.status), created)
        MHD_destroy_response(created)
        return result
    }
}

/// The state of one streamed body: its pieces, written on demand, and the unsent bytes.
final class StreamReader {
    let body: SectionedBody
    var cursor = SectionedBody.Cursor()
    var writer = JSONWriter(capacity: 1 << 17)
    var offset = 0

    init(_ body: SectionedBody) { self.body = body }

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
        return count
    }
}

// C callbacks: plain functions with no captures; the server arrives through `cls`.

private let streamRead: MHD_ContentReaderCallback = { cls, _, buffer, max in
    guard let cls, let buffer else { return -2 }
    return Unmanaged<StreamReader>.fromOpaque(cls).takeUnretainedValue().read(into: buffer, max: max)
}

private let streamFree: MHD_ContentReaderFreeCallback = { cls in
    guard let cls else { return }
    Unmanaged<StreamReader>.fromOpaque(cls).release()
}

private let accessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, _, upload, uploadSize, slot in
    guard let cls, let connection, let uploadSize, let slot else { return .NO }
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    return server.access(connection, url: url.map { String(cString: $0) } ?? "/",
                         method: method.map { String(cString: $0) } ?? "GET",
                         upload: upload, uploadSize: uploadSize, state: slot)
}

private let requestCompleted: MHD_RequestCompletedCallback = { cls, _, slot, _ in
    guard let cls else { return }
    Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue().completed(slot)
}

private let logMessage: MHD_LogCallback = { _, format, arguments in
    guard let format, let arguments else { return }
    var buffer = [CChar](repeating: 0, count: 512)
    let written = vsnprintf(&buffer, buffer.count, format, arguments)
    guard written > 0 else { return }
    let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let line = "segue: libmicrohttpd: " + text.trimmingCharacters(in: "\n") + "\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
}
