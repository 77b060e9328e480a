import CoreMetrics
import Prometheus
import Synchronization

/// The service's metrics (docs/rules.md rule 30) and their Prometheus text exposition (0.0.4).
///
/// Each instance owns its own `PrometheusCollectorRegistry` and creates its metrics through
/// swift-metrics' API with an explicit `PrometheusMetricsFactory` over that registry — never through
/// `MetricsSystem.bootstrap` — so several servers in one process (the tests) count separately.
/// Thread-safe: every method may be called from any thread at once. The per-request calls
/// (`requestStarted`, `requestFinished`, `requestAborted`, `computed`) only add to the calling
/// thread's own `Tally` (`ThreadSlot`), under a lock no other thread takes but to fold it: the
/// registry's counters, gauge and histograms are shared by every I/O thread, and writing them on
/// each request passed their cache lines between the cores (docs/http.md "Per-thread
/// observation"). `fold()` adds the tallies to the registry: the supervisor calls it every round
/// (100 ms), `render` before it writes, and a thread whose tally holds `foldAfter` durations
/// itself; so the exposition is exact when it is read. Cost, release build: a per-request call is
/// a lock and a few additions; `render` about 0.1 ms.
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
    public static let durationBuckets: [Duration] = [
        .microseconds(100), .microseconds(250), .microseconds(500),
        .milliseconds(1), .microseconds(2500), .milliseconds(5),
        .milliseconds(10), .milliseconds(25), .milliseconds(50),
        .milliseconds(100), .milliseconds(250), .milliseconds(500),
        .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10), .seconds(30),
    ]

    /// The bounded label sets.
    public let labels: MetricLabels

    private let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory
    /// Indexed like `labels.routes`.
    private let durations: [CoreMetrics.Timer]
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
    /// The threads' tallies, by `ThreadSlot.shard`.
    private let tallies: [TallyShard]

    /// Durations a thread's tally holds before that thread folds it (a bound on its memory when no
    /// supervisor folds, as in a test or the offline commands).
    static let foldAfter = 4096

    /// What one thread counted since the last fold.
    struct Tally: Sendable {
        var started = 0
        var ended = 0
        /// `segue_requests_total` by `requestKey`.
        var requests: [Int: Int] = [:]
        /// (route index, seconds) of each answered request, for the duration histograms.
        var durations: [(route: Int, seconds: Double)] = []
        /// Body bytes by route index.
        var bytes: [Int]
        /// Answered computing requests by `Thread.rawValue`.
        var computed = [0, 0]

        init(routes: Int) { bytes = Array(repeating: 0, count: routes) }
    }

    final class TallyShard: Sendable {
        let tally: Mutex<Tally>
        /// Room so that two shards never share a cache line (see `LogBuffer.Shard`).
        private let padding: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)

        init(routes: Int) { tally = Mutex(Tally(routes: routes)) }
    }

    /// - Parameter routes: the router's path templates (`Service.paths.keys`); `/metrics` is added.
    public init(routes: some Sequence<String>) {
        labels = MetricLabels(routes: routes)
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.durationHistogramBuckets = [MetricName.duration: Self.durationBuckets]
        self.factory = factory
        durations = labels.routes.map { CoreMetrics.Timer(label: MetricName.duration, dimensions: [("route", $0)], factory: factory) }
        responseBytes = labels.routes.map { CoreMetrics.Counter(label: MetricName.bytes, dimensions: [("route", $0)], factory: factory) }
        cacheHits = CoreMetrics.Counter(label: MetricName.cacheHits, factory: factory)
        cacheMisses = CoreMetrics.Counter(label: MetricName.cacheMisses, factory: factory)
        computed = Thread.allCases.map {
            CoreMetrics.Counter(label: MetricName.computed, dimensions: [("thread", $0.label)], factory: factory)
        }
        inflight = Meter(label: MetricName.inflight, factory: factory)
        openConnections = Meter(label: MetricName.openConnections, factory: factory)
        residentMemory = Meter(label: MetricName.residentMemory, factory: factory)
        tallies = (0..<ThreadSlot.shards).map { [routes = labels.routes.count] _ in TallyShard(routes: routes) }
    }

    // MARK: Calls from the transport

    /// A request was accepted (its headers read): `segue_inflight_requests` + 1. Pair it with
    /// exactly one `requestFinished` or `requestAborted`.
    public func requestStarted() { count { $0.started += 1 } }

    /// A request was answered. `route` is the matched template or the raw path (anything unknown
    /// counts as `unmatched`); `seconds` from the headers to the last byte queued; `bytes` the
    /// body bytes sent (0 for HEAD and 304).
    public func requestFinished(route: String, method: String, status: Int, seconds: Double, bytes: Int) {
        requestFinished(route: labels.route(of: route), method: method, status: status, seconds: seconds, bytes: bytes)
    }

    /// `requestFinished` for a route already looked up (the transport's, once per request).
    func requestFinished(route: MetricLabels.Route, method: String, status: Int, seconds: Double, bytes: Int) {
        let key = Self.requestKey(routeIndex: route.index, method: method, status: status)
        count { tally in
            tally.ended += 1
            tally.requests[key, default: 0] += 1
            tally.durations.append((route.index, max(0, seconds)))
            tally.bytes[route.index] += max(0, bytes)
        }
    }

    /// A request that was started ended without an answer (the client went away).
    public func requestAborted() { count { $0.ended += 1 } }

    /// The threads a computing request (`POST /v1/curve`, `/v1/render`) may be answered on.
    public enum Thread: Int, CaseIterable, Sendable {
        /// The libmicrohttpd I/O thread that read it: a request estimated within `--inline-work`.
        case ioThread
        case worker

        var label: String { self == .ioThread ? "io" : "worker" }
    }

    /// A computing request is answered on `thread`.
    public func computed(on thread: Thread) { count { $0.computed[thread.rawValue] += 1 } }

    public func cacheHit() { cacheHits.increment() }
    public func cacheMiss() { cacheMisses.increment() }
    public func connectionOpened() { openConnections.increment() }
    public func connectionClosed() { openConnections.decrement() }

    /// The exposition text for `GET /metrics`. Samples the resident memory first; when the
    /// transport passes `openConnections` (e.g. libmicrohttpd's current connection count), that
    /// value replaces the one kept by `connectionOpened`/`connectionClosed`.
    public func render(openConnections: Int? = nil) -> [UInt8] {
        fold()
        if let resident = ProcessMemory.residentBytes() { residentMemory.set(resident) }
        if let openConnections { self.openConnections.set(openConnections) }
        return MetricName.withHelpLines(registry.emitToBuffer())
    }

    // MARK: Internals

    /// Adds the threads' tallies to the registry and empties them.
    public func fold() {
        for shard in tallies { fold(shard) }
    }

    /// Counts into the calling thread's tally; folds it when it holds `foldAfter` durations.
    private func count(_ change: (inout Tally) -> Void) {
        let shard = tallies[ThreadSlot.shard]
        let full = shard.tally.withLock { tally in
            change(&tally)
            return tally.durations.count >= Self.foldAfter
        }
        if full { fold(shard) }
    }

    /// One shard's tally into the registry, the shard left empty.
    private func fold(_ shard: TallyShard) {
        var tally = Tally(routes: labels.routes.count)
        shard.tally.withLock { swap(&$0, &tally) }
        let net = tally.started - tally.ended
        if net > 0 { inflight.increment(by: Double(net)) } else if net < 0 { inflight.decrement(by: Double(-net)) }
        for (key, count) in tally.requests { requestCounter(key).increment(by: count) }
        for (route, seconds) in tally.durations { durations[route].recordSeconds(seconds) }
        for (route, bytes) in tally.bytes.enumerated() where bytes > 0 { responseBytes[route].increment(by: bytes) }
        for (thread, count) in tally.computed.enumerated() where count > 0 { computed[thread].increment(by: count) }
    }

    /// The key of a request's `segue_requests_total` series: route, method and status, packed.
    private static func requestKey(routeIndex: Int, method: String, status: Int) -> Int {
        routeIndex << 16 | MetricLabels.methodIndex(method) << 10 | (MetricLabels.statuses.contains(status) ? status : 0)
    }

    private func requestCounter(_ key: Int) -> CoreMetrics.Counter {
        let routeIndex = key >> 16, methodIndex = key >> 10 & 0x3F, statusCode = key & 0x3FF
        return requests.withLock { counters in
            if let counter = counters[key] { return counter }
            // Labels in one fixed order: the registry tells series apart by the ordered list.
            let method = methodIndex < MetricLabels.methods.count ? MetricLabels.methods[methodIndex] : MetricLabels.other
            let dimensions = [("route", labels.routes[routeIndex]), ("method", method),
                              ("status", MetricLabels.status(statusCode))]
            let counter = CoreMetrics.Counter(label: MetricName.requests, dimensions: dimensions, factory: factory)
            counters[key] = counter
            return counter
        }
    }
}
