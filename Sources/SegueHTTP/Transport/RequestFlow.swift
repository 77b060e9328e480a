import CMicroHTTPD
import SegueCodec
import SegueEngine
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The access handler's steps for one request (docs/http.md "Request protocol"), on the
/// libmicrohttpd thread that owns the connection, but `compute`, which runs on a worker.
extension HTTPServer {
    /// The request body limit (docs/rules.md "Conventions", rule 31), checked here and nowhere else.
    struct BodyLimit {
        let bytes: Int

        func admits(_ count: Int) -> Bool { count <= bytes }

        var problem: Problem { Problem.tooLarge("the body is over the limit of \(bytes) bytes") }
    }

    /// A batch's body has its own limit (`--max-batch-body`, rule 37); every other route's is `--max-body`.
    func bodyLimit(_ route: RouteMatch) -> BodyLimit {
        BodyLimit(bytes: service.bodyLimit(path: route.label))
    }

    /// One access-handler call. The target and method arrive as C strings and are made Swift
    /// strings once, on the first call: the exchange keeps them, with the route the target matched,
    /// which every later step reads (docs/http.md "One route table, matched once").
    func access(_ connection: OpaquePointer, url: UnsafePointer<CChar>?, method: UnsafePointer<CChar>?,
                version: UnsafePointer<CChar>?, upload: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>,
                state slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> MHD_Result {
        guard let existing = slot.pointee else {
            return begin(connection, target: target(url), method: method.map { String(cString: $0) } ?? "GET",
                         version: version, slot: slot)
        }
        // The slot holds a reference to the exchange until `completed` takes it back, so it is used
        // here without a retain and a release (two atomics on each of the request's later calls).
        return Unmanaged<Exchange>.fromOpaque(existing)._withUnsafeGuaranteedRef { exchange in
            if uploadSize.pointee > 0 {
                defer { uploadSize.pointee = 0 }
                guard let upload else { return .YES }
                return receive(upload, count: uploadSize.pointee, exchange, connection)
            }
            switch exchange.stage {
            case .receiving:
                return dispatch(exchange, connection)
            case .answered(let response):
                return send(response, exchange, on: connection)
            case .refused, .abandoned:
                return .NO
            case .computing, .producing:
                return .YES
            }
        }
    }

    /// First call, the headers only: the exchange starts, and a request that must be refused
    /// before its body is answered now.
    private func begin(_ connection: OpaquePointer, target: (path: String, route: RouteMatch), method: String,
                       version: UnsafePointer<CChar>?, slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> MHD_Result {
        let client = segue_mhd_socket_context(connection).map { Unmanaged<ClientConnection>.fromOpaque($0).takeUnretainedValue() }
        var request = HTTPRequest(method: method, path: target.path, body: [])
        let head = RequestHead.read(connection, into: &request)
        let exchange = Exchange(requestID: RequestID.resolve(head.requestID), request: consume request,
                                route: target.route, started: MonotonicClock.now(), connection: client)
        slot.pointee = Unmanaged.passRetained(exchange).toOpaque()
        // One hold of the connection's lock: the request is under way, and was its target refused?
        let targetRejected = client?.state.withLock { state in
            state.phase = .inRequest(exchange)
            return state.targetRejected
        } ?? false
        service.metrics.requestStarted()
        guard let problem = refusalBeforeBody(head, targetRejected: targetRejected, version: version,
                                              limit: bodyLimit(target.route)) else { return .YES }
        // A body may follow that libmicrohttpd will not read: drop it after the answer instead of
        // resetting the connection.
        if (head.contentLength ?? 0) > 0 || head.hasTransferEncoding {
            client?.state.withLock { $0.lingers = true }
        }
        exchange.setStage(.refused)
        var response = service.problem(problem)
        response.headers.append(HeaderField("Connection", "close"))
        return send(response, exchange, on: connection)
    }

    /// The decoded path and the route it matches: the route's label when one matches its bytes,
    /// which then spell that label, so that no `String` is made and none hashed.
    private func target(_ url: UnsafePointer<CChar>?) -> (path: String, route: RouteMatch) {
        guard let url else { return ("/", service.route(of: "/")) }
        let route = service.route(of: UnsafeRawBufferPointer(start: url, count: strlen(url)))
        return (route.isKnown ? route.label : String(cString: url), route)
    }

    /// What refuses a request on its head alone (docs/http.md "Request target", "Early 413"):
    /// a target with a NUL or control byte, a head RFC 9112 refuses (a field name with whitespace,
    /// several `Host` fields), framing two parsers could read differently or that libmicrohttpd
    /// cannot read (`framingRefusal`), or a declared body over the limit.
    private func refusalBeforeBody(_ head: RequestHead, targetRejected: Bool, version: UnsafePointer<CChar>?,
                                   limit bodyLimit: BodyLimit) -> Problem? {
        if targetRejected {
            return Problem(.badRequest, detail: "the request target holds a NUL, a control character or bytes that are not UTF-8")
        }
        if head.nameHoldsSpace {
            return Problem(.badRequest, detail: "a header field name holds whitespace; none may come between a name and its colon")
        }
        if head.hostFields > 1 {
            return Problem(.badRequest, detail: "a request may carry one Host field, not several")
        }
        if let problem = framingRefusal(head, version: version) { return problem }
        if let declared = head.contentLength, !bodyLimit.admits(declared) {
            return bodyLimit.problem
        }
        return nil
    }

    /// The body's framing (RFC 9112 §6): `Content-Length` beside `Transfer-Encoding` (a request two
    /// parsers could frame differently), several `Content-Length` fields (libmicrohttpd reads the
    /// first and keeps the connection, so a second, different one would frame the body differently
    /// behind a proxy), a `Transfer-Encoding` other than `chunked` (`TransferCodings`: 400 when the
    /// body's end cannot be found, 501 for a coding Segue does not decode, which libmicrohttpd
    /// would read as a body that never ends), or `Transfer-Encoding` in an HTTP/1.0 request.
    private func framingRefusal(_ head: RequestHead, version: UnsafePointer<CChar>?) -> Problem? {
        if head.contentLengthFields > 0, head.hasTransferEncoding {
            return Problem(.badRequest, detail: "a request may not carry both Content-Length and Transfer-Encoding")
        }
        if head.contentLengthFields > 1 {
            return Problem(.badRequest, detail: "a request may carry one Content-Length field, not several")
        }
        switch head.transferCodings.verdict {
        case .absent:
            return nil
        case .unframed(let detail):
            return Problem(.badRequest, detail: detail)
        case .unsupported(let detail):
            return Problem(.notImplemented, detail: detail)
        case .chunked:
            guard let version, strcmp(version, "HTTP/1.0") == 0 else { return nil }
            return Problem(.badRequest, detail: "an HTTP/1.0 request may not carry Transfer-Encoding")
        }
    }

    /// A body chunk, counted in the body memory. Past the body limit, or when the body memory is
    /// spent, the request is refused at once: libmicrohttpd cannot queue a response while a body is
    /// arriving, so the answer is written to the socket here, the connection is dropped, and the
    /// supervisor reads and discards the rest (a lingering close).
    private func receive(_ upload: UnsafePointer<CChar>, count: Int, _ exchange: Exchange,
                         _ connection: OpaquePointer) -> MHD_Result {
        let bodyLimit = bodyLimit(exchange.route)
        let chunk = exchange.record.withLock { record -> BodyChunk in
            guard case .receiving = record.stage, let received = record.request?.body.count else { return .dropped }
            let problem: Problem
            if !bodyLimit.admits(received + count) {
                problem = bodyLimit.problem
            } else if !bodyMemory.reserve(count) {
                problem = Problem(.unavailable, detail: "the server holds too many request bodies; retry shortly")
            } else {
                record.bodyBytes += count
                upload.withMemoryRebound(to: UInt8.self, capacity: count) {
                    record.request?.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: count))
                }
                return .appended
            }
            record.stage = .refused
            record.request = nil
            return .refused(problem)
        }
        switch chunk {
        case .appended, .dropped:
            // Dropped: refused before, at an earlier chunk or by the supervisor, which then ends the
            // connection itself (closing it here could race its write of the answer).
            return .YES
        case .refused(let problem):
            if let client = exchange.connection { Self.refuseMidBody(problem, exchange, client, service: service) }
            return .NO
        }
    }

    /// What became of a body chunk: kept; dropped, the request having been refused before; or the
    /// reason the request is refused now.
    private enum BodyChunk {
        case appended, dropped, refused(Problem)
    }

    /// Writes `problem` straight onto the connection of a request whose body is arriving (a
    /// complete response with `Connection: close`), notes it for the log, and has the connection
    /// linger after libmicrohttpd closes it. Runs on the I/O thread, or on the supervisor's for a
    /// body past its deadline; while a body arrives libmicrohttpd writes nothing on the socket.
    /// A 503 (the body memory) says when to retry.
    static func refuseMidBody(_ problem: Problem, _ exchange: Exchange, _ client: ClientConnection, service: SegueService) {
        var response = service.problem(problem)
        response.headers.append(HeaderField("X-Request-Id", exchange.requestID.description))
        if problem.status == 503 { response.headers.append(HeaderField("Retry-After", "1")) }
        let bytes = DirectResponse.bytes(of: response, reason: problem.title)
        exchange.noteAnswer(status: response.status, bytes: bytes.count, cause: problem.status >= 500 ? problem.detail : nil)
        client.writeAndLinger(bytes)
    }

    /// The last call: the request complete, answered here when cheap, or handed to a worker while the
    /// connection is suspended (docs/http.md "Thread model").
    private func dispatch(_ exchange: Exchange, _ connection: OpaquePointer) -> MHD_Result {
        guard let request = exchange.takeRequest() else { return .NO }
        // The request timeout runs from here, the body complete (docs/http.md "Cancellation").
        exchange.deadline.store(MonotonicClock.now() &+ MonotonicClock.nanoseconds(listen.requestTimeout), ordering: .relaxed)
        switch service.placement(of: request, route: exchange.route) {
        case .ioThread:
            return send(service.respond(to: request, route: exchange.route), exchange, on: connection)
        case .estimated:
            if let response = answerInline(request, route: exchange.route) {
                service.metrics.computed(on: .ioThread)
                return send(response, exchange, on: connection)
            }
        case .worker:
            break
        }
        exchange.setStage(.computing)
        MHD_suspend_connection(connection)
        let handle = ConnectionHandle(pointer: connection)
        let submitted = pool.submit(client: exchange.connection?.client ?? "") { [self] in compute(request, exchange, handle) }
        if !submitted {
            exchange.setStage(.answered(service.problem(Problem(
                .unavailable, detail: "every worker is busy and \(listen.queueCapacity) requests are waiting; retry shortly"))))
            MHD_resume_connection(connection)
        }
        return .YES
    }

    /// A computing request small enough to be read here (`inlineBodyBytes`) and estimated within
    /// `--inline-work`, answered on this I/O thread; nil sends it to a worker.
    private func answerInline(_ request: HTTPRequest, route: RouteMatch) -> HTTPResponse? {
        guard listen.inlineWork > 0, request.body.count <= ListenConfiguration.inlineBodyBytes else { return nil }
        return service.respond(to: request, route: route, withinWork: listen.inlineWork)
    }

    /// On a worker: the answer, unless nobody waits for it any more.
    private func compute(_ request: HTTPRequest, _ exchange: Exchange, _ connection: ConnectionHandle) {
        service.metrics.computed(on: .worker)
        // Work cancelled while it runs stops with `Problem.cancelled`; work that finished is sent.
        let response = exchange.cancellation.isCancelled
            ? service.problem(Problem(.unavailable, detail: "the request waited longer than the request timeout of "
                                        + "\(listen.requestTimeout) s for a worker"))
            : service.respond(to: request, route: exchange.route)
        let gone = exchange.cancellation.isCancelled && exchange.connection?.peerHasClosed == true
        exchange.setStage(gone ? .abandoned : .answered(response))
        MHD_resume_connection(connection.pointer)
    }

}

/// A connection pointer carried to a worker (libmicrohttpd's `MHD_resume_connection` may be called
/// from any thread).
struct ConnectionHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}
