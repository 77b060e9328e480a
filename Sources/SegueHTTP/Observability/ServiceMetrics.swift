import CoreMetrics
import Prometheus
import Synchronization

/// The service's metrics (docs/rules.md rule 30) and their Prometheus text exposition (0.0.4).
///
/// Each instance owns its own `PrometheusCollectorRegistry` and creates its metrics through
/// swift-metrics' API with an explicit `PrometheusMetricsFactory` over that registry — never through
/// `MetricsSystem.bootstrap` — so several servers in one process (the tests) count separately.
/// Thread-safe: every method may be called from any libmicrohttpd thread at once. Cost, release
/// build: `requestFinished` well under 1 µs (a lock and an `Int` lookup, atomics, the histogram's
/// lock); `render` about 0.1 ms.
///
/// | metric | type | labels |
/// |---|---|---|
/// | `segue_requests_total` | counter | `route`, `method`, `status` (see `MetricLabels`) |
/// | `segue_request_duration_seconds` | histogram, `durationBuckets` | `route` |
/// | `segue_response_bytes_total` | counter (body bytes sent) | `route` |
/// | `segue_cache_hits_total`, `segue_cache_misses_total` | counter | — |
/// | `segue_computed_requests_total` | counter | `thread` (`io`, `worker`) |
/// | `segue_inflight_requests` | gauge | — |
/// | `segue_open_connections` | gauge | — |
/// | `process_resident_memory_bytes` | gauge, sampled by `render` | — |
public final class ServiceMetrics: Sendable {
    /// The `Content-Type` of `render()`'s bytes.
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// Upper bounds of the duration histogram: 100 µs to 30 s, about three per decade (1, 2.5, 5),
    /// plus the implicit `+Inf`. A cached answer takes ~100 µs, a large render seconds, and the
    /// longest a request may run is bounded by the scene's work limits well under 30 s.
    ///
    /// In seconds, as `Double`: the histogram records the request's seconds as they are, where a
    /// `Duration` histogram converted each to nanoseconds and compared 128-bit values against every
    /// bound (docs/http.md "The duration histogram in seconds"). Each
    /// bound is written as Swift writes the double (`le="0.0001"`, `le="1.0"`): the same text as
    /// the `Duration` bounds'.
    public static let durationBuckets: [Double] = [
        0.0001, 0.00025, 0.0005,
        0.001, 0.0025, 0.005,
        0.01, 0.025, 0.05,
        0.1, 0.25, 0.5,
        1, 2.5, 5, 10, 30,
    ]

    private let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory
    /// Indexed like `RouteTable.service.matches`, by `RouteMatch.index`.
    /// The histograms as swift-metrics handlers, called directly: `Recorder.record` converts its
    /// argument through the generic `BinaryFloatingPoint` initialiser, a dynamic cast per request.
    private let durations: [any RecorderHandler]
    private let responseBytes: [CoreMetrics.Counter]
    /// `segue_requests_total` by `requestKey`, created on first use (statuses are not known ahead).
    private let requests = Mutex<[Int: CoreMetrics.Counter]>([:])
    private let cacheHits: CoreMetrics.Counter
    private let cacheMisses: CoreMetrics.Counter
    /// Indexed by `Thread.rawValue`.
    private let computed: [CoreMetrics.Counter]
    private let inflight: Meter
    private let openConnections: Meter
    private let residentMemory: Meter
    private let cpuSeconds: FloatingPointCounter
    private let openFDs: Meter
    private let queueDepth: Meter
    /// CPU seconds already added to `cpuSeconds` (a counter grows by what was used since).
    private let cpuCounted = Mutex(0.0)
    /// Where the worker queue's depth is read (set by the transport; nil without one).
    private let queueDepthSource = Mutex<(@Sendable () -> Int)?>(nil)

    /// The series by route are made for every route of `RouteTable.service` and for `unmatched`, in
    /// the table's order.
    public init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.valueHistogramBuckets = [MetricName.duration: Self.durationBuckets]
        self.factory = factory
        let routes = RouteTable.service.matches.map(\.label)
        durations = routes.map { factory.makeRecorder(label: MetricName.duration, dimensions: [("route", $0)], aggregate: true) }
        responseBytes = routes.map { CoreMetrics.Counter(label: MetricName.bytes, dimensions: [("route", $0)], factory: factory) }
        cacheHits = CoreMetrics.Counter(label: MetricName.cacheHits, factory: factory)
        cacheMisses = CoreMetrics.Counter(label: MetricName.cacheMisses, factory: factory)
        computed = Thread.allCases.map {
            CoreMetrics.Counter(label: MetricName.computed, dimensions: [("thread", $0.label)], factory: factory)
        }
        inflight = Meter(label: MetricName.inflight, factory: factory)
        openConnections = Meter(label: MetricName.openConnections, factory: factory)
        residentMemory = Meter(label: MetricName.residentMemory, factory: factory)
        cpuSeconds = FloatingPointCounter(label: MetricName.cpuSeconds, factory: factory)
        openFDs = Meter(label: MetricName.openFDs, factory: factory)
        queueDepth = Meter(label: MetricName.queueDepth, factory: factory)
        Meter(label: MetricName.startTime, factory: factory).set(ProcessStatistics.startTimeSeconds() ?? 0)
        Meter(label: MetricName.buildInfo, dimensions: [("version", BuildInfo.version), ("revision", BuildInfo.revision)],
              factory: factory).set(1)
    }

    /// Where `segue_worker_queue_depth` is read on each scrape (the transport's worker pool).
    func readQueueDepth(from source: @escaping @Sendable () -> Int) {
        queueDepthSource.withLock { $0 = source }
    }

    // MARK: Calls from the transport

    /// A request was accepted (its headers read): `segue_inflight_requests` + 1. Pair it with
    /// exactly one `requestFinished` or `requestAborted`.
    public func requestStarted() { inflight.increment() }

    /// A request was answered. `route` is a path, matched here (`RouteTable.service`: anything
    /// unknown counts as `unmatched`); `seconds` from the headers to the last byte queued; `bytes`
    /// the body bytes sent (0 for HEAD and 304).
    public func requestFinished(route: String, method: String, status: Int, seconds: Double, bytes: Int) {
        requestFinished(route: RouteTable.service.match(route), methodIndex: MetricLabels.methodIndex(method),
                        status: status, seconds: seconds, bytes: bytes)
    }

    /// `requestFinished` for a route already matched (the request's own match, found once).
    func requestFinished(route: RouteMatch, methodIndex: Int, status: Int, seconds: Double, bytes: Int) {
        inflight.decrement()
        requestCounter(route: route, methodIndex: methodIndex, status: status).increment()
        durations[route.index].record(max(0, seconds))
        responseBytes[route.index].increment(by: max(0, bytes))
    }

    /// A request that was started ended without an answer (the client went away).
    public func requestAborted() { inflight.decrement() }

    /// The threads a computing request (`POST /v1/curve`, `/v1/render`) may be answered on.
    public enum Thread: Int, CaseIterable, Sendable {
        /// The libmicrohttpd I/O thread that read it: a request estimated within `--inline-work`.
        case ioThread
        case worker

        var label: String { self == .ioThread ? "io" : "worker" }
    }

    /// A computing request is answered on `thread`.
    public func computed(on thread: Thread) { computed[thread.rawValue].increment() }

    public func cacheHit() { cacheHits.increment() }
    public func cacheMiss() { cacheMisses.increment() }
    public func connectionOpened() { openConnections.increment() }
    public func connectionClosed() { openConnections.decrement() }

    /// The exposition text for `GET /metrics`. Samples the process figures (`ProcessStatistics`)
    /// and the worker queue's depth first; when the
    /// transport passes `openConnections` (e.g. libmicrohttpd's current connection count), that
    /// value replaces the one kept by `connectionOpened`/`connectionClosed`.
    public func render(openConnections: Int? = nil) -> [UInt8] {
        if let resident = ProcessStatistics.residentBytes() { residentMemory.set(resident) }
        if let fds = ProcessStatistics.openFileDescriptors() { openFDs.set(fds) }
        if let depth = queueDepthSource.withLock({ $0 })?() { queueDepth.set(depth) }
        if let used = ProcessStatistics.cpuSeconds() {
            let added = cpuCounted.withLock { counted -> Double in
                defer { counted = max(counted, used) }
                return max(0, used - counted)
            }
            cpuSeconds.increment(by: added)
        }
        if let openConnections { self.openConnections.set(openConnections) }
        return MetricName.withHelpLines(registry.emitToBuffer())
    }

    // MARK: Internals

    private func requestCounter(route: RouteMatch, methodIndex: Int, status: Int) -> CoreMetrics.Counter {
        let statusCode = MetricLabels.statuses.contains(status) ? status : 0
        let key = route.index << 16 | methodIndex << 10 | statusCode
        return requests.withLock { counters in
            if let counter = counters[key] { return counter }
            // Labels in one fixed order: the registry tells series apart by the ordered list.
            let dimensions = [("route", route.label), ("method", MetricLabels.method(at: methodIndex)),
                              ("status", MetricLabels.status(status))]
            let counter = CoreMetrics.Counter(label: MetricName.requests, dimensions: dimensions, factory: factory)
            counters[key] = counter
            return counter
        }
    }
}
