import CMicroHTTPD
import SegueCodec
import SegueEngine
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Where and how to listen, and the transport's bounds (docs/rules.md rule 31, docs/http.md).
public struct ListenConfiguration: Sendable {
    public var host = "127.0.0.1"
    /// 0 picks an ephemeral port (tests); `HTTPServer.port` tells which.
    public var port: UInt16 = 8080
    /// libmicrohttpd's I/O threads (an epoll thread pool; 1 = a single epoll thread); 1…256, default 2.
    public var threads = 2
    /// Threads that compute `/v1/curve` and `/v1/render`; 1…256, default 2 (one per core).
    public var workers = 2
    /// Most estimated work, in work units (about a nanosecond of one core; docs/cost.md), of a
    /// computing request answered on the I/O thread that read it instead of a worker: a cheap
    /// curve then costs no hand-over between threads. 0 sends every computing request to a worker;
    /// 0…10^9, default 200,000 (0.2 ms, which an I/O thread may spend without keeping its other
    /// connections waiting noticeably).
    public var inlineWork = 200_000.0
    /// Request bodies larger than this are not read on an I/O thread: reading them (and, for one
    /// found too dear, reading them again on a worker) costs more than the hand-over saves.
    public static let inlineBodyBytes = 16 << 10
    /// Requests waiting for a worker at most, beyond which a request is answered 503 at once;
    /// default 64 per worker.
    public var queueCapacity = 128
    /// Seconds a connection may stay without progress (libmicrohttpd's inactivity timeout; it also
    /// ends a client that stops reading a reply); 1…86400, default 30.
    public var connectionTimeout: UInt32 = 30
    /// Seconds to a complete request header, from a connection's opening or its previous response;
    /// a trickle does not extend it. 0.1…3600, default 10.
    public var headerTimeout = 10.0
    /// Seconds a request may wait for and use a worker, from the moment its body is complete; past it
    /// the work stops and the answer is 503. 0.1…3600, default 10.
    public var requestTimeout = 10.0
    /// The body deadline (docs/http.md "Connections"): a request body must be complete within this
    /// many seconds of its head, plus one second for every `bodyMinRate` bytes received, or the
    /// request is answered 408 and its connection closed. 0.1…3600, default 10.
    public var bodyTimeout = 10.0
    /// Bytes a second a body must average, after `bodyTimeout`, to keep its connection; 0 holds the
    /// whole body to `bodyTimeout`. Default 500 (Apache's `mod_reqtimeout` minimum rate).
    public var bodyMinRate = 500
    /// Bytes of request bodies held at most, over every connection, while they arrive and until
    /// their requests complete; past it a request is answered 503. Default 64 MiB.
    public var bodyMemoryLimit = 64 << 20
    /// Open connections at most (libmicrohttpd splits it across the I/O threads); default 1000.
    public var connectionLimit: UInt32 = 1000
    /// Open connections per client address at most; default 100.
    public var connectionLimitPerClient: UInt32 = 100
    /// Bytes held at most for answers not yet sent — bodies in memory and streams' pieces — over
    /// every connection; past it an answer is 503. Default 64 MiB.
    public var responseMemoryLimit = 64 << 20

    public init() {}
}

public struct ServerError: Error, CustomStringConvertible {
    public let description: String
}

/// The service on libmicrohttpd (docs/http.md). libmicrohttpd's epoll threads do the I/O and answer
/// the cheap routes at once; the computing routes run on a `WorkerPool` while their connection is
/// suspended; a `Supervisor` thread enforces the header deadline, cancels work nobody waits for,
/// closes idle connections while draining and lingers after a refused body.
///
/// Per request (docs/http.md "Request protocol"): the first call carries the headers and is where a
/// request is refused before its body (bad target, `Content-Length` with `Transfer-Encoding`, a
/// declared length over the limit); body chunks are appended, and a body that grows past the limit
/// is refused at once; the final call dispatches. The body limit is checked here and nowhere else.
public final class HTTPServer: Sendable {
    public let service: SegueService
    let listen: ListenConfiguration
    private let daemon = Mutex<DaemonHandle?>(nil)
    let connections = ConnectionTable()
    let pool: WorkerPool
    let supervisor: Supervisor
    let heldBytes: MemoryBudget
    /// Request bodies held (`--max-body-memory`).
    let bodyMemory: MemoryBudget

    struct DaemonHandle: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    public init(service: SegueService, listen: ListenConfiguration = ListenConfiguration()) {
        self.service = service
        self.listen = listen
        let pool = WorkerPool(threads: listen.workers, capacity: listen.queueCapacity)
        self.pool = pool
        service.metrics.readQueueDepth { pool.waiting }
        let readiness = service.readiness
        let budget = MemoryBudget(limit: listen.responseMemoryLimit)
        heldBytes = budget
        bodyMemory = MemoryBudget(limit: listen.bodyMemoryLimit)
        // When nothing is under way, glibc is asked to give freed memory back to the system: the
        // memory a burst of large answers used would otherwise stay in malloc's arenas.
        supervisor = Supervisor(settings: Supervisor.Settings(headerTimeout: listen.headerTimeout,
                                                              bodyPace: BodyPace(grace: listen.bodyTimeout, minRate: listen.bodyMinRate)),
                                table: connections, drainingSince: { readiness.drainingSince },
                                eachRound: { [service] in service.flushLog() },
                                whenQuiet: { if budget.inUse == 0 { _ = malloc_trim(0) } },
                                refuseBody: { [service] in HTTPServer.refuseMidBody($0, $1, $2, service: service) })
    }

    /// The bound port, once started.
    public var port: UInt16 {
        daemon.withLock { $0.map { segue_mhd_bound_port($0.pointer) } ?? 0 }
    }

    public func start() throws(ServerError) {
        var address = try SocketAddress(host: listen.host, port: listen.port)
        var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_USE_ITC.rawValue
            | MHD_USE_ERROR_LOG.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
        // Dual stack (IPV6_V6ONLY off): `::` also takes IPv4 clients, as ::ffff:a.b.c.d; a specific
        // IPv6 address such as ::1 still takes only its own.
        if address.isIPv6 { flags |= MHD_USE_DUAL_STACK.rawValue }
        let context = Unmanaged.passUnretained(self).toOpaque()
        let started: OpaquePointer? = address.withSockaddr { sockaddr in
            var options = daemonOptions(context: context)
            options.insert(MHD_OptionItem(option: .SOCK_ADDR, value: 0, ptr_value: UnsafeMutableRawPointer(mutating: sockaddr)),
                           at: 0)
            return options.withUnsafeMutableBufferPointer { buffer in
                segue_mhd_start(flags, listen.port, accessHandler, context, logMessage, context, buffer.baseAddress)
            }
        }
        guard let started else {
            throw ServerError(description: "cannot listen on \(listen.host):\(listen.port) (see the log line above)")
        }
        daemon.withLock { $0 = DaemonHandle(pointer: started) }
        supervisor.start()
    }

    /// libmicrohttpd's options: limits, timeouts and the callbacks (docs/http.md "Connections").
    private func daemonOptions(context: UnsafeMutableRawPointer) -> [MHD_OptionItem] {
        func callback<T>(_ function: T) -> Int { Int(bitPattern: unsafeBitCast(function, to: UnsafeRawPointer.self)) }
        var options: [MHD_OptionItem] = [
            MHD_OptionItem(option: .CONNECTION_TIMEOUT, value: Int(listen.connectionTimeout), ptr_value: nil),
            // Twice the limit: libmicrohttpd splits its limit across the I/O threads and, over it,
            // leaves new connections waiting in the listen backlog; `opened` refuses them instead.
            MHD_OptionItem(option: .CONNECTION_LIMIT, value: 2 * Int(listen.connectionLimit), ptr_value: nil),
            MHD_OptionItem(option: .PER_IP_CONNECTION_LIMIT, value: Int(listen.connectionLimitPerClient), ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_MEMORY_LIMIT, value: 32 * 1024, ptr_value: nil),
            MHD_OptionItem(option: .NOTIFY_COMPLETED, value: callback(requestCompleted), ptr_value: context),
            MHD_OptionItem(option: .NOTIFY_CONNECTION, value: callback(connectionNotified), ptr_value: context),
            MHD_OptionItem(option: .UNESCAPE_CALLBACK, value: callback(unescapeTarget), ptr_value: context),
            MHD_OptionItem(option: .URI_LOG_CALLBACK, value: callback(requestLineRead), ptr_value: context),
        ]
        // A pool of 0 or 1 only logs a warning: leave the option out below 2.
        if listen.threads >= 2 {
            options.append(MHD_OptionItem(option: .THREAD_POOL_SIZE, value: listen.threads, ptr_value: nil))
        }
        options.append(MHD_OptionItem(option: .END, value: 0, ptr_value: nil))
        return options
    }

    /// The graceful stop of rule 31 (docs/http.md "Graceful shutdown"): `/readyz` turns 503, the
    /// listening socket closes (new connections are refused), idle connections are closed, requests
    /// in flight are answered with `Connection: close`; work still running when less than
    /// min(1 s, 20 %) of `drainSeconds` is left is cancelled (its client gets a complete 503 in the
    /// time that is left), and the daemon stops.
    public func shutdown(drainSeconds: Double = 10) {
        guard let handle = daemon.withLock({ current -> DaemonHandle? in
            defer { current = nil }
            return current
        }) else { return }
        service.readiness.beginDraining()
        let listener = MHD_quiesce_daemon(handle.pointer)
        if listener >= 0 { close(listener) }
        let start = MonotonicClock.now()
        let end = start &+ MonotonicClock.nanoseconds(drainSeconds)
        waitForConnections(until: end &- MonotonicClock.nanoseconds(min(1, drainSeconds * 0.2)))
        for connection in connections.all {
            if case .inRequest(let exchange) = connection.phase { exchange.cancellation.cancel() }
        }
        // Every suspended connection is resumed once its job ends (libmicrohttpd must not stop with
        // one suspended); the answers of cancelled work then get the time that is left to go out.
        pool.stop()
        waitForConnections(until: end)
        MHD_stop_daemon(handle.pointer)
        supervisor.stop()
        service.flushLog()
    }
}

extension HTTPServer {
    /// Waits until every connection has closed or the monotonic clock reaches `deadline`.
    func waitForConnections(until deadline: UInt64) {
        while connections.count > 0 && MonotonicClock.now() < deadline {
            usleep(10_000)
        }
    }
}

// C callbacks: plain functions with no captures; the server arrives through `cls`.

private let accessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, version, upload, uploadSize, slot in
    guard let cls, let connection, let uploadSize, let slot else { return .NO }
    // `_withUnsafeGuaranteedRef`: the server outlives its daemon, so no retain and release of the
    // one object both I/O threads share (an atomic on a contended cache line, twice a request).
    return Unmanaged<HTTPServer>.fromOpaque(cls)._withUnsafeGuaranteedRef { server in
        server.access(connection, url: url, method: method, version: version, upload: upload, uploadSize: uploadSize, state: slot)
    }
}

private let requestCompleted: MHD_RequestCompletedCallback = { cls, _, slot, termination in
    guard let cls else { return }
    Unmanaged<HTTPServer>.fromOpaque(cls)._withUnsafeGuaranteedRef { $0.completed(slot, termination: termination) }
}

private let connectionNotified: MHD_NotifyConnectionCallback = { cls, connection, context, event in
    guard let cls, let connection, let context else { return }
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    if event == .CONNECTION_NOTIFY_STARTED {
        server.opened(connection, context: context)
    } else {
        server.closed(context: context)
    }
}

/// `MHD_OPTION_URI_LOG_CALLBACK`'s function (the header declares no type for it).
private typealias RequestLineCallback = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?)
    -> UnsafeMutableRawPointer?

/// A request line arrived: the connection is no longer idle (draining leaves it to be answered).
/// Returns no per-request state, so the access handler still sees its first call as such.
private let requestLineRead: RequestLineCallback = { _, _, connection in
    if let connection, let context = segue_mhd_socket_context(connection) {
        // The record outlives its socket context, so it is used without a retain and a release
        // (two atomics on every request).
        Unmanaged<ClientConnection>.fromOpaque(context)._withUnsafeGuaranteedRef { $0.requestBegun.store(true, ordering: .relaxed) }
    }
    return nil
}

/// `MHD_OPTION_UNESCAPE_CALLBACK`'s function (the header declares no type for it).
private typealias UnescapeCallback = @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<CChar>?) -> Int

private let unescapeTarget: UnescapeCallback = { _, connection, text in
    guard let text else { return 0 }
    let (length, valid) = TargetUnescaping.unescape(text)
    if !valid, let connection, let context = segue_mhd_socket_context(connection) {
        Unmanaged<ClientConnection>.fromOpaque(context).takeUnretainedValue().state.withLock { $0.targetRejected = true }
    }
    return length
}

/// libmicrohttpd's own messages, as log lines at `warning`.
private let logMessage: MHD_LogCallback = { cls, format, arguments in
    guard let cls, let format, let arguments else { return }
    var buffer = [CChar](repeating: 0, count: 512)
    let written = vsnprintf(&buffer, buffer.count, format, arguments)
    guard written > 0 else { return }
    let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue().service.logger
        .warning("libmicrohttpd: \(text.trimmingCharacters(in: "\n"))")
}
