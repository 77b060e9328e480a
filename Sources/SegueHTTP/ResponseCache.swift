import Synchronization

/// A bounded cache of recent successful responses. Every response is a pure function of the
/// request (docs/rules.md "Caching and CORS", determinism), so an identical request — same route, body, format choice
/// and content coding — can be answered from the bytes computed before. Holds at most `capacity`
/// entries and `byteLimit` bytes of request and response bodies together, evicting the oldest
/// first; streamed bodies are never kept. `capacity` 0 turns it off.
final class ResponseCache: Sendable {
    /// Everything the answer depends on: what the bytes are made from (`RepresentationSource`),
    /// `Accept`, `Content-Type` (each nil when absent: absent and empty differ) and whether gzip is
    /// accepted.
    struct Key: Hashable, Sendable {
        var source: RepresentationSource
        var accept: String?, contentType: String?
        var gzip: Bool
    }

    /// Request bodies larger than this are not cached (their key would be costly to keep).
    static let maxKeyBytes = 64 << 10

    private struct State {
        var entries: [Key: HTTPResponse] = [:]
        var order: [Key] = []
        var head = 0
        var bytes = 0
    }

    let capacity: Int
    let byteLimit: Int
    private let state = Mutex(State())

    init(capacity: Int, byteLimit: Int) {
        self.capacity = capacity
        self.byteLimit = byteLimit
    }

    /// What an entry holds: its response body and the request body in its key.
    static func cost(_ response: HTTPResponse, _ key: Key) -> Int { response.body.count + key.source.body.count }

    static func key(for request: HTTPRequest) -> Key? {
        guard request.body.count <= maxKeyBytes else { return nil }
        return Key(source: RepresentationSource(request), accept: request.headers[.accept],
                   contentType: request.headers[.contentType],
                   gzip: Negotiation.acceptsGzip(request.headers[.acceptEncoding]))
    }

    func lookup(_ key: Key) -> HTTPResponse? {
        state.withLock { $0.entries[key] }
    }

    func store(_ response: HTTPResponse, for key: Key) {
        guard capacity > 0, response.status == 200, response.isDeterministic, response.stream == nil,
              response.body.count <= byteLimit / 4 else { return }
        state.withLock { state in
            guard state.entries[key] == nil else { return }
            state.entries[key] = response
            state.order.append(key)
            state.bytes += Self.cost(response, key)
            while state.entries.count > capacity || state.bytes > byteLimit {
                let oldest = state.order[state.head]
                state.head += 1
                if let evicted = state.entries.removeValue(forKey: oldest) { state.bytes -= Self.cost(evicted, oldest) }
            }
            // Drop evicted keys from the queue once they are half of it.
            if state.head > 64 && state.head * 2 > state.order.count {
                state.order.removeFirst(state.head)
                state.head = 0
            }
        }
    }
}

/// Answers a `POST` from the cache when an identical request was answered before, and keeps
/// what the stages inside produce (tagged, possibly compressed 200s; `store` skips anything
/// else). Inside the conditional-request stage, so a cached answer still revalidates to 304.
struct ResponseCacheMiddleware: Middleware {
    let cache: ResponseCache
    /// Counts hits and misses (rule 30).
    let metrics: ServiceMetrics

    func respond<Failure: Error>(to request: HTTPRequest, next: (HTTPRequest) throws(Failure) -> HTTPResponse)
        throws(Failure) -> HTTPResponse {
        guard request.method == "POST", cache.capacity > 0, let key = ResponseCache.key(for: request) else {
            return try next(request)
        }
        if let cached = cache.lookup(key) {
            metrics.cacheHit()
            return cached
        }
        let response = try next(request)
        // Counted once answered: a request passed on to a worker comes through here again.
        metrics.cacheMiss()
        cache.store(response, for: key)
        return response
    }
}
