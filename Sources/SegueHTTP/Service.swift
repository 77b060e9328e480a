import Logging
import SegueCodec
import Synchronization

/// Start-up settings of the service (docs/rules.md "Limits": every limit is configurable; CORS origin).
public struct ServiceConfiguration: Sendable {
    public var limits = Limits()
    /// `Access-Control-Allow-Origin`: `*`, or a comma-separated list of the origins echoed
    /// (`CORSMiddleware`).
    public var corsOrigin = "*"
    /// Responses kept for identical requests (0 turns the cache off) and their total body bytes.
    public var cacheEntries = 4096
    public var cacheBytes = 64 << 20
    /// Least severe log level written (rule 30); default `info`.
    public var logLevel = Logger.Level.info
    /// Where log lines go; standard error by default (tests capture them).
    public var logSink: RequestLog.Sink = RequestLog.standardError
    /// Bytes of `info` lines gathered before they go to `logSink` (`LogBuffer`; they also go every
    /// 100 ms, and `notice` and above at once); 0 hands every line over as it is written.
    /// 0…2^24, default 64 KiB.
    public var logBufferBytes = 64 << 10

    public init() {}
}

/// Whether the service accepts work (rule 31): `/readyz` is 503 from the moment draining begins.
public final class Readiness: Sendable {
    /// When draining began (monotonic ns), 0 while ready.
    private let drainStart = Atomic<UInt64>(0)

    public init() {}

    public var isDraining: Bool { drainStart.load(ordering: .acquiring) != 0 }

    /// When draining began (monotonic ns), or nil while ready.
    var drainingSince: UInt64? {
        let start = drainStart.load(ordering: .acquiring)
        return start == 0 ? nil : start
    }

    public func beginDraining() {
        _ = drainStart.compareExchange(expected: 0, desired: max(1, MonotonicClock.now()), ordering: .acquiringAndReleasing)
    }
}

/// Segue's HTTP semantics as a pipeline, a request in and a response out; the transport
/// (`HTTPServer`, libmicrohttpd) is elsewhere and also owns the body limit. The order is fixed:
///
///     CORS → Router (404 · OPTIONS preflight · 405 with Allow)
///          → conditional request (If-None-Match → 304) → response cache → entity tag → compression
///          → handler (curve, render, batch, tokens, presets, healthz, readyz, metrics, openapi.yaml, the playground)
///
/// Each stage is a `Middleware` with one job. Errors are `Problem`s, answered as problem+json where
/// they arise; only deterministic 200s are compressed, tagged and cached. A request's path is
/// matched once (`RouteTable`), and the router dispatches by that match. The transport reports
/// each finished exchange to `observe`, which logs and counts it by the same match (rule 30).
public struct SegueService: Sendable {
    public let configuration: ServiceConfiguration
    public let metrics: ServiceMetrics
    public let readiness = Readiness()
    public let logger: Logger
    /// The logger's handler, which the transport's request lines go to directly (no cast from
    /// the logger's existential handler for each).
    let requestLog: RequestLog
    /// Gathers the log lines, when `logBufferBytes` > 0; `flushLog()` writes them.
    let logBuffer: LogBuffer?
    let cache: ResponseCache
    let cors: CORSMiddleware
    /// The routes (`RouteTable.service`) with this service's handlers and middleware.
    let router: Router

    public init(configuration: ServiceConfiguration = ServiceConfiguration()) {
        self.configuration = configuration
        metrics = ServiceMetrics()
        let logBuffer = configuration.logBufferBytes > 0
            ? LogBuffer(capacity: configuration.logBufferBytes, output: configuration.logSink) : nil
        self.logBuffer = logBuffer
        let requestLog = RequestLog(level: configuration.logLevel,
                                    output: logBuffer.map { .buffer($0) } ?? .sink(configuration.logSink))
        self.requestLog = requestLog
        logger = Logger(label: "segue") { _ in requestLog }
        cache = ResponseCache(capacity: configuration.cacheEntries, byteLimit: configuration.cacheBytes)
        cors = CORSMiddleware(setting: configuration.corsOrigin)
        let middleware = MiddlewareChain([
            ConditionalRequestMiddleware(),
            ResponseCacheMiddleware(cache: cache, metrics: metrics),
            EntityTagMiddleware(),
            CompressionMiddleware(),
        ])
        router = Router(table: .service,
                        handlers: Handlers(limits: configuration.limits, readiness: readiness, metrics: metrics),
                        middleware: middleware)
    }

    /// The paths the service answers and their methods, for the OpenAPI coverage test.
    public static var paths: [String: [String]] {
        Dictionary(uniqueKeysWithValues: RouteTable.service.routes.map { ($0.path, $0.methods) })
    }

    /// The answer, with no bound on the work but the request limits, to a request that came without
    /// the transport: in a test, or from the command line. Its path is matched here.
    public func respond(to request: HTTPRequest) -> HTTPResponse {
        respond(to: request, route: route(of: request.path))
    }

    /// The answer on a worker to a request whose path matched `route`.
    func respond(to request: HTTPRequest, route: RouteMatch) -> HTTPResponse {
        respond(to: request, route: route, OnWorker())
    }

    /// The answer on an I/O thread when the route's estimated work is within `budget` units, or
    /// nil when it is dearer (or not estimated): then the request goes to a worker, which answers
    /// it from the start (docs/http.md "Thread model").
    func respond(to request: HTTPRequest, route: RouteMatch, withinWork budget: Double) -> HTTPResponse? {
        try? respond(to: request, route: route, OnIOThread(budget: budget))
    }

    private func respond<Admission: WorkAdmission>(to request: HTTPRequest, route: RouteMatch, _ admission: Admission)
        throws(Admission.Refusal) -> HTTPResponse {
        try cors.respond(to: request) { (request) throws(Admission.Refusal) in
            try router.respond(to: request, route: route, admission)
        }
    }

    /// A problem answered outside the router (the transport's refusals), with the CORS headers.
    public func problem(_ problem: Problem) -> HTTPResponse {
        cors.apply(to: HTTPResponse(problem: problem))
    }

    /// The route a path matches (`RouteTable.match`): found once per request, and carried with it.
    func route(of path: String) -> RouteMatch { router.table.match(path) }

    /// The same for a path given as its bytes (the transport's target).
    func route(of path: UnsafeRawBufferPointer) -> RouteMatch { router.table.match(path) }

    /// Where a request is answered (docs/http.md "Thread model").
    enum Placement {
        /// On the I/O thread: every request but a computing route's `POST`.
        case ioThread
        /// On the I/O thread when its estimated work is within the inline budget, else on a worker.
        case estimated
        /// On a worker.
        case worker
    }

    /// Read from the request's match: a plain value, with no second lookup of the path and no
    /// retain of the route, which every I/O thread shares.
    func placement(of request: HTTPRequest, route: RouteMatch) -> Placement {
        guard request.method == "POST", let kind = route.kind else { return .ioThread }
        switch kind {
        case .answer: return .ioThread
        case .estimate: return .estimated
        case .compute: return .worker
        }
    }

    /// Writes the log lines gathered so far (the transport calls it every supervisor round and
    /// when it stops).
    public func flushLog() {
        logBuffer?.flush()
    }

    /// Logs and counts a finished exchange (rule 30), with its answer as noted.
    func observe(_ exchange: Exchange, answer: Exchange.Answer, finishedAt now: UInt64, completed: Bool) {
        let seconds = Double(now &- exchange.started) / 1e9
        let status = answer.status == 0 ? 499 : answer.status
        let methodIndex = MetricLabels.methodIndex(exchange.method)
        metrics.requestFinished(route: exchange.route, methodIndex: methodIndex, status: status, seconds: seconds,
                                bytes: answer.bytes)
        requestLog.requestLine(.answered(
            id: exchange.requestID, method: MetricLabels.methodText(at: methodIndex), route: exchange.route, status: status,
            seconds: seconds, bytes: answer.bytes,
            cause: completed ? answer.cause : (answer.cause ?? "the connection ended before the answer was sent")))
    }
}
